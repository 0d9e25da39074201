/** The distance buckets in kilometres (profiles.ts), without zod: a profile card on every page shows them (decision 025). */
export const DISTANCE_BUCKETS_KM = [5, 10, 25, 50, 100, 250, 500] as const;
