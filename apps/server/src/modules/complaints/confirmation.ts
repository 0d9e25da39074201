import { LOCALE_CODES, type LocaleCode } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";
import type { ComplaintRow } from "./queries.ts";

/**
 * The confirmation of a complaint, with its reference and topic, in the complainant's language. It does
 * not repeat the description: a visitor's address is not verified, and the form must not become a way to
 * send one's own text to someone else's mailbox from the site.
 */
export function confirmationEmail(input: { complaint: ComplaintRow; site: string }): {
  subject: string;
  html: string;
  text: string;
} {
  const { complaint } = input;
  const locale: LocaleCode = (LOCALE_CODES as readonly string[]).includes(complaint.locale)
    ? (complaint.locale as LocaleCode)
    : "en";
  const values = {
    site: input.site,
    reference: complaint.reference,
    subject: t(locale, `complaints.subject.${complaint.subject}`),
  };
  const m = (part: string) => t(locale, `email.complaint.${part}`, values);
  const { html, text } = renderEmail({
    lang: locale,
    site: input.site,
    heading: m("heading"),
    paragraphs: [m("body"), m("reference"), m("next")],
    footer: m("footer"),
  });
  return { subject: m("subject"), html, text };
}
