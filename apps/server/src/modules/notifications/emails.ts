import { type LocaleCode, nameValues } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";

/** The notification e-mails (one template per category; messages `email.notify.<template>.*`). */
export type NotificationTemplate =
  | { template: "new_conversation" | "new_messages"; name: string; count: number }
  | { template: "likes"; count: number }
  | { template: "match"; name: string }
  | { template: "unread_reminder"; count: number }
  | { template: "weekly"; count: number; names: string }
  | { template: "inactive" }
  | { template: "news" | "promotions"; title: string; text: string };

/**
 * A notification e-mail in the member's language, with the footer link to the notification settings.
 * Broadcasts (news, promotions) carry staff's own title and text between the translated frame.
 */
export function notificationEmail(
  input: NotificationTemplate & { locale: LocaleCode; site: string; recipient: string; link: string; settingsUrl: string },
): { subject: string; html: string; text: string } {
  const { locale } = input;
  const values: Record<string, string | number> = { site: input.site, name: input.recipient };
  // With `elide` the French "de {name}" becomes "d'Anna" (packages/contract/src/names.ts).
  if ("name" in input) Object.assign(values, nameValues(input.name));
  if ("count" in input) values.count = input.count;
  if ("names" in input) values.names = input.names;
  const m = (part: string) => t(locale, `email.notify.${input.template}.${part}`, values);
  const broadcast = input.template === "news" || input.template === "promotions";
  const subject = broadcast ? input.title : m("subject");
  const { html, text } = renderEmail({
    lang: locale,
    site: input.site,
    heading: broadcast ? input.title : m("heading"),
    paragraphs: [t(locale, "email.greeting", { name: input.recipient }), broadcast ? input.text : m("body")],
    button: { label: m("button"), url: input.link },
    footer: t(locale, "email.notify.footer", values),
    footerLink: { label: t(locale, "email.notify.footer_link", values), url: input.settingsUrl },
  });
  return { subject, html, text };
}
