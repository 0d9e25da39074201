import { ACCOUNT_RULES, DEFAULT_SEARCH_SORT, type MemberSearchQuery, type User } from "@app/contract";

export type Seeker = Pick<User["profile"], "seeking">;

/**
 * The URL parameters of the search state (spec §3), as GET /api/members.php takes them, with the order
 * (`sort`, issue #29) and the "online now" filter (`online=1`).
 */
export const SEARCH_PARAMS = ["gender", "country", "countryregion", "min_age", "max_age", "page", "sort", "online"] as const;

/** The ages a search may ask for (spec §5: members are 18+; 99 is the oldest age a profile shows). */
export const SEARCH_AGES: readonly number[] = Array.from(
  { length: ACCOUNT_RULES.maxAge - ACCOUNT_RULES.minAge + 1 },
  (_, i) => ACCOUNT_RULES.minAge + i,
);

/**
 * A search from the member's own profile: the gender they are looking for (none when "both"). The
 * country is not part of the user call, so it stays open.
 */
export function searchDefaults(member: Seeker | null): MemberSearchQuery {
  if (!member || member.seeking === "both") return {};
  return { gender: member.seeking };
}

/** Whether the URL carries a search at all (a GET of the form sends every field, even when empty). */
export function hasSearchParams(params: URLSearchParams): boolean {
  return SEARCH_PARAMS.some((name) => params.has(name));
}

/**
 * The /members URL of a search and page. Empty filters are left out; page 1 is left out too unless
 * nothing else remains, because a URL without any search parameter means "use my defaults".
 */
export function searchHref(query: MemberSearchQuery, page = 1): string {
  const params = new URLSearchParams();
  if (query.gender) params.set("gender", query.gender);
  if (query.country) {
    params.set("country", query.country);
    if (query.countryregion) params.set("countryregion", query.countryregion);
  }
  if (query.min_age !== undefined) params.set("min_age", String(query.min_age));
  if (query.max_age !== undefined) params.set("max_age", String(query.max_age));
  if (query.online) params.set("online", "1");
  // The default order (nearby) stays out of the URL.
  if (query.sort && query.sort !== DEFAULT_SEARCH_SORT) params.set("sort", query.sort);
  if (page > 1 || params.toString() === "") params.set("page", String(page));
  return `/members?${params.toString()}`;
}
