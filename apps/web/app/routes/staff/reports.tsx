import { useIntl } from "react-intl";
import { ReportsQueue } from "../../features/staff/reports/queue";
import { PageTitle } from "../../ui/page-title";

/** /staff/reports (moderators and support; issue #27): the queue of reports and complaints. */
export default function StaffReports() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.reports.title" });
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <ReportsQueue />
    </section>
  );
}
