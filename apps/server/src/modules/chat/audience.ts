import { and, not, or, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { unconfirmedUserCondition } from "../accounts/index.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import type { CardOf, Visible } from "./queries.ts";

/**
 * Whom a member's conversations show, and why a send is refused: the visibility policy's answer, and
 * spec §6's exception for members who wrote before confirming their address (the other member sees
 * the conversation but cannot reply until it is confirmed).
 */
export class ChatAudience {
  constructor(
    private readonly profiles: Pick<ProfileService, "userIdOf" | "cardOf">,
    private readonly visibility: Pick<VisibilityPolicy, "visibleProfile" | "unblocked">,
  ) {}

  /** A condition on a profile id column: that member has not confirmed their address (their profile inactive). */
  readonly unconfirmed: Visible = (profileId) =>
    and(unconfirmedUserCondition(this.profiles.userIdOf(profileId)), not(this.visibility.visibleProfile(profileId, null))) as SQL;

  /** The card columns of a profile (name, fictional, ...) as a lent from-item. */
  readonly card: CardOf = (profileId, alias) => this.profiles.cardOf(profileId, alias);

  /** Whom `me`'s conversations show: visible profiles, and unconfirmed members who wrote, no block either way. */
  listableTo(me: number): Visible {
    return (profileId: SQL) =>
      or(
        this.visibility.visibleProfile(profileId, me, "either"),
        and(this.unconfirmed(profileId), this.visibility.unblocked(profileId, me)),
      ) as SQL;
  }

  async isUnconfirmed(db: DbOrTx, profileId: number): Promise<boolean> {
    const [row] = await rowsOf<{ ok: boolean }>(db, sql`select ${this.unconfirmed(sql`${profileId}::int`)} as "ok"`);
    return row?.ok === true;
  }

  /** Why `me` may not write to `other`: waiting for their address, or hidden (blocked, inactive, invisible). */
  async refusal(db: DbOrTx, me: number, other: number): Promise<AppError> {
    const [waiting] = await rowsOf<{ ok: boolean }>(db, sql`select ${this.listableTo(me)(sql`${other}::int`)} as "ok"`);
    return new AppError(waiting?.ok ? "recipient_unconfirmed" : "profile_unavailable");
  }

  /** Who is waiting for an address to be confirmed in a conversation (shown in the list and the chat). */
  awaiting(meUnconfirmed: boolean, otherUnconfirmed: boolean): "me" | "other" | null {
    if (meUnconfirmed) return "me";
    return otherUnconfirmed ? "other" : null;
  }
}
