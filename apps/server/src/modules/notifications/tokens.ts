import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from "@app/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { notificationKeys } from "./schema.ts";

const KEY_NAME = "unsubscribe";

/**
 * The one-click unsubscribe tokens (RFC 8058): `<user id>.<category>.<signature>`, the signature an
 * HMAC-SHA256 over both with the app's secret (APP_SECRET, else a random key made once and kept in the
 * database, so that every node signs and checks alike). They do not expire: a link in an old e-mail
 * still unsubscribes, which is what the member wants; all it can do is switch one category off.
 */
export class UnsubscribeTokens {
  private key: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly secret: string | undefined,
  ) {}

  async sign(userId: number, category: NotificationCategory): Promise<string> {
    return `${userId}.${category}.${await this.signature(userId, category)}`;
  }

  /** The member and category a token names, or null when it is malformed or its signature is wrong. */
  async verify(token: string): Promise<{ userId: number; category: NotificationCategory } | null> {
    const [id, category, signature, ...rest] = token.split(".");
    if (rest.length > 0 || !id || !/^[1-9]\d{0,9}$/.test(id) || !signature) return null;
    if (!(NOTIFICATION_CATEGORIES as readonly string[]).includes(category ?? "")) return null;
    const userId = Number(id);
    const known = category as NotificationCategory;
    const expected = Buffer.from(await this.signature(userId, known));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, category: known } : null;
  }

  private async signature(userId: number, category: NotificationCategory): Promise<string> {
    return createHmac("sha256", await this.keyOf())
      .update(`unsubscribe:${userId}:${category}`)
      .digest("base64url");
  }

  private keyOf(): Promise<Buffer> {
    this.key ??= this.loadKey().catch((error: unknown) => {
      this.key = null;
      throw error;
    });
    return this.key;
  }

  private async loadKey(): Promise<Buffer> {
    if (this.secret) return Buffer.from(this.secret);
    await this.db
      .insert(notificationKeys)
      .values({ name: KEY_NAME, value: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(notificationKeys).where(eq(notificationKeys.name, KEY_NAME));
    if (!row) throw new Error("the unsubscribe key is missing");
    return Buffer.from(row.value);
  }
}
