import type { ChatMessage } from "@app/contract";
import { Fragment, type ReactNode } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useHydrated } from "../../lib/display-mode";
import { dayKey, dayLabel, timeLabel } from "./chat-time";
import { CheckIcon, ClockIcon, DoubleCheckIcon } from "./icons";
import { MessageBody } from "./pickers";
import type { Outgoing } from "./use-outbox";

/** One line of the conversation: a stored message, or one of ours the server has not stored yet. */
export type Line = { type: "stored"; message: ChatMessage } | { type: "pending"; item: Outgoing };

const lineTime = (line: Line) => (line.type === "stored" ? line.message.created_at : line.item.createdAt);
const lineKey = (line: Line) => (line.type === "stored" ? `m${line.message.id}` : `p${line.item.clientId}`);

/** A text is plain text (escaped by React, never HTML, links not followed); other kinds show through MessageBody. */
function Body({ message, name }: { message: Pick<ChatMessage, "kind" | "text" | "photo" | "gift" | "gif">; name: string }) {
  if (message.kind === "text") return <p className="chat-text mb-0">{message.text}</p>;
  return <MessageBody message={message} name={name} />;
}

/** What a pending message shows before the server has it (a photo: the local preview). */
function PendingBody({ item, name }: { item: Outgoing; name: string }) {
  const intl = useIntl();
  const { content } = item;
  switch (content.kind) {
    case "text":
      return <p className="chat-text mb-0">{content.text}</p>;
    case "photo":
      return content.previewUrl ? (
        <img
          src={content.previewUrl}
          alt={intl.formatMessage({ id: "chat.photo_preview" })}
          className="chat-photo-preview rounded"
        />
      ) : (
        <p className="chat-text mb-0 fst-italic">{content.file.name}</p>
      );
    case "gift":
      return (
        <Body
          name={name}
          message={{
            kind: "gift",
            text: content.text,
            photo: null,
            gif: null,
            gift: { id: content.gift.id, image_url: content.gift.image_url },
          }}
        />
      );
    case "gif":
      return <Body name={name} message={{ kind: "gif", text: "", photo: null, gift: null, gif: content.gif }} />;
  }
}

function Status({ label, icon, className = "" }: { label: string; icon: ReactNode; className?: string }) {
  return (
    <span role="img" aria-label={label} title={label} className={`chat-status ms-1 ${className}`}>
      {icon}
    </span>
  );
}

export interface MessageListProps {
  lines: Line[];
  name: string;
  readUpTo: number | null;
  olderHidden: boolean;
  hasMore: boolean;
  loadingEarlier: boolean;
  onLoadEarlier(): void;
  onRetry(clientId: string): void;
  onDiscard(clientId: string): void;
  /** The menu of a message from the other member (the route gives one: Report, issue #27). */
  messageMenu?: ((messageId: number) => ReactNode) | undefined;
}

/**
 * The messages, newest last, with a separator per day and each message's time in the member's time zone
 * (only after hydration: the server cannot know it). The member's own are on the right with their state:
 * sending (clock), sent (check), read (double check), or failed with the reason and a retry.
 */
export function MessageList({
  lines,
  name,
  readUpTo,
  olderHidden,
  hasMore,
  loadingEarlier,
  onLoadEarlier,
  onRetry,
  onDiscard,
  messageMenu,
}: MessageListProps) {
  const intl = useIntl();
  const hydrated = useHydrated();
  let previousDay: string | null = null;
  return (
    <>
      {hasMore ? (
        <div className="text-center my-2">
          <Button variant="outline-secondary" size="sm" onClick={onLoadEarlier} disabled={loadingEarlier}>
            <FormattedMessage id="chat.load_earlier" />
          </Button>
        </div>
      ) : olderHidden ? (
        <p className="chat-older-hidden text-center small text-body-secondary my-2">
          <FormattedMessage id="chat.older_hidden" />
        </p>
      ) : null}
      <ol className="list-unstyled mb-0 px-2" aria-label={intl.formatMessage({ id: "chat.messages_label" }, { name })}>
        {lines.map((line) => {
          const time = lineTime(line);
          const day = hydrated ? dayKey(time, intl.timeZone) : null;
          const separator = day !== null && day !== previousDay;
          previousDay = day;
          const mine = line.type === "pending" || line.message.from_me;
          const failed = line.type === "pending" && line.item.status === "failed";
          return (
            <Fragment key={lineKey(line)}>
              {separator ? (
                <li className="chat-day text-center my-3">
                  <span className="badge rounded-pill text-bg-light border fw-normal">{dayLabel(time, intl)}</span>
                </li>
              ) : null}
              <li className={`chat-line d-flex mb-2 ${mine ? "justify-content-end" : "justify-content-start"}`}>
                <div
                  className={`chat-bubble ${mine ? "chat-bubble-mine" : "chat-bubble-theirs"}${failed ? " chat-bubble-failed" : ""}`}
                >
                  {line.type === "stored" ? (
                    <Body message={line.message} name={name} />
                  ) : (
                    <PendingBody item={line.item} name={name} />
                  )}
                  <div className="chat-meta small text-end">
                    {hydrated ? <time dateTime={time}>{timeLabel(time, intl)}</time> : null}
                    {line.type === "stored" && !line.message.from_me ? messageMenu?.(line.message.id) : null}
                    {line.type === "stored" && line.message.from_me ? (
                      readUpTo !== null && line.message.id <= readUpTo ? (
                        <Status
                          label={intl.formatMessage({ id: "chat.status_read" })}
                          icon={<DoubleCheckIcon />}
                          className="chat-status-read"
                        />
                      ) : (
                        <Status label={intl.formatMessage({ id: "chat.status_sent" })} icon={<CheckIcon />} />
                      )
                    ) : null}
                    {line.type === "pending" && !failed ? (
                      <Status label={intl.formatMessage({ id: "chat.status_sending" })} icon={<ClockIcon />} />
                    ) : null}
                  </div>
                  {line.type === "pending" && line.item.offline && !failed ? (
                    <p className="small mb-0 chat-waiting">
                      <FormattedMessage id="chat.waiting_for_connection" />
                    </p>
                  ) : null}
                  {failed ? (
                    <div className="small mt-1 chat-failed" role="alert">
                      <p className="mb-1">
                        <FormattedMessage id="chat.status_failed" values={{ reason: line.item.error?.message ?? "" }} />
                      </p>
                      <div className="d-flex gap-2 justify-content-end">
                        <Button size="sm" variant="light" onClick={() => onRetry(line.item.clientId)}>
                          <FormattedMessage id="chat.retry_send" />
                        </Button>
                        <Button size="sm" variant="outline-light" onClick={() => onDiscard(line.item.clientId)}>
                          <FormattedMessage id="chat.discard" />
                        </Button>
                      </div>
                    </div>
                  ) : null}
                </div>
              </li>
            </Fragment>
          );
        })}
      </ol>
    </>
  );
}
