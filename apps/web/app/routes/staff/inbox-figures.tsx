import { STAFF_INBOX_ENDPOINTS } from "@app/contract";
import { useState } from "react";
import { Form, Table } from "react-bootstrap";
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { Link } from "react-router";
import { useStaffQuery } from "../../features/staff/api";
import { HeaderRow } from "../../features/staff/table";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

const PERIODS = [1, 24, 24 * 7, 24 * 30] as const;

/** A duration in seconds as minutes (one decimal), or a dash. */
function Minutes({ seconds }: { seconds: number | null }) {
  if (seconds === null) return <>–</>;
  return <FormattedNumber value={seconds / 60} style="unit" unit="minute" unitDisplay="short" maximumFractionDigits={1} />;
}

/** /staff/inbox/figures (operators): waiting now, and the time to first answer in all, per operator and per hour. */
export default function StaffInboxFigures() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.inbox.figures.title" });
  const [hours, setHours] = useState<number>(24);
  const figures = useStaffQuery(STAFF_INBOX_ENDPOINTS.inboxFigures, { query: { hours } }, { refetchInterval: 30_000 });
  const data = figures.data;
  const columns = ["staff.inbox.figures.answers", "staff.inbox.figures.median", "staff.inbox.figures.p90"];
  return (
    <section>
      <PageTitle title={title} />
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Link to="/staff/inbox" className="small">
          <FormattedMessage id="staff.inbox.title" />
        </Link>
      </div>
      <Form.Group controlId="inbox-figures-hours" className="mb-3" style={{ maxWidth: 260 }}>
        <Form.Label>
          <FormattedMessage id="staff.inbox.figures.period" />
        </Form.Label>
        <Form.Select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              {intl.formatMessage({ id: "staff.inbox.figures.hours" }, { hours: period })}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {figures.error ? <FormAlert>{errorMessage(figures.error, intl)}</FormAlert> : null}
      {data ? (
        <>
          <dl className="row mb-4" style={{ maxWidth: 640 }}>
            <dt className="col-sm-6">
              <FormattedMessage id="staff.inbox.figures.waiting" />
            </dt>
            <dd className="col-sm-6">{data.waiting}</dd>
            <dt className="col-sm-6">
              <FormattedMessage id="staff.inbox.figures.oldest" />
            </dt>
            <dd className="col-sm-6">
              <Minutes seconds={data.oldest_wait_seconds} />
            </dd>
            <dt className="col-sm-6">
              <FormattedMessage id="staff.inbox.figures.median" />
            </dt>
            <dd className="col-sm-6">
              <Minutes seconds={data.all.median_seconds} />
            </dd>
            <dt className="col-sm-6">
              <FormattedMessage id="staff.inbox.figures.p90" />
            </dt>
            <dd className="col-sm-6">
              <Minutes seconds={data.all.p90_seconds} />
            </dd>
          </dl>
          <h2 className="h5">
            <FormattedMessage id="staff.inbox.figures.per_operator" />
          </h2>
          {data.per_operator.length ? (
            <Table size="sm" responsive className="mb-4">
              <HeaderRow ids={["staff.inbox.figures.operator", ...columns]} />
              <tbody>
                {data.per_operator.map((row) => (
                  <tr key={row.staff_id}>
                    <td>{row.name}</td>
                    <td>{row.answers}</td>
                    <td>
                      <Minutes seconds={row.median_seconds} />
                    </td>
                    <td>
                      <Minutes seconds={row.p90_seconds} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            <p className="text-body-secondary">
              <FormattedMessage id="staff.inbox.figures.none" />
            </p>
          )}
          <h2 className="h5">
            <FormattedMessage id="staff.inbox.figures.per_hour" />
          </h2>
          {data.per_hour.length ? (
            <Table size="sm" responsive>
              <HeaderRow ids={["staff.inbox.figures.hour", ...columns]} />
              <tbody>
                {data.per_hour.map((row) => (
                  <tr key={row.hour}>
                    <td>
                      <FormattedDate value={row.hour} dateStyle="short" timeStyle="short" />
                    </td>
                    <td>{row.answers}</td>
                    <td>
                      <Minutes seconds={row.median_seconds} />
                    </td>
                    <td>
                      <Minutes seconds={row.p90_seconds} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            <p className="text-body-secondary">
              <FormattedMessage id="staff.inbox.figures.none" />
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
