/** Business constants of spec §9, one definition for server, web and tests. */
export const LIMITS = {
  freePhotos: 3,
  premiumPhotos: 25,
  freeConversations: 2,
  swipeLikesPerDay: 4,
  timeBonusSeconds: 14_400,
  timeBonusPercent: 25,
  timeBonusCode: "TIMEBONUS25",
  welcomeDiscountPercent: 25,
  timeBonusModalDelayMs: 40_000,
  firstPollDelayMs: 5_000,
  pollIntervalMs: 60_000,
  pollIntervalPushMs: 300_000,
  reactivationDays: 14,
  badgeCap: 99,
  lowCreditThreshold: 10,
  httpRetries: 5,
  geolocationMaxAgeMs: 60 * 60 * 1000,
  authCookiePrefix: "auth.",
  authCookieMaxAgeSeconds: 30 * 24 * 60 * 60,
  progressBar: { durationMs: 5_000, throttleMs: 200, hideDelayMs: 500 },
  chunkReloadIntervalMs: 60_000,
} as const;

/** Spec §2: badges show the count, capped at "99+". */
export function formatBadgeCount(count: number): string {
  return count > LIMITS.badgeCap ? `${LIMITS.badgeCap}+` : String(Math.max(0, Math.trunc(count)));
}

/** Tracking query parameters of spec §9: stored, then stripped from the URL (cpc is stripped too). */
export const TRACKING_PARAMS = {
  network: ["network"],
  ref: ["ref"],
  sub1: ["sub", "sub1", "aff_sub", "aff_sub1"],
  sub2: ["sub2", "aff_sub2"],
  sub3: ["sub3", "aff_sub3"],
} as const;
export const STRIPPED_ONLY_PARAMS = ["cpc"] as const;
export const TRACKING_COOKIE = "tracking";
