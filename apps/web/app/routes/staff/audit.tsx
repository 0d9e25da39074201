import { type AuditEntryView, STAFF_AUTH_ENDPOINTS } from "@app/contract";
import { useState } from "react";
import { Button, Form, Table } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { useStaffQuery } from "../../features/staff/api";
import { HeaderRow } from "../../features/staff/table";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

const idOf = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** /staff/audit (admin): the whole audit log, or one member's, or one staff account's; newest first. */
export default function StaffAudit() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.audit.title" });
  const [params, setParams] = useSearchParams();
  const [before, setBefore] = useState<number[]>([]);
  const filter = { member_id: idOf(params.get("member")), staff_id: idOf(params.get("staff")) };
  const log = useStaffQuery(STAFF_AUTH_ENDPOINTS.audit, { query: { ...filter, before: before.at(-1), limit: 50 } });
  const setFilter = (key: "member" | "staff", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setBefore([]);
    setParams(next, { replace: true });
  };
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <Form className="d-flex gap-3 mb-3" onSubmit={(event) => event.preventDefault()}>
        {(["member", "staff"] as const).map((key) => (
          <Form.Group controlId={`audit-${key}`} key={key}>
            <Form.Label>
              <FormattedMessage id={`staff.audit.${key}_id`} />
            </Form.Label>
            <Form.Control
              inputMode="numeric"
              defaultValue={params.get(key) ?? ""}
              onBlur={(e) => setFilter(key, e.target.value.trim())}
            />
          </Form.Group>
        ))}
      </Form>
      {log.error ? <FormAlert>{errorMessage(log.error, intl)}</FormAlert> : null}
      <AuditTable entries={log.data?.entries ?? []} />
      <div className="d-flex gap-2">
        {before.length > 0 ? (
          <Button variant="outline-secondary" onClick={() => setBefore(before.slice(0, -1))}>
            <FormattedMessage id="staff.audit.newer" />
          </Button>
        ) : null}
        {log.data?.next ? (
          <Button variant="outline-secondary" onClick={() => setBefore([...before, log.data?.next ?? 0])}>
            <FormattedMessage id="staff.audit.older" />
          </Button>
        ) : null}
      </div>
    </section>
  );
}

/** Audit entries as a table: when, who, what, which object, before → after, from where. */
export function AuditTable({ entries }: { entries: AuditEntryView[] }) {
  if (entries.length === 0) {
    return (
      <p className="text-body-secondary">
        <FormattedMessage id="staff.audit.empty" />
      </p>
    );
  }
  return (
    <Table responsive size="sm" className="align-top">
      <HeaderRow
        ids={[
          "staff.audit.when",
          "staff.audit.who",
          "staff.audit.action",
          "staff.audit.object",
          "staff.audit.change",
          "staff.audit.address",
        ]}
      />
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td className="text-nowrap">
              <FormattedDate value={entry.at} dateStyle="short" timeStyle="medium" />
            </td>
            <td>{entry.staff_email}</td>
            <td>
              <code>{entry.action}</code>
            </td>
            <td>
              {entry.object_type} #{entry.object_id}
              {entry.member_id !== null ? (
                <span className="text-body-secondary">
                  {" "}
                  (<FormattedMessage id="staff.audit.member" values={{ id: entry.member_id }} />)
                </span>
              ) : null}
            </td>
            <td>
              {entry.before !== null || entry.after !== null ? (
                <details>
                  <summary>
                    <FormattedMessage id="staff.audit.show_change" />
                  </summary>
                  <pre className="small mb-0">{JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}</pre>
                </details>
              ) : null}
            </td>
            <td>{entry.address ?? "–"}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
