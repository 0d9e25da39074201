import { LIMITS } from "@app/contract";
import { useEffect, useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useMember } from "../../lib/member";
import { useInMembersArea } from "../../lib/members-area";
import { useWarningSlot, WARNING_RANK } from "../../lib/warnings";
import { useTimeBonus } from "./discount-provider";
import { HmsTimer } from "./time-left";

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

/** Spec §9: "the modal urges action fast with a 4 value": the bonus's window in hours (14400 s). */
const WINDOW_HOURS = LIMITS.timeBonusSeconds / 3600;

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
  const percentage = bonus?.value_percentage ?? LIMITS.timeBonusPercent;
  return (
    <Modal show={show} onHide={dismiss} centered aria-labelledby="time-bonus-title">
      <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
        <Modal.Title id="time-bonus-title" as="h2" className="h5">
          <FormattedMessage id="discounts.modal_title" values={{ percentage, hours: WINDOW_HOURS }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <FormattedMessage id="discounts.modal_body" values={{ percentage, hours: WINDOW_HOURS }} />
        </p>
        {bonus?.secondsLeft != null ? (
          <p className="mb-0 fs-5">
            <FormattedMessage id="discounts.modal_ends" values={{ countdown: <HmsTimer seconds={bonus.secondsLeft} /> }} />
          </p>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={dismiss}>
          <FormattedMessage id="discounts.modal_later" />
        </Button>
        <Link to="/credits" className="btn btn-primary" onClick={dismiss}>
          <FormattedMessage id="discounts.modal_cta" values={{ percentage }} />
        </Link>
      </Modal.Footer>
    </Modal>
  );
}
