/**
 * The search's orders (issue #29): `nearby` (the default) lists the member's own country first, then
 * by distance bucket between city centres, online members first within a bucket, then newest; `newest`
 * is newest first; `online` puts members online now first, then as `nearby`. Members with a public
 * photo come before those without in every order. Visitors (no position, no country) get `newest`.
 */
export const SEARCH_SORTS = ["nearby", "newest", "online"] as const;
export const DEFAULT_SEARCH_SORT: (typeof SEARCH_SORTS)[number] = "nearby";
