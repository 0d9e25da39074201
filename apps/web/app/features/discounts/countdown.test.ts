import { describe, expect, it } from "vitest";
import { formatHms, hoursOrMinutes, secondsLeftAt } from "./countdown";

describe("countdowns (spec §1, §4)", () => {
  it("show the time bonus as hh:mm:ss", () => {
    expect(formatHms(14_400)).toBe("04:00:00");
    expect(formatHms(14_399)).toBe("03:59:59");
    expect(formatHms(3_661)).toBe("01:01:01");
    expect(formatHms(59)).toBe("00:00:59");
    expect(formatHms(0)).toBe("00:00:00");
    expect(formatHms(-5)).toBe("00:00:00");
  });

  it("show the welcome discount in whole hours from one hour on, then in minutes (at least one)", () => {
    expect(hoursOrMinutes(48 * 3600)).toEqual({ unit: "hours", value: 48 });
    expect(hoursOrMinutes(2 * 3600 - 1)).toEqual({ unit: "hours", value: 1 });
    expect(hoursOrMinutes(3600)).toEqual({ unit: "hours", value: 1 });
    expect(hoursOrMinutes(3599)).toEqual({ unit: "minutes", value: 59 });
    expect(hoursOrMinutes(60)).toEqual({ unit: "minutes", value: 1 });
    expect(hoursOrMinutes(1)).toEqual({ unit: "minutes", value: 1 });
  });

  it("count down from the server's seconds by the time passed since the answer arrived, never below 0 or above the start", () => {
    expect(secondsLeftAt(100, 5_000, 5_000)).toBe(100);
    expect(secondsLeftAt(100, 5_000, 5_999)).toBe(100);
    expect(secondsLeftAt(100, 5_000, 6_000)).toBe(99);
    expect(secondsLeftAt(100, 5_000, 105_000)).toBe(0);
    expect(secondsLeftAt(100, 5_000, 500_000)).toBe(0);
    // A `now` taken before the answer arrived (a render in between) does not add time.
    expect(secondsLeftAt(100, 5_000, 1_000)).toBe(100);
  });
});
