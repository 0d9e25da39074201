import { desc } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { smsOutbox } from "./sms-outbox.schema.ts";

/** Sends a text message: to an HTTP SMS gateway when SMS_URL is set, else into the outbox (development mailbox). */
export interface SmsSender {
  readonly kind: "http" | "outbox";
  send(to: string, text: string): Promise<void>;
}

/**
 * A gateway configured by URL (decision 021): `POST <SMS_URL>` with JSON `{ to, text }`, credentials in
 * the URL's user info sent as HTTP basic authentication. Most SMS providers have such an endpoint or a
 * small relay in front of them; anything but 2xx is a failure the caller reports.
 */
export class HttpSms implements SmsSender {
  readonly kind = "http";
  private readonly endpoint: string;
  private readonly authorization: string | null;

  constructor(url: string) {
    const parsed = new URL(url);
    this.authorization =
      parsed.username || parsed.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64")}`
        : null;
    parsed.username = "";
    parsed.password = "";
    this.endpoint = parsed.toString();
  }

  async send(to: string, text: string): Promise<void> {
    const response = await fetch(this.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.authorization ? { authorization: this.authorization } : {}) },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  }
}

export class OutboxSms implements SmsSender {
  readonly kind = "outbox";
  constructor(private readonly db: Db) {}

  async send(to: string, text: string): Promise<void> {
    await this.db.insert(smsOutbox).values({ to, text });
  }

  list(limit = 50) {
    return this.db.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(limit);
  }
}

export function openSms(options: { url?: string | undefined; db: Db }): SmsSender {
  return options.url ? new HttpSms(options.url) : new OutboxSms(options.db);
}
