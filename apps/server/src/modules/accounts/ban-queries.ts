import { and, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import { memberBans, sessions, users } from "./schema.ts";

export type BanRow = typeof memberBans.$inferSelect;

/** A ban still in force: not lifted, and without an end or with one still to come. */
const inForce = and(isNull(memberBans.liftedAt), or(isNull(memberBans.endsAt), gt(memberBans.endsAt, sql`now()`)));

/** The member's ban in force (the newest), if any. */
export async function banInForce(db: DbOrTx, userId: number): Promise<BanRow | undefined> {
  const [row] = await db
    .select()
    .from(memberBans)
    .where(and(eq(memberBans.userId, userId), inForce))
    .orderBy(desc(memberBans.createdAt), desc(memberBans.id))
    .limit(1);
  return row;
}

/** Every ban of a member, the newest first (staff's history). */
export function bansOf(db: DbOrTx, userId: number, limit = 50): Promise<BanRow[]> {
  return db
    .select()
    .from(memberBans)
    .where(eq(memberBans.userId, userId))
    .orderBy(desc(memberBans.createdAt), desc(memberBans.id))
    .limit(limit);
}

export async function insertBan(
  db: DbOrTx,
  row: { userId: number; reason: BanRow["reason"]; note: string; endsAt: Date | null; createdBy: number | null },
): Promise<BanRow> {
  const [created] = await db.insert(memberBans).values(row).returning();
  if (!created) throw new Error("ban insert returned nothing");
  return created;
}

/** Lifts the member's bans in force; returns how many. */
export async function liftBans(db: DbOrTx, userId: number, liftedBy: number | null): Promise<number> {
  const rows = await db
    .update(memberBans)
    .set({ liftedAt: sql`now()`, liftedBy })
    .where(and(eq(memberBans.userId, userId), inForce))
    .returning({ id: memberBans.id });
  return rows.length;
}

/** Mirrors the ban in force on the account for the visibility rules ('infinity': no end; null: none). */
export async function setBannedUntil(db: DbOrTx, userId: number, until: Date | "infinity" | null): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ bannedUntil: until === "infinity" ? sql`'infinity'::timestamptz` : until })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Ends the member's sessions at once, keeping each row as the ban's notice: expired now (nothing logs
 * in with it any more, `accounts_session_stands` included), and pointing at the ban for /pages/ban.
 */
export async function endSessionsForBan(db: DbOrTx, userId: number, banId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt: sql`now()`, endedByBan: banId })
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)));
}

/** A session that only carries a ban's notice to the browser refused at login (expired from the start). */
export async function insertBanNoticeSession(db: DbOrTx, userId: number, tokenHash: string, banId: number): Promise<void> {
  await db.insert(sessions).values({ userId, tokenHash, expiresAt: sql`now()`, endedByBan: banId });
}

/** The ban in force behind an ended session's token hash, if any. */
export async function banOfSession(db: DbOrTx, tokenHash: string): Promise<BanRow | undefined> {
  const [row] = await db
    .select({ ban: memberBans })
    .from(sessions)
    .innerJoin(memberBans, eq(memberBans.id, sessions.endedByBan))
    .where(and(eq(sessions.tokenHash, tokenHash), inForce))
    .limit(1);
  return row?.ban;
}

/** Clears the mirror of bans that ended by themselves (keeps users_hidden small); returns how many. */
export async function clearEndedBans(db: DbOrTx): Promise<number> {
  const rows = await db
    .update(users)
    .set({ bannedUntil: null })
    .where(lte(users.bannedUntil, sql`now()`))
    .returning({ id: users.id });
  return rows.length;
}
