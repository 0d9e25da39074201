/**
 * Countdowns of the time bonus and the welcome discount (spec §1, §4). The server counts the seconds
 * left (`seconds_left`); the browser only ticks down from the moment the answer arrived, on a monotonic
 * clock, so a wrong or changed clock on the member's device cannot lengthen or shorten a discount.
 */

/** A clock that only moves forward (milliseconds, arbitrary origin): `performance.now()`. */
export function monotonicNow(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** A server answer with the moment it arrived on `monotonicNow()`'s clock. */
export interface Received<T> {
  value: T;
  receivedAt: number;
}

/** The seconds left `now`, counted down from `secondsLeft` at `receivedAt` (never below 0, never above the start). */
export function secondsLeftAt(secondsLeft: number, receivedAt: number, now: number): number {
  const elapsed = Math.max(0, Math.floor((now - receivedAt) / 1000));
  return Math.max(0, secondsLeft - elapsed);
}

const twoDigits = (value: number) => String(value).padStart(2, "0");

/** Spec §4: the time bonus counts down as hh:mm:ss (14400 → "04:00:00"). */
export function formatHms(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${twoDigits(Math.floor(seconds / 3600))}:${twoDigits(Math.floor((seconds % 3600) / 60))}:${twoDigits(seconds % 60)}`;
}

/**
 * Spec §1: the welcome discount's countdown in hours or minutes: whole hours from one hour on, then
 * whole minutes (at least 1 while any second is left).
 */
export function hoursOrMinutes(totalSeconds: number): { unit: "hours" | "minutes"; value: number } {
  if (totalSeconds >= 3600) return { unit: "hours", value: Math.floor(totalSeconds / 3600) };
  return { unit: "minutes", value: Math.max(1, Math.floor(totalSeconds / 60)) };
}
