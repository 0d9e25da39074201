import {
  DEFAULT_SEARCH_SORT,
  MATCH_AGE_SPREAD,
  type MatchFinderResponse,
  type MemberSearchQuery,
  type MemberSearchResponse,
  SEARCH_COUNT_CAP,
  SEARCH_PAGE_SIZE,
  type SearchSort,
  type Settings,
  SIMILAR_THRESHOLD,
  searchVisible,
  type TeaserProfile,
} from "@app/contract";
import { and, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { PhotoService } from "../photos/service.ts";
import type { Asker, ListedProfiles, ProfileFilters, ProfileService, TeaserRow } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import { countListedUpTo, NEWEST_ORDER, orderedListed } from "./queries.ts";

/** Suggestions the match finder shows. */
const MATCH_LIMIT = 24;
/** Similar members shown when a search finds fewer than SIMILAR_THRESHOLD. */
const SIMILAR_LIMIT = 12;

/**
 * How a list is read: one order, or (nearby first with a country and a position) the same order as rings
 * read nearest first, each with its own order (`ProfileService.nearbyRings`).
 */
interface ListOrder {
  order: SQL;
  rings: { where: SQL; order: SQL }[] | null;
}

const showsCity = (settings: Pick<Settings, "visible_profile_fields">) =>
  (settings.visible_profile_fields as readonly string[]).includes("city");

/**
 * Lists of members: the search (GET /api/members.php), the match finder and the home page's teaser.
 * Rows come from the profiles module's `listed` subquery; who has a public photo is the photos module's
 * condition and who is blocked the blocks module's list.
 */
export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly profiles: Pick<ProfileService, "listed" | "presentCards" | "seekerOf" | "nearbyOrder" | "nearbyRings">,
    private readonly photos: Pick<PhotoService, "hasPublicMain" | "mainThumbOf">,
    /** Who may see whom (spec §6: blocked pairs never see each other in lists). */
    private readonly visibility: Pick<VisibilityPolicy, "unblocked">,
    /** "Online now" on a user id column: the notifications module's presence rule (`onlineCondition`). */
    private readonly online: (userId: SQL) => SQL<boolean>,
    private readonly options: { countCap: number } = { countCap: SEARCH_COUNT_CAP },
  ) {}

  /** What `askerProfileId`'s lists leave out: their own profile and those blocked either way (decision 011). */
  private excludedFor(askerProfileId: number | null | undefined): Pick<ProfileFilters, "excludeIds" | "condition"> {
    if (!askerProfileId) return {};
    return {
      excludeIds: [askerProfileId],
      condition: (profileId) => this.visibility.unblocked(profileId, askerProfileId),
    };
  }

  private withPhoto(listed: ListedProfiles): SQL {
    return this.photos.hasPublicMain(listed.id);
  }

  /**
   * Rows of `listed` in `order` (newest first by default), with their cards' images read in the same
   * statement. An order in rings reads ring after ring, nearest first, and stops once `offset + limit`
   * rows are found: a page near the asker never sorts the matches further out (decision 018).
   */
  private async ordered(
    listed: ListedProfiles,
    options: { where?: SQL | undefined; order?: ListOrder; offset?: number; limit: number },
  ): Promise<TeaserRow[]> {
    const { where, order, offset = 0, limit } = options;
    const mainThumb = this.photos.mainThumbOf(listed.id);
    if (!order?.rings) return orderedListed(this.db, listed, { where, order: order?.order, offset, limit, mainThumb });
    const rows: TeaserRow[] = [];
    // Rows of the rings read so far; the page is rows[offset, offset + limit).
    let seen = 0;
    for (const [i, ring] of order.rings.entries()) {
      const last = i === order.rings.length - 1;
      // The last ring skips in the statement what the page does not show; the others return it to be counted.
      const skip = last ? Math.max(0, offset - seen) : 0;
      const found = await orderedListed(this.db, listed, {
        where: and(where, ring.where),
        order: ring.order,
        offset: skip,
        limit: offset + limit - seen - skip,
        mainThumb,
      });
      for (const row of found) {
        if (seen + skip >= offset) rows.push(row);
        seen++;
      }
      if (seen >= offset + limit) break;
    }
    return rows;
  }

  /**
   * The order of `asker`'s list (issue #29, decision 018 "Nearby first"). `nearby`: their country first,
   * then the distance bucket between city centres, members online now first within a bucket, then newest.
   * `online`: online now first, then as `nearby`. `newest`, and `nearby` for a visitor (no country, no
   * position): newest first, in index order.
   */
  private orderOf(listed: ListedProfiles, asker: Pick<Asker, "profileId" | "origin"> | null, sort: SearchSort): ListOrder {
    const nearby = asker ? this.profiles.nearbyOrder(asker) : [];
    if (sort === "newest" || (sort === "nearby" && nearby.length === 0)) return { order: NEWEST_ORDER, rings: null };
    const online = sql`${this.online(listed.userId)} desc`;
    const keys = sort === "online" ? [online, ...nearby] : [...nearby, online];
    const rings = sort === "nearby" && asker ? this.profiles.nearbyRings(asker) : null;
    return {
      order: sql.join([...keys, NEWEST_ORDER], sql`, `),
      rings:
        rings?.map((ring) => ({ where: ring.where, order: sql.join([...ring.order, online, NEWEST_ORDER], sql`, `) })) ?? null,
    };
  }

  /**
   * Members with a public photo first, then the others, newest first in each: `limit` rows from
   * `offset`. Each group is read in index order and stops early; the members without a photo are read
   * only when the page reaches past those with one.
   */
  private async photoFirst(
    listed: ListedProfiles,
    offset: number,
    limit: number,
    options: { order?: ListOrder; where?: SQL | undefined } = {},
  ): Promise<TeaserRow[]> {
    const { order, where } = options;
    const withPhoto = and(where, this.withPhoto(listed)) as SQL;
    const first = await this.ordered(listed, { where: withPhoto, order, offset, limit });
    if (first.length === limit) return first;
    // Where the others start: past every member with a photo (all before this page when it has none of them).
    const photoCount = first.length > 0 ? offset + first.length : await countListedUpTo(this.db, listed, withPhoto, offset);
    const rest = await this.ordered(listed, {
      where: and(where, not(this.withPhoto(listed))),
      order,
      offset: Math.max(0, offset - photoCount),
      limit: limit - first.length,
    });
    return [...first, ...rest];
  }

  /**
   * The search as `asker` may run it, for the API and the page alike: visitors only where the site's
   * logged-out search rule allows it (spec §4); null when it does not.
   */
  async searchIfVisible(
    query: MemberSearchQuery,
    asker: Asker | null,
    settings: Pick<Settings, "countries" | "visible_profile_fields" | "logged_out_search" | "logged_out_search_trafficsource">,
    context: { hasTrafficSource: boolean },
  ): Promise<MemberSearchResponse | null> {
    if (!searchVisible(settings, asker !== null, context.hasTrafficSource)) return null;
    return this.search(query, asker, settings);
  }

  /** `searchIfVisible`, with 403 authentication_required where the rule hides the search (the API's answer). */
  async searchFor(...input: Parameters<SearchService["searchIfVisible"]>): Promise<MemberSearchResponse> {
    const result = await this.searchIfVisible(...input);
    if (!result) throw new AppError("authentication_required");
    return result;
  }

  /** The home page's teaser under the same rule: visitors see members only where search is open to them. */
  teaserIfVisible(
    options: { limit: number },
    settings: Pick<Settings, "countries" | "logged_out_search" | "logged_out_search_trafficsource">,
    context: { hasTrafficSource: boolean },
  ): Promise<TeaserProfile[]> {
    if (!searchVisible(settings, false, context.hasTrafficSource)) return Promise.resolve([]);
    return this.teaser({ limit: options.limit, countries: settings.countries });
  }

  /**
   * GET /api/members.php: the spec's search (gender, country, countryregion, age range) over visible,
   * active members of the site's countries, 24 per page, counted up to SEARCH_COUNT_CAP ("1000+"); pages
   * past the cap answer no profiles. When it finds fewer than 6, similar members (same gender, any
   * region or age) follow.
   */
  async search(
    query: MemberSearchQuery,
    asker: Asker | null,
    settings: Pick<Settings, "countries" | "visible_profile_fields">,
  ): Promise<MemberSearchResponse> {
    const countries = query.country ? settings.countries.filter((c) => c === query.country) : settings.countries;
    const excluded = this.excludedFor(asker?.profileId);
    const filters: ProfileFilters = {
      gender: query.gender,
      countries,
      region: query.country ? query.countryregion : undefined,
      minAge: query.min_age,
      maxAge: query.max_age,
      ...excluded,
    };
    const page = query.page ?? 1;
    const offset = (page - 1) * SEARCH_PAGE_SIZE;
    const listed = this.profiles.listed(filters);
    const sort = query.sort ?? DEFAULT_SEARCH_SORT;
    const onlineNow = query.online ? this.online(listed.userId) : undefined;
    const order = this.orderOf(listed, asker, sort);
    // Independent statements: on a pool they run side by side (PGlite serialises them anyway).
    const { countCap } = this.options;
    const [counted, rows] = await Promise.all([
      countListedUpTo(this.db, listed, onlineNow, countCap + 1),
      offset < countCap ? this.photoFirst(listed, offset, SEARCH_PAGE_SIZE, { order, where: onlineNow }) : Promise.resolve([]),
    ]);
    const total = Math.min(counted, countCap);
    let similar: TeaserRow[] = [];
    if (counted < SIMILAR_THRESHOLD) {
      const wider = this.profiles.listed({ gender: query.gender, countries: settings.countries, ...excluded });
      const found = new Set(rows.map((r) => r.id));
      similar = (await this.photoFirst(wider, 0, SIMILAR_LIMIT + counted, { order: this.orderOf(wider, asker, sort) }))
        .filter((r) => !found.has(r.id))
        .slice(0, SIMILAR_LIMIT);
    }
    return {
      profiles: await this.profiles.presentCards(rows, asker?.origin, showsCity(settings)),
      numResults: total,
      numResultsCapped: counted > countCap,
      page,
      pages: Math.ceil(total / SEARCH_PAGE_SIZE),
      similar: await this.profiles.presentCards(similar, asker?.origin, showsCity(settings)),
    };
  }

  /**
   * /match-finder: members of the gender the member looks for (any for "both"), within 8 years of
   * their age, with a photo, from their own country first, then nearest first (as the search's `nearby`).
   */
  async matchFinder(
    userId: number,
    settings: Pick<Settings, "countries" | "visible_profile_fields">,
  ): Promise<MatchFinderResponse> {
    const seeker = await this.profiles.seekerOf(userId);
    if (!seeker) throw new AppError("not_found");
    const criteria = {
      gender: seeker.seeking === "both" ? null : seeker.seeking,
      min_age: Math.max(18, seeker.age - MATCH_AGE_SPREAD),
      max_age: Math.min(99, seeker.age + MATCH_AGE_SPREAD),
      country: seeker.country,
    };
    const filters = {
      gender: criteria.gender ?? undefined,
      minAge: criteria.min_age,
      maxAge: criteria.max_age,
      ...this.excludedFor(seeker.profileId),
    };
    // Own country first, then nearest (distance bucket), online now, newest (issue #29): one top-N read.
    const listed = this.profiles.listed({ ...filters, countries: settings.countries });
    const order = this.orderOf(listed, { profileId: seeker.profileId, origin: seeker.origin }, "nearby");
    const rows = await this.ordered(listed, { where: this.withPhoto(listed), order, limit: MATCH_LIMIT });
    return { profiles: await this.profiles.presentCards(rows, seeker.origin, showsCity(settings)), criteria };
  }

  /** Newest visible profiles with a public main image, as a visitor may see them (the home page). */
  async teaser(options: { limit: number; countries: readonly string[] }): Promise<TeaserProfile[]> {
    if (options.countries.length === 0) return [];
    const listed = this.profiles.listed({ countries: options.countries });
    const rows = await this.ordered(listed, { where: this.withPhoto(listed), limit: options.limit });
    return this.profiles.presentCards(rows, null, true);
  }
}
