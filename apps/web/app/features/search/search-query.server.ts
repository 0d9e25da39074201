import { type MemberSearchQuery, memberSearchQuerySchema } from "@app/contract";
import { hasSearchParams, SEARCH_PARAMS, type Seeker, searchDefaults } from "./search-query";

// The URL's search is read by the /members loader, on the server: the contract's zod schema stays out
// of the members' first screen in the browser (issue #29, decision 039).

/**
 * The search a /members URL asks for. Without search parameters (a plain visit, the post-login home)
 * the member's defaults apply; a URL the contract rejects falls back to them too. Ages given the
 * wrong way round are swapped rather than thrown away.
 */
export function searchQueryFrom(params: URLSearchParams, member: Seeker | null): MemberSearchQuery {
  if (!hasSearchParams(params)) return searchDefaults(member);
  const raw: Record<string, string> = {};
  for (const name of SEARCH_PARAMS) {
    const value = params.get(name);
    if (value !== null) raw[name] = value.trim();
  }
  const min = Number(raw.min_age);
  const max = Number(raw.max_age);
  if (raw.min_age && raw.max_age && min > max) [raw.min_age, raw.max_age] = [raw.max_age, raw.min_age];
  const parsed = memberSearchQuerySchema.safeParse(raw);
  return parsed.success ? parsed.data : searchDefaults(member);
}
