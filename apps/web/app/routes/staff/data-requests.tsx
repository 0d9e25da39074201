import { FormattedMessage, useIntl } from "react-intl";
import { DataRequest } from "../../features/staff/data-requests/data-request";
import { PageTitle } from "../../ui/page-title";

/** /staff/data-requests (support, admin): a member's data export and erasure on their request. */
export default function StaffDataRequests() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.data_requests.title" });
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <p style={{ maxWidth: 720 }}>
        <FormattedMessage id="staff.data_requests.intro" />
      </p>
      <DataRequest />
    </section>
  );
}
