import type { PaymentMethod } from "@app/contract";

/** SEPA countries among those the site serves or may be visited from (direct debit, bank transfer in euro). */
const SEPA = new Set([
  "AT",
  "BE",
  "BG",
  "CH",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MC",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
  "SM",
]);

/**
 * Where each method is offered (decision 021), after Mollie's own coverage: local methods in their
 * country and currency, cards, PayPal and Apple Pay everywhere (Apple Pay only where the browser can,
 * which the client checks), Paysafecard in euro, bank transfer and SEPA direct debit in SEPA countries
 * paying in euro. The order is the order of the method list: local first, then the general ones.
 */
const RULES: ReadonlyArray<{ method: PaymentMethod; countries?: ReadonlySet<string>; currencies: readonly string[] | "any" }> = [
  { method: "ideal", countries: new Set(["NL"]), currencies: ["EUR"] },
  { method: "bancontact", countries: new Set(["BE"]), currencies: ["EUR"] },
  { method: "kbc", countries: new Set(["BE"]), currencies: ["EUR"] },
  { method: "belfius", countries: new Set(["BE"]), currencies: ["EUR"] },
  { method: "eps", countries: new Set(["AT"]), currencies: ["EUR"] },
  { method: "blik", countries: new Set(["PL"]), currencies: ["PLN"] },
  { method: "przelewy24", countries: new Set(["PL"]), currencies: ["PLN", "EUR"] },
  { method: "twint", countries: new Set(["CH"]), currencies: ["CHF"] },
  { method: "creditcard", currencies: "any" },
  { method: "applepay", currencies: "any" },
  { method: "paypal", currencies: "any" },
  { method: "paysafecard", currencies: ["EUR", "GBP", "CHF", "PLN", "USD", "CAD", "AUD", "NZD"] },
  { method: "banktransfer", countries: SEPA, currencies: ["EUR"] },
  { method: "directdebit", countries: SEPA, currencies: ["EUR"] },
];

/** The methods offered for a payment country and currency, in the order to show them. */
export function methodsFor(country: string, currency: string): PaymentMethod[] {
  return RULES.filter(
    (rule) =>
      (!rule.countries || rule.countries.has(country)) && (rule.currencies === "any" || rule.currencies.includes(currency)),
  ).map((rule) => rule.method);
}

/** Whether direct debit (SEPA) may take money from an account in this IBAN country. */
export const isSepaCountry = (country: string): boolean => SEPA.has(country);
