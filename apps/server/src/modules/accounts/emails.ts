import { ACCOUNT_RULES, type LocaleCode } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";

export type AccountEmailKind = "activation" | "reset_password" | "mail_change" | "reactivation";

/**
 * The account e-mails, in the member's language (messages `email.<kind>.*` of the shared catalogue).
 * They are transactional: no List-Unsubscribe (a member cannot opt out of confirming an address).
 */
export function accountEmail(
  kind: AccountEmailKind,
  input: { locale: LocaleCode; site: string; name: string; link: string },
): { subject: string; html: string; text: string } {
  const values = {
    site: input.site,
    name: input.name,
    hours:
      kind === "reset_password"
        ? ACCOUNT_RULES.resetTokenHours
        : kind === "mail_change"
          ? ACCOUNT_RULES.mailChangeTokenHours
          : ACCOUNT_RULES.activationTokenHours,
    days: ACCOUNT_RULES.reactivationDays,
  };
  const m = (part: string) => t(input.locale, `email.${kind}.${part}`, values);
  const { html, text } = renderEmail({
    lang: input.locale,
    site: input.site,
    heading: m("heading"),
    paragraphs: [t(input.locale, "email.greeting", values), m("body"), m("ignore")],
    button: { label: m("button"), url: input.link },
    footer: t(input.locale, "email.footer", values),
  });
  return { subject: m("subject"), html, text };
}
