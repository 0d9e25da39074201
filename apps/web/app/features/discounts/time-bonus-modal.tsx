import { LIMITS } from "@app/contract";
import { lazy, Suspense, useEffect, useState } from "react";
import { useIntl } from "react-intl";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useMember } from "../../lib/member";
import { useInMembersArea } from "../../lib/members-area";
import { useWarningSlot, WARNING_RANK } from "../../lib/warnings";
import { useTimeBonus } from "./discount-provider";

const TimeBonusDialog = lazy(() => import("./time-bonus-dialog").then((m) => ({ default: m.TimeBonusDialog })));

/** Spec §2: a dismissal is remembered in storage with a timestamp; one key per member. */
export const timeBonusModalKey = (userId: number) => `dismissed-time-bonus-modal-${userId}`;

/**
 * Browser tests wait seconds, not the spec's 40: `localStorage.setItem("time-bonus-modal-delay-ms",
 * "1000")` before the page loads replaces LIMITS.timeBonusModalDelayMs (a whole number of
 * milliseconds; anything else is ignored). No member sets it; it changes only when the modal shows.
 */
export const TIME_BONUS_MODAL_DELAY_KEY = "time-bonus-modal-delay-ms";

export function timeBonusModalDelayMs(): number {
  try {
    const override = window.localStorage.getItem(TIME_BONUS_MODAL_DELAY_KEY)?.trim();
    if (override && /^\d{1,9}$/.test(override)) return Number(override);
  } catch {
    // Storage unavailable: the spec's delay.
  }
  return LIMITS.timeBonusModalDelayMs;
}

/**
 * Spec §4 time-bonus popup: after 40 s in the members area (with no more important alert showing), for a member with 0 credits while the
 * time bonus is visible, unless dismissed before. The delay restarts when the member leaves the
 * members area (or gets credits) and comes back. Closing it in any way, or taking the offer, is the
 * dismissal.
 */
export function TimeBonusModal() {
  const intl = useIntl();
  const { user } = useMember();
  const bonus = useTimeBonus();
  const membersArea = useInMembersArea();
  const key = user ? timeBonusModalKey(user.id) : null;
  // Read from storage after hydration; null until known.
  const [dismissed, setDismissed] = useState<boolean | null>(null);
  useEffect(() => setDismissed(key === null ? null : dismissedAt(key) !== null), [key]);
  // Its 40 s count from when no more important alert is showing (lib/warnings.ts: the banner shares its rank).
  const waiting = useWarningSlot(
    WARNING_RANK.timeBonus,
    membersArea && user !== null && user.credits === 0 && bonus !== null && dismissed === false,
  );
  const [due, setDue] = useState(false);
  useEffect(() => {
    setDue(false);
    if (!waiting) return;
    const timer = setTimeout(() => setDue(true), timeBonusModalDelayMs());
    return () => clearTimeout(timer);
  }, [waiting]);

  const dismiss = () => {
    if (key) rememberDismissal(key);
    setDismissed(true);
  };
  const show = due && waiting;
  // The dialog's module (react-bootstrap's Modal) loads when it first shows, not on every members'
  // page (issue #29); once shown it stays mounted, so that it closes with its animation.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (show) setShown(true);
  }, [show]);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <TimeBonusDialog
        show={show}
        onDismiss={dismiss}
        percentage={bonus?.value_percentage ?? LIMITS.timeBonusPercent}
        secondsLeft={bonus?.secondsLeft ?? null}
        closeLabel={intl.formatMessage({ id: "alerts.close" })}
      />
    </Suspense>
  );
}
