import {
  LIKES_PAGE_SIZE,
  LIMITS,
  type LikeCard,
  type LikePopupProfile,
  type LikeResponse,
  type LikeState,
  type LikesResponse,
  type LikeType,
  MATCH_AGE_SPREAD,
  type MemberContext,
  type MemberEvent,
  SWIPE_BATCH,
  SWIPES_PER_DAY,
  type SwipeCard,
  type SwipeResult,
  type SwipeStatus,
} from "@app/contract";
import { and, not, type SQL, sql } from "drizzle-orm";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import { type Db, type DbOrTx, rowsOf, type Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import type { AfterCommit } from "../blocks/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileFilters, ProfileService, TeaserRow } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import { isTimeZone, localDay } from "./local-day.ts";
import {
  claimAutoLike,
  clearNewAndRead,
  deleteLike,
  deletePairLikes,
  type EachVisible,
  findSwipeDay,
  hasSentLike,
  insertLike,
  type LikeCountsRow,
  type LikePageRow,
  lastAutoLike,
  likeCountsStatement,
  likePageStatement,
  likesBetween,
  likesOf,
  listedRows,
  lockPair,
  lockSwipeDay,
  markMatch,
  newLikesStatement,
  noLikeEitherWayCondition,
  notLikedByCondition,
  notSwipedSinceCondition,
  recordSwipe,
  type SwipeDayRow,
  saveSwipeDay,
  swipesOf,
  type VisibleAmong,
} from "./queries.ts";

const DAY_MS = 24 * 3_600_000;
/** Thrown inside the automatic like's transaction to roll its claim back when no like was inserted. */
const NO_AUTO_LIKE = new Error("no automatic like inserted");

/** Decision 019: a member gets at most one automatic like a day. */
export const AUTO_LIKE_INTERVAL_MS = DAY_MS;
/** Decision 019: a new time zone for the swipe game is taken at most once a week. */
export const TIME_ZONE_CHANGE_INTERVAL_MS = 7 * DAY_MS;

/** The state as `me` sees it, from both directions. */
export function stateOf(mine: boolean, theirs: boolean): LikeState {
  if (mine && theirs) return "match";
  if (mine) return "liked";
  return theirs ? "received" : "none";
}

/** What one like did inside its transaction; its events go out after commit. */
interface LikeOutcome {
  created: boolean;
  state: LikeState;
  match: LikePopupProfile | null;
  pending: PendingDelivery[];
}

type Member = Pick<MemberContext, "userId" | "profileId" | "paid" | "position">;

/**
 * Likes, matches, the new-like flag, the automatic like and the swipe game (spec §4, §7, §8, §9;
 * decision 019). Everything between two profiles changes under the pair's lock, so a match is made
 * exactly once; who may be liked and listed is the visibility policy's answer inside each statement.
 */
export class LikeService {
  /** The time the swipe game and the automatic like go by (tests move it). */
  clock: () => Date = () => new Date();

  constructor(
    private readonly db: Db,
    private readonly profiles: Pick<
      ProfileService,
      "listed" | "presentCards" | "userIdOf" | "seekerOf" | "detailsOf" | "cardOf" | "nearbyParts" | "inParts"
    >,
    private readonly photos: Pick<PhotoService, "mainImages" | "urlOf" | "hasPublicMain">,
    private readonly visibility: Pick<VisibilityPolicy, "visibleProfile" | "unblocked" | "eachVisible" | "visibleAmong">,
    private readonly events: Pick<MemberEvents, "record" | "recordAll" | "deliver">,
  ) {}

  /**
   * The likes' part of the data export (issue #27): likes given and received (with the match time when
   * mutual) and the swipe game's choices, naming the other profile by id.
   */
  async exportFor({ profileId }: ExportSubject): Promise<ExportPart> {
    if (profileId === null) return { json: {} };
    const [rows, swipeRows] = await Promise.all([likesOf(this.db, profileId), swipesOf(this.db, profileId)]);
    const given = rows.filter((row) => row.likerId === profileId);
    const received = rows.filter((row) => row.likedId === profileId);
    return {
      json: {
        likes: {
          given: given.map((row) => ({
            profile_id: row.likedId,
            liked_at: isoOrNull(row.createdAt),
            matched_at: isoOrNull(row.matchedAt),
          })),
          received: received.map((row) => ({
            profile_id: row.likerId,
            liked_at: isoOrNull(row.createdAt),
            matched_at: isoOrNull(row.matchedAt),
          })),
          swipes: swipeRows.map((row) => ({ profile_id: row.targetId, liked: row.liked, swiped_at: isoOrNull(row.swipedAt) })),
        },
      },
    };
  }

  /** The visibility policy's condition for `me`'s lists and contacts: visible, active, no block either way. */
  private visibleTo(me: number): (profileId: SQL) => SQL {
    return (profileId) => this.visibility.visibleProfile(profileId, me, "either");
  }

  /** The visibility policy's set-based check for `me`'s counts (the likes overview and the badge). */
  private visibleAmongTo(me: number): VisibleAmong {
    return (profileId) => this.visibility.visibleAmong(profileId, me);
  }

  /** The visibility policy's row-by-row check for `me`'s pages, which stop after their rows. */
  private eachVisibleTo(me: number): EachVisible {
    return (profileId, alias) => this.visibility.eachVisible(profileId, me, alias);
  }

  /** Profiles `me` may see in lists, with `filters`: the profiles module's rows, unblocked either way. */
  private listedFor(me: number, filters: Omit<ProfileFilters, "condition"> = {}, condition?: (id: SQL) => SQL) {
    return this.profiles.listed({
      ...filters,
      condition: (id) =>
        condition ? (and(this.visibility.unblocked(id, me), condition(id)) as SQL) : this.visibility.unblocked(id, me),
    });
  }

  /** Pop-up profiles (match modal, auto-like) of `ids` that `me` may see, with the main image's match path. */
  private async popups(ids: number[], me: number): Promise<Map<number, LikePopupProfile>> {
    const listed = this.listedFor(me, {}, (id) => sql`${id} = any(${sql.param(ids)}::int[])`);
    const rows = await listedRows(this.db, listed, { order: sql`"id"`, limit: ids.length });
    const images = await this.photos.mainImages(rows.map((row) => row.id));
    return new Map(
      rows.map((row) => {
        const image = images.get(row.id);
        return [
          row.id,
          {
            id: row.id,
            name: row.name,
            age: row.age,
            fictional: row.fictional,
            main_image:
              image?.status === "active"
                ? { thumb_url: this.photos.urlOf(image.thumb_filename), match_url: this.photos.urlOf(image.filename) }
                : null,
          },
        ];
      }),
    );
  }

  private async record(tx: DbOrTx, pending: PendingDelivery[], userId: number, ...events: MemberEvent[]): Promise<void> {
    for (const event of events) pending.push(await this.events.record(tx, userId, event));
  }

  /**
   * The like `me` → `target` inside `tx`: refused (profile_unavailable) unless `target` is visible to `me`
   * and unblocked either way; idempotent; the match is made here when the other like exists.
   */
  private async likeIn(
    tx: Tx,
    me: Pick<Member, "userId" | "profileId">,
    target: number,
    popups: Map<number, LikePopupProfile>,
  ): Promise<LikeOutcome> {
    const pending: PendingDelivery[] = [];
    await lockPair(tx, me.profileId, target);
    const inserted = await insertLike(tx, me.profileId, target, this.visibleTo(me.profileId)(sql`${target}::int`), (id) =>
      this.profiles.userIdOf(id),
    );
    if (!inserted) {
      const between = await likesBetween(tx, me.profileId, target);
      if (!between.mine) throw new AppError("profile_unavailable");
      return { created: false, state: stateOf(true, between.theirs), match: null, pending };
    }
    const matched = await markMatch(tx, me.profileId, target);
    const theirUser = inserted.likedUserId;
    if (!matched) {
      await this.record(tx, pending, theirUser, { type: "like.received", profile_id: me.profileId }, { type: "badges.changed" });
      return { created: true, state: "liked", match: null, pending };
    }
    const mine = popups.get(me.profileId);
    const theirs = popups.get(target) ?? null;
    // The other member's tabs update; mine show the pop-up (initiator). A liker others may not see (invisible)
    // has no pop-up profile: the other member gets the state change instead.
    // Both members' sequence rows, in user id order (recordAll): crossing matches cannot deadlock.
    pending.push(
      ...(await this.events.recordAll(tx, [
        {
          userId: theirUser,
          event: mine
            ? { type: "like.match", profile: mine, initiator: false }
            : { type: "like.changed", profile_id: me.profileId, state: "match" },
        },
        { userId: theirUser, event: { type: "badges.changed" } },
        ...(theirs ? [{ userId: me.userId, event: { type: "like.match", profile: theirs, initiator: true } as const }] : []),
      ])),
    );
    return { created: true, state: "match", match: theirs, pending };
  }

  /**
   * The pop-ups a like may need (the target's and mine), which also says whether `me` may like `target`
   * (profile_unavailable, cannot_like_self). Read before a like's transaction (likeAsPersona's caller too).
   */
  async popupsForLike(me: number, target: number): Promise<Map<number, LikePopupProfile>> {
    if (me === target) throw new AppError("cannot_like_self");
    const popups = await this.popups([target, me], me);
    if (!popups.has(target)) throw new AppError("profile_unavailable");
    return popups;
  }

  /** POST /api/like.php. */
  async like(member: Member, target: number): Promise<LikeResponse> {
    const popups = await this.popupsForLike(member.profileId, target);
    const outcome = await this.db.transaction((tx) => this.likeIn(tx, member, target, popups));
    await this.events.deliver(...outcome.pending);
    return { id: target, state: outcome.state, match: outcome.match };
  }

  /**
   * Issue #27: a like from a fictional profile, sent by an operator inside `tx` (the staff audit's
   * transaction), under the same rules as a member's (visible, unblocked, a match when the member liked
   * it). The caller checks that `persona` is fictional and reads `popups` (popupsForLike) before the
   * transaction; the events go when `deliver` is called, after commit.
   */
  async likeAsPersona(
    tx: Tx,
    persona: Pick<Member, "userId" | "profileId">,
    target: number,
    popups: Map<number, LikePopupProfile>,
  ): Promise<{ response: LikeResponse; deliver: () => Promise<void> }> {
    const outcome = await this.likeIn(tx, persona, target, popups);
    return {
      response: { id: target, state: outcome.state, match: outcome.match },
      deliver: () => this.events.deliver(...outcome.pending),
    };
  }

  /** DELETE /api/like.php: takes my like back (a match becomes their one-sided like); idempotent. */
  async unlike(member: Member, target: number): Promise<LikeResponse> {
    if (member.profileId === target) throw new AppError("cannot_like_self");
    const { state, pending } = await this.db.transaction(async (tx) => {
      const pending: PendingDelivery[] = [];
      await lockPair(tx, member.profileId, target);
      const deleted = await deleteLike(tx, member.profileId, target, (id) => this.profiles.userIdOf(id));
      if (!deleted) {
        const between = await likesBetween(tx, member.profileId, target);
        return { state: stateOf(between.mine, between.theirs), pending };
      }
      const state = stateOf(false, deleted.matched);
      await this.record(tx, pending, deleted.likedUserId, {
        type: "like.changed",
        profile_id: member.profileId,
        state: deleted.matched ? "liked" : "none",
      });
      if (!deleted.seen) await this.record(tx, pending, deleted.likedUserId, { type: "badges.changed" });
      await this.record(tx, pending, member.userId, { type: "like.changed", profile_id: target, state });
      return { state, pending };
    });
    await this.events.deliver(...pending);
    return { id: target, state, match: null };
  }

  /**
   * `me` opened `other`'s profile (spec §4): their like to me is not new any more (my other tabs hear of
   * it); answers the state between us for the profile's action bar.
   */
  async viewed(me: number, other: number): Promise<LikeState> {
    const { state, pending } = await this.db.transaction(async (tx) => {
      const pending: PendingDelivery[] = [];
      const found = await clearNewAndRead(tx, me, other, (id) => this.profiles.userIdOf(id));
      const state = stateOf(found.mine, found.theirs);
      if (found.cleared) {
        await this.record(
          tx,
          pending,
          found.myUserId,
          { type: "like.changed", profile_id: other, state },
          { type: "badges.changed" },
        );
      }
      return { state, pending };
    });
    await this.events.deliver(...pending);
    return state;
  }

  /** The block hook (spec §6: likes are deleted), inside the block's transaction; events after commit. */
  readonly onBlock = async (tx: Tx, blocker: number, blocked: number): Promise<AfterCommit | undefined> => {
    await lockPair(tx, blocker, blocked);
    const deleted = await deletePairLikes(tx, blocker, blocked);
    if (deleted.length === 0) return undefined;
    const [users] = await rowsOf<{ blocker_user: number; blocked_user: number }>(
      tx,
      sql`select ${this.profiles.userIdOf(sql`${blocker}::int`)} as blocker_user, ${this.profiles.userIdOf(sql`${blocked}::int`)} as blocked_user`,
    );
    if (!users) return undefined;
    const userOf = (profileId: number) => Number(profileId === blocker ? users.blocker_user : users.blocked_user);
    const pending: PendingDelivery[] = [];
    for (const [me, other] of [
      [blocker, blocked],
      [blocked, blocker],
    ] as const) {
      const newToMe = deleted.some((row) => row.likedId === me && !row.seen);
      await this.record(tx, pending, userOf(me), { type: "like.changed", profile_id: other, state: "none" });
      if (newToMe) await this.record(tx, pending, userOf(me), { type: "badges.changed" });
    }
    return () => this.events.deliver(...pending);
  };

  /** GET /api/likes.php: one tab, new likes first, then the latest; counts over visible profiles only. */
  async list(member: Member, type: LikeType, page: number, showCity: boolean): Promise<LikesResponse> {
    const me = member.profileId;
    const visible = this.eachVisibleTo(me);
    const card = (profileId: SQL, alias: string) => this.profiles.cardOf(profileId, alias);
    const [[counts], rows] = await Promise.all([
      rowsOf<LikeCountsRow>(this.db, likeCountsStatement(me, this.visibleAmongTo(me))),
      rowsOf<LikePageRow>(this.db, likePageStatement(type, me, visible, card, (page - 1) * LIKES_PAGE_SIZE, LIKES_PAGE_SIZE)),
    ]);
    const total = { received: 0, sent: 0, matches: 0, new: 0, ...counts };
    const cards = await this.profiles.presentCards(rows, member.position, showCity);
    const like: LikeState = type === "received" ? "received" : type === "sent" ? "liked" : "match";
    const profiles: LikeCard[] = cards.map((card, i) => {
      const row = rows[i] as LikePageRow;
      return { ...card, like, like_new: type !== "sent" && !row.seen, liked_at: new Date(row.liked_at).toISOString() };
    });
    return {
      type,
      profiles,
      liked_by: type === "sent" ? [] : profiles.map((card) => ({ id: card.id, like_new: card.like_new })),
      counts: total,
      page,
      pages: Math.ceil(total[type] / LIKES_PAGE_SIZE),
    };
  }

  /** The new-likes badge: likes to me from visible profiles that I have not opened. */
  async newLikes(me: number): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(this.db, newLikesStatement(me, this.visibleAmongTo(me)));
    return Number(row?.n ?? 0);
  }

  /**
   * GET /api/auto-like.php (decision 019): a fictional profile that likes the member now, at most once a
   * day, only for a member with a photo or a like of their own, never a real member, never one with a
   * like either way already; null otherwise.
   */
  async autoLike(member: Member, countries: readonly string[]): Promise<LikePopupProfile | null> {
    const me = member.profileId;
    const now = this.clock();
    const last = await lastAutoLike(this.db, me);
    if (last && now.getTime() - last.getTime() < AUTO_LIKE_INTERVAL_MS) return null;
    const hasPhoto = (await this.photos.mainImages([me])).get(me)?.status === "active";
    if (!hasPhoto && !(await hasSentLike(this.db, me))) return null;
    const seeker = await this.profiles.seekerOf(member.userId);
    if (!seeker) return null;
    const listed = this.listedFor(
      me,
      { gender: seeker.seeking === "both" ? undefined : seeker.seeking, countries, excludeIds: [me] },
      (id) => noLikeEitherWayCondition(id, me),
    );
    const [candidate] = await listedRows(this.db, listed, { where: sql`"fictional"`, order: sql`random()`, limit: 1 });
    if (!candidate) return null;
    const popup = (await this.popups([candidate.id], me)).get(candidate.id);
    if (!popup?.fictional) return null;
    const pending = await this.db
      .transaction(async (tx) => {
        const pending: PendingDelivery[] = [];
        if (!(await claimAutoLike(tx, me, now, AUTO_LIKE_INTERVAL_MS))) return null;
        await lockPair(tx, candidate.id, me);
        const inserted = await insertLike(tx, candidate.id, me, this.visibleTo(candidate.id)(sql`${me}::int`), (id) =>
          this.profiles.userIdOf(id),
        );
        // No like (an unconfirmed member, whose profile nobody sees yet, or one hidden meanwhile): the
        // day's automatic like is not used up either (issue #29), so the claim is rolled back.
        if (!inserted) throw NO_AUTO_LIKE;
        await this.record(
          tx,
          pending,
          member.userId,
          { type: "like.received", profile_id: candidate.id },
          { type: "badges.changed" },
        );
        return pending;
      })
      .catch((error: unknown) => {
        if (error === NO_AUTO_LIKE) return null;
        throw error;
      });
    if (!pending) return null;
    await this.events.deliver(...pending);
    return popup;
  }

  // The swipe game

  /**
   * The member's game day at `now` (decision 019): the stored window while it lasts; once it has ended, a
   * new one from local midnight in the member's zone, starting no earlier than the last one ended. A new
   * zone is taken at most once a week and only decides the next window.
   */
  private dayAt(row: SwipeDayRow | undefined, me: number, timeZone: string | undefined, now: Date): SwipeDayRow {
    const day: SwipeDayRow = row
      ? { ...row }
      : {
          profileId: me,
          timeZone: timeZone ?? "UTC",
          timeZoneChangedAt: null,
          dayStart: new Date(0),
          dayEnd: new Date(0),
          swipes: 0,
          likes: 0,
        };
    if (
      timeZone &&
      timeZone !== day.timeZone &&
      (!day.timeZoneChangedAt || now.getTime() - day.timeZoneChangedAt.getTime() >= TIME_ZONE_CHANGE_INTERVAL_MS)
    ) {
      day.timeZone = timeZone;
      day.timeZoneChangedAt = now;
    }
    if (now < day.dayEnd) return day;
    const local = localDay(day.timeZone, now);
    return {
      ...day,
      dayStart: local.start > day.dayEnd ? local.start : day.dayEnd,
      dayEnd: local.end,
      swipes: 0,
      likes: 0,
    };
  }

  private statusOf(day: SwipeDayRow, paid: boolean): SwipeStatus {
    const swipesLeft = Math.max(0, SWIPES_PER_DAY - day.swipes);
    const likesLeft = paid ? null : Math.max(0, LIMITS.swipeLikesPerDay - day.likes);
    return {
      swipes_left: swipesLeft,
      likes_left: likesLeft,
      resets_at: day.dayEnd.toISOString(),
      limit: swipesLeft === 0 ? "swipes" : likesLeft === 0 ? "likes" : null,
    };
  }

  private zone(timeZone: string | undefined): string | undefined {
    if (timeZone !== undefined && !isTimeZone(timeZone)) throw new AppError("validation_failed", {}, { tz: "validation_failed" });
    return timeZone;
  }

  /** GET /api/swipe.php: the next candidates and the day's status. */
  async swipeCandidates(
    member: Member,
    timeZone: string | undefined,
    countries: readonly string[],
    showCity: boolean,
  ): Promise<{ profiles: SwipeCard[]; status: SwipeStatus }> {
    const me = member.profileId;
    const day = this.dayAt(await findSwipeDay(this.db, me, false), me, this.zone(timeZone), this.clock());
    const status = this.statusOf(day, member.paid);
    const seeker = await this.profiles.seekerOf(member.userId);
    if (status.limit === "swipes" || !seeker) return { profiles: [], status };
    const notYet = (id: SQL) => and(notLikedByCondition(id, me), notSwipedSinceCondition(id, me, day.dayStart)) as SQL;
    const gender = seeker.seeking === "both" ? undefined : seeker.seeking;
    // Nearby first (issue #29): the member's country, then the distance bucket, then newest; read in rings
    // nearest first, so a batch stops at the ring that fills it instead of sorting every candidate.
    const parts = this.profiles.nearbyParts({ profileId: me, origin: member.position });
    // The member's age range first; when it runs short, any age (the refill, issue #29: the game ran dry
    // with swipes left). Members with a photo first in each, then the others.
    const rows: TeaserRow[] = [];
    for (const ages of [
      { minAge: Math.max(18, seeker.age - MATCH_AGE_SPREAD), maxAge: Math.min(99, seeker.age + MATCH_AGE_SPREAD) },
      {},
    ]) {
      if (rows.length >= SWIPE_BATCH) break;
      const listed = this.listedFor(me, { gender, ...ages, countries, excludeIds: [me, ...rows.map((r) => r.id)] }, notYet);
      const withPhoto = this.photos.hasPublicMain(listed.id);
      for (const where of [withPhoto, not(withPhoto)]) {
        if (rows.length >= SWIPE_BATCH) break;
        const limit = SWIPE_BATCH - rows.length;
        rows.push(...(await listedRows(this.db, this.profiles.inParts(listed, parts, where, limit), { limit })));
      }
    }
    const ids = rows.map((row) => row.id);
    const [cards, details, images] = await Promise.all([
      this.profiles.presentCards(rows, member.position, showCity),
      this.profiles.detailsOf(ids),
      this.photos.mainImages(ids),
    ]);
    const profiles = cards.map((card) => {
      const image = images.get(card.id);
      const detail = details.get(card.id);
      return {
        ...card,
        about: detail?.about ?? "",
        interests: (detail?.interests ?? []) as SwipeCard["interests"],
        image_url: image?.status === "active" ? this.photos.urlOf(image.filename) : null,
      };
    });
    return { profiles, status };
  }

  /**
   * POST /api/swipe.php: a pass or a like (a real like, as POST /api/like.php) within the day's limits,
   * counted under the member's day row lock, so concurrent swipes cannot pass a limit.
   */
  async swipe(member: Member, input: { id: number; like: boolean; tz?: string | undefined }): Promise<SwipeResult> {
    const me = member.profileId;
    const timeZone = this.zone(input.tz);
    const popups = await this.popupsForLike(me, input.id);
    const now = this.clock();
    const outcome = await this.db.transaction(async (tx) => {
      const day = this.dayAt(await lockSwipeDay(tx, this.dayAt(undefined, me, timeZone, now)), me, timeZone, now);
      if (day.swipes >= SWIPES_PER_DAY) throw new AppError("swipes_exhausted");
      if (input.like && !member.paid && day.likes >= LIMITS.swipeLikesPerDay) throw new AppError("swipe_likes_exhausted");
      let liked: LikeOutcome | null = null;
      if (input.like) {
        liked = await this.likeIn(tx, member, input.id, popups);
        if (liked.created) day.likes += 1;
      }
      day.swipes += 1;
      await recordSwipe(tx, me, input.id, input.like, now);
      await saveSwipeDay(tx, day);
      const between = liked ? null : await likesBetween(tx, me, input.id);
      const state = liked?.state ?? stateOf(!!between?.mine, !!between?.theirs);
      return { state, match: liked?.match ?? null, pending: liked?.pending ?? [], status: this.statusOf(day, member.paid) };
    });
    await this.events.deliver(...outcome.pending);
    return { state: outcome.state, match: outcome.match, status: outcome.status };
  }
}
