import { desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { memberLogins, users } from "./schema.ts";

/** How long a member's logins are kept (see `AccountSupport.pruneLogins`). */
export const LOGIN_HISTORY_DAYS = 180;

/** What support sees of an account (issue #27). */
export interface SupportAccount {
  userId: number;
  email: string | null;
  status: string;
  language: string;
  fictional: boolean;
  invisible: boolean;
  signupDate: Date;
  deletionRequestedAt: Date | null;
}

export interface MemberLogin {
  method: string;
  address: string;
  userAgent: string;
  createdAt: Date;
}

/** How a session was started, as recorded in the member's logins. */
export type LoginMethod = "password" | "signup" | "reset_password";

const accountColumns = {
  userId: users.id,
  email: users.email,
  status: users.status,
  language: users.language,
  fictional: users.fictional,
  invisible: users.invisible,
  signupDate: users.signupDate,
  deletionRequestedAt: users.deletionRequestedAt,
};

/** A LIKE pattern matching what starts with `prefix` (its own % and _ taken literally). */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The accounts module's part of support (issue #27): members found by e-mail address or id, their
 * account and their logins. Logins are recorded here when a session starts.
 */
export class AccountSupport {
  constructor(private readonly db: Db) {}

  /** Accounts whose e-mail address starts with `prefix` (lower-cased, as stored), in address order. */
  byEmailPrefix(prefix: string, limit: number): Promise<SupportAccount[]> {
    return (
      this.db
        .select(accountColumns)
        .from(users)
        // LIKE and the order in the C collation: both read from users_email_prefix, the first matches only.
        .where(sql`${users.email} collate "C" like ${prefixPattern(prefix.trim().toLowerCase())}`)
        .orderBy(sql`${users.email} collate "C"`)
        .limit(limit)
    );
  }

  /** The accounts of these ids, in the order asked (unknown ids left out). */
  async byIds(ids: readonly number[], db: DbOrTx = this.db): Promise<SupportAccount[]> {
    const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
    if (wanted.length === 0) return [];
    const rows = await db.select(accountColumns).from(users).where(inArray(users.id, wanted));
    const byId = new Map(rows.map((row) => [row.userId, row]));
    return wanted.flatMap((id) => byId.get(id) ?? []);
  }

  /** The account of this id; inside a transaction, pass it as `db`. */
  async account(userId: number, db: DbOrTx = this.db): Promise<SupportAccount | null> {
    return (await this.byIds([userId], db))[0] ?? null;
  }

  /** Records a login (a new session) with where it came from. */
  async recordLogin(userId: number, login: { method: LoginMethod; address: string; userAgent: string }): Promise<void> {
    await this.db.insert(memberLogins).values({
      userId,
      method: login.method,
      address: login.address.slice(0, 100),
      userAgent: login.userAgent.slice(0, 500),
    });
  }

  /**
   * Forgets logins older than LOGIN_HISTORY_DAYS (a daily job): long enough for support to look into a
   * taken-over account or a disputed payment, not a lifelong record of where a member has been.
   */
  async pruneLogins(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - LOGIN_HISTORY_DAYS * 24 * 3_600_000);
    const gone = await this.db.delete(memberLogins).where(lt(memberLogins.createdAt, before)).returning({ id: memberLogins.id });
    return gone.length;
  }

  /** The member's latest logins, newest first. */
  logins(userId: number, limit: number): Promise<MemberLogin[]> {
    return this.db
      .select({
        method: memberLogins.method,
        address: memberLogins.address,
        userAgent: memberLogins.userAgent,
        createdAt: memberLogins.createdAt,
      })
      .from(memberLogins)
      .where(eq(memberLogins.userId, userId))
      .orderBy(desc(memberLogins.id))
      .limit(limit);
  }
}
