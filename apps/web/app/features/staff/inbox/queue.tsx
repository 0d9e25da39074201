import type { InboxQueueItem } from "@app/contract";
import { FormattedMessage, FormattedRelativeTime, useIntl } from "react-intl";
import { FictionalIcon } from "../../../ui/fictional-icon";

/** Seconds from now (negative: in the past), for FormattedRelativeTime. */
const secondsFrom = (iso: string) => Math.round((new Date(iso).getTime() - Date.now()) / 1000);

/**
 * The queue, oldest wait first: member → persona, the last message, since when, and whether someone
 * holds it. `selected` is the keyboard's row (j/k); a click selects and opens.
 */
export function InboxQueueList({
  items,
  selected,
  onOpen,
}: {
  items: InboxQueueItem[];
  selected: number;
  onOpen: (index: number) => void;
}) {
  const intl = useIntl();
  if (items.length === 0) {
    return (
      <p className="text-body-secondary">
        <FormattedMessage id="staff.inbox.empty" />
      </p>
    );
  }
  return (
    <ul className="list-group inbox-queue" aria-label={intl.formatMessage({ id: "staff.inbox.queue" })}>
      {items.map((item, index) => (
        <li key={item.conversation_id} className="list-group-item p-0">
          <button
            type="button"
            className={`btn w-100 text-start rounded-0 p-2${index === selected ? " active" : ""}`}
            aria-current={index === selected ? "true" : undefined}
            data-conversation={item.conversation_id}
            onClick={() => onOpen(index)}
          >
            <span className="d-flex justify-content-between gap-2">
              <span className="fw-semibold text-truncate">
                <FormattedMessage id="staff.inbox.writes_to" values={{ member: item.member.name, persona: item.persona.name }} />{" "}
                <FictionalIcon name="masks" labelled />
              </span>
              {item.claim ? (
                <span className={`badge ${item.claim.mine ? "text-bg-success" : "text-bg-secondary"}`}>
                  <FormattedMessage id={item.claim.mine ? "staff.inbox.claimed_mine" : "staff.inbox.claimed_other"} />
                </span>
              ) : null}
            </span>
            <span className="d-block small text-truncate">
              {item.last_message.kind === "text" ? (
                item.last_message.text
              ) : (
                <FormattedMessage id={`staff.inbox.kind.${item.last_message.kind}`} />
              )}
            </span>
            <span className="d-block small opacity-75">
              <FormattedMessage
                id="staff.inbox.waiting_since"
                values={{ time: <FormattedRelativeTime value={secondsFrom(item.waiting_since)} updateIntervalInSeconds={60} /> }}
              />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
