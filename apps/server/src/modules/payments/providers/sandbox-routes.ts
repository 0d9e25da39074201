import { LOCALE_CODES, type LocaleCode } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { t } from "../../../platform/i18n.ts";
import { escapeHtml } from "../../../platform/mailer.ts";
import { SANDBOX_ACTIONS, SANDBOX_OUTCOMES, type SandboxPaymentRow, type SandboxProvider } from "./sandbox.ts";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/**
 * The sandbox provider's pages (issue #11): `/sandbox/checkout/{id}` shows the amount and method with
 * the buttons Paid, Failed, Cancelled, Expired and "Leave pending", which post `status` to the same
 * path and send the browser back to the site's `/transactions/{id}`. A paid payment's page is the
 * provider's dashboard for it: refund, charge back, revoke the stored card or mandate. Every page says
 * first that this is a test site without real payments (issue #25, decision 030): the sandbox runs only
 * on a loopback site or with PAYMENTS_PROVIDER=sandbox.
 */
export async function sandboxRoutes(app: FastifyInstance, { sandbox }: { sandbox: SandboxProvider }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get<{ Params: { id: string } }>("/sandbox/checkout/:id", async (request, reply) => {
    const row = await sandbox.find(request.params.id);
    if (!row) return reply.status(404).type("text/plain; charset=utf-8").send("Not found");
    return (
      reply
        .type("text/html; charset=utf-8")
        .header("content-security-policy", CSP)
        .header("cache-control", "no-store")
        // The form posts back here: under the site's no-referrer policy a browser sends `Origin: null`
        // with it, which the cross-site check refuses.
        .header("referrer-policy", "same-origin")
        .send(page(row))
    );
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
    "/sandbox/checkout/:id",
    async (request, reply) => {
      const fields = request.body ?? {};
      const status = SANDBOX_OUTCOMES.find((s) => s === fields.status);
      const action = SANDBOX_ACTIONS.find((a) => a === fields.action);
      const row = await sandbox.find(request.params.id);
      if (!row || (!status && !action)) return reply.status(404).type("text/plain; charset=utf-8").send("Not found");
      if (status) {
        await sandbox.complete(row.id, status);
        return reply.redirect(row.redirectUrl, 303);
      }
      if (action) await sandbox.act(row.id, action);
      return reply.redirect(`/sandbox/checkout/${encodeURIComponent(row.id)}`, 303);
    },
  );
}

function localeOf(row: SandboxPaymentRow): LocaleCode {
  const code = row.locale.slice(0, 2);
  return (LOCALE_CODES as readonly string[]).includes(code) ? (code as LocaleCode) : "en";
}

function page(row: SandboxPaymentRow): string {
  const locale = localeOf(row);
  const m = (id: string, values: Record<string, string | number> = {}) => escapeHtml(t(locale, id, values));
  const amount = new Intl.NumberFormat(locale, { style: "currency", currency: row.currency }).format(row.amountCents / 100);
  const open = row.status === "open" || row.status === "pending";
  const button = (name: string, value: string, label: string, primary = false) =>
    `<button type="submit" name="${name}" value="${value}" style="font:inherit;padding:.6rem 1rem;border-radius:.5rem;border:1px solid #1b4d8c;${primary ? "background:#1b4d8c;color:#fff" : "background:#fff;color:#1b4d8c"}">${label}</button>`;
  const actions = open
    ? [
        button("status", "paid", m("sandbox.paid"), true),
        button("status", "failed", m("sandbox.failed")),
        button("status", "canceled", m("sandbox.canceled")),
        button("status", "expired", m("sandbox.expired")),
        button("status", "open", m("sandbox.open")),
      ]
    : row.status === "paid"
      ? [
          button("action", "refund", m("sandbox.refund")),
          button("action", "chargeback", m("sandbox.chargeback")),
          ...(row.mandateId ? [button("action", "revoke_mandate", m("sandbox.revoke"))] : []),
        ]
      : [];
  const state =
    row.status === "paid" && row.chargedBackCents > 0
      ? m("sandbox.state.charged_back")
      : row.status === "paid" && row.refundedCents > 0
        ? m("sandbox.state.refunded")
        : m(`sandbox.state.${row.status}`);
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${m("sandbox.title")}</title></head>
<body style="margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#eef2f7;color:#1d2733">
<main style="max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:1rem;box-shadow:0 2px 12px rgba(0,0,0,.08)">
<p role="alert" data-test-site style="margin:0 0 1rem;padding:.6rem .9rem;border-radius:.5rem;background:#fff3cd;color:#664d03;font-weight:700">${m("sandbox.test_site")}</p>
<p style="margin:0 0 1rem;font-weight:700;color:#1b4d8c">${m("sandbox.brand")}</p>
<h1 style="font-size:1.4rem;margin:0 0 .5rem">${m("sandbox.title")}</h1>
<p style="margin:0 0 1rem;color:#4a5563">${m("sandbox.notice")}</p>
<dl style="display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:0 0 1.25rem">
<dt>${m("sandbox.amount")}</dt><dd style="margin:0;font-weight:700" data-testid="sandbox-amount">${escapeHtml(amount)}</dd>
<dt>${m("sandbox.method")}</dt><dd style="margin:0">${m(`payments.method.${row.method}`)}</dd>
<dt>${m("sandbox.description")}</dt><dd style="margin:0">${escapeHtml(row.description)}</dd>
<dt>${m("sandbox.status")}</dt><dd style="margin:0"><span role="status">${state}</span></dd>
</dl>
${actions.length ? `<form method="post" style="display:flex;flex-wrap:wrap;gap:.5rem">${actions.join("")}</form>` : ""}
<p style="margin:1.25rem 0 0"><a href="${escapeHtml(row.redirectUrl)}" style="color:#1b4d8c">${m("sandbox.back")}</a></p>
</main></body></html>`;
}
