import type { FastifyInstance } from "fastify";
import { escapeHtml, type OutboxMailer } from "../mailer.ts";
import type { OutboxSms } from "../sms.ts";
import { isId } from "./endpoint.ts";

/**
 * The outbox's e-mails at /dev/mailbox. Registered only when no SMTP server is configured and the
 * site cannot be reached from other machines (app.ts: showsDevMailbox).
 */
export async function mailboxRoutes(
  app: FastifyInstance,
  { outbox, sms }: { outbox: OutboxMailer; sms: OutboxSms | null },
): Promise<void> {
  const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'";
  app.get("/dev/mailbox", async (_request, reply) => {
    const rows = await outbox.list(100);
    const items = rows
      .map(
        (m) =>
          `<li><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a> → ${escapeHtml(m.to)} <small>${m.createdAt.toISOString()}</small></li>`,
      )
      .join("");
    // Text messages (direct-debit codes) kept without an SMS gateway, newest first.
    const texts = sms
      ? (await sms.list(20))
          .map((m) => `<li>→ ${escapeHtml(m.to)}: <q>${escapeHtml(m.text)}</q> <small>${m.createdAt.toISOString()}</small></li>`)
          .join("")
      : "";
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", csp)
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title></head><body style="font-family:system-ui;margin:2rem"><h1>Development mailbox</h1><p>E-mails the site would have sent (no SMTP_URL set).</p><ol reversed>${items}</ol>${sms ? `<h2>Text messages</h2><ol reversed>${texts}</ol>` : ""}</body></html>`,
      );
  });
  app.get<{ Params: { id: string } }>("/dev/mailbox/:id", async (request, reply) => {
    const id = Number(request.params.id);
    const message = isId(id) ? await outbox.find(id) : undefined;
    if (!message) return reply.status(404).type("text/plain").send("Not found");
    return reply.type("text/html; charset=utf-8").header("content-security-policy", csp).send(message.html);
  });
}
