import type { IntlShape } from "react-intl";

/**
 * Dates and times of the chat in the member's time zone: the browser's. They are formatted only after
 * hydration (the server does not know the zone; a time rendered there would differ and break hydration),
 * which the chat has for free: its messages load in the browser.
 */

/** The calendar day of `iso` in the browser's time zone, as YYYY-MM-DD (the day separators' key). */
export function dayKey(iso: string | Date, timeZone?: string): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).format(date);
}

/** "Today", "Yesterday" or the date (with the year when it is not this year's). */
export function dayLabel(iso: string, intl: IntlShape, now: Date = new Date()): string {
  const key = dayKey(iso, intl.timeZone);
  if (key === dayKey(now, intl.timeZone)) return intl.formatMessage({ id: "chat.today" });
  const yesterday = new Date(now.getTime() - 24 * 3600 * 1000);
  if (key === dayKey(yesterday, intl.timeZone)) return intl.formatMessage({ id: "chat.yesterday" });
  const sameYear = key.slice(0, 4) === dayKey(now, intl.timeZone).slice(0, 4);
  return intl.formatDate(new Date(iso), {
    weekday: "long",
    day: "numeric",
    month: "long",
    ...(sameYear ? {} : { year: "numeric" }),
  });
}

/** A message's time of day. */
export function timeLabel(iso: string, intl: IntlShape): string {
  return intl.formatTime(new Date(iso), { hour: "numeric", minute: "2-digit" });
}

/** The chat list's time: the time for today's messages, otherwise the short date. */
export function listTimeLabel(iso: string, intl: IntlShape, now: Date = new Date()): string {
  if (dayKey(iso, intl.timeZone) === dayKey(now, intl.timeZone)) return timeLabel(iso, intl);
  return intl.formatDate(new Date(iso), { day: "numeric", month: "short" });
}
