import { LOCALES } from "@app/contract";
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useRootData } from "../lib/root-data";
import { useSuggestedLocales, useSwitchLocale } from "../ui/language-switcher";
import { PageTitle } from "../ui/page-title";

/** /lang-config: every interface language, with the ones suggested for the visitor's country first. */
export default function LanguageConfig() {
  const intl = useIntl();
  const root = useRootData();
  const switchLocale = useSwitchLocale();
  const suggested = new Set(useSuggestedLocales());
  const [status, setStatus] = useState("");
  const [selected, setSelected] = useState(root?.locale);
  if (!root) return null;
  const ordered = [...LOCALES].sort((a, b) => Number(suggested.has(b.code)) - Number(suggested.has(a.code)));
  return (
    <section className="container py-5" style={{ maxWidth: 640 }}>
      <PageTitle title={intl.formatMessage({ id: "title.language" })} />
      <h1 className="h2">
        <FormattedMessage id="language.page_title" />
      </h1>
      <p className="text-body-secondary">
        <FormattedMessage id="language.page_intro" values={{ site: root.settings.name }} />
      </p>
      <fieldset>
        <legend className="visually-hidden">
          <FormattedMessage id="language.label" />
        </legend>
        <div className="list-group">
          {ordered.map((locale) => (
            <label
              key={locale.code}
              className="list-group-item list-group-item-action d-flex align-items-center gap-3"
              lang={locale.code}
            >
              <input
                className="form-check-input m-0"
                type="radio"
                name="locale"
                value={locale.code}
                checked={(selected ?? root.locale) === locale.code}
                onChange={async () => {
                  setSelected(locale.code);
                  await switchLocale(locale.code);
                  setStatus(locale.name);
                }}
              />
              <span className="flex-grow-1">{locale.name}</span>
              {suggested.has(locale.code) ? (
                <span className="badge text-bg-light">
                  <FormattedMessage id="language.suggested" />
                </span>
              ) : null}
            </label>
          ))}
        </div>
      </fieldset>
      <p role="status" className="mt-3 text-success">
        {status ? <FormattedMessage id="language.saved" values={{ language: status }} /> : null}
      </p>
    </section>
  );
}
