import { isLocaleCode, type LocaleCode } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";
import type { ComplaintRow } from "./queries.ts";
import type { AnswerRow } from "./queue-queries.ts";

/**
 * Staff's answer to a complaint (issue #27), in the complainant's language: the frame and the reference
 * in their locale, staff's own words as written.
 */
export function answerEmail(input: { complaint: ComplaintRow; answer: AnswerRow; site: string }): {
  subject: string;
  html: string;
  text: string;
} {
  const { complaint } = input;
  const locale: LocaleCode = isLocaleCode(complaint.locale) ? complaint.locale : "en";
  const values = { site: input.site, reference: complaint.reference };
  const m = (part: string) => t(locale, `email.complaint_answer.${part}`, values);
  const { html, text } = renderEmail({
    lang: locale,
    site: input.site,
    heading: m("heading"),
    paragraphs: [m("intro"), input.answer.text, m("reply")],
    footer: m("footer"),
  });
  return { subject: m("subject"), html, text };
}
