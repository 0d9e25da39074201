import {
  MODERATION_REASONS,
  type ModerationItem,
  type ModerationReason,
  nameValues,
  STAFF_MODERATION_ENDPOINTS,
} from "@app/contract";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Badge, Button, Form, Modal } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../../lib/form-errors";
import { FormAlert } from "../../../ui/form-alert";
import { useStaffMutation, useStaffQuery } from "../api";
import { step, useShortcuts } from "../shortcuts";

const { moderationQueue, moderationDecide } = STAFF_MODERATION_ENDPOINTS;

/** An item's key in the selection and the list: "photo:12", "about:7". */
export const keyOf = (item: Pick<ModerationItem, "kind" | "id">) => `${item.kind}:${item.id}`;
const refOf = (item: ModerationItem) => ({ kind: item.kind, id: item.id, submitted_at: item.submitted_at });

/** What `a` approves: the selected items when there are any, else the current one. */
export function approvalTargets(
  items: readonly ModerationItem[],
  selected: ReadonlySet<string>,
  current: number,
): ModerationItem[] {
  const chosen = items.filter((item) => selected.has(keyOf(item)));
  if (chosen.length > 0) return chosen;
  const one = items[current];
  return one ? [one] : [];
}

/**
 * The review queue of /staff/moderation (issue #27): photos and about texts, oldest first, each with its
 * member. Keyboard-driven: j/k move, x selects, a approves (the selection, or the current item), r opens
 * the reason picker to reject; every decision goes through the staff API (one audit row each).
 */
export function ModerationQueue({ member }: { member?: number | undefined }) {
  const intl = useIntl();
  const queue = useStaffQuery(moderationQueue, { query: { member } });
  const decide = useStaffMutation(moderationDecide, [moderationQueue.path]);
  const items = queue.data?.items ?? [];
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rejecting, setRejecting] = useState<ModerationItem | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [error, setError] = useState("");
  const rows = useRef(new Map<string, HTMLElement>());
  const current = Math.min(cursor, Math.max(0, items.length - 1));
  const currentItem = items[current];

  // The current item stays in view and holds the focus, so that a screen reader follows j/k.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the current item changes
  useEffect(() => {
    if (!currentItem || rejecting) return;
    const row = rows.current.get(keyOf(currentItem));
    if (row && row !== document.activeElement && !row.contains(document.activeElement)) {
      row.focus({ preventScroll: true });
      row.scrollIntoView?.({ block: "nearest" });
    }
  }, [currentItem && keyOf(currentItem)]);

  const run = async (
    chosen: ModerationItem[],
    decision: { decision: "approve" } | { decision: "reject"; reason: ModerationReason },
  ) => {
    if (chosen.length === 0 || decide.isPending) return;
    setError("");
    try {
      const result = await decide.mutateAsync({ body: { ...decision, items: chosen.map(refOf) } });
      const done = new Set(result.decided.map(keyOf));
      setSelected((before) => new Set([...before].filter((key) => !done.has(key))));
      const said = intl.formatMessage(
        { id: decision.decision === "approve" ? "staff.moderation.approved" : "staff.moderation.rejected" },
        { count: result.decided.length },
      );
      const stale = result.stale.length
        ? ` ${intl.formatMessage({ id: "staff.moderation.stale" }, { count: result.stale.length })}`
        : "";
      setAnnouncement(said + stale);
    } catch (caught) {
      setError(errorMessage(caught, intl));
      await queue.refetch();
    }
  };

  const toggle = (item: ModerationItem | undefined) => {
    if (!item) return;
    const key = keyOf(item);
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  };

  useShortcuts(
    rejecting
      ? {}
      : {
          j: () => setCursor(step(current, 1, items.length)),
          k: () => setCursor(step(current, -1, items.length)),
          x: () => toggle(currentItem),
          a: () => void run(approvalTargets(items, selected, current), { decision: "approve" }),
          r: () => currentItem && setRejecting(currentItem),
        },
  );

  const chosenCount = items.filter((item) => selected.has(keyOf(item))).length;
  return (
    <div>
      <p className="text-body-secondary">
        {queue.data ? (
          <FormattedMessage id="staff.moderation.waiting" values={queue.data.waiting} />
        ) : (
          <FormattedMessage id="staff.moderation.loading" />
        )}
        {member !== undefined ? (
          <>
            {" "}
            <FormattedMessage id="staff.moderation.member_filter" values={{ id: member }} />{" "}
            <Link to="/staff/moderation" className="text-decoration-underline">
              <FormattedMessage id="staff.moderation.show_all" />
            </Link>
          </>
        ) : null}
      </p>
      <ShortcutLegend />
      <FormAlert>{error || (queue.error ? errorMessage(queue.error, intl) : "")}</FormAlert>
      <div role="status" aria-live="polite" className={announcement ? "alert alert-success py-2" : "visually-hidden"}>
        {announcement}
      </div>
      {chosenCount > 0 ? (
        <Button className="mb-3" onClick={() => void run(approvalTargets(items, selected, current), { decision: "approve" })}>
          <FormattedMessage id="staff.moderation.approve_selected" values={{ count: chosenCount }} />
        </Button>
      ) : null}
      {queue.data && items.length === 0 ? (
        <p className="lead">
          <FormattedMessage id="staff.moderation.empty" />
        </p>
      ) : null}
      <ol className="list-unstyled d-grid gap-3" aria-busy={decide.isPending || queue.isFetching}>
        {items.map((item, index) => (
          <QueueRow
            key={keyOf(item)}
            item={item}
            filtered={member !== undefined}
            current={index === current}
            selected={selected.has(keyOf(item))}
            register={(element) => {
              if (element) rows.current.set(keyOf(item), element);
              else rows.current.delete(keyOf(item));
            }}
            onFocus={() => setCursor(index)}
            onToggle={() => toggle(item)}
            onApprove={() => void run([item], { decision: "approve" })}
            onReject={() => setRejecting(item)}
          />
        ))}
      </ol>
      <ReasonPicker
        item={rejecting}
        onCancel={() => setRejecting(null)}
        onChoose={(reason) => {
          const item = rejecting;
          setRejecting(null);
          if (item) void run([item], { decision: "reject", reason });
        }}
      />
    </div>
  );
}

function ShortcutLegend() {
  const keys = [
    ["j / k", "staff.moderation.key_move"],
    ["x", "staff.moderation.key_select"],
    ["a", "staff.moderation.key_approve"],
    ["r", "staff.moderation.key_reject"],
  ] as const;
  return (
    <section className="small mb-3" aria-labelledby="moderation-keys">
      <h2 id="moderation-keys" className="h6 mb-1">
        <FormattedMessage id="staff.moderation.keys" />
      </h2>
      <ul className="list-inline mb-0">
        {keys.map(([key, id]) => (
          <li className="list-inline-item me-3" key={id}>
            <kbd>{key}</kbd> <FormattedMessage id={id} />
          </li>
        ))}
      </ul>
    </section>
  );
}

interface QueueRowProps {
  item: ModerationItem;
  /** The queue shows one member's items already. */
  filtered: boolean;
  current: boolean;
  selected: boolean;
  register: (element: HTMLElement | null) => void;
  onFocus: () => void;
  onToggle: () => void;
  onApprove: () => void;
  onReject: () => void;
}

function QueueRow({ item, filtered, current, selected, register, onFocus, onToggle, onApprove, onReject }: QueueRowProps) {
  const intl = useIntl();
  const kind = intl.formatMessage({ id: `staff.moderation.kind_${item.kind}` });
  const headingId = `moderation-${item.kind}-${item.id}`;
  return (
    <li
      ref={register}
      tabIndex={-1}
      onFocus={onFocus}
      aria-current={current ? "true" : undefined}
      aria-labelledby={headingId}
      data-item={keyOf(item)}
      className={`card ${current ? "border-primary border-2 shadow" : ""}`}
    >
      <div className="card-body d-flex flex-wrap gap-3">
        {item.kind === "photo" ? (
          <a href={item.url} target="_blank" rel="noreferrer" className="flex-shrink-0">
            <img
              src={item.thumb_url}
              alt={intl.formatMessage({ id: "staff.moderation.photo_alt" }, nameValues(item.member.name))}
              width={160}
              height={200}
              className="rounded object-fit-cover"
            />
          </a>
        ) : null}
        <div className="flex-grow-1" style={{ minWidth: 240 }}>
          <h2 id={headingId} className="h6 mb-1">
            {kind} · <FormattedMessage id="staff.moderation.member" values={{ name: item.member.name, id: item.member.id }} />
          </h2>
          <p className="small text-body-secondary mb-2">
            <FormattedMessage
              id="staff.moderation.submitted"
              values={{ when: <FormattedDate value={item.submitted_at} dateStyle="medium" timeStyle="short" /> }}
            />{" "}
            <Badge bg={item.live ? "warning" : "secondary"} text={item.live ? "dark" : undefined}>
              <FormattedMessage id={item.live ? "staff.moderation.live" : "staff.moderation.held"} />
            </Badge>{" "}
            {item.kind === "photo" && item.is_main ? (
              <Badge bg="info" text="dark">
                <FormattedMessage id="staff.moderation.main" />
              </Badge>
            ) : null}{" "}
            {filtered ? null : (
              <Link to={`/staff/moderation?member=${item.member.id}`} className="text-decoration-underline">
                <FormattedMessage id="staff.moderation.only_member" />
              </Link>
            )}
          </p>
          {item.kind === "about" ? <AboutTexts text={item.text} approved={item.approved_text} /> : null}
          <div className="d-flex flex-wrap align-items-center gap-2">
            <Form.Check
              id={`select-${headingId}`}
              checked={selected}
              onChange={(event) => {
                onToggle();
                // Back to the item: its shortcuts (a, r, j/k) work again, which a focused checkbox would swallow.
                event.currentTarget.closest<HTMLElement>("li")?.focus();
              }}
              label={intl.formatMessage({ id: "staff.moderation.select" }, { kind, ...nameValues(item.member.name) })}
              className="me-2"
            />
            <Button size="sm" variant="success" onClick={onApprove}>
              <FormattedMessage id="staff.moderation.approve" />
            </Button>
            <Button size="sm" variant="outline-danger" onClick={onReject}>
              <FormattedMessage id="staff.moderation.reject" />
            </Button>
          </div>
        </div>
      </div>
    </li>
  );
}

function AboutTexts({ text, approved }: { text: string; approved: string }) {
  return (
    <dl className="mb-2">
      <dt className="small">
        <FormattedMessage id="staff.moderation.new_text" />
      </dt>
      <dd className="border-start border-3 ps-2" style={{ whiteSpace: "pre-wrap" }}>
        {text}
      </dd>
      <dt className="small">
        <FormattedMessage id="staff.moderation.approved_text" />
      </dt>
      <dd className="text-body-secondary ps-2" style={{ whiteSpace: "pre-wrap" }}>
        {approved || <FormattedMessage id="staff.moderation.no_approved_text" />}
      </dd>
    </dl>
  );
}

/** The reasons to reject: keys 1–6 pick one, Enter rejects, Escape cancels. */
function ReasonPicker({
  item,
  onCancel,
  onChoose,
}: {
  item: ModerationItem | null;
  onCancel: () => void;
  onChoose: (reason: ModerationReason) => void;
}) {
  const intl = useIntl();
  const [reason, setReason] = useState<ModerationReason>(MODERATION_REASONS[0]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new item starts with the first reason
  useEffect(() => setReason(MODERATION_REASONS[0]), [item]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChoose(reason);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const picked = MODERATION_REASONS[Number(event.key) - 1];
    if (/^[1-9]$/.test(event.key) && picked) {
      event.preventDefault();
      setReason(picked);
      document.getElementById(`reason-${picked}`)?.focus();
    } else if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
      // Enter on a reason rejects with it (on a button, the button's own action).
      event.preventDefault();
      onChoose(reason);
    }
  };
  return (
    <Modal show={item !== null} onHide={onCancel} aria-labelledby="reject-title">
      <Form onSubmit={submit} onKeyDown={onKeyDown}>
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id="reject-title" as="h2" className="h5">
            <FormattedMessage id="staff.moderation.reject_title" values={{ name: item?.member.name ?? "" }} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset>
            <legend className="small text-body-secondary">
              <FormattedMessage id="staff.moderation.reject_hint" />
            </legend>
            {MODERATION_REASONS.map((key, index) => (
              <Form.Check
                type="radio"
                name="reason"
                id={`reason-${key}`}
                key={key}
                checked={reason === key}
                onChange={() => setReason(key)}
                autoFocus={index === 0}
                label={
                  <>
                    <kbd>{index + 1}</kbd> <FormattedMessage id={`staff.moderation.reason.${key}`} />
                    <span className="d-block small text-body-secondary">
                      <FormattedMessage id={`moderation.reason.${key}`} />
                    </span>
                  </>
                }
                className="mb-2"
              />
            ))}
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel}>
            <FormattedMessage id="staff.moderation.cancel" />
          </Button>
          <Button variant="danger" type="submit">
            <FormattedMessage id="staff.moderation.reject_confirm" />
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
