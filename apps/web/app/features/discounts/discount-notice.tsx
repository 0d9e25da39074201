import { type ReactNode, useEffect, useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useMember } from "../../lib/member";
import { useShownDiscount } from "./discount-provider";
import { HoursOrMinutesLeft, TimeLeft } from "./time-left";

/**
 * The shown discount where credits are sold (/credits, /premium): the time bonus with its hh:mm:ss,
 * else the welcome discount with its hours or minutes left (spec §1, §4). Nothing without one.
 */
export function DiscountNotice() {
  const discount = useShownDiscount();
  if (!discount) return null;
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  return (
    <div className="alert alert-success d-flex flex-wrap align-items-center gap-2" data-discount-notice={discount.kind}>
      {discount.kind === "time_bonus" ? (
        <span>
          <FormattedMessage
            id="discounts.notice_time_bonus"
            values={{ percentage: discount.value_percentage, strong, countdown: <TimeLeft discount={discount} /> }}
          />
        </span>
      ) : (
        <span>
          <FormattedMessage id="discounts.notice_welcome" values={{ percentage: discount.value_percentage, strong }} />
          {discount.secondsLeft !== null ? (
            <>
              {" "}
              <span className="fw-semibold">
                <HoursOrMinutesLeft seconds={discount.secondsLeft} />
              </span>
            </>
          ) : null}
        </span>
      )}
    </div>
  );
}

/** Spec §2 welcome-bonus discount modal: shown once per member; the dismissal is remembered with a timestamp. */
export const welcomeModalKey = (userId: number) => `dismissed-welcome-discount-${userId}`;

/**
 * Spec §1, §2: the welcome-bonus discount modal, on the pages that sell credits (/credits, /premium),
 * the first time a member with a welcome discount (and no time bonus) comes there.
 */
export function WelcomeDiscountModal() {
  const intl = useIntl();
  const { user } = useMember();
  const discount = useShownDiscount();
  const key = user ? welcomeModalKey(user.id) : null;
  const [dismissed, setDismissed] = useState<boolean | null>(null);
  useEffect(() => setDismissed(key === null ? null : dismissedAt(key) !== null), [key]);
  const welcome = discount?.kind === "welcome" ? discount : null;
  const close = () => {
    if (key) rememberDismissal(key);
    setDismissed(true);
  };
  const percentage = welcome?.value_percentage ?? 0;
  return (
    <Modal show={welcome !== null && dismissed === false} onHide={close} centered aria-labelledby="welcome-discount-title">
      <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
        <Modal.Title id="welcome-discount-title" as="h2" className="h5">
          <FormattedMessage id="discounts.welcome_title" values={{ percentage }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className={welcome?.secondsLeft != null ? undefined : "mb-0"}>
          <FormattedMessage id="discounts.welcome_body" values={{ percentage }} />
        </p>
        {welcome?.secondsLeft != null ? (
          <p className="mb-0 fw-semibold">
            <HoursOrMinutesLeft seconds={welcome.secondsLeft} />
          </p>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={close} autoFocus>
          <FormattedMessage id="discounts.welcome_ok" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
