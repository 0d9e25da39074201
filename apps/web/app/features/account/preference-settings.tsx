import { LOCALES, type LocaleCode, type User } from "@app/contract";
import { useEffect, useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { FormAlert } from "../../ui/form-alert";
import { useSwitchLocale } from "../../ui/language-switcher";
import { SelectField } from "../../ui/select-field";
import { SettingsSection } from "../../ui/settings-section";
import { setInvisible } from "./api";

/** Settings section: the interface language (cookie and account, spec §4). */
export function LanguageSettings({ current }: { current: LocaleCode }) {
  const intl = useIntl();
  const switchLocale = useSwitchLocale();
  const [saved, setSaved] = useState("");
  const choose = async (code: LocaleCode) => {
    await switchLocale(code);
    setSaved(LOCALES.find((l) => l.code === code)?.name ?? code);
  };
  return (
    <SettingsSection name="language" titleId="settings.language_title">
      <SelectField
        id="settings-language"
        className=""
        label={intl.formatMessage({ id: "settings.language_label" })}
        value={current}
        options={LOCALES.map((locale) => ({ value: locale.code, label: locale.name, lang: locale.code }))}
        onChange={(value) => void choose(value as LocaleCode)}
      />
      <p role="status" className="small text-success mt-2 mb-0">
        {saved ? <FormattedMessage id="language.saved" values={{ language: saved }} /> : null}
      </p>
    </SettingsSection>
  );
}

/** Settings section: invisible mode (not shown in search and lists). */
export function InvisibleSettings({ user }: { user: User }) {
  const intl = useIntl();
  const { setUser } = useMember();
  // The switch follows the click at once and goes back if the server refuses.
  const [checked, setChecked] = useState(user.invisible);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => setChecked(user.invisible), [user.invisible]);
  const toggle = async (invisible: boolean) => {
    setChecked(invisible);
    setBusy(true);
    setError("");
    try {
      const next = await setInvisible(invisible);
      if (next) setUser(next);
    } catch (caught) {
      setChecked(!invisible);
      setError(errorMessage(caught, intl));
    }
    setBusy(false);
  };
  return (
    <SettingsSection name="invisible" titleId="settings.invisible_title">
      <FormAlert>{error}</FormAlert>
      <Form.Check
        type="switch"
        id="settings-invisible"
        label={intl.formatMessage({ id: "settings.invisible_label" })}
        checked={checked}
        disabled={busy}
        onChange={(event) => void toggle(event.target.checked)}
        aria-describedby="settings-invisible-hint"
      />
      <p id="settings-invisible-hint" className="form-text mb-0">
        <FormattedMessage id="settings.invisible_hint" />
      </p>
    </SettingsSection>
  );
}
