import { ACCOUNT_RULES, type DataRequestMember, STAFF_DATA_REQUESTS_ENDPOINTS } from "@app/contract";
import { type FormEvent, useRef, useState } from "react";
import { Button, Card, Form } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { downloadFile } from "../../../lib/api";
import { errorMessage } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { staffPath, useStaffMutation, useStaffQuery } from "../api";
import { ConfirmDialog } from "../confirm-dialog";
import { useShortcuts } from "../shortcuts";

/**
 * A member's data request (GDPR art. 15, 17, 20): find them by account number or address, download the
 * ZIP they could download themselves, or start the erasure they could start themselves. Keys: / finds,
 * d downloads, x starts the erasure.
 */
export function DataRequest() {
  const intl = useIntl();
  const search = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const found = useStaffQuery(STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestFind, { query: { q } }, { enabled: q !== "" });
  const member = found.data?.member ?? null;
  const [confirming, setConfirming] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const erase = useStaffMutation(STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestErase, ["/staff/api/data-requests"]);

  const find = (event?: FormEvent) => {
    event?.preventDefault();
    setNotice(null);
    setFailure(null);
    setQ(typed.trim());
  };
  const download = async () => {
    if (!member) return;
    setDownloading(true);
    setNotice(null);
    setFailure(null);
    try {
      await downloadFile(staffPath(STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestExport, { params: { userId: member.id } }));
      setNotice(intl.formatMessage({ id: "staff.data_requests.downloaded" }));
    } catch (error) {
      setFailure(error);
    } finally {
      setDownloading(false);
    }
  };
  const startErasure = () => {
    if (!member) return;
    erase.mutate(
      { params: { userId: member.id } },
      {
        onSuccess: () => {
          setConfirming(false);
          setNotice(intl.formatMessage({ id: "staff.data_requests.erasure_started" }));
        },
        onError: (error) => {
          setConfirming(false);
          setFailure(error);
        },
      },
    );
  };
  useShortcuts({
    "/": () => search.current?.focus(),
    d: () => void download(),
    x: () => member && member.status !== "pending_deletion" && setConfirming(true),
  });

  return (
    <>
      <p className="small text-body-secondary">
        <FormattedMessage id="staff.data_requests.shortcuts" />
      </p>
      <Form onSubmit={find} className="d-flex gap-2 align-items-end mb-4" role="search" style={{ maxWidth: 560 }}>
        <Form.Group controlId="data-request-q" className="flex-grow-1">
          <Form.Label>
            <FormattedMessage id="staff.data_requests.search_label" />
          </Form.Label>
          <Form.Control ref={search} value={typed} onChange={(event) => setTyped(event.target.value)} />
        </Form.Group>
        <BusyButton type="submit" busy={found.isFetching}>
          <FormattedMessage id="staff.data_requests.search" />
        </BusyButton>
      </Form>
      {found.error ? <FormAlert>{errorMessage(found.error, intl)}</FormAlert> : null}
      {failure ? <FormAlert>{errorMessage(failure, intl)}</FormAlert> : null}
      {notice ? <FormAlert variant="success">{notice}</FormAlert> : null}
      {q && found.data && !member ? (
        <p>
          <FormattedMessage id="staff.data_requests.not_found" />
        </p>
      ) : null}
      {member ? <MemberCard member={member} /> : null}
      {member ? (
        <div className="d-flex gap-2">
          <BusyButton busy={downloading} onClick={download}>
            <FormattedMessage id="staff.data_requests.download" />
          </BusyButton>
          <Button variant="outline-danger" disabled={member.status === "pending_deletion"} onClick={() => setConfirming(true)}>
            <FormattedMessage id="staff.data_requests.erase" />
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        id="erase-title"
        show={confirming}
        title={<FormattedMessage id="staff.data_requests.erase" />}
        confirm={<FormattedMessage id="staff.data_requests.erase_confirm_button" />}
        busy={erase.isPending}
        onConfirm={startErasure}
        onCancel={() => setConfirming(false)}
      >
        <FormattedMessage id="staff.data_requests.erase_confirm" values={{ days: ACCOUNT_RULES.reactivationDays }} />
      </ConfirmDialog>
    </>
  );
}

function MemberCard({ member }: { member: DataRequestMember }) {
  const rows: [string, React.ReactNode][] = [
    ["staff.data_requests.id", `#${member.id}`],
    ["staff.data_requests.email", member.email ?? "–"],
    ["staff.data_requests.name", member.name ?? "–"],
    ["staff.data_requests.status", <FormattedMessage key="status" id={`staff.data_requests.status_${member.status}`} />],
    ["staff.data_requests.language", member.language],
    ["staff.data_requests.signup_date", <FormattedDate key="signup" value={member.signup_date} dateStyle="medium" />],
  ];
  if (member.deletion_requested_at) {
    rows.push([
      "staff.data_requests.deletion_requested_at",
      <FormattedDate key="deletion" value={member.deletion_requested_at} dateStyle="medium" timeStyle="short" />,
    ]);
  }
  return (
    <Card className="mb-3" style={{ maxWidth: 560 }}>
      <Card.Body>
        <dl className="row mb-0">
          {rows.map(([id, value]) => (
            <div className="contents" key={id}>
              <dt className="col-sm-5">
                <FormattedMessage id={id} />
              </dt>
              <dd className="col-sm-7">{value}</dd>
            </div>
          ))}
        </dl>
      </Card.Body>
    </Card>
  );
}
