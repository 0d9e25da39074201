import { z } from "zod";
import { optionalInt } from "./http.ts";
import { teaserProfileSchema } from "./site.ts";

/**
 * Issue #29, profile visitors ("who viewed me"): who opened the member's profile, newest first. Premium
 * members see the profiles; free members only how many, with blurred placeholder cards (the server sends
 * no identities to them). A visitor counts once however often they come back; visits are kept
 * VISIT_RETENTION_DAYS.
 */
export const VISITORS_PAGE_SIZE = 24;
/** Visits older than this are not shown and are deleted by a daily job. */
export const VISIT_RETENTION_DAYS = 90;

export const visitorsQuerySchema = z.object({ page: optionalInt(1, 10_000) });
export type VisitorsQuery = z.infer<typeof visitorsQuerySchema>;

export const visitorCardSchema = teaserProfileSchema.extend({
  /** ISO 8601: the latest visit (renewed at most once an hour). */
  visited_at: z.string(),
});
export type VisitorCard = z.infer<typeof visitorCardSchema>;

/** GET /api/visitors.php. */
export const visitorsResponseSchema = z.object({
  /** Distinct visitors within the retention window that the member may see (visible, not blocked). */
  total: z.number().int().nonnegative(),
  /** True for free members: `visitors` is empty and `placeholders` says how many blurred cards to show. */
  locked: z.boolean(),
  visitors: z.array(visitorCardSchema),
  /** Blurred cards on this page for a free member (0 for premium members). */
  placeholders: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pages: z.number().int().nonnegative(),
});
export type VisitorsResponse = z.infer<typeof visitorsResponseSchema>;
