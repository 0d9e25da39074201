import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { prefixPattern } from "../accounts/index.ts";
import { profiles } from "./schema.ts";

/** What support sees of a profile (issue #27): everything the member entered, coordinates left out. */
export interface SupportProfile {
  profileId: number;
  userId: number;
  name: string;
  status: string;
  gender: string;
  seeking: string;
  birthDate: string;
  country: string;
  region: string | null;
  city: string | null;
  about: string;
  interests: string[];
  fictional: boolean;
  createdAt: Date;
}

const supportColumns = {
  profileId: profiles.id,
  userId: profiles.userId,
  name: profiles.name,
  status: profiles.status,
  gender: profiles.gender,
  seeking: profiles.seeking,
  birthDate: profiles.birthDate,
  country: profiles.country,
  region: profiles.region,
  city: profiles.city,
  about: profiles.about,
  interests: profiles.interests,
  fictional: profiles.fictional,
  createdAt: profiles.createdAt,
};

/** The profiles module's part of support: members found by name, and a member's whole profile. */
export class ProfileSupport {
  constructor(private readonly db: Db) {}

  /** The members whose name starts with `prefix`, whatever its case (index profiles_name_prefix). */
  async userIdsByNamePrefix(prefix: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ userId: profiles.userId })
      .from(profiles)
      .where(sql`lower(${profiles.name}) collate "C" like ${prefixPattern(prefix.trim().toLowerCase())}`)
      .orderBy(sql`lower(${profiles.name}) collate "C"`)
      .limit(limit);
    return rows.map((row) => row.userId);
  }

  async ofUser(userId: number): Promise<SupportProfile | null> {
    const [row] = await this.db.select(supportColumns).from(profiles).where(eq(profiles.userId, userId)).limit(1);
    return row ?? null;
  }

  /** Names and the fictional mark of these profiles, by profile id. */
  async cardsOf(ids: readonly number[]): Promise<Map<number, { name: string; fictional: boolean; userId: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: profiles.id, name: profiles.name, fictional: profiles.fictional, userId: profiles.userId })
      .from(profiles)
      .where(inArray(profiles.id, [...new Set(ids)]));
    return new Map(rows.map((row) => [row.id, { name: row.name, fictional: row.fictional, userId: row.userId }]));
  }

  /** The names of these members' profiles, by user id. */
  async namesByUser(userIds: readonly number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ userId: profiles.userId, name: profiles.name })
      .from(profiles)
      .where(inArray(profiles.userId, [...new Set(userIds)]));
    return new Map(rows.map((row) => [row.userId, row.name]));
  }
}
