import { type PaymentMethod, paymentMethodSchema } from "@app/contract";
import { useIntl } from "react-intl";
import { useHydrated } from "../../lib/display-mode";

/**
 * Spec §1's payment methods as the member sees them: a name (`payments.method.<id>`, shared with the
 * server's sandbox page and receipts; brands keep their own names) and a small mark drawn inline (no
 * image downloads, no third-party logos).
 */
export function useMethodName(): (method: PaymentMethod) => string {
  const intl = useIntl();
  return (method) => intl.formatMessage({ id: `payments.method.${method}` });
}

/** The colours and letters of each mark (the brands' own colours, so that members recognise them). */
const MARKS: Record<PaymentMethod, { bg: string; fg: string; text: string }> = {
  ideal: { bg: "#cc0066", fg: "#fff", text: "iD" },
  bancontact: { bg: "#005498", fg: "#fff", text: "BC" },
  kbc: { bg: "#00aeef", fg: "#fff", text: "KBC" },
  belfius: { bg: "#c30045", fg: "#fff", text: "B" },
  eps: { bg: "#c8036f", fg: "#fff", text: "eps" },
  blik: { bg: "#000", fg: "#fff", text: "blik" },
  przelewy24: { bg: "#d13239", fg: "#fff", text: "P24" },
  twint: { bg: "#000", fg: "#fff", text: "TW" },
  creditcard: { bg: "#1a1f71", fg: "#fff", text: "" },
  applepay: { bg: "#000", fg: "#fff", text: "Pay" },
  paypal: { bg: "#003087", fg: "#fff", text: "PP" },
  paysafecard: { bg: "#008ac9", fg: "#fff", text: "psc" },
  banktransfer: { bg: "#495057", fg: "#fff", text: "" },
  directdebit: { bg: "#10298e", fg: "#ffcc00", text: "SEPA" },
};

/** A method's mark, 48×32, decorative (the name is always written next to it). */
export function MethodMark({ method }: { method: PaymentMethod }) {
  const mark = MARKS[method];
  return (
    <svg width="48" height="32" viewBox="0 0 48 32" aria-hidden="true" focusable="false" className="flex-shrink-0">
      <rect width="48" height="32" rx="5" fill={mark.bg} />
      {method === "creditcard" ? (
        <>
          <rect x="0" y="8" width="48" height="5" fill="#fff" opacity="0.8" />
          <rect x="7" y="19" width="14" height="3" rx="1" fill="#fff" />
          <rect x="24" y="19" width="8" height="3" rx="1" fill="#fff" />
        </>
      ) : method === "banktransfer" ? (
        <path d="M24 5 10 12v2h28v-2Zm-11 11v8h3v-8Zm7 0v8h3v-8Zm7 0v8h3v-8Zm7 0v8h3v-8ZM9 26v2h30v-2Z" fill={mark.fg} />
      ) : (
        <text
          x="24"
          y="21"
          textAnchor="middle"
          fontFamily="Arial, sans-serif"
          fontWeight="700"
          fontSize={mark.text.length > 3 ? 11 : 13}
          fill={mark.fg}
        >
          {mark.text}
        </text>
      )}
    </svg>
  );
}

/** A mark with the method's name beside it. */
export function MethodLabel({ method }: { method: PaymentMethod }) {
  const name = useMethodName();
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <MethodMark method={method} />
      <span>{name(method)}</span>
    </span>
  );
}

/** Safari's Apple Pay object, where the browser has one. */
interface ApplePayWindow {
  ApplePaySession?: { canMakePayments(): boolean };
}

function applePaySupported(): boolean {
  try {
    return (window as unknown as ApplePayWindow).ApplePaySession?.canMakePayments() === true;
  } catch {
    return false;
  }
}

/**
 * The methods to offer, in the server's order: Apple Pay only where the browser can pay with it
 * (issue #11). The browser is asked after hydration only, so the server's page and the first client
 * render agree (both without Apple Pay).
 */
export function useOfferedMethods(methods: readonly PaymentMethod[]): PaymentMethod[] {
  const hydrated = useHydrated();
  return offeredMethods(methods, hydrated && applePaySupported());
}

/** The methods to offer, in the server's order, Apple Pay only with `applePay` (the server's render: never). */
export function offeredMethods(methods: readonly PaymentMethod[], applePay: boolean): PaymentMethod[] {
  return methods.filter((method) => method !== "applepay" || applePay);
}

/** The method a checkout pays with: `picked` (the URL's, or the member's choice) when offered, else the first offered. */
export function chosenMethod(picked: PaymentMethod | null, offered: readonly PaymentMethod[]): PaymentMethod | null {
  return picked && offered.includes(picked) ? picked : (offered[0] ?? null);
}

/** The URL's `{paymentmethod?}` when it names a method, else null. */
export function methodFromUrl(param: string | null | undefined): PaymentMethod | null {
  const parsed = paymentMethodSchema.safeParse(param);
  return parsed.success ? parsed.data : null;
}
