import { type CompanyInfo, type Settings, termsVersionDate } from "@app/contract";

/** The values a page's Markdown may name as {placeholder}: the site's settings and company info (spec §3). */
export function pageValues(
  company: CompanyInfo,
  settings: Pick<Settings, "name" | "domain" | "support_email" | "refund_days">,
  locale: string,
): Record<string, string> {
  return {
    company_name: company.name,
    company_address: company.address,
    company_city: company.city,
    company_country: countryName(company.country, locale),
    kvk: company.kvk,
    vat_numbers: company.vat_numbers.length > 0 ? company.vat_numbers.join(", ") : "–",
    support_email: settings.support_email,
    support_phone: company.support_phone,
    site_name: settings.name,
    domain: settings.domain,
    site: siteWithDomain(settings.name, settings.domain),
    refund_days: String(settings.refund_days),
    // Spec §9: the later of 2023-12-01 12:00 UTC and the company's added date, as a date in the page's language.
    terms_date: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(termsVersionDate(company)),
  };
}

/**
 * The site as the pages name it: "Amoria (amoria.example)". The domain only when it is a name a
 * visitor would recognise: a local or test run's address ("127.0.0.1", "localhost:3000") is not, and
 * the terms read "Amoria (127.0.0.1)" (issue #29).
 */
export function siteWithDomain(name: string, domain: string): string {
  const host = domain.trim().toLowerCase().replace(/:\d+$/, "");
  const named = /^(?=.*[a-z])[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(host);
  return named && host !== name.trim().toLowerCase() ? `${name} (${domain})` : name;
}

/** A two-letter country code ("NL") as its name in the locale ("Nederland"); anything else as it is. */
function countryName(country: string, locale: string): string {
  if (!/^[A-Z]{2}$/.test(country)) return country;
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(country) ?? country;
  } catch {
    return country;
  }
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Replaces each {name} in `text` by its value, HTML-escaped (the result is Markdown rendered to HTML).
 * Unknown names stay as they are, so a typo in a content file shows on the page and fails the tests.
 */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? "").replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c) : whole,
  );
}
