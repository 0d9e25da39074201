import type { OwnProfile } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { MenuDivider } from "../../ui/menu";
import { ownProfileQuery } from "./api";
import { profileCompleteness } from "./completeness";

/** Moves the member to the field of a part: scrolled into view and focused, so typing can start. */
function goTo(target: string) {
  const field = document.getElementById(target);
  if (!field) return;
  field.scrollIntoView({ block: "center" });
  field.focus({ preventScroll: true });
}

/**
 * The profile-completeness meter of /profile (issue #29): how complete the profile is and the next
 * step as a button that leads to its field. Not an alert: it sits in the page and says nothing once
 * the profile is complete except that it is.
 */
export function CompletenessMeter({ profile }: { profile: OwnProfile }) {
  const intl = useIntl();
  const labelId = useId();
  const { percent, next } = profileCompleteness(profile);
  return (
    <section className="card shadow-sm mb-4" aria-labelledby={labelId} data-testid="completeness-meter">
      <div className="card-body d-flex flex-wrap align-items-center gap-3">
        <div className="flex-grow-1" style={{ minWidth: "12rem" }}>
          <h2 id={labelId} className="h6 mb-2">
            <FormattedMessage id="completeness.title" values={{ percent }} />
          </h2>
          <div
            className="progress"
            style={{ height: 8 }}
            role="progressbar"
            aria-label={intl.formatMessage({ id: "completeness.bar" })}
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className={`progress-bar ${next ? "bg-primary" : "bg-success"}`} style={{ width: `${percent}%` }} />
          </div>
        </div>
        {next ? (
          <Button variant="outline-primary" size="sm" onClick={() => goTo(next.target)}>
            <FormattedMessage id={`completeness.next.${next.id}`} />
          </Button>
        ) : (
          <p className="text-success fw-semibold mb-0">
            <FormattedMessage id="completeness.done" />
          </p>
        )}
      </div>
    </section>
  );
}

/**
 * The compact meter at the top of the account menu (issue #29), the member's own card in the
 * navigation of every page, /members included, without adding an alert. The menu renders it when
 * first opened, so the profile loads only then; once the profile is complete it shows nothing.
 */
export function CompletenessMenuItem() {
  const { data: profile } = useQuery(ownProfileQuery);
  if (!profile) return null;
  const { percent, next } = profileCompleteness(profile);
  if (!next) return null;
  return (
    <>
      <Link to="/profile" className="small dropdown-item" data-testid="completeness-menu-item">
        <span className="d-block">
          <FormattedMessage id="completeness.title" values={{ percent }} />
        </span>
        <span className="progress my-1" style={{ height: 4 }} aria-hidden="true">
          <span className="progress-bar" style={{ width: `${percent}%` }} />
        </span>
        <span className="d-block text-primary-emphasis">
          <FormattedMessage id={`completeness.next.${next.id}`} />
        </span>
      </Link>
      <MenuDivider />
    </>
  );
}
