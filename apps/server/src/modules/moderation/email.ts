import { isLocaleCode, type LocaleCode, type ModerationReason } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";

/** What was rejected: one of the member's photos, or their about text. */
export type ReviewedKind = "photo" | "about";

/**
 * The notice of a rejected photo or about text, in the member's language, with the reason from the fixed
 * list and a link to their profile (where the same reason stands beside the photo or the text).
 */
export function rejectionEmail(input: {
  kind: ReviewedKind;
  reason: ModerationReason;
  language: string;
  site: string;
  profileUrl: string;
}): { subject: string; html: string; text: string } {
  const locale: LocaleCode = isLocaleCode(input.language) ? input.language : "en";
  const values = { site: input.site, reason: t(locale, `moderation.reason.${input.reason}`) };
  const m = (part: string) => t(locale, `email.moderation.${input.kind}_${part}`, values);
  const { html, text } = renderEmail({
    lang: locale,
    site: input.site,
    heading: m("heading"),
    paragraphs: [m("body"), t(locale, "email.moderation.reason", values), t(locale, "email.moderation.next", values)],
    button: { label: t(locale, "email.moderation.button", values), url: input.profileUrl },
    footer: t(locale, "email.moderation.footer", values),
  });
  return { subject: m("subject"), html, text };
}
