import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useMember } from "../../lib/member";
import { useInMembersArea } from "../../lib/members-area";
import { useWarningSlot, WARNING_RANK } from "../../lib/warnings";
import { useTimeBonus } from "./discount-provider";
import { HmsTimer } from "./time-left";

/**
 * Spec §2 "discount time-bonus top banner": for a logged-in member in the members area while the time
 * bonus is visible, its percentage, the ticking countdown and the way to the credits. Not dismissible:
 * it goes by itself at zero, on logout, or once the member has paid.
 */
export function TimeBonusBanner({ className = "mt-3" }: { className?: string }) {
  const intl = useIntl();
  const { user } = useMember();
  const bonus = useTimeBonus();
  const membersArea = useInMembersArea();
  // After the account's and the profile's alerts (lib/warnings.ts).
  const shown = useWarningSlot(
    WARNING_RANK.timeBonus,
    user !== null && bonus !== null && bonus.secondsLeft !== null && membersArea,
  );
  if (!shown || !bonus || bonus.secondsLeft === null) return null;
  return (
    // A labelled region: a landmark that screen-reader users can find, and not a live region.
    <section
      aria-label={intl.formatMessage({ id: "discounts.kind_time_bonus" })}
      className={`alert alert-warning d-flex flex-wrap align-items-center gap-2 py-2 ${className}`}
      data-time-bonus-banner=""
    >
      <span>
        <FormattedMessage
          id="discounts.banner"
          values={{
            percentage: bonus.value_percentage,
            countdown: <HmsTimer seconds={bonus.secondsLeft} />,
            strong: (chunks) => <strong>{chunks}</strong>,
            link: (chunks) => (
              <Link to="/credits" className="alert-link">
                {chunks}
              </Link>
            ),
          }}
        />
      </span>
    </section>
  );
}
