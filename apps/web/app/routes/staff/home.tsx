import { STAFF_AUTH_ENDPOINTS, type StaffOverview } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useStaffQuery } from "../../features/staff/api";
import { useStaff } from "../../features/staff/context";
import { navFor } from "../../features/staff/nav";
import { PageTitle } from "../../ui/page-title";

/** What waits behind each area of the console (null: the role does not see it, or it has no queue). */
function waitingAt(to: string, overview: StaffOverview | undefined): number | null {
  if (!overview) return null;
  const sum = (...values: Array<number | null>) =>
    values.every((v) => v === null) ? null : values.reduce<number>((total, v) => total + (v ?? 0), 0);
  switch (to) {
    case "/staff/inbox":
      return overview.inbox_waiting;
    case "/staff/moderation":
      return sum(overview.review_photos, overview.review_about);
    case "/staff/reports":
      return sum(overview.reports_open, overview.complaints_open);
    default:
      return null;
  }
}

/** /staff: where a staff member starts: their areas, with what waits in each. */
export default function StaffHome() {
  const staff = useStaff();
  const intl = useIntl();
  const overview = useStaffQuery(STAFF_AUTH_ENDPOINTS.overview, {}, { refetchInterval: 30_000 });
  const title = intl.formatMessage({ id: "staff.home.title" });
  const areas = navFor(staff.role).filter((item) => item.to !== "/staff");
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">
        <FormattedMessage id="staff.home.greeting" values={{ name: staff.name }} />
      </h1>
      <p className="text-body-secondary">
        <FormattedMessage id="staff.home.role" values={{ role: intl.formatMessage({ id: `staff.role.${staff.role}` }) }} />
      </p>
      <ul className="list-unstyled d-grid gap-2" style={{ maxWidth: 480 }}>
        {areas.map((item) => {
          const waiting = waitingAt(item.to, overview.data);
          return (
            <li key={item.to}>
              <Link
                to={item.to}
                className="btn btn-outline-primary w-100 text-start d-flex justify-content-between align-items-center"
              >
                <FormattedMessage id={item.label} />
                {waiting !== null ? (
                  <span className={`badge ${waiting > 0 ? "text-bg-primary" : "text-bg-light"}`}>
                    <FormattedMessage id="staff.home.waiting" values={{ count: waiting }} />
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
