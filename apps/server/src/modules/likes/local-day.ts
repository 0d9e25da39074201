/**
 * The member's local day (the swipe game's limits, decision 019): midnights of an IANA time zone as
 * instants, computed with Intl (no time zone database of our own).
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `timeZone` at `instant`, read as if it were UTC (ms). */
function wallClock(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** The instant of local midnight starting the local date `y-m-d` (a wall-clock date; DST-safe). */
function midnightOf(timeZone: string, wallMidnight: number): number {
  // The offset can differ at the guess and at the result (DST); two rounds settle it.
  let instant = wallMidnight - (wallClock(timeZone, wallMidnight) - wallMidnight);
  instant = wallMidnight - (wallClock(timeZone, instant) - instant);
  return instant;
}

/** The local day in `timeZone` that contains `now`: [start, end) as instants. */
export function localDay(timeZone: string, now: Date): { start: Date; end: Date } {
  const wall = wallClock(timeZone, now.getTime());
  const day = new Date(wall);
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const tomorrow = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
  return { start: new Date(midnightOf(timeZone, today)), end: new Date(midnightOf(timeZone, tomorrow)) };
}
