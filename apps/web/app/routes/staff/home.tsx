import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useStaff } from "../../features/staff/context";
import { navFor } from "../../features/staff/nav";
import { PageTitle } from "../../ui/page-title";

/** /staff: where a staff member starts: what their role lets them do. */
export default function StaffHome() {
  const staff = useStaff();
  const intl = useIntl();
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
      <ul className="list-unstyled d-grid gap-2" style={{ maxWidth: 420 }}>
        {areas.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="btn btn-outline-primary w-100 text-start">
              <FormattedMessage id={item.label} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
