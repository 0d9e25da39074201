/**
 * TEST SUPPORT ONLY: a stand-in for Mollie's API v2 that tests start on 127.0.0.1 and point
 * `MollieProvider` at (`apiEndpoint: double.url`). Nothing outside tests imports this file.
 *
 * It answers the calls the adapter makes, in the shapes of Mollie's API reference (Create payment,
 * Get payment, Create payment refund, Create customer, Create mandate) and with Mollie's error body
 * (`{ status, title, detail, field?, _links.documentation }`): 401 without the right Bearer key, 404
 * for an unknown id, 422 for what Mollie refuses of what we send (amount format or minimum, currency,
 * method, locale, a first/recurring payment without a customer, an unknown mandate, an invalid IBAN, a
 * refund larger than what is left). State lives in memory; tests move payments along with the
 * controls (`setStatus`, `chargeback`, `outage`, `sendWebhook`) and read `requests`.
 *
 * Why TLS: @mollie/api-client always sends through an `https.Agent` built with its own bundled CA
 * list, so it can reach neither a plain-HTTP server nor one whose certificate a local CA signed. The
 * double therefore serves HTTPS with the throwaway self-signed certificate below, and a test that
 * talks to it turns certificate checks off for its own process with `acceptUnverifiedTls()`.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";

/** A self-signed P-256 certificate for 127.0.0.1 and localhost, valid until 2126. It guards nothing. */
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOk30MA2/fvwO/bTP
15/GiICb0yfT6kVW7TzeNOouNNOhRANCAAS351ZdRPjk6zA2rjJtWblxfDakXXK/
8m1wYdzjCmkFxuItslBUES7YCPC1h2L2bby3OuXZTs0z0mH+m6EIwr0O
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBrDCCAVOgAwIBAgIUOszx+XZg/WqirZs6AXoyH1GTb6IwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSTW9sbGllIHRlc3QgZG91YmxlMCAXDTI2MTEyMzAwMzQwOVoY
DzIxMjYxMDMwMDAzNDA5WjAdMRswGQYDVQQDDBJNb2xsaWUgdGVzdCBkb3VibGUw
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS351ZdRPjk6zA2rjJtWblxfDakXXK/
8m1wYdzjCmkFxuItslBUES7YCPC1h2L2bby3OuXZTs0z0mH+m6EIwr0Oo28wbTAd
BgNVHQ4EFgQUS6CbgXuuE0LnjeWaVzXkkQ7dAjAwHwYDVR0jBBgwFoAUS6CbgXuu
E0LnjeWaVzXkkQ7dAjAwDwYDVR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAAB
gglsb2NhbGhvc3QwCgYIKoZIzj0EAwIDRwAwRAIgJcHd6aAknlA+R4EkhSGaRLqZ
5EA2DwNeGqb2XWUtVJ4CIAkpvOJ0ML5W/QKLriqAkHNdsbxIIw3xYbmaFegzKNme
-----END CERTIFICATE-----
`;

/**
 * Lets this test process's HTTPS clients accept the double's self-signed certificate (Node reads the
 * variable at each connection). Answers the function that restores the previous setting; call it in
 * `afterAll`. Node prints a warning about it once per process.
 */
export function acceptUnverifiedTls(): () => void {
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  return () => {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  };
}

export type DoubleStatus = "open" | "pending" | "authorized" | "paid" | "failed" | "canceled" | "expired";
type Amount = { currency: string; value: string };
type Details = Record<string, unknown>;

export interface DoublePayment {
  id: string;
  createdAt: string;
  status: DoubleStatus;
  amount: Amount;
  description: string;
  method: string | null;
  metadata: unknown;
  locale: string | null;
  sequenceType: "oneoff" | "first" | "recurring";
  redirectUrl: string | null;
  webhookUrl: string | null;
  customerId: string | null;
  mandateId: string | null;
  details: Details | null;
  refundedCents: number;
  chargedBackCents: number;
  /** When the status last changed, under the name Mollie gives it (paidAt, failedAt, ...). */
  statusAt: string | null;
}

export interface DoubleMandate {
  id: string;
  customerId: string;
  method: "directdebit" | "creditcard" | "paypal";
  status: "valid" | "pending" | "invalid";
  details: Details;
  createdAt: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received, e.g. `/v2/payments`. */
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The parsed JSON body; null for a request without one. */
  body: unknown;
}

/** What a paid first payment of a method leaves behind, as Mollie does it. */
function mandateMethodOf(method: string | null): DoubleMandate["method"] {
  if (method === "creditcard" || method === "applepay") return "creditcard";
  if (method === "paypal") return "paypal";
  return "directdebit";
}

// Mollie's lists, as far as the calls we make can meet them.
const METHODS = new Set([
  "alma",
  "applepay",
  "bacs",
  "bancomatpay",
  "bancontact",
  "banktransfer",
  "belfius",
  "billie",
  "bizum",
  "blik",
  "creditcard",
  "directdebit",
  "eps",
  "giftcard",
  "googlepay",
  "ideal",
  "in3",
  "kbc",
  "klarna",
  "mbway",
  "mobilepay",
  "multibanco",
  "mybank",
  "paybybank",
  "paypal",
  "paysafecard",
  "przelewy24",
  "riverty",
  "satispay",
  "swish",
  "trustly",
  "twint",
  "vipps",
  "voucher",
]);
const RECURRING_METHODS = new Set(["creditcard", "directdebit", "paypal"]);
const LOCALES = new Set(
  "en_US en_GB nl_NL nl_BE fr_FR fr_BE fr_LU de_DE de_AT de_CH de_LU es_ES ca_ES pt_PT it_IT nb_NO sv_SE fi_FI da_DK is_IS hu_HU pl_PL lv_LV lt_LT".split(
    " ",
  ),
);
const CURRENCIES = new Set("EUR CHF PLN GBP USD CAD AUD NZD SEK NOK DKK CZK HUF RON BGN".split(" "));
const SEQUENCES = new Set(["oneoff", "first", "recurring"]);
const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized Request",
  404: "Not Found",
  422: "Unprocessable Entity",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};
const DOCS = "https://docs.mollie.com/overview/handling-errors";

/** A refusal the handler turns into Mollie's error body. */
class Refusal {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly field?: string,
  ) {}
}
const unprocessable = (detail: string, field?: string) => new Refusal(422, detail, field);

export interface MollieDouble {
  /** The API root to hand the adapter: `https://127.0.0.1:<port>/v2/`. */
  url: string;
  /** Every API call received, oldest first (the checkout page is not recorded). */
  requests: RecordedRequest[];
  payment(id: string): DoublePayment;
  mandates(customerId: string): DoubleMandate[];
  /**
   * Moves a payment to a status, as the person paying or the bank would, merging `details` into the
   * payment's (cardLabel/cardNumber, consumerName/consumerAccount, ...). A paid first payment leaves
   * a valid mandate for its customer, as Mollie's does.
   */
  setStatus(id: string, status: DoubleStatus, details?: Details): DoublePayment;
  /** The bank takes `cents` back from a paid payment; its status stays paid, as at Mollie. */
  chargeback(id: string, cents: number): DoublePayment;
  /** While set, every API call answers this 5xx status (with `Retry-After: 0`, so the client's retries are quick). */
  outage(status: number | null): void;
  /** Posts `id=<payment id>` to the payment's webhookUrl as Mollie does; answers the HTTP status. */
  sendWebhook(id: string): Promise<number>;
  close(): Promise<void>;
}

/** Starts the double on 127.0.0.1 on a free port, accepting `Authorization: Bearer <apiKey>`. */
export async function startMollieDouble(options: { apiKey: string }): Promise<MollieDouble> {
  const payments = new Map<string, DoublePayment>();
  const customers = new Map<string, Record<string, unknown>>();
  const mandates = new Map<string, DoubleMandate>();
  const requests: RecordedRequest[] = [];
  let outage: number | null = null;
  let origin = "";

  // Mollie writes times as "2018-03-20T13:13:37+00:00".
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, "+00:00");
  const now = () => iso(Date.now());
  const link = (href: string, type = "application/hal+json") => ({ href, type });
  const api = (path: string) => link(`${origin}/v2/${path}`);
  const docs = (page: string) => link(`https://docs.mollie.com/reference/${page}`, "text/html");

  function findPayment(id: string): DoublePayment {
    const payment = payments.get(id);
    if (!payment) throw new Refusal(404, `No payment exists with token ${id}.`);
    return payment;
  }

  function findCustomer(id: string) {
    const customer = customers.get(id);
    if (!customer) throw new Refusal(404, `No customer exists with token ${id}.`);
    return customer;
  }

  function presentPayment(p: DoublePayment) {
    const cents = valueCents(p.amount.value);
    const finished = !["open", "pending", "authorized"].includes(p.status);
    const paid = p.status === "paid";
    const statusField: Partial<Record<DoubleStatus, string>> = {
      paid: "paidAt",
      failed: "failedAt",
      canceled: "canceledAt",
      expired: "expiredAt",
      authorized: "authorizedAt",
    };
    const timeField = statusField[p.status];
    return {
      resource: "payment",
      id: p.id,
      mode: "test",
      createdAt: p.createdAt,
      amount: p.amount,
      description: p.description,
      method: p.method,
      metadata: p.metadata,
      status: p.status,
      ...(finished ? {} : { isCancelable: p.status === "open" }),
      ...(p.status === "open" ? { expiresAt: iso(Date.parse(p.createdAt) + 15 * 60_000) } : {}),
      ...(timeField && p.statusAt ? { [timeField]: p.statusAt } : {}),
      ...(paid
        ? {
            amountRefunded: { currency: p.amount.currency, value: centsValue(p.refundedCents) },
            amountRemaining: { currency: p.amount.currency, value: centsValue(cents - p.refundedCents) },
          }
        : {}),
      ...(p.chargedBackCents > 0
        ? { amountChargedBack: { currency: p.amount.currency, value: centsValue(p.chargedBackCents) } }
        : {}),
      locale: p.locale,
      profileId: "pfl_double0001",
      sequenceType: p.sequenceType,
      redirectUrl: p.redirectUrl,
      webhookUrl: p.webhookUrl,
      details: p.details,
      ...(p.customerId ? { customerId: p.customerId } : {}),
      ...(p.mandateId ? { mandateId: p.mandateId } : {}),
      _links: {
        self: api(`payments/${p.id}`),
        // Only an open payment that a person must finish has a checkout page.
        ...(p.status === "open" && p.sequenceType !== "recurring"
          ? { checkout: link(`${origin}/checkout/select-method/${p.id.slice(3)}`, "text/html") }
          : {}),
        dashboard: link(`https://my.mollie.com/dashboard/payments/${p.id}`, "text/html"),
        ...(p.refundedCents > 0 ? { refunds: api(`payments/${p.id}/refunds`) } : {}),
        ...(p.chargedBackCents > 0 ? { chargebacks: api(`payments/${p.id}/chargebacks`) } : {}),
        ...(p.customerId ? { customer: api(`customers/${p.customerId}`) } : {}),
        ...(p.mandateId && p.customerId ? { mandate: api(`customers/${p.customerId}/mandates/${p.mandateId}`) } : {}),
        documentation: docs("get-payment"),
      },
    };
  }

  function presentMandate(m: DoubleMandate) {
    return {
      resource: "mandate",
      id: m.id,
      mode: "test",
      status: m.status,
      method: m.method,
      details: m.details,
      mandateReference: null,
      signatureDate: m.createdAt.slice(0, 10),
      createdAt: m.createdAt,
      _links: {
        self: api(`customers/${m.customerId}/mandates/${m.id}`),
        customer: api(`customers/${m.customerId}`),
        documentation: docs("get-mandate"),
      },
    };
  }

  function createPayment(body: Record<string, unknown>) {
    const amount = checkAmount(body.amount);
    const sequenceType = body.sequenceType ?? "oneoff";
    if (typeof sequenceType !== "string" || !SEQUENCES.has(sequenceType))
      throw unprocessable("The sequence type is invalid", "sequenceType");
    if (typeof body.description !== "string" || body.description.trim() === "")
      throw unprocessable("The description is invalid", "description");
    const method = body.method ?? null;
    if (method !== null && (typeof method !== "string" || !METHODS.has(method)))
      throw unprocessable("The payment method is invalid", "method");
    if (body.locale !== undefined && (typeof body.locale !== "string" || !LOCALES.has(body.locale)))
      throw unprocessable("The locale is invalid", "locale");
    if (sequenceType !== "recurring" && !isUrl(body.redirectUrl))
      throw unprocessable("The redirect URL is invalid", "redirectUrl");
    if (body.webhookUrl !== undefined && !isUrl(body.webhookUrl)) throw unprocessable("The webhook URL is invalid", "webhookUrl");
    if (body.metadata !== undefined && JSON.stringify(body.metadata).length > 1024)
      throw unprocessable("The metadata is too large", "metadata");
    let customerId: string | null = null;
    let mandate: DoubleMandate | null = null;
    if (sequenceType !== "oneoff") {
      if (typeof body.customerId !== "string") throw unprocessable("A customer is required for this sequence type", "customerId");
      findCustomer(body.customerId);
      customerId = body.customerId;
    }
    if (sequenceType === "recurring") {
      if (method !== null && !RECURRING_METHODS.has(method))
        throw unprocessable("The payment method is not supported for recurring payments", "method");
      // Without a mandateId Mollie charges the customer's most recent valid mandate.
      const candidates = [...mandates.values()].filter((m) => m.customerId === customerId && m.status === "valid");
      mandate = typeof body.mandateId === "string" ? (mandates.get(body.mandateId) ?? null) : (candidates.at(-1) ?? null);
      if (!mandate || mandate.customerId !== customerId || mandate.status !== "valid")
        throw unprocessable("The mandate is invalid or does not belong to this customer", "mandateId");
    }
    const payment: DoublePayment = {
      id: newId("tr_"),
      createdAt: now(),
      status: sequenceType === "recurring" ? "pending" : "open",
      amount,
      description: body.description,
      method: mandate ? mandate.method : (method as string | null),
      metadata: body.metadata ?? null,
      locale: typeof body.locale === "string" ? body.locale : null,
      sequenceType: sequenceType as DoublePayment["sequenceType"],
      redirectUrl: sequenceType === "recurring" ? null : (body.redirectUrl as string),
      webhookUrl: typeof body.webhookUrl === "string" ? body.webhookUrl : null,
      customerId,
      mandateId: mandate ? mandate.id : null,
      details: null,
      refundedCents: 0,
      chargedBackCents: 0,
      statusAt: null,
    };
    payments.set(payment.id, payment);
    return presentPayment(payment);
  }

  function createRefund(paymentId: string, body: Record<string, unknown>) {
    const payment = findPayment(paymentId);
    const amount = checkAmount(body.amount);
    if (payment.status !== "paid") throw unprocessable("The payment is not refundable", "amount");
    if (amount.currency !== payment.amount.currency)
      throw unprocessable("The currency does not match the payment's", "amount.currency");
    const cents = valueCents(amount.value);
    if (cents > valueCents(payment.amount.value) - payment.refundedCents)
      throw unprocessable("The amount is higher than the amount that can be refunded", "amount");
    payment.refundedCents += cents;
    const id = newId("re_");
    return {
      resource: "refund",
      id,
      mode: "test",
      amount,
      status: "pending",
      createdAt: now(),
      description: typeof body.description === "string" ? body.description : "",
      metadata: body.metadata ?? null,
      paymentId,
      settlementAmount: { currency: amount.currency, value: `-${amount.value}` },
      _links: {
        self: api(`payments/${paymentId}/refunds/${id}`),
        payment: api(`payments/${paymentId}`),
        documentation: docs("create-refund"),
      },
    };
  }

  function createCustomer(body: Record<string, unknown>) {
    if (body.email !== undefined && (typeof body.email !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email)))
      throw unprocessable("The email address is invalid", "email");
    if (body.locale !== undefined && (typeof body.locale !== "string" || !LOCALES.has(body.locale)))
      throw unprocessable("The locale is invalid", "locale");
    const id = newId("cst_");
    const customer = {
      resource: "customer",
      id,
      mode: "test",
      name: typeof body.name === "string" ? body.name : null,
      email: typeof body.email === "string" ? body.email : null,
      locale: typeof body.locale === "string" ? body.locale : null,
      metadata: body.metadata ?? null,
      createdAt: now(),
      _links: {
        self: api(`customers/${id}`),
        dashboard: link(`https://my.mollie.com/dashboard/customers/${id}`, "text/html"),
        documentation: docs("get-customer"),
      },
    };
    customers.set(id, customer);
    return customer;
  }

  function createMandate(customerId: string, body: Record<string, unknown>) {
    findCustomer(customerId);
    if (body.method !== "directdebit") throw unprocessable("The payment method is invalid", "method");
    if (typeof body.consumerName !== "string" || body.consumerName.trim() === "")
      throw unprocessable("The consumer name is invalid", "consumerName");
    const iban = typeof body.consumerAccount === "string" ? electronicFormatIBAN(body.consumerAccount) : null;
    if (!iban || !isValidIBAN(iban)) throw unprocessable("The consumer account is invalid", "consumerAccount");
    const mandate: DoubleMandate = {
      id: newId("mdt_"),
      customerId,
      method: "directdebit",
      status: "valid",
      details: { consumerName: body.consumerName, consumerAccount: iban, consumerBic: null },
      createdAt: now(),
    };
    mandates.set(mandate.id, mandate);
    return presentMandate(mandate);
  }

  function route(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    const [, collection, id, sub] = /^\/v2\/(payments|customers)(?:\/([^/]+)(?:\/(refunds|mandates))?)?$/.exec(path) ?? [];
    if (method === "POST" && collection === "payments" && !id) return [201, createPayment(body)];
    if (method === "GET" && collection === "payments" && id && !sub) return [200, presentPayment(findPayment(id))];
    if (method === "POST" && collection === "payments" && id && sub === "refunds") return [201, createRefund(id, body)];
    if (method === "POST" && collection === "customers" && !id) return [201, createCustomer(body)];
    if (method === "POST" && collection === "customers" && id && sub === "mandates") return [201, createMandate(id, body)];
    throw new Refusal(404, "The requested resource does not exist (the Mollie double answers only the calls the adapter makes)");
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const method = request.method ?? "GET";
    const path = request.url ?? "/";
    const text = await readBody(request);
    if (method === "GET" && path.startsWith("/checkout/")) {
      // Stands in for Mollie's hosted checkout page; tests drive the outcome with setStatus.
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end("Mollie double: the checkout page. Tests set the outcome with setStatus().");
      return;
    }
    const authorization = request.headers.authorization;
    const idempotency = request.headers["idempotency-key"];
    let body: unknown = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    requests.push({
      method,
      path,
      authorization,
      idempotencyKey: typeof idempotency === "string" ? idempotency : undefined,
      body,
    });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/hal+json", ...headers });
      response.end(JSON.stringify(payload));
    };
    const refuse = (refusal: Refusal, headers: Record<string, string> = {}) =>
      send(
        refusal.status,
        {
          status: refusal.status,
          title: TITLES[refusal.status] ?? "Error",
          detail: refusal.detail,
          ...(refusal.field ? { field: refusal.field } : {}),
          _links: { documentation: link(DOCS, "text/html") },
        },
        headers,
      );
    if (outage !== null) return refuse(new Refusal(outage, "The Mollie double is having an outage"), { "retry-after": "0" });
    if (authorization !== `Bearer ${options.apiKey}`)
      return refuse(new Refusal(401, "Missing authentication, or failed to authenticate"));
    if (method === "POST" && (typeof body !== "object" || body === null || Array.isArray(body)))
      return refuse(new Refusal(400, "The request body is not a JSON object"));
    try {
      const [status, payload] = route(method, path.split("?")[0] ?? path, (body ?? {}) as Record<string, unknown>);
      send(status, payload);
    } catch (error) {
      if (error instanceof Refusal) refuse(error);
      else refuse(new Refusal(500, error instanceof Error ? error.message : String(error)));
    }
  }

  const server = createServer({ key: TLS_KEY, cert: TLS_CERT }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}/v2/`,
    requests,
    payment: (id) => ({ ...findOrThrow(payments, id) }),
    mandates: (customerId) => [...mandates.values()].filter((m) => m.customerId === customerId),
    setStatus(id, status, details) {
      const payment = findOrThrow(payments, id);
      payment.status = status;
      payment.statusAt = now();
      if (details) payment.details = { ...payment.details, ...details };
      if (status === "paid" && payment.sequenceType === "first" && payment.customerId && !payment.mandateId) {
        const method = mandateMethodOf(payment.method);
        const mandate: DoubleMandate = {
          id: newId("mdt_"),
          customerId: payment.customerId,
          method,
          status: "valid",
          details: payment.details ?? {},
          createdAt: now(),
        };
        mandates.set(mandate.id, mandate);
        payment.mandateId = mandate.id;
      }
      return { ...payment };
    },
    chargeback(id, cents) {
      const payment = findOrThrow(payments, id);
      if (payment.status !== "paid")
        throw new Error(`Mollie double: ${id} is ${payment.status}, only a paid payment is charged back`);
      payment.chargedBackCents += cents;
      return { ...payment };
    },
    outage(status) {
      outage = status;
    },
    async sendWebhook(id) {
      const payment = findOrThrow(payments, id);
      if (!payment.webhookUrl) throw new Error(`Mollie double: ${id} has no webhookUrl`);
      const response = await fetch(payment.webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ id }).toString(),
      });
      await response.arrayBuffer();
      return response.status;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function findOrThrow<T>(map: Map<string, T>, id: string): T {
  const found = map.get(id);
  if (!found) throw new Error(`Mollie double: no ${id}`);
  return found;
}

/** Mollie's amount rules for what we send: a known currency and a "0.00" value of at least one cent. */
function checkAmount(amount: unknown): Amount {
  if (typeof amount !== "object" || amount === null) throw unprocessable("The amount is required", "amount");
  const { currency, value } = amount as Record<string, unknown>;
  if (typeof currency !== "string" || !CURRENCIES.has(currency))
    throw unprocessable("The currency is not supported", "amount.currency");
  if (typeof value !== "string" || !/^\d+\.\d{2}$/.test(value))
    throw unprocessable('The amount contains an invalid value; use a string with two decimals, e.g. "10.00"', "amount.value");
  if (valueCents(value) < 1) throw unprocessable("The amount is lower than the minimum", "amount");
  return { currency, value };
}

const valueCents = (value: string) => {
  const [units = "0", fraction = "00"] = value.split(".");
  return Number(units) * 100 + Number(fraction.padEnd(2, "0"));
};
const centsValue = (cents: number) => {
  const digits = String(cents).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

function isUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** An id in Mollie's style: the resource's prefix and ten letters or digits. */
function newId(prefix: string): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  return prefix + [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]).join("");
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
