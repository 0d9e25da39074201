import {
  DEFAULT_SEARCH_SORT,
  MATCH_AGE_SPREAD,
  type MatchFinderResponse,
  type MemberContext,
  type MemberSearchQuery,
  type MemberSearchResponse,
  type PresenceLabel,
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
import type { Asker, ListedProfiles, ListPart, ProfileFilters, ProfileService, TeaserRow } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import { countListedUpTo, orderedListed } from "./queries.ts";

/** Suggestions the match finder shows. */
const MATCH_LIMIT = 24;
/** Similar members shown when a search finds fewer than SIMILAR_THRESHOLD. */
const SIMILAR_LIMIT = 12;

/**
 * How a list is read: newest first in index order (null), or an order cut into parts read one after the
 * other, each with its own order (nearby first: the rings of `ProfileService.nearbyParts`, nearest first;
 * online first: the members online now, then the others).
 */
type ListOrder = ListPart[] | null;

/** Who sees the presence labels: a member who neither is invisible nor hides their own (hiding is mutual). */
type PresenceViewer = Pick<MemberContext, "invisible" | "hidePresence">;

/** A list's row with the presence label the page's statement read (absent where none is read). */
type LabelledRow = TeaserRow & { presence?: PresenceLabel };

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
    private readonly profiles: Pick<
      ProfileService,
      "listed" | "presentCards" | "seekerOf" | "nearbyOrder" | "nearbyParts" | "inParts"
    >,
    private readonly photos: Pick<PhotoService, "hasPublicMain" | "mainThumbOf">,
    /** Who may see whom (spec §6: blocked pairs never see each other in lists). */
    private readonly visibility: Pick<VisibilityPolicy, "unblocked">,
    /**
     * The notifications module's presence rules on a user id column: "online now" (`onlineCondition`) and
     * the cards' label as a viewer may see it (`PresenceLabels.labelOf`), read with the page.
     */
    private readonly presence: {
      online: (userId: SQL) => SQL<boolean>;
      labelOf: (viewer: PresenceViewer | null, userId: SQL) => SQL<PresenceLabel> | null;
    },
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

  /** The presence label of `listed` rows as a column of the page's statement (none for a visitor). */
  private labelColumn(viewer: PresenceViewer | null, listed: ListedProfiles): SQL | undefined {
    const label = this.presence.labelOf(viewer, listed.userId);
    return label ? sql`${label} as "presence"` : undefined;
  }

  private withPhoto(listed: ListedProfiles): SQL {
    return this.photos.hasPublicMain(listed.id);
  }

  /**
   * Rows of `listed` in `order` (newest first by default), with their cards' images (and `columns`) read in
   * the same statement. An order in parts is one statement that stops at the part that fills
   * `offset + limit` rows: a page near the asker never sorts the matches further out (decision 018).
   */
  private ordered(
    listed: ListedProfiles,
    options: { where?: SQL | undefined; order?: ListOrder; offset?: number; limit: number; columns?: SQL | undefined },
  ): Promise<LabelledRow[]> {
    const { order, where, offset = 0, limit, columns } = options;
    const mainThumb = this.photos.mainThumbOf(listed.id);
    if (!order) return orderedListed(this.db, listed, { where, offset, limit, mainThumb, columns });
    const inParts = this.profiles.inParts(listed, order, where, offset + limit);
    return orderedListed(this.db, inParts, { inOrder: true, offset, limit, mainThumb, columns });
  }

  /**
   * The order of `asker`'s list (issue #29, decision 018 "Nearby first"), as parts read one after the other;
   * null for newest first (in index order). `nearby`: their country first, then the distance bucket between
   * city centres (read in rings, nearest first), members online now first within a bucket, then newest.
   * `online`: the members online now, then the others, each as `nearby` without the online key, so neither
   * sorts every match. `nearby` for a visitor (no country, no position) is newest first.
   */
  private orderOf(listed: ListedProfiles, asker: Pick<Asker, "profileId" | "origin"> | null, sort: SearchSort): ListOrder {
    const nearby = asker ? this.profiles.nearbyOrder(asker) : [];
    if (sort === "newest" || (sort === "nearby" && nearby.length === 0)) return null;
    const online = this.presence.online(listed.userId);
    const from = asker ?? { profileId: null, origin: null };
    if (sort === "nearby") return this.profiles.nearbyParts(from, [sql`${online} desc`]);
    const parts = this.profiles.nearbyParts(from);
    return [online, not(online)].flatMap((now) => parts.map((part) => ({ ...part, where: and(now, part.where) })));
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
    options: { order?: ListOrder; where?: SQL | undefined; columns?: SQL | undefined } = {},
  ): Promise<LabelledRow[]> {
    const { order, where, columns } = options;
    const withPhoto = and(where, this.withPhoto(listed)) as SQL;
    const first = await this.ordered(listed, { where: withPhoto, order, offset, limit, columns });
    if (first.length === limit) return first;
    // Where the others start: past every member with a photo (all before this page when it has none of them).
    const photoCount = first.length > 0 ? offset + first.length : await countListedUpTo(this.db, listed, withPhoto, offset);
    const rest = await this.ordered(listed, {
      where: and(where, not(this.withPhoto(listed))),
      order,
      offset: Math.max(0, offset - photoCount),
      limit: limit - first.length,
      columns,
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
    context: { hasTrafficSource: boolean; viewer?: PresenceViewer | null },
  ): Promise<MemberSearchResponse | null> {
    if (!searchVisible(settings, asker !== null, context.hasTrafficSource)) return null;
    return this.search(query, asker, settings, context.viewer ?? null);
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
   * region or age) follow. Each card carries its presence label as `viewer` may see it (null for visitors),
   * read in the page's statement.
   */
  async search(
    query: MemberSearchQuery,
    asker: Asker | null,
    settings: Pick<Settings, "countries" | "visible_profile_fields">,
    viewer: PresenceViewer | null = null,
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
    const onlineNow = query.online ? this.presence.online(listed.userId) : undefined;
    const order = this.orderOf(listed, asker, sort);
    // Independent statements: on a pool they run side by side (PGlite serialises them anyway).
    const { countCap } = this.options;
    const [counted, rows] = await Promise.all([
      countListedUpTo(this.db, listed, onlineNow, countCap + 1),
      offset < countCap
        ? this.photoFirst(listed, offset, SEARCH_PAGE_SIZE, {
            order,
            where: onlineNow,
            columns: this.labelColumn(viewer, listed),
          })
        : Promise.resolve([]),
    ]);
    const total = Math.min(counted, countCap);
    let similar: LabelledRow[] = [];
    if (counted < SIMILAR_THRESHOLD) {
      const wider = this.profiles.listed({ gender: query.gender, countries: settings.countries, ...excluded });
      const found = new Set(rows.map((r) => r.id));
      const columns = this.labelColumn(viewer, wider);
      similar = (await this.photoFirst(wider, 0, SIMILAR_LIMIT + counted, { order: this.orderOf(wider, asker, sort), columns }))
        .filter((r) => !found.has(r.id))
        .slice(0, SIMILAR_LIMIT);
    }
    const cards = async (list: LabelledRow[]) =>
      (await this.profiles.presentCards(list, asker?.origin, showsCity(settings))).map((card, i) => ({
        ...card,
        presence: list[i]?.presence ?? null,
      }));
    return {
      profiles: await cards(rows),
      numResults: total,
      numResultsCapped: counted > countCap,
      page,
      pages: Math.ceil(total / SEARCH_PAGE_SIZE),
      similar: await cards(similar),
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
