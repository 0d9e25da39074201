import {
  type MemberContext,
  VISIT_RETENTION_DAYS,
  VISITORS_PAGE_SIZE,
  type VisitorCard,
  type VisitorsResponse,
} from "@app/contract";
import type { SQL } from "drizzle-orm";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import { type Db, rowsOf, type Tx } from "../../platform/db/index.ts";
import type { PresenceLabels } from "../notifications/index.ts";
import type { ProfileService, TeaserRow } from "../profiles/index.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import {
  deletePairVisits,
  deleteVisitsBefore,
  markVisitorsSeen,
  upsertVisit,
  visitorCountStatement,
  visitorPageStatement,
  visitorsSeenAt,
  visitsBy,
} from "./queries.ts";

const DAY = 86_400_000;

type Member = Pick<MemberContext, "profileId" | "paid" | "position" | "invisible" | "hidePresence">;

/**
 * Issue #29, profile visitors ("who viewed me", README). Opening a profile records a visit of the pair
 * (not one's own, not an invisible visitor's, not across a block); the visited member sees their visitors
 * newest first: premium members the profiles, free members only the count and blurred placeholders, the
 * gate enforced here so a free member's answer carries no identity.
 */
export class VisitService {
  constructor(
    private readonly db: Db,
    private readonly profiles: Pick<ProfileService, "cardOf" | "presentCards">,
    private readonly visibility: Pick<VisibilityPolicy, "eachVisible">,
    private readonly labels: Pick<PresenceLabels, "label">,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * `visitor` opened the profile `visitedId` (after the profile view was allowed). Leaves nothing for
   * one's own profile, an invisible visitor, or a pair with a block either way (`blocked`: the visitor
   * blocked them; a member blocked by the profile's owner cannot open it at all).
   */
  async visited(visitor: Pick<MemberContext, "profileId" | "invisible">, visitedId: number, blocked: boolean): Promise<void> {
    if (visitor.invisible || blocked || visitor.profileId === visitedId) return;
    await upsertVisit(this.db, visitor.profileId, visitedId, this.clock());
  }

  /** Spec §6 and issue #29: a block deletes the pair's visits both ways, inside the block's transaction. */
  readonly onBlock = async (tx: Tx, blockerId: number, blockedId: number): Promise<undefined> => {
    await deletePairVisits(tx, blockerId, blockedId);
    return undefined;
  };

  private since(): Date {
    return new Date(this.clock().getTime() - VISIT_RETENTION_DAYS * DAY);
  }

  private visibleTo(me: number) {
    return (profileId: SQL, alias: string) => this.visibility.eachVisible(profileId, me, alias);
  }

  /**
   * The "new visitors" badge (GET /api/badges.php): visible visitors since the member last opened
   * /visitors (free members too: the count is a reason to buy).
   */
  async newVisitors(profileId: number): Promise<number> {
    const seenAt = await visitorsSeenAt(this.db, profileId);
    const retained = this.since();
    // Just after the mark: a visit recorded in the same millisecond as the opening was seen.
    const since = seenAt && seenAt >= retained ? new Date(seenAt.getTime() + 1) : retained;
    const [counted] = await rowsOf<{ n: number }>(this.db, visitorCountStatement(profileId, since, this.visibleTo(profileId)));
    return Number(counted?.n ?? 0);
  }

  /**
   * GET /api/visitors.php: a page of the member's visitors, identities for premium members only. Opening
   * the page clears the "new visitors" badge.
   */
  async list(member: Member, page: number, showCity: boolean): Promise<VisitorsResponse> {
    const me = member.profileId;
    const since = this.since();
    const visible = this.visibleTo(me);
    await markVisitorsSeen(this.db, me, this.clock());
    const [counted] = await rowsOf<{ n: number }>(this.db, visitorCountStatement(me, since, visible));
    const total = Number(counted?.n ?? 0);
    const offset = (page - 1) * VISITORS_PAGE_SIZE;
    const pages = Math.ceil(total / VISITORS_PAGE_SIZE);
    if (!member.paid) {
      const placeholders = Math.max(0, Math.min(VISITORS_PAGE_SIZE, total - offset));
      return { total, locked: true, visitors: [], placeholders, page, pages };
    }
    const card = (profileId: SQL, alias: string) => this.profiles.cardOf(profileId, alias);
    const rows = await rowsOf<TeaserRow & { visited_at: Date | string }>(
      this.db,
      visitorPageStatement(me, since, visible, card, offset, VISITORS_PAGE_SIZE),
    );
    const cards = await this.labels.label(member, await this.profiles.presentCards(rows, member.position, showCity));
    const visitors: VisitorCard[] = cards.map((c, i) => ({
      ...c,
      visited_at: new Date((rows[i] as { visited_at: Date | string }).visited_at).toISOString(),
    }));
    return { total, locked: false, visitors, placeholders: 0, page, pages };
  }

  /** Deletes visits past the retention window (the daily job); returns how many. */
  purgeExpired(): Promise<number> {
    return deleteVisitsBefore(this.db, this.since());
  }

  /** The visits' part of the data export: the profiles the member visited, and when last. */
  async exportFor({ profileId }: ExportSubject): Promise<ExportPart> {
    if (profileId === null) return { json: {} };
    const rows = await visitsBy(this.db, profileId);
    return {
      json: { profile_visits: rows.map((row) => ({ visited_profile_id: row.visitedId, visited_at: isoOrNull(row.visitedAt) })) },
    };
  }
}
