import { randomBytes } from "node:crypto";
import {
  type AuditEntryView,
  STAFF_RULES,
  type StaffAccount,
  type StaffContext,
  type StaffEnrolment,
  type StaffRole,
} from "@app/contract";
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { clientNetwork } from "../../platform/http/client-address.ts";
import { DUMMY_PASSWORD_HASH, hashPassword, hashToken, newToken, verifyPassword } from "../../platform/secrets.ts";
import { staffAccounts, staffAudit, staffLoginFailures, staffSessions } from "./schema.ts";

/** What a staff write records (see `StaffService.audited`). */
export interface AuditEntry {
  /** Dotted, e.g. "member.ban", "photo.reject", "credits.correct", "inbox.answer". */
  action: string;
  /** "member" | "photo" | "conversation" | "complaint" | "payment" | "staff" | ... */
  objectType: string;
  objectId: string | number;
  /** The member concerned: the audit log is shown per member. */
  memberId?: number | null;
  before?: unknown;
  after?: unknown;
}

/** Who does a staff write, from where. */
export interface StaffActor {
  staff: StaffContext;
  address: string | null;
}

type AccountRow = typeof staffAccounts.$inferSelect;

const MINUTE = 60_000;
/** A session's last-seen time is written at most this often (a request per keystroke would write on each). */
const TOUCH_EVERY_MS = MINUTE;
const ISSUER = "Amoria staff";

const contextOf = (row: AccountRow): StaffContext => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  language: row.language as StaffContext["language"],
});

const accountOf = (row: AccountRow): StaffAccount => ({
  ...contextOf(row),
  active: row.active,
  created_at: row.createdAt.toISOString(),
  last_login_at: row.lastLoginAt?.toISOString() ?? null,
});

/** A recovery code as printed (XXXXX-XXXXX) and as compared (upper case, no dash). */
const RECOVERY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normaliseRecoveryCode = (code: string) => code.replace(/-/g, "").trim().toUpperCase();
const isTotpCode = (code: string) => /^\d{6}$/.test(code.trim());

function totpOf(secret: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: STAFF_RULES.totpDigits,
    period: STAFF_RULES.totpPeriodSeconds,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * Staff accounts, their two-factor logins and sessions, and the audit log (issue #27). Members are the
 * accounts module's; nothing here reads or writes them.
 */
export class StaffService {
  constructor(private readonly db: Db) {}

  // Accounts

  /**
   * A new staff account with its TOTP secret and recovery codes, returned once (the command
   * `npm run staff:add` prints them; the console shows them to the admin who made the account).
   */
  async create(
    input: {
      email: string;
      name: string;
      role: StaffRole;
      language: string;
      password: string;
      /** A given secret (the seed's demo staff, whose secrets the README prints); a random one otherwise. */
      totpSecret?: string;
    },
    tx: Tx | Db = this.db,
  ): Promise<StaffEnrolment> {
    const email = input.email.trim().toLowerCase();
    const secret = input.totpSecret ?? new OTPAuth.Secret({ size: 20 }).base32;
    const codes = Array.from({ length: STAFF_RULES.recoveryCodes }, newRecoveryCode);
    const [row] = await tx
      .insert(staffAccounts)
      .values({
        email,
        name: input.name.trim(),
        role: input.role,
        language: input.language,
        passwordHash: await hashPassword(input.password),
        totpSecret: secret,
        recoveryCodeHashes: codes.map((code) => hashToken(normaliseRecoveryCode(code))),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("email_taken");
    const uri = totpOf(secret, email).toString();
    return {
      account: accountOf(row),
      totp_secret: secret,
      otpauth_uri: uri,
      qr_svg: await QRCode.toString(uri, { type: "svg", margin: 1 }),
      recovery_codes: codes,
    };
  }

  async list(): Promise<StaffAccount[]> {
    const rows = await this.db.select().from(staffAccounts).orderBy(staffAccounts.id);
    return rows.map(accountOf);
  }

  async find(id: number, tx: Tx | Db = this.db): Promise<StaffAccount | null> {
    const [row] = await tx.select().from(staffAccounts).where(eq(staffAccounts.id, id));
    return row ? accountOf(row) : null;
  }

  async findByEmail(email: string): Promise<StaffAccount | null> {
    const [row] = await this.db.select().from(staffAccounts).where(eq(staffAccounts.email, email.trim().toLowerCase()));
    return row ? accountOf(row) : null;
  }

  /** Changes a staff account; deactivating one (or changing its role) ends its sessions at once. */
  async update(
    tx: Tx,
    id: number,
    changes: {
      role?: StaffRole | undefined;
      active?: boolean | undefined;
      name?: string | undefined;
      language?: string | undefined;
    },
  ): Promise<{ before: StaffAccount; after: StaffAccount }> {
    const [current] = await tx.select().from(staffAccounts).where(eq(staffAccounts.id, id)).for("update");
    if (!current) throw new AppError("not_found");
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const [row] = Object.keys(values).length
      ? await tx.update(staffAccounts).set(values).where(eq(staffAccounts.id, id)).returning()
      : [current];
    if (!row) throw new AppError("not_found");
    if (row.active !== current.active || row.role !== current.role) {
      await tx.delete(staffSessions).where(eq(staffSessions.staffId, id));
    }
    return { before: accountOf(current), after: accountOf(row) };
  }

  /** A test's or a command's current TOTP code for an account's secret. */
  static codeFor(secret: string, at = Date.now()): string {
    return totpOf(secret, "code").generate({ timestamp: at });
  }

  // Login and sessions

  /**
   * Password and second factor (a TOTP code, used once, or a recovery code, spent) in one step, so that
   * the answer never tells which of the three was wrong. Five failures from one address lock that
   * address out of that account for 15 minutes, as members' logins do.
   */
  async login(
    emailInput: string,
    password: string,
    code: string,
    addressInput: string,
    now = Date.now(),
  ): Promise<{ token: string; staff: StaffContext }> {
    const email = emailInput.trim().toLowerCase();
    const address = clientNetwork(addressInput);
    const lockMs = STAFF_RULES.loginLockMinutes * MINUTE;
    const outcome = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7201027, hashtext(${email}))`);
      const failures = await tx
        .select({ failedAt: staffLoginFailures.failedAt })
        .from(staffLoginFailures)
        .where(
          and(
            eq(staffLoginFailures.email, email),
            eq(staffLoginFailures.address, address),
            gt(staffLoginFailures.failedAt, new Date(now - lockMs)),
          ),
        )
        .orderBy(staffLoginFailures.failedAt);
      const limit = STAFF_RULES.loginFailuresBeforeLock;
      const minutesLeft = () => {
        const oldest = failures[failures.length - limit]?.failedAt.getTime() ?? now;
        return Math.max(1, Math.ceil((oldest + lockMs - now) / MINUTE));
      };
      if (failures.length >= limit) return { locked: minutesLeft() };
      const [row] = await tx.select().from(staffAccounts).where(eq(staffAccounts.email, email)).for("update");
      const passwordOk = await verifyPassword(row?.passwordHash ?? DUMMY_PASSWORD_HASH, password);
      const second = row && passwordOk && row.active ? this.secondFactor(row, code, now) : null;
      if (!row || !second) {
        await tx.insert(staffLoginFailures).values({ email, address, failedAt: new Date(now) });
        failures.push({ failedAt: new Date(now) });
        return failures.length >= limit ? { locked: minutesLeft() } : { failed: true as const };
      }
      await tx
        .update(staffAccounts)
        .set({ ...second, lastLoginAt: new Date(now) })
        .where(eq(staffAccounts.id, row.id));
      await tx
        .delete(staffLoginFailures)
        .where(and(eq(staffLoginFailures.email, email), eq(staffLoginFailures.address, address)));
      const { token, hash } = newToken();
      await tx.insert(staffSessions).values({
        staffId: row.id,
        tokenHash: hash,
        address: addressInput,
        createdAt: new Date(now),
        lastSeenAt: new Date(now),
        expiresAt: new Date(now + STAFF_RULES.maxHours * 60 * MINUTE),
      });
      return { token, staff: contextOf(row) };
    });
    if ("locked" in outcome) throw new AppError("login_locked", { minutes: outcome.locked ?? 1 });
    if (!("token" in outcome) || !outcome.token || !outcome.staff) throw new AppError("staff_login_failed");
    return { token: outcome.token, staff: outcome.staff };
  }

  /** The account's changes when `code` is a valid second factor: the TOTP step used, or the recovery code spent. */
  private secondFactor(
    row: AccountRow,
    code: string,
    now: number,
  ): Partial<Pick<AccountRow, "totpLastStep" | "recoveryCodeHashes">> | null {
    if (isTotpCode(code)) {
      const delta = totpOf(row.totpSecret, row.email).validate({ token: code.trim(), timestamp: now, window: 1 });
      if (delta === null) return null;
      const step = Math.floor(now / 1000 / STAFF_RULES.totpPeriodSeconds) + delta;
      // A code seen once (or an older one) is refused: an overheard code cannot be replayed.
      return step > row.totpLastStep ? { totpLastStep: step } : null;
    }
    const hash = hashToken(normaliseRecoveryCode(code));
    if (!row.recoveryCodeHashes.includes(hash)) return null;
    return { recoveryCodeHashes: row.recoveryCodeHashes.filter((h) => h !== hash) };
  }

  /**
   * The staff member of a session cookie, or null: no such session, ended, idle for longer than
   * `STAFF_RULES.idleMinutes`, or its account deactivated. A valid one counts as activity.
   */
  async resolve(token: string | undefined, now = Date.now()): Promise<StaffContext | null> {
    if (!token || token.length > 100) return null;
    const [found] = await this.db
      .select({ account: staffAccounts, sessionId: staffSessions.id, lastSeenAt: staffSessions.lastSeenAt })
      .from(staffSessions)
      .innerJoin(staffAccounts, eq(staffAccounts.id, staffSessions.staffId))
      .where(
        and(
          eq(staffSessions.tokenHash, hashToken(token)),
          gt(staffSessions.expiresAt, new Date(now)),
          gt(staffSessions.lastSeenAt, new Date(now - STAFF_RULES.idleMinutes * MINUTE)),
          eq(staffAccounts.active, true),
        ),
      );
    if (!found) return null;
    if (now - found.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await this.db
        .update(staffSessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(staffSessions.id, found.sessionId));
    }
    return contextOf(found.account);
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token || token.length > 100) return;
    await this.db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)));
  }

  /** Removes ended sessions and old login failures (a periodic job). */
  async prune(now = Date.now()): Promise<void> {
    await this.db
      .delete(staffSessions)
      .where(
        sql`${staffSessions.expiresAt} < ${new Date(now)} or ${staffSessions.lastSeenAt} < ${new Date(now - STAFF_RULES.idleMinutes * MINUTE)}`,
      );
    await this.db
      .delete(staffLoginFailures)
      .where(lt(staffLoginFailures.failedAt, new Date(now - STAFF_RULES.loginLockMinutes * MINUTE)));
  }

  // The audit log

  /**
   * Runs a staff write and records it in ONE transaction: a change that fails leaves no record, and a
   * record that cannot be written undoes the change. Every staff write goes through here.
   */
  audited<T>(actor: StaffActor, entry: (result: T) => AuditEntry, change: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const result = await change(tx);
      await this.record(tx, actor, entry(result));
      return result;
    });
  }

  /** Writes one audit row in the caller's transaction (for writes that already run in one). */
  async record(tx: Tx, actor: StaffActor, entry: AuditEntry): Promise<void> {
    await tx.insert(staffAudit).values({
      staffId: actor.staff.id,
      staffEmail: actor.staff.email,
      action: entry.action,
      objectType: entry.objectType,
      objectId: String(entry.objectId),
      memberId: entry.memberId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      address: actor.address,
    });
  }

  /** The audit log, newest first: of one member, of one staff account, or all of it. */
  async auditFor(
    filter: { memberId?: number | undefined; staffId?: number | undefined },
    page: { limit: number; before?: number | undefined },
  ): Promise<{ entries: AuditEntryView[]; next: number | null }> {
    const conditions = [
      filter.memberId !== undefined ? eq(staffAudit.memberId, filter.memberId) : undefined,
      filter.staffId !== undefined ? eq(staffAudit.staffId, filter.staffId) : undefined,
      page.before !== undefined ? lt(staffAudit.id, page.before) : undefined,
    ].filter((c) => c !== undefined);
    const rows = await this.db
      .select()
      .from(staffAudit)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(staffAudit.id))
      .limit(page.limit + 1);
    const entries = rows.slice(0, page.limit).map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      staff_id: row.staffId,
      staff_email: row.staffEmail,
      action: row.action,
      object_type: row.objectType,
      object_id: row.objectId,
      member_id: row.memberId,
      before: row.before,
      after: row.after,
      address: row.address,
    }));
    return { entries, next: rows.length > page.limit ? (entries.at(-1)?.id ?? null) : null };
  }
}
