import type { Interest, Region } from "@app/contract";
import { useQuery } from "@tanstack/react-query";

/** Regions per country (GET /api/regions.php); the route passes the loader, which caches it for the page. */
export type RegionsLoader = () => Promise<Record<string, Region[]>>;
export type InterestsLoader = () => Promise<Interest[]>;

/**
 * The site's regions once they have arrived; null before, and after a failure (a form without regions
 * still works). With `enabled` false they are not loaded; `rendered` (the page's loader's) are used
 * without a call (issue #29).
 */
export function useRegions(
  loadRegions: RegionsLoader,
  enabled = true,
  rendered?: Record<string, Region[]>,
): Record<string, Region[]> | null {
  const { data } = useQuery({
    queryKey: ["regions"],
    queryFn: loadRegions,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
    ...(rendered ? { initialData: rendered } : {}),
  });
  return data ?? null;
}

/** The interests in the page's language: `null` while loading; `failed` after a failed load. */
export function useInterests(loadInterests: InterestsLoader, locale: string) {
  const { data, isError } = useQuery({
    queryKey: ["interests", locale],
    queryFn: loadInterests,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { interests: data ?? null, failed: isError };
}
