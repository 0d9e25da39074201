import { STRIPPED_ONLY_PARAMS, TRACKING_COOKIE, TRACKING_PARAMS } from "@app/contract";
import { readCookie } from "./cookies";

export type TrackingRecord = Partial<Record<keyof typeof TRACKING_PARAMS, string>>;

/**
 * Spec §9: tracking parameters (network, ref, sub/sub1/aff_sub variants, sub2, sub3) are stored and
 * stripped from the URL; cpc is stripped too. Returns null when the URL carries none of them.
 */
export function extractTracking(url: URL): { record: TrackingRecord; cleanUrl: string } | null {
  const record: TrackingRecord = {};
  let found = false;
  const params = new URLSearchParams(url.search);
  for (const [field, names] of Object.entries(TRACKING_PARAMS) as [keyof typeof TRACKING_PARAMS, readonly string[]][]) {
    for (const name of names) {
      const value = params.get(name);
      if (value !== null) {
        found = true;
        if (value && !record[field]) record[field] = value.slice(0, 200);
        params.delete(name);
      }
    }
  }
  for (const name of STRIPPED_ONLY_PARAMS) {
    if (params.has(name)) {
      found = true;
      params.delete(name);
    }
  }
  if (!found) return null;
  const search = params.toString();
  // Never a protocol-relative URL: "//other.example" would send the visitor to another site.
  const path = `/${url.pathname.replace(/^[/\\]+/, "")}`;
  return { record, cleanUrl: `${path}${search ? `?${search}` : ""}${url.hash}` };
}

export function parseTrackingCookie(value: string | undefined): TrackingRecord | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as TrackingRecord) : null;
  } catch {
    return null;
  }
}

/** Spec §4: a traffic source is present when the visitor arrived through a network or a referrer. */
export function hasTrafficSource(cookieHeader: string | null): boolean {
  const record = parseTrackingCookie(readCookie(cookieHeader, TRACKING_COOKIE));
  return !!record?.network || !!record?.ref;
}
