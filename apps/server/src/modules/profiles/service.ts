import {
  ageOn,
  type Distance,
  distanceBucket,
  type LikeState,
  type MemberContext,
  type MemberResponse,
  type ModerationMode,
  type ModerationReason,
  type OwnProfile,
  type ProfileUpdate,
  type Settings,
  type TeaserProfile,
  type User,
} from "@app/contract";
import { and, asc, desc, eq, notInArray, type SQL, sql } from "drizzle-orm";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { BlockService } from "../blocks/index.ts";
import { type Coordinates, LocationService } from "../location/service.ts";
import type { MainImage, PhotoService, PhotoViewer, ReviewQueueOptions } from "../photos/service.ts";
import {
  type AboutInReview,
  aboutTextsInReview,
  cardOfColumn,
  countAboutTextsInReview,
  decideAbout,
  findProfileOfUser,
  findVisibleProfile,
  insertProfile,
  type ListedProfiles,
  type ListPart,
  listedInParts,
  listedProfiles,
  type NewProfile,
  nearbyOrderOf,
  nearbyPartsOf,
  ownerOfProfile,
  type ProfileFilters,
  type ProfileRow,
  positionOfUserColumn,
  profileDetails,
  profileIdOfUserColumn,
  profileMembers,
  profileNames,
  profilesWithoutPosition,
  relatedProfiles,
  setStatusOfUser,
  type TeaserRow,
  updateProfile,
  userIdOfProfileColumn,
} from "./queries.ts";
import { profiles } from "./schema.ts";

export type { AboutInReview, ListedProfiles, ListPart, ProfileFilters, TeaserRow };

/**
 * Who is looking: their own profile (excluded from results), whether they are premium, and the centre
 * of their city (for bucketed distances; absent or null when unknown).
 */
export interface Asker {
  profileId: number | null;
  paid: boolean;
  origin?: Coordinates | null;
}

/**
 * The columns a new about text changes (issue #27). An empty text, or the last approved one again, needs
 * no review; any other waits in the queue, shown to others at once when the site reviews after, and
 * kept from them (the last approved text stays) when it reviews before. Saving the text the member
 * already has changes nothing.
 */
function aboutChange(
  profile: Pick<ProfileRow, "about" | "aboutApproved" | "aboutReview">,
  text: string,
  review: ModerationMode,
): Partial<NewProfile> {
  if (text === (profile.aboutReview ?? profile.about)) return {};
  if (text === "" || text === profile.aboutApproved) {
    return { about: text, aboutApproved: text, aboutReview: null, aboutSubmittedAt: null, aboutRejection: null };
  }
  return {
    about: review === "before" ? profile.aboutApproved : text,
    aboutReview: text,
    aboutSubmittedAt: new Date(),
    aboutRejection: null,
  };
}

/** A profile's position: the centre of its city, when the city is known. */
function positionOf(row: { latitude: number | null; longitude: number | null }): Coordinates | null {
  return row.latitude === null || row.longitude === null ? null : { lat: row.latitude, lon: row.longitude };
}

/** How far `row` is from `origin`, as a bucket only. */
function distanceFrom(
  origin: Coordinates | null | undefined,
  row: { latitude: number | null; longitude: number | null },
): Distance | null {
  const position = positionOf(row);
  return origin && position ? distanceBucket(LocationService.distanceKm(origin, position)) : null;
}

/** Sexuality follows from a member's gender and whom they look for. */
export function sexualityOf(gender: "male" | "female", seeking: "male" | "female" | "both"): ProfileRow["sexuality"] {
  if (seeking === "both") return "bi";
  if (seeking === gender) return gender === "male" ? "gay" : "lesbian";
  return "hetero";
}

/** A member as the match finder sees them (ProfileService.seekerOf). */
export interface Seeker {
  profileId: number;
  age: number;
  seeking: "male" | "female" | "both";
  country: string;
  origin: Coordinates | null;
}

/**
 * What another module does when a member opens a profile (GET /api/member.php and the profile page): the
 * likes module clears that profile's new-like flag and answers the like state between the two (spec §4).
 * A hook, so that profiles need not know likes (which builds on profiles).
 */
export type ProfileViewHook = (viewerProfileId: number, profileId: number) => Promise<LikeState>;

/**
 * What profiles need of the visibility policy (modules/visibility's VisibilityPolicy has it). Declared
 * here rather than imported: visibility builds on the accounts and profiles modules, and importing its
 * type closed an import cycle accounts -> profiles -> visibility -> accounts (issue #26).
 */
export interface MemberVisibility {
  /** A condition on a user id column: that member's account is visible to others. */
  visibleMember(userId: SQL): SQL;
  /** Profiles to leave out of the viewer's lists because of a block either way. */
  hiddenFrom(viewerProfileId: number | null | undefined): Promise<number[]>;
}

export class ProfileService {
  private viewHook: ProfileViewHook | null = null;

  constructor(
    private readonly db: Db,
    /** Who may see whom (modules/visibility). */
    private readonly visibility: MemberVisibility,
    private readonly photos: PhotoService,
    /** Where a member's city is (the location module's offline gazetteer). */
    private readonly location: Pick<LocationService, "coordinatesOf">,
    /** Who blocked whom (spec §6): blocked pairs never see each other in lists. */
    private readonly blocks: Pick<BlockService, "between">,
  ) {}

  /** Registers what happens when a member opens another's profile (one hook: the likes module's). */
  onView(hook: ProfileViewHook): void {
    this.viewHook = hook;
  }

  /** Profiles `askerProfileId` may find: visible members, no block either way. */
  private async visibleTo(askerProfileId: number | null | undefined): Promise<SQL> {
    const visible = this.visibleUser();
    const hidden = await this.visibility.hiddenFrom(askerProfileId);
    return hidden.length ? (and(visible, notInArray(profiles.id, hidden)) as SQL) : visible;
  }

  /** The visibility policy's condition on this table's member column. */
  private visibleUser(): SQL {
    return this.visibility.visibleMember(sql`${profiles.userId}`);
  }

  /**
   * Profile cards: the card's fields (never the coordinates), the public main image (null without one)
   * and the bucketed distance from `origin`.
   */
  async presentCards(
    rows: readonly TeaserRow[],
    origin: Coordinates | null | undefined,
    /** The site shows cities (visible_profile_fields); without them, no distance either. */
    showCity: boolean,
  ): Promise<TeaserProfile[]> {
    const lookUp = rows.filter((row) => row.main_thumb === undefined).map((row) => row.id);
    const images = lookUp.length > 0 ? await this.photos.mainImages(lookUp) : new Map<number, MainImage>();
    return rows.map((row) => {
      const image = images.get(row.id);
      const thumb = row.main_thumb !== undefined ? row.main_thumb : image?.status === "active" ? image.thumb_filename : null;
      return {
        id: row.id,
        name: row.name,
        age: row.age,
        country: row.country,
        city: showCity ? row.city : null,
        fictional: row.fictional,
        distance: showCity ? distanceFrom(origin, row) : null,
        main_image: thumb ? { thumb_url: this.photos.urlOf(thumb), status: "active" } : null,
      };
    });
  }

  /**
   * GET /api/member.php: one member as `asker` may see them. Fields the site does not show are null;
   * exact coordinates and the birth date never leave the server; photos come locked (blurred) where
   * the asker may not see them. Null when the member is not visible.
   */
  async memberView(
    id: number,
    asker: Asker | null,
    settings: Pick<Settings, "visible_profile_fields" | "countries">,
  ): Promise<MemberResponse | null> {
    const profile = await findVisibleProfile(this.db, id, this.visibleUser());
    if (!profile) return null;
    const other = asker?.profileId && asker.profileId !== profile.id ? asker.profileId : null;
    const block = other ? await this.blocks.between(other, profile.id) : null;
    if (block?.bBlockedA) throw new AppError("blocked_by", { name: profile.name });
    const viewer: PhotoViewer | null = asker ? { profileId: asker.profileId, paid: asker.paid } : null;
    const { photos, mainImage, lockedCount } = await this.photos.forViewer(profile.id, viewer);
    const shown = new Set<string>(settings.visible_profile_fields);
    const field = <T>(name: string, value: T): T | null => (shown.has(name) ? value : null);
    const like = other && this.viewHook ? await this.viewHook(other, profile.id) : "none";
    const related = await relatedProfiles(this.db, {
      profile,
      visibleUser: await this.visibleTo(asker?.profileId),
      withPhoto: this.photos.hasPublicMain(sql`${profiles.id}`),
      excludeProfileId: asker?.profileId ?? null,
      limit: 6,
    });
    return {
      profile: {
        id: profile.id,
        name: profile.name,
        age: ageOn(profile.birthDate, new Date()),
        gender: field("gender", profile.gender),
        sexuality: field("sexuality", profile.sexuality),
        country: field("country", profile.country),
        region: field("region", profile.region),
        city: field("city", profile.city),
        hair_color: field("hair_color", profile.hairColor),
        eye_color: field("eye_color", profile.eyeColor),
        body_type: field("body_type", profile.bodyType),
        relationship_status: field("relationship_status", profile.relationshipStatus),
        tattoos: field("tattoos", profile.tattoos),
        interests: shown.has("interests") ? (profile.interests as MemberResponse["profile"]["interests"]) : [],
        about: shown.has("about") ? profile.about : "",
        fictional: profile.fictional,
        distance: shown.has("city") ? distanceFrom(asker?.origin, profile) : null,
        main_image: mainImage,
        photos,
        locked_photos: lockedCount,
        photo_lock: lockedCount === 0 ? null : asker ? "premium" : "login",
      },
      related: await this.presentCards(related, asker?.origin, shown.has("city")),
      blocked: block?.aBlockedB ?? false,
      like,
    };
  }

  /**
   * Active profiles of visible members matching `filters`, as a subquery of card columns that lists of
   * other modules (the search) select from, sort and page: the profiles module lends the rows it owns,
   * not its table. Rows of it are presented with `presentCards`.
   */
  listed(filters: ProfileFilters): ListedProfiles {
    return listedProfiles(filters, this.visibleUser());
  }

  /**
   * The "nearby first" keys for an order over `listed` rows (issue #29): the asker's country, then the
   * distance bucket between city centres; the caller adds its own keys after them. Empty for a visitor.
   */
  nearbyOrder(asker: Pick<Asker, "profileId" | "origin">): SQL[] {
    return nearbyOrderOf(asker);
  }

  /**
   * `nearbyOrder` cut into parts read nearest first (the asker's country within 25, 100, 250 km, then the
   * rest), each in its own order ending in `tail` and newest, so a list reads only as far out as it needs
   * (decision 018, "Nearby first"); read them with `inParts`.
   */
  nearbyParts(asker: Pick<Asker, "profileId" | "origin">, tail: readonly SQL[] = []): ListPart[] {
    return nearbyPartsOf(asker, tail);
  }

  /** `listed` rows matching `where` read as `parts` one after the other, as a from-item (`listedInParts`). */
  inParts(listed: ListedProfiles, parts: readonly ListPart[], where: SQL | undefined, upTo: number): ListedProfiles {
    return listedInParts(listed, parts, where, upTo);
  }

  /** What the match finder fits to a member: their age, whom they seek, their country and city centre. */
  async seekerOf(userId: number): Promise<Seeker | null> {
    const own = await findProfileOfUser(this.db, userId);
    if (!own) return null;
    return {
      profileId: own.id,
      age: ageOn(own.birthDate, new Date()),
      seeking: own.seeking,
      country: own.country,
      origin: positionOf(own),
    };
  }

  /**
   * Fictional profiles (the demo seed, issue #29): those of `gender` whose account is visible, Dutch and
   * heterosexual ones first (the demo accounts live in Amsterdam), oldest first.
   */
  async fictionalPeople(
    gender: "male" | "female",
    limit: number,
  ): Promise<{ userId: number; profileId: number; name: string }[]> {
    return this.db
      .select({ userId: profiles.userId, profileId: profiles.id, name: profiles.name })
      .from(profiles)
      .where(
        and(eq(profiles.fictional, true), eq(profiles.gender, gender), this.visibility.visibleMember(sql`${profiles.userId}`)),
      )
      .orderBy(desc(sql`${profiles.country} = 'NL'`), desc(sql`${profiles.sexuality} = 'hetero'`), asc(profiles.id))
      .limit(limit);
  }

  /** The members of every fictional profile (the demo site's presence rotation, modules/notifications). */
  async fictionalUserIds(): Promise<number[]> {
    const rows = await this.db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.fictional, true));
    return rows.map((row) => row.userId);
  }

  /** How many fictional profiles there are (the seed makes the missing ones). */
  async countFictional(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(profiles).where(eq(profiles.fictional, true));
    return Number(row?.n ?? 0);
  }

  /** The name on a member's profile (receipts and other mail address them by it). */
  async nameOf(userId: number): Promise<string | null> {
    return (await findProfileOfUser(this.db, userId))?.name ?? null;
  }

  /** A lent SQL expression: the profile id of the member in `userId` (for the session's one query). */
  profileIdOf(userId: SQL): SQL<number | null> {
    return profileIdOfUserColumn(userId);
  }

  /** A lent SQL expression: the user id of the member whose profile is in `profileId` (whom to send an event). */
  userIdOf(profileId: SQL): SQL<number | null> {
    return userIdOfProfileColumn(profileId);
  }

  /**
   * A lent from-item joining the card columns of the profile in `profileId` as `alias` (TeaserRow's
   * columns), for another module's paged list of profile ids (likes); it checks no visibility.
   */
  cardOf(profileId: SQL, alias: string): SQL {
    return cardOfColumn(profileId, alias);
  }

  /** The about text and interests of these profiles (the swipe game's cards), by id. */
  async detailsOf(ids: readonly number[]): Promise<Map<number, { about: string; interests: string[] }>> {
    return new Map((await profileDetails(this.db, ids)).map((row) => [row.id, { about: row.about, interests: row.interests }]));
  }

  /** Lent SQL: the city centre of the member in `userId` (the member context reads it with the session). */
  positionOf(userId: SQL): { latitude: SQL<number | null>; longitude: SQL<number | null> } {
    return positionOfUserColumn(userId);
  }

  /** The member whose profile this is (null: no such profile), whatever its visibility (a complaint's concerned member). */
  ownerOf(profileId: number): Promise<number | null> {
    return ownerOfProfile(this.db, profileId);
  }

  /** Names of profiles by id, whatever their visibility (for the member's own lists, e.g. whom they blocked). */
  async namesOf(ids: readonly number[]): Promise<Map<number, string>> {
    return new Map((await profileNames(this.db, ids)).map((row) => [row.id, row.name]));
  }

  create(row: NewProfile): Promise<ProfileRow> {
    return insertProfile(this.db, row);
  }

  /** A new member's profile: disabled until the e-mail address is confirmed (spec §2 activation reminder). */
  createForSignup(
    tx: DbOrTx,
    input: {
      userId: number;
      name: string;
      gender: "male" | "female";
      seeking: "male" | "female" | "both";
      birthDate: string;
      country: string;
    },
  ): Promise<ProfileRow> {
    return insertProfile(tx, { ...input, status: "disabled", sexuality: sexualityOf(input.gender, input.seeking) });
  }

  activateForUser(tx: DbOrTx, userId: number): Promise<void> {
    return setStatusOfUser(tx, userId, "active");
  }

  /** The profile part of the user call. */
  async summaryForUser(userId: number): Promise<User["profile"] | null> {
    const profile = await findProfileOfUser(this.db, userId);
    if (!profile) return null;
    return {
      id: profile.id,
      name: profile.name,
      status: profile.status,
      gender: profile.gender,
      seeking: profile.seeking,
      main_image: await this.photos.ownMainImage(profile.id),
    };
  }

  async own(userId: number, photoLimit: number): Promise<OwnProfile> {
    const profile = await findProfileOfUser(this.db, userId);
    if (!profile) throw new AppError("not_found");
    return this.presentOwn(profile, photoLimit);
  }

  private async presentOwn(profile: ProfileRow, photoLimit: number): Promise<OwnProfile> {
    return {
      id: profile.id,
      name: profile.name,
      status: profile.status,
      gender: profile.gender,
      seeking: profile.seeking,
      sexuality: profile.sexuality,
      date_of_birth: profile.birthDate,
      age: ageOn(profile.birthDate, new Date()),
      country: profile.country,
      region: profile.region,
      city: profile.city,
      hair_color: profile.hairColor,
      eye_color: profile.eyeColor,
      body_type: profile.bodyType,
      relationship_status: profile.relationshipStatus,
      tattoos: profile.tattoos,
      interests: profile.interests as OwnProfile["interests"],
      about: profile.aboutReview ?? profile.about,
      about_in_review: profile.aboutReview !== null && profile.aboutReview !== profile.about,
      about_rejection: profile.aboutRejection,
      main_image: await this.photos.ownMainImage(profile.id),
      photos: await this.photos.listOwn(profile.id),
      photo_limit: photoLimit,
      located: positionOf(profile) !== null,
    };
  }

  /**
   * Saves the fields given. A region must belong to the (new or current) country; `regionsOf` is the
   * site module's list.
   */
  async update(
    userId: number,
    patch: ProfileUpdate,
    options: {
      photoLimit: number;
      servedCountries: readonly string[];
      regionsOf: (country: string) => readonly string[];
      /** When the site reviews a changed about text (Settings.moderation). */
      review: ModerationMode;
    },
  ): Promise<OwnProfile> {
    const profile = await findProfileOfUser(this.db, userId);
    if (!profile) throw new AppError("not_found");
    const country = patch.country ?? profile.country;
    if (patch.country && !options.servedCountries.includes(patch.country)) {
      throw new AppError("validation_failed", {}, { country: "invalid_value" });
    }
    const region = patch.region === undefined ? (patch.country ? null : profile.region) : patch.region;
    if (region && !options.regionsOf(country).includes(region)) {
      throw new AppError("validation_failed", {}, { region: "invalid_value" });
    }
    const seeking = patch.seeking ?? profile.seeking;
    const city = patch.city !== undefined ? patch.city || null : profile.city;
    // The position is the centre of the member's city, looked up again whenever where they live changes.
    const moved = country !== profile.country || region !== profile.region || city !== profile.city;
    const position = moved ? this.location.coordinatesOf(country, region, city) : null;
    const updated = await updateProfile(this.db, profile.id, {
      // An explicit sexuality wins; a new "looking for" otherwise sets the matching one.
      ...(patch.sexuality
        ? { sexuality: patch.sexuality }
        : patch.seeking
          ? { sexuality: sexualityOf(profile.gender, seeking) }
          : {}),
      seeking,
      country,
      region,
      city,
      ...(moved ? { latitude: position?.lat ?? null, longitude: position?.lon ?? null } : {}),
      ...(patch.hair_color !== undefined ? { hairColor: patch.hair_color } : {}),
      ...(patch.eye_color !== undefined ? { eyeColor: patch.eye_color } : {}),
      ...(patch.body_type !== undefined ? { bodyType: patch.body_type } : {}),
      ...(patch.relationship_status !== undefined ? { relationshipStatus: patch.relationship_status } : {}),
      ...(patch.tattoos !== undefined ? { tattoos: patch.tattoos } : {}),
      ...(patch.interests !== undefined ? { interests: [...new Set(patch.interests)] } : {}),
      ...(patch.about !== undefined ? aboutChange(profile, patch.about, options.review) : {}),
    });
    return this.presentOwn(updated ?? profile, options.photoLimit);
  }

  /**
   * Positions for profiles that have a city but none yet (saved before positions existed, or whose
   * city the gazetteer learnt since); run at start. Returns how many were filled in.
   */
  async backfillPositions(): Promise<number> {
    let filled = 0;
    for (const row of await profilesWithoutPosition(this.db)) {
      const position = this.location.coordinatesOf(row.country, row.region, row.city);
      if (!position) continue;
      await updateProfile(this.db, row.id, { latitude: position.lat, longitude: position.lon });
      filled++;
    }
    return filled;
  }

  /** The asker of a member call: their profile and where they live (for distances); null for visitors. */
  askerOf(member: MemberContext | null): Asker | null {
    // The city centre comes with the session (member context): a list needs no look-up of who asks.
    return member ? { profileId: member.profileId, paid: member.paid, origin: member.position } : null;
  }

  /**
   * The profile's part of the data export (issue #27): every field the member gave, the city centre
   * their place was placed at included (private to them, so theirs to read).
   */
  async exportFor({ userId }: ExportSubject): Promise<ExportPart> {
    const profile = await findProfileOfUser(this.db, userId);
    if (!profile) return { json: {} };
    return {
      json: {
        profile: {
          id: profile.id,
          status: profile.status,
          name: profile.name,
          gender: profile.gender,
          sexuality: profile.sexuality,
          seeking: profile.seeking,
          birth_date: profile.birthDate,
          country: profile.country,
          region: profile.region,
          city: profile.city,
          latitude: profile.latitude,
          longitude: profile.longitude,
          hair_color: profile.hairColor,
          eye_color: profile.eyeColor,
          body_type: profile.bodyType,
          relationship_status: profile.relationshipStatus,
          tattoos: profile.tattoos,
          interests: profile.interests,
          about: profile.about,
          about_approved: profile.aboutApproved,
          about_in_review: profile.aboutReview,
          about_submitted_at: isoOrNull(profile.aboutSubmittedAt),
          about_rejection_reason: profile.aboutRejection,
          created_at: isoOrNull(profile.createdAt),
          updated_at: isoOrNull(profile.updatedAt),
        },
      },
    };
  }

  /** Names and members (user ids) of profiles by id, whatever their visibility (the staff's review queue). */
  async membersOf(ids: readonly number[]): Promise<Map<number, { userId: number; name: string }>> {
    return new Map((await profileMembers(this.db, ids)).map((row) => [row.id, { userId: row.userId, name: row.name }]));
  }

  /** About texts waiting for review, oldest first, of one profile or all (the staff's queue). */
  aboutInReview(limit: number, options: ReviewQueueOptions = {}): Promise<AboutInReview[]> {
    return aboutTextsInReview(this.db, limit, options);
  }

  /** The profile id of a member (user id), or null when they have none. */
  async profileIdOfMember(userId: number): Promise<number | null> {
    return (await findProfileOfUser(this.db, userId))?.id ?? null;
  }

  countAboutInReview(): Promise<number> {
    return countAboutTextsInReview(this.db);
  }

  /**
   * A moderator's decision on the about text a profile submitted at `submittedAt`, in the caller's
   * transaction (the staff audit log's); null when that text no longer waits.
   */
  decideAbout(
    tx: DbOrTx,
    profileId: number,
    submittedAt: Date,
    decision: { approve: true } | { approve: false; reason: ModerationReason },
  ): Promise<AboutInReview | null> {
    return decideAbout(tx, profileId, submittedAt, decision);
  }

  /** Removes the photo files of a member being erased (rows go with the account's cascade). */
  async deleteFilesOfUser(userId: number): Promise<void> {
    const profile = await findProfileOfUser(this.db, userId);
    if (profile) await this.photos.deleteFilesOfProfile(profile.id);
  }
}
