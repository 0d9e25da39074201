import { FormattedMessage } from "react-intl";
import { formatHms, hoursOrMinutes } from "./countdown";
import type { ShownDiscount } from "./discount-provider";

/**
 * The time bonus's ticking hh:mm:ss (spec §4). A timer role with live announcements off: the
 * number changes every second, and a screen reader reads it when the member gets to it rather than
 * interrupting each second.
 */
export function HmsTimer({ seconds }: { seconds: number }) {
  return (
    <span role="timer" aria-live="off" className="font-monospace fw-semibold text-nowrap">
      {formatHms(seconds)}
    </span>
  );
}

/** Spec §1: the welcome discount's countdown in hours or minutes ("5 hours left", "12 minutes left"). */
export function HoursOrMinutesLeft({ seconds }: { seconds: number }) {
  const left = hoursOrMinutes(seconds);
  return left.unit === "hours" ? (
    <FormattedMessage id="discounts.hours_left" values={{ hours: left.value }} />
  ) : (
    <FormattedMessage id="discounts.minutes_left" values={{ minutes: left.value }} />
  );
}

/** How long a discount still runs: hh:mm:ss for the time bonus, hours or minutes for the welcome discount. */
export function TimeLeft({ discount }: { discount: ShownDiscount }) {
  if (discount.secondsLeft === null) return null;
  return discount.kind === "time_bonus" ? (
    <HmsTimer seconds={discount.secondsLeft} />
  ) : (
    <HoursOrMinutesLeft seconds={discount.secondsLeft} />
  );
}
