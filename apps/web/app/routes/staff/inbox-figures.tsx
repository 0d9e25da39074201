import { STAFF_INBOX_ENDPOINTS } from "@app/contract";
import { type ReactNode, useState } from "react";
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

interface WaitRow {
  key: string;
  label: ReactNode;
  answers: number;
  median_seconds: number | null;
  p90_seconds: number | null;
}

const COLUMNS = ["staff.inbox.figures.answers", "staff.inbox.figures.median", "staff.inbox.figures.p90"];

/** Answers and the time to first answer per operator or per hour, under its heading; a line when there are none. */
function WaitTable({ title, first, rows }: { title: string; first: string; rows: WaitRow[] }) {
  return (
    <>
      <h2 className="h5">
        <FormattedMessage id={title} />
      </h2>
      {rows.length ? (
        <Table size="sm" responsive className="mb-4">
          <HeaderRow ids={[first, ...COLUMNS]} />
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td>{row.label}</td>
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
  );
}

/** /staff/inbox/figures (operators): waiting now, and the time to first answer in all, per operator and per hour. */
export default function StaffInboxFigures() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.inbox.figures.title" });
  const [hours, setHours] = useState<number>(24);
  const figures = useStaffQuery(STAFF_INBOX_ENDPOINTS.inboxFigures, { query: { hours } }, { refetchInterval: 30_000 });
  const data = figures.data;
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
          <WaitTable
            title="staff.inbox.figures.per_operator"
            first="staff.inbox.figures.operator"
            rows={data.per_operator.map((row) => ({ ...row, key: String(row.staff_id), label: row.name }))}
          />
          <WaitTable
            title="staff.inbox.figures.per_hour"
            first="staff.inbox.figures.hour"
            rows={data.per_hour.map((row) => ({
              ...row,
              key: row.hour,
              label: <FormattedDate value={row.hour} dateStyle="short" timeStyle="short" />,
            }))}
          />
        </>
      ) : null}
    </section>
  );
}
