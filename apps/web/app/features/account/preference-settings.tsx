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
import { setHidePresence, setInvisible } from "./api";

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

/** A settings switch that follows the click at once, saves it, and goes back if the server refuses. */
function SavedSwitch({
  name,
  ids,
  value,
  save,
}: {
  name: "invisible" | "presence";
  /** Message ids: the section's title, the switch's label and its hint. */
  ids: { title: string; label: string; hint: string };
  value: boolean;
  save: (next: boolean) => Promise<User | null>;
}) {
  const intl = useIntl();
  const { setUser } = useMember();
  const [checked, setChecked] = useState(value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => setChecked(value), [value]);
  const toggle = async (next: boolean) => {
    setChecked(next);
    setBusy(true);
    setError("");
    try {
      const user = await save(next);
      if (user) setUser(user);
    } catch (caught) {
      setChecked(!next);
      setError(errorMessage(caught, intl));
    }
    setBusy(false);
  };
  return (
    <SettingsSection name={name} titleId={ids.title}>
      <FormAlert>{error}</FormAlert>
      <Form.Check
        type="switch"
        id={`settings-${name}`}
        label={intl.formatMessage({ id: ids.label })}
        checked={checked}
        disabled={busy}
        onChange={(event) => void toggle(event.target.checked)}
        aria-describedby={`settings-${name}-hint`}
      />
      <p id={`settings-${name}-hint`} className="form-text mb-0">
        <FormattedMessage id={ids.hint} />
      </p>
    </SettingsSection>
  );
}

/** Settings section: invisible mode (not shown in search and lists). */
export function InvisibleSettings({ user }: { user: User }) {
  const ids = { title: "settings.invisible_title", label: "settings.invisible_label", hint: "settings.invisible_hint" };
  return <SavedSwitch name="invisible" ids={ids} value={user.invisible} save={setInvisible} />;
}

/** Settings section (issue #29): hide the online status and last activity; hiding is mutual. */
export function PresenceSettings({ user }: { user: User }) {
  const ids = { title: "settings.presence_title", label: "settings.presence_label", hint: "settings.presence_hint" };
  return <SavedSwitch name="presence" ids={ids} value={user.hide_presence} save={setHidePresence} />;
}
