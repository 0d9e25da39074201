import { TRACKING_COOKIE } from "@app/contract";
import type { FastifyRequest } from "fastify";

/**
 * Spec §4: the visitor arrived through a network or a referrer, as the web app's tracking cookie records
 * it (apps/web/app/lib/tracking.ts writes it). A cookie that is not such a record counts as none.
 */
export function hasTrafficSource(request: FastifyRequest): boolean {
  const raw = request.cookies[TRACKING_COOKIE];
  if (!raw) return false;
  try {
    const record = JSON.parse(raw) as { network?: unknown; ref?: unknown } | null;
    return !!record?.network || !!record?.ref;
  } catch {
    return false;
  }
}

/**
 * Reads the visitor's ISO country from the header a trusted proxy sets (config GEOIP_HEADER, lower
 * case); without that header configured, or with a value that is not a country code, null.
 */
export function geoipCountryFrom(header: string | undefined): (request: FastifyRequest) => string | null {
  return (request) => {
    if (!header) return null;
    const value = request.headers[header];
    const country = (Array.isArray(value) ? value[0] : value)?.toUpperCase();
    return country && /^[A-Z]{2}$/.test(country) ? country : null;
  };
}
