import { describe, expect, it } from "vitest";
import { formatBadgeCount, LIMITS } from "./limits.ts";
import { searchVisible, signupsEnabled } from "./settings-rules.ts";
import { termsVersionDate } from "./site.ts";

describe("business constants (spec §9)", () => {
  it("has the spec's numbers", () => {
    expect(LIMITS).toMatchObject({
      freePhotos: 3,
      premiumPhotos: 25,
      freeConversations: 2,
      swipeLikesPerDay: 4,
      timeBonusSeconds: 14400,
      timeBonusCode: "TIMEBONUS25",
      timeBonusModalDelayMs: 40000,
      reactivationDays: 14,
      httpRetries: 5,
      progressBar: { durationMs: 5000, throttleMs: 200, hideDelayMs: 500 },
    });
  });
  it("caps badges at 99+", () => {
    expect(formatBadgeCount(0)).toBe("0");
    expect(formatBadgeCount(99)).toBe("99");
    expect(formatBadgeCount(100)).toBe("99+");
  });
});

describe("settings rules (spec §4)", () => {
  it("enables signups for 'all', or 'with_trafficsource' with a traffic source", () => {
    expect(signupsEnabled({ signups: "all" }, false)).toBe(true);
    expect(signupsEnabled({ signups: "with_trafficsource" }, false)).toBe(false);
    expect(signupsEnabled({ signups: "with_trafficsource" }, true)).toBe(true);
    expect(signupsEnabled({ signups: "none" }, true)).toBe(false);
  });
  it("shows logged-out search by the settings and traffic source", () => {
    const closed = { logged_out_search: "none", logged_out_search_trafficsource: "none" } as const;
    expect(searchVisible(closed, true, false)).toBe(true);
    expect(searchVisible(closed, false, true)).toBe(false);
    expect(searchVisible({ ...closed, logged_out_search: "all" }, false, false)).toBe(true);
    expect(searchVisible({ ...closed, logged_out_search_trafficsource: "all" }, false, false)).toBe(false);
    expect(searchVisible({ ...closed, logged_out_search_trafficsource: "all" }, false, true)).toBe(true);
  });
  it("dates the terms at the later of 2023-12-01 12:00 UTC and the company's added date", () => {
    expect(termsVersionDate({ added: "2020-01-01T00:00:00Z" }).toISOString()).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersionDate({ added: "2024-03-01T09:00:00Z" }).toISOString()).toBe("2024-03-01T09:00:00.000Z");
  });
});
