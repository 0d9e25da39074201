import { type CompanyInfo, LOCALE_CODES, type LocaleCode } from "@app/contract";
import { t } from "../../platform/i18n.ts";
import { renderEmail } from "../../platform/mailer.ts";
import type { PaymentRow } from "./queries.ts";

/**
 * The receipt of a paid order (issue #11), in the language the member paid in, with the seller's
 * particulars a receipt needs in the EU: company name, address, chamber of commerce and VAT numbers.
 */
export function receiptEmail(input: { payment: PaymentRow; name: string; site: string; link: string; company: CompanyInfo }): {
  subject: string;
  html: string;
  text: string;
} {
  const { payment, company } = input;
  const locale: LocaleCode = (LOCALE_CODES as readonly string[]).includes(payment.locale) ? (payment.locale as LocaleCode) : "en";
  const amount = new Intl.NumberFormat(locale, { style: "currency", currency: payment.currency }).format(
    payment.amountCents / 100,
  );
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(
    payment.paidAt ?? payment.createdAt,
  );
  const values = {
    site: input.site,
    name: input.name,
    id: payment.id,
    credits: payment.credits,
    amount,
    date,
    method: t(locale, `payments.method.${payment.method}`),
  };
  const m = (part: string) => t(locale, `email.receipt.${part}`, values);
  const seller = [
    company.name,
    company.address,
    [company.city, company.country].filter(Boolean).join(", "),
    company.kvk ? t(locale, "email.receipt.kvk", { kvk: company.kvk }) : "",
    ...company.vat_numbers.map((vat) => t(locale, "email.receipt.vat", { vat })),
  ].filter(Boolean);
  const { html, text } = renderEmail({
    lang: locale,
    site: input.site,
    heading: m("heading"),
    paragraphs: [t(locale, "email.greeting", values), m("body"), m("lines"), m("premium"), seller.join(" · ")],
    button: { label: m("button"), url: input.link },
    footer: t(locale, "email.footer", values),
  });
  return { subject: m("subject"), html, text };
}
