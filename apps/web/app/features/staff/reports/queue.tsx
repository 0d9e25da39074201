import { STAFF_REPORTS_ENDPOINTS as E, nameValues, QUEUE_STATUSES, type QueueItemView } from "@app/contract";
import { useEffect, useRef, useState } from "react";
import { Badge, Button, ButtonGroup } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../../lib/form-errors";
import { FormAlert } from "../../../ui/form-alert";
import { useStaffMutation, useStaffQuery } from "../api";
import { useStaff } from "../context";
import { step, useShortcuts } from "../shortcuts";
import { type ActionForm, ActionForms } from "./actions";

type Status = (typeof QUEUE_STATUSES)[number];

/** The keys of the queue, as listed beside it. */
const SHORTCUTS = [
  ["j / k", "staff.reports.key_move"],
  ["Enter", "staff.reports.key_open"],
  ["a", "staff.reports.key_assign"],
  ["b", "staff.reports.key_ban"],
  ["d", "staff.reports.key_dismiss"],
  ["r", "staff.reports.key_answer"],
  ["c", "staff.reports.key_close"],
  ["Esc", "staff.reports.key_escape"],
] as const;

const itemKey = (item: QueueItemView) => `${item.kind}:${item.id}`;

/**
 * /staff/reports (issue #27): one queue of members' reports (moderators) and complaints (support), the
 * oldest still to handle first. Keyboard-driven: j/k move, Enter opens the selected item's details,
 * a assigns it to me, b bans the reported member, d dismisses a report, r answers and c closes a complaint.
 */
export function ReportsQueue() {
  const intl = useIntl();
  const staff = useStaff();
  const [status, setStatus] = useState<Status>("active");
  const queue = useStaffQuery(E.queue, { query: { status } });
  const items = queue.data?.items ?? [];
  const [selected, setSelected] = useState(0);
  const [form, setForm] = useState<ActionForm>(null);
  const [actionError, setActionError] = useState("");
  const detail = useRef<HTMLElement>(null);
  const rows = useRef<Map<string, HTMLButtonElement>>(new Map());
  const current = items[Math.min(selected, Math.max(0, items.length - 1))];
  const assignReport = useStaffMutation(E.reportAssign, ["/staff/api/reports"]);
  const assignComplaint = useStaffMutation(E.complaintAssign, ["/staff/api/reports"]);

  useEffect(() => {
    if (selected >= items.length && items.length > 0) setSelected(items.length - 1);
  }, [items.length, selected]);

  const move = (by: number) => {
    const next = step(selected, by, items.length);
    setSelected(next);
    setForm(null);
    const item = items[next];
    if (item) rows.current.get(itemKey(item))?.focus();
  };
  const open = (form: ActionForm) => {
    if (!current || current.status === "closed") return;
    setActionError("");
    setForm(form);
  };
  const assign = async () => {
    if (!current || current.status === "closed") return;
    setActionError("");
    try {
      const input = { params: { id: current.id } };
      await (current.kind === "report" ? assignReport.mutateAsync(input) : assignComplaint.mutateAsync(input));
    } catch (caught) {
      setActionError(errorMessage(caught, intl));
    }
  };
  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    Enter: () => detail.current?.focus(),
    a: () => void assign(),
    b: () => current?.kind === "report" && open("ban"),
    d: () => current?.kind === "report" && open("dismiss"),
    r: () => current?.kind === "complaint" && open("answer"),
    c: () => current?.kind === "complaint" && open("close"),
    Escape: () => setForm(null),
  });

  const title = intl.formatMessage({ id: "staff.reports.title" });
  return (
    <div className="row g-4">
      <div className="col-lg-5">
        <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
          <ButtonGroup aria-label={intl.formatMessage({ id: "staff.reports.status_filter" })}>
            {QUEUE_STATUSES.map((value) => (
              <Button
                key={value}
                size="sm"
                variant={value === status ? "primary" : "outline-primary"}
                aria-pressed={value === status}
                onClick={() => {
                  setStatus(value);
                  setSelected(0);
                  setForm(null);
                }}
              >
                <FormattedMessage id={`staff.reports.status.${value}`} />
              </Button>
            ))}
          </ButtonGroup>
        </div>
        {queue.error ? <FormAlert>{errorMessage(queue.error, intl)}</FormAlert> : null}
        {queue.data && items.length === 0 ? (
          <p className="text-body-secondary">
            <FormattedMessage id="staff.reports.empty" />
          </p>
        ) : null}
        <ol className="list-group" aria-label={title}>
          {items.map((item, index) => (
            <li key={itemKey(item)} className="list-group-item p-0">
              <button
                type="button"
                ref={(node) => {
                  if (node) rows.current.set(itemKey(item), node);
                  else rows.current.delete(itemKey(item));
                }}
                className={`btn w-100 text-start rounded-0 ${index === selected ? "btn-primary" : "btn-light"}`}
                aria-current={index === selected ? "true" : undefined}
                onClick={() => {
                  setSelected(index);
                  setForm(null);
                }}
              >
                <span className="d-flex justify-content-between gap-2">
                  <span className="fw-semibold">
                    {item.kind === "report" ? (
                      <FormattedMessage
                        id={`staff.reports.report_of_${item.object_type}`}
                        values={nameValues(item.content.type === "profile" ? item.content.name : item.content.sender_name)}
                      />
                    ) : (
                      <FormattedMessage id="staff.reports.complaint_ref" values={{ reference: item.reference }} />
                    )}
                  </span>
                  <Badge bg={item.status === "open" ? "warning" : item.status === "closed" ? "secondary" : "info"} text="dark">
                    <FormattedMessage id={`staff.reports.status.${item.status}`} />
                  </Badge>
                </span>
                <span className="d-block small">
                  {item.kind === "report" ? (
                    <FormattedMessage id={`moderation.report_reason.${item.reason}`} />
                  ) : (
                    <FormattedMessage id={`complaints.subject.${item.subject}`} />
                  )}
                  {" · "}
                  <FormattedDate value={item.created_at} dateStyle="short" timeStyle="short" />
                  {item.assigned_to === staff.id ? (
                    <>
                      {" · "}
                      <FormattedMessage id="staff.reports.mine" />
                    </>
                  ) : item.assigned_to_name ? (
                    <>
                      {" · "}
                      <FormattedMessage id="staff.reports.assigned_to" values={{ name: item.assigned_to_name }} />
                    </>
                  ) : null}
                </span>
              </button>
            </li>
          ))}
        </ol>
        <aside className="mt-4" aria-labelledby="queue-keys">
          <h2 id="queue-keys" className="h6">
            <FormattedMessage id="staff.reports.shortcuts" />
          </h2>
          <dl className="row small mb-0">
            {SHORTCUTS.map(([key, label]) => (
              <div key={key} className="d-flex gap-2">
                <dt className="fw-normal">
                  <kbd>{key}</kbd>
                </dt>
                <dd className="mb-1">
                  <FormattedMessage id={label} />
                </dd>
              </div>
            ))}
          </dl>
        </aside>
      </div>
      <section className="col-lg-7" ref={detail} tabIndex={-1} aria-labelledby="queue-detail-title">
        {current ? (
          <Detail item={current} form={form} onForm={open} onAssign={assign} error={actionError} onDone={() => setForm(null)} />
        ) : (
          <h2 id="queue-detail-title" className="visually-hidden">
            <FormattedMessage id="staff.reports.empty" />
          </h2>
        )}
      </section>
    </div>
  );
}

function Detail({
  item,
  form,
  onForm,
  onAssign,
  onDone,
  error,
}: {
  item: QueueItemView;
  form: ActionForm;
  onForm(form: ActionForm): void;
  onAssign(): void;
  onDone(): void;
  error: string;
}) {
  const staff = useStaff();
  const open = item.status !== "closed";
  return (
    <article>
      <h2 id="queue-detail-title" className="h4">
        {item.kind === "report" ? (
          <FormattedMessage id={`staff.reports.report_title_${item.object_type}`} values={{ id: item.id }} />
        ) : (
          <FormattedMessage id="staff.reports.complaint_ref" values={{ reference: item.reference }} />
        )}
      </h2>
      {item.kind === "report" ? <ReportBody item={item} /> : <ComplaintBody item={item} />}
      {item.resolution ? (
        <p>
          <strong>
            <FormattedMessage id="staff.reports.resolution" />
          </strong>{" "}
          {item.resolution}
        </p>
      ) : null}
      <FormAlert>{error}</FormAlert>
      {open ? (
        <div className="d-flex flex-wrap gap-2">
          {item.assigned_to !== staff.id ? (
            <Button variant="outline-primary" onClick={onAssign}>
              <FormattedMessage id="staff.reports.assign" /> <kbd>a</kbd>
            </Button>
          ) : null}
          {item.kind === "report" ? (
            <>
              <Button variant="danger" onClick={() => onForm("ban")}>
                <FormattedMessage id="staff.reports.ban" /> <kbd>b</kbd>
              </Button>
              <Button variant="outline-dark" onClick={() => onForm("dismiss")}>
                <FormattedMessage id="staff.reports.dismiss" /> <kbd>d</kbd>
              </Button>
            </>
          ) : (
            <>
              <Button variant="primary" onClick={() => onForm("answer")}>
                <FormattedMessage id="staff.reports.answer" /> <kbd>r</kbd>
              </Button>
              <Button variant="outline-dark" onClick={() => onForm("close")}>
                <FormattedMessage id="staff.reports.close" /> <kbd>c</kbd>
              </Button>
            </>
          )}
        </div>
      ) : null}
      {open ? <ActionForms key={`${item.kind}:${item.id}:${form}`} item={item} form={form} onDone={onDone} /> : null}
    </article>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">
        <FormattedMessage id={label} />
      </dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

function ReportBody({ item }: { item: Extract<QueueItemView, { kind: "report" }> }) {
  const { content } = item;
  return (
    <>
      <dl className="row">
        <Field label="staff.reports.reason">
          <FormattedMessage id={`moderation.report_reason.${item.reason}`} />
        </Field>
        <Field label="staff.reports.reporter_text">{item.text || "–"}</Field>
        <Field label="staff.reports.member">
          {item.member_id !== null ? <FormattedMessage id="staff.audit.member" values={{ id: item.member_id }} /> : "–"}
          {item.profile_id !== null ? (
            <>
              {" · "}
              <a href={`/members/${item.profile_id}`} target="_blank" rel="noreferrer">
                <FormattedMessage id="staff.reports.open_profile" />
              </a>
            </>
          ) : null}
        </Field>
        <Field label="staff.reports.created">
          <FormattedDate value={item.created_at} dateStyle="medium" timeStyle="short" />
        </Field>
      </dl>
      <h3 className="h6">
        <FormattedMessage id="staff.reports.content" />
      </h3>
      <div className="border rounded p-3 mb-3 bg-body-tertiary">
        {content.type === "profile" ? (
          <div className="d-flex gap-3">
            {content.main_photo_url ? (
              <img
                src={content.main_photo_url}
                alt={content.name}
                width={120}
                height={150}
                className="rounded object-fit-cover"
              />
            ) : null}
            <div>
              <p className="fw-semibold mb-1">{content.name}</p>
              <p className="mb-0" style={{ whiteSpace: "pre-wrap" }}>
                {content.about || <FormattedMessage id="staff.reports.no_about" />}
              </p>
            </div>
          </div>
        ) : (
          <div>
            <p className="small text-body-secondary mb-1">
              {content.sender_name} · <FormattedDate value={content.sent_at} dateStyle="medium" timeStyle="short" /> ·{" "}
              {content.kind}
            </p>
            <p className="mb-0" style={{ whiteSpace: "pre-wrap" }}>
              {content.text}
            </p>
            {content.gif_url ? <img src={content.gif_url} alt="GIF" className="mt-2" style={{ maxWidth: 200 }} /> : null}
            {content.has_photo ? <ReportedPhoto reportId={item.id} sender={content.sender_name} /> : null}
          </div>
        )}
      </div>
    </>
  );
}

/** A reported photo message's photo, while the chat still keeps its file (retention or the sender may remove it). */
function ReportedPhoto({ reportId, sender }: { reportId: number; sender: string }) {
  const intl = useIntl();
  const [gone, setGone] = useState(false);
  if (gone) {
    return (
      <p className="small mt-2 mb-0">
        <FormattedMessage id="staff.reports.photo_gone" />
      </p>
    );
  }
  return (
    <img
      src={`/staff/api/reports/${reportId}/photo.jpg`}
      alt={intl.formatMessage({ id: "staff.reports.photo_of" }, { name: sender })}
      className="mt-2 rounded d-block"
      style={{ maxWidth: 240 }}
      onError={() => setGone(true)}
    />
  );
}

function ComplaintBody({ item }: { item: Extract<QueueItemView, { kind: "complaint" }> }) {
  const intl = useIntl();
  return (
    <>
      <dl className="row">
        <Field label="staff.reports.subject">
          <FormattedMessage id={`complaints.subject.${item.subject}`} />
        </Field>
        <Field label="staff.reports.email">{item.email}</Field>
        <Field label="staff.reports.language">{intl.formatDisplayName(item.locale, { type: "language" }) ?? item.locale}</Field>
        <Field label="staff.reports.created">
          <FormattedDate value={item.created_at} dateStyle="medium" timeStyle="short" />
        </Field>
      </dl>
      <p className="border rounded p-3 bg-body-tertiary" style={{ whiteSpace: "pre-wrap" }}>
        {item.description}
      </p>
      {item.answers.length > 0 ? (
        <>
          <h3 className="h6">
            <FormattedMessage id="staff.reports.answers" />
          </h3>
          <ol className="list-unstyled">
            {item.answers.map((answer) => (
              <li key={answer.id} className="border-start border-3 ps-2 mb-2">
                <p className="small text-body-secondary mb-1">
                  <FormattedDate value={answer.created_at} dateStyle="medium" timeStyle="short" />
                </p>
                <p className="mb-0" style={{ whiteSpace: "pre-wrap" }}>
                  {answer.text}
                </p>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
