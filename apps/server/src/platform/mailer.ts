import { desc, eq } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "./db/index.ts";
import { mailOutbox } from "./mail-outbox.schema.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe for mails a member can opt out of. */
  headers?: Record<string, string>;
}

/** Sends e-mail: through SMTP when SMTP_URL is set, else into the outbox table (development mailbox). */
export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export class SmtpMailer implements Mailer {
  readonly kind = "smtp";
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    const parsed = new URL(url);
    // smtp:// to a local relay without TLS (tests, a sidecar) must not insist on STARTTLS certificates.
    const insecureLocal = parsed.protocol === "smtp:" && ["127.0.0.1", "localhost", "::1"].includes(parsed.hostname);
    this.transport = nodemailer.createTransport(url, insecureLocal ? { tls: { rejectUnauthorized: false } } : {});
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export class OutboxMailer implements Mailer {
  readonly kind = "outbox";
  constructor(private readonly db: Db) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(mailOutbox).values({ ...message, headers: message.headers ?? {} });
  }

  list(limit = 50) {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
  }

  async find(id: number) {
    const [row] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
    return row;
  }

  async close(): Promise<void> {}
}

export function openMailer(options: { url?: string | undefined; from: string; db: Db }): Mailer {
  return options.url ? new SmtpMailer(options.url, options.from) : new OutboxMailer(options.db);
}

const escapeMap: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => escapeMap[c] ?? c);

/**
 * One look for every e-mail: the site's name, a heading, paragraphs, an optional button and a footer,
 * as HTML (inline styles, for mail clients) and as plain text. Every value is escaped.
 */
export function renderEmail(input: {
  lang: string;
  site: string;
  heading: string;
  paragraphs: string[];
  button?: { label: string; url: string };
  footer: string;
  /** A link under the footer (e.g. the notification settings of a notification e-mail). */
  footerLink?: { label: string; url: string };
}): { html: string; text: string } {
  const paragraphs = input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join("");
  const button = input.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(input.button.url)}" style="background:#c2255c;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(input.button.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#666;word-break:break-all">${escapeHtml(input.button.url)}</p>`
    : "";
  const footerLink = input.footerLink
    ? ` <a href="${escapeHtml(input.footerLink.url)}" style="color:#777">${escapeHtml(input.footerLink.label)}</a>`
    : "";
  const html = `<!doctype html><html lang="${escapeHtml(input.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(input.heading)}</title></head><body style="margin:0;background:#f6f6f8;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#222"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px"><table role="presentation" width="100%" style="max-width:560px;background:#fff;border-radius:12px" cellpadding="0" cellspacing="0"><tr><td style="padding:20px 28px;background:#c2255c;color:#fff;border-radius:12px 12px 0 0;font-size:20px;font-weight:700">${escapeHtml(input.site)}</td></tr><tr><td style="padding:28px"><h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(input.heading)}</h1>${paragraphs}${button}</td></tr><tr><td style="padding:16px 28px;font-size:12px;color:#777;border-top:1px solid #eee">${escapeHtml(input.footer)}${footerLink}</td></tr></table></td></tr></table></body></html>`;
  const text = [
    input.site,
    "",
    input.heading,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...(input.button ? [`${input.button.label}: ${input.button.url}`, ""] : []),
    "--",
    input.footer,
    ...(input.footerLink ? [`${input.footerLink.label}: ${input.footerLink.url}`] : []),
  ].join("\n");
  return { html, text };
}
