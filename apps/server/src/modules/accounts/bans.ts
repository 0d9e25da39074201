import { BAN_NOTE_MAX, type BanNotice, type BanReason } from "@app/contract";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { hashToken } from "../../platform/secrets.ts";
import {
  type BanRow,
  banInForce,
  banOfSession,
  bansOf,
  clearEndedBans,
  endSessionsForBan,
  insertBan,
  liftBans,
  setBannedUntil,
} from "./ban-queries.ts";
import { findUser } from "./queries.ts";

export type { BanRow } from "./ban-queries.ts";

/** A ban as staff and the audit log see it. */
export interface BanView {
  id: number;
  userId: number;
  reason: BanReason;
  note: string;
  endsAt: string | null;
  createdAt: string;
  createdBy: number | null;
  liftedAt: string | null;
  liftedBy: number | null;
}

export const banView = (row: BanRow): BanView => ({
  id: row.id,
  userId: row.userId,
  reason: row.reason as BanReason,
  note: row.note,
  endsAt: row.endsAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  liftedAt: row.liftedAt?.toISOString() ?? null,
  liftedBy: row.liftedBy,
});

/**
 * Bans (issue #27), owned by the accounts module. A ban takes effect in the caller's transaction (staff's
 * `audited` one): the member's sessions end, and `users.banned_until` hides their profile from search,
 * likes and chats through the visibility rules (migration 0030). It ends when lifted or by itself at its
 * end. After the transaction commits, `announce` closes the member's sockets on every node.
 */
export class BanService {
  constructor(
    private readonly db: Db,
    /** Closes the member's sockets everywhere, saying why (the bus's sessions-ended message). */
    private readonly sessionsEnded: (userId: number, reason: "banned") => void,
  ) {}

  /**
   * Bans a member: `endsAt` null for a ban until lifted, else a time still to come (ban_end_in_past).
   * A ban in force is replaced (lifted, the new one recorded). Returns the new ban and the one it replaced.
   */
  async ban(
    tx: Tx,
    input: { userId: number; reason: BanReason; note?: string; endsAt: Date | null; staffId: number | null },
  ): Promise<{ ban: BanView; replaced: BanView | null }> {
    if (input.endsAt && input.endsAt.getTime() <= Date.now())
      throw new AppError("ban_end_in_past", {}, { ends_at: "ban_end_in_past" });
    const note = (input.note ?? "").trim().slice(0, BAN_NOTE_MAX);
    const user = await findUser(tx, input.userId);
    if (!user) throw new AppError("not_found");
    const previous = await banInForce(tx, input.userId);
    if (previous) await liftBans(tx, input.userId, input.staffId);
    const ban = await insertBan(tx, {
      userId: input.userId,
      reason: input.reason,
      note,
      endsAt: input.endsAt,
      createdBy: input.staffId,
    });
    await setBannedUntil(tx, input.userId, input.endsAt ?? "infinity");
    await endSessionsForBan(tx, input.userId, ban.id);
    return { ban: banView(ban), replaced: previous ? banView(previous) : null };
  }

  /** Lifts the member's ban in force (not_banned when there is none); their profile shows again at once. */
  async unban(tx: Tx, input: { userId: number; staffId: number | null }): Promise<BanView> {
    const current = await banInForce(tx, input.userId);
    if (!current) throw new AppError("not_banned");
    await liftBans(tx, input.userId, input.staffId);
    await setBannedUntil(tx, input.userId, null);
    return banView(current);
  }

  /** After a ban committed: the member's open sockets close (code WS_CLOSE.banned) on every node. */
  announce(userId: number): void {
    this.sessionsEnded(userId, "banned");
  }

  async current(userId: number): Promise<BanView | null> {
    const row = await banInForce(this.db, userId);
    return row ? banView(row) : null;
  }

  async history(userId: number): Promise<BanView[]> {
    return (await bansOf(this.db, userId)).map(banView);
  }

  /** The ban behind a browser's session cookie, while in force (for /pages/ban and refused calls). */
  async notice(token: string | undefined): Promise<BanNotice | null> {
    if (!token || token.length > 100) return null;
    const row = await banOfSession(this.db, hashToken(token));
    return row ? { reason: row.reason as BanReason, ends_at: row.endsAt?.toISOString() ?? null } : null;
  }

  /** Clears the mirror of bans over by themselves (they already stopped hiding anyone at their end). */
  clearEnded(): Promise<number> {
    return clearEndedBans(this.db);
  }
}
