import { type GeocodeResponse, geocodeResponseSchema } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { apiCall } from "./api";
import { useHydrated } from "./display-mode";

/** Spec §4: the browser's geolocation permission: unsupported, unknown, or the Permissions API's state. */
export type GeolocationPermission = "unsupported" | "unknown" | PermissionState;

/** Spec §9: a position up to an hour old is good enough (no new fix, no new prompt). */
export const GEOLOCATION_MAX_AGE_MS = 60 * 60 * 1000;
const GEOLOCATION_TIMEOUT_MS = 20_000;
const STORE_KEY = "geocode";

function supported(): boolean {
  // Browsers refuse positions outside secure contexts (https or localhost) although the API is present.
  return typeof navigator !== "undefined" && "geolocation" in navigator && window.isSecureContext !== false;
}

/**
 * The geolocation permission, updated when the member changes it (spec §4). "unknown" on the server,
 * before the first effect, and where the Permissions API cannot tell (older Safari).
 */
export function useGeolocationPermission(): GeolocationPermission {
  const hydrated = useHydrated();
  const available = hydrated && supported();
  // The browser's PermissionStatus is asked for once per page and stays live (its change event).
  const { data: status } = useQuery({
    queryKey: ["geolocation-permission"],
    queryFn: () => navigator.permissions.query({ name: "geolocation" }),
    enabled: available && typeof navigator.permissions?.query === "function",
    staleTime: Number.POSITIVE_INFINITY,
  });
  const subscribe = useCallback(
    (notify: () => void) => {
      status?.addEventListener("change", notify);
      return () => status?.removeEventListener("change", notify);
    },
    [status],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => status?.state,
    () => undefined,
  );
  if (!hydrated) return "unknown";
  if (!available) return "unsupported";
  return state ?? "unknown";
}

/**
 * Spec §7: the reverse-geocoding result stored for this browser session: the place, false after a
 * failure, null when never tried. Storage can be unavailable; then nothing is remembered.
 */
export function storedGeocode(): GeocodeResponse | false | null {
  try {
    const raw = window.sessionStorage.getItem(STORE_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    if (value === false) return false;
    const parsed = geocodeResponseSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function store(value: GeocodeResponse | false): void {
  try {
    window.sessionStorage.setItem(STORE_KEY, JSON.stringify(value));
  } catch {
    // Not remembered: the next page asks again.
  }
}

export type LocateResult = { kind: "found"; place: GeocodeResponse } | { kind: "denied" } | { kind: "failed" };

/**
 * Where the member is: the browser's position (at most an hour old) turned into country, region and
 * city by GET /api/geocode.php. Only the place is kept; the coordinates are used for this one call and
 * are not stored. A failure stores false (spec §8).
 */
export async function locate(): Promise<LocateResult> {
  if (!supported()) return { kind: "failed" };
  let position: GeolocationPosition;
  try {
    position = await new Promise<GeolocationPosition>((resolve, reject) =>
      navigator.geolocation.getCurrentPosition(resolve, reject, {
        maximumAge: GEOLOCATION_MAX_AGE_MS,
        timeout: GEOLOCATION_TIMEOUT_MS,
        enableHighAccuracy: false,
      }),
    );
  } catch (error) {
    if ((error as GeolocationPositionError | null)?.code === 1) return { kind: "denied" };
    store(false);
    return { kind: "failed" };
  }
  try {
    // Two decimals (about a kilometre) are plenty to find a city and say less about the member.
    const lat = position.coords.latitude.toFixed(2);
    const lon = position.coords.longitude.toFixed(2);
    const place = await apiCall(`/api/geocode.php?lat=${lat}&lon=${lon}`, geocodeResponseSchema, {}, { retries: 2 });
    store(place);
    return { kind: "found", place };
  } catch {
    store(false);
    return { kind: "failed" };
  }
}
