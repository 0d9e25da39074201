import { type ChatListEntry, type ChatsResponse, formatBadgeCount, nameValues } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Badge } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate } from "react-router";
import { useHydrated } from "../../lib/display-mode";
import { errorMessage } from "../../lib/form-errors";
import { useHeartbeat } from "../../lib/heartbeat";
import { useRootData } from "../../lib/root-data";
import { useServerEvent, useServerResync } from "../../lib/server-events";
import { useWorkerMessage } from "../../lib/service-worker";
import { FictionalIcon } from "../../ui/fictional-icon";
import { LoadFailed, Loading } from "../../ui/load-state";
import { CHATS_KEY, chatsQuery, deleteChat } from "./api";
import { Avatar } from "./avatar";
import { listTimeLabel } from "./chat-time";
import { DeleteChatModal } from "./delete-chat-modal";
import { TrashIcon } from "./icons";

const KIND_LABELS = { photo: "chat.preview_photo", gift: "chat.preview_gift", gif: "chat.preview_gif" } as const;

/** The last message in a line: its text, or what it is (a photo, gift or GIF), "You: " before one's own. */
function Preview({ entry }: { entry: ChatListEntry }) {
  const intl = useIntl();
  const last = entry.last_message;
  if (!last) return null;
  const body = last.kind === "text" || (last.kind === "gift" && last.text) ? last.text : "";
  const label = last.kind === "text" ? "" : intl.formatMessage({ id: KIND_LABELS[last.kind] });
  const content = [label, body].filter(Boolean).join(": ");
  return <>{last.from_me ? intl.formatMessage({ id: "chat.preview_you" }, { text: content }) : content}</>;
}

/** The hint of spec §6 for a conversation in which one side has not confirmed the e-mail address. */
function AwaitingHint({ entry }: { entry: ChatListEntry }) {
  if (!entry.awaiting_confirmation) return null;
  return (
    <span className="d-block small text-warning-emphasis">
      <FormattedMessage
        id={entry.awaiting_confirmation === "me" ? "chat.awaiting_me_short" : "chat.awaiting_other_short"}
        values={nameValues(entry.profile.name)}
      />
    </span>
  );
}

/**
 * The conversation list (spec §2, §3): avatar, name with the fictional mark, the last message, its
 * time, the unread count and a delete button per conversation, latest first. Deleting (spec §4, §8)
 * removes the line at once, then asks the server; when that fails, a browser alert says why and the
 * list reloads. Chat events reload it (a new message, a deletion in another tab, changed counts).
 */
export function ChatList({ activeId }: { activeId: number | null }) {
  const intl = useIntl();
  const hydrated = useHydrated();
  const root = useRootData();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const chats = useQuery(chatsQuery);
  const [deleting, setDeleting] = useState<ChatListEntry | null>(null);
  const [showDelete, setShowDelete] = useState(false);
  // Where the focus goes when the modal has closed: back to the delete button, or, when the line is
  // gone, to the list.
  const listRef = useRef<HTMLUListElement>(null);
  const returnFocus = () => {
    const id = deleting?.conversation.id;
    const button = listRef.current?.querySelector<HTMLButtonElement>(`[data-conversation="${id}"]`);
    // After the modal's own clean-up (it runs after onExited and may move the focus to the body).
    setTimeout(() => (button?.isConnected ? button : listRef.current)?.focus(), 0);
  };

  const reload = () => void queryClient.invalidateQueries({ queryKey: CHATS_KEY });
  useServerEvent("chat.message", reload);
  useServerEvent("chat.deleted", reload);
  useServerEvent("badges.changed", reload);
  useServerResync(reload);
  // Spec §7: with every beat of the member's polling loop, and when the worker reports a message's push.
  useHeartbeat(reload);
  useWorkerMessage((message) => {
    if (message.type === "NEW_PUSH_MESSAGE" && message.payload.kind === "message") reload();
  });

  const confirmDelete = async () => {
    const entry = deleting;
    setShowDelete(false);
    if (!entry) return;
    const id = entry.conversation.id;
    await queryClient.cancelQueries({ queryKey: CHATS_KEY });
    queryClient.setQueryData<ChatsResponse>(CHATS_KEY, (current) =>
      current ? { ...current, chats: current.chats.filter((chat) => chat.conversation.id !== id) } : current,
    );
    if (id === activeId) void navigate("/chats");
    try {
      await deleteChat(id);
    } catch (error) {
      window.alert(errorMessage(error, intl));
      reload();
    }
  };

  if (chats.isPending) {
    return (
      <Loading>
        <FormattedMessage id="chat.list_loading" />
      </Loading>
    );
  }
  if (chats.isError) {
    return (
      <div className="p-3">
        <LoadFailed
          message={errorMessage(chats.error, intl)}
          retry={<FormattedMessage id="chat.retry_load" />}
          onRetry={reload}
        />
      </div>
    );
  }
  const list = chats.data.chats;
  if (list.length === 0) {
    return (
      <div className="p-4 text-center text-body-secondary">
        <p>
          <FormattedMessage id="chat.list_empty" />
        </p>
        <Link to="/members" className="btn btn-primary">
          <FormattedMessage id="chat.find_members" />
        </Link>
      </div>
    );
  }
  return (
    <>
      <ul ref={listRef} tabIndex={-1} className="list-unstyled mb-0 chat-list">
        {list.map((entry) => {
          const active = entry.conversation.id === activeId;
          const unread = entry.num_unread_messages;
          return (
            <li key={entry.conversation.id} className={`chat-list-item d-flex align-items-center${active ? " active" : ""}`}>
              <Link
                to={`/chats/${entry.conversation.id}`}
                className="chat-list-link d-flex align-items-center gap-3 flex-grow-1 min-w-0 px-3 py-2 text-body"
                aria-current={active ? "page" : undefined}
              >
                <Avatar profile={entry.profile} />
                <span className="flex-grow-1 min-w-0">
                  <span className="d-flex align-items-baseline gap-2">
                    <span className={`text-truncate${unread > 0 ? " fw-bold" : " fw-semibold"}`}>
                      {entry.profile.name}
                      {entry.profile.fictional && root ? (
                        <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" />
                      ) : null}
                    </span>
                    <span className="ms-auto small text-body-secondary flex-shrink-0">
                      {hydrated && entry.last_message ? listTimeLabel(entry.last_message.created_at, intl) : null}
                    </span>
                  </span>
                  <span className="d-flex align-items-center gap-2">
                    <span className={`small text-truncate${unread > 0 ? " text-body" : " text-body-secondary"}`}>
                      <Preview entry={entry} />
                    </span>
                    {unread > 0 ? (
                      <Badge
                        bg="danger"
                        pill
                        className="ms-auto flex-shrink-0"
                        aria-label={intl.formatMessage({ id: "chat.unread_count" }, { count: unread })}
                      >
                        {formatBadgeCount(unread)}
                      </Badge>
                    ) : null}
                  </span>
                  <AwaitingHint entry={entry} />
                </span>
              </Link>
              <button
                type="button"
                className="btn btn-link text-body-secondary chat-delete-button me-1"
                data-conversation={entry.conversation.id}
                aria-label={intl.formatMessage({ id: "chat.delete_label" }, { name: entry.profile.name })}
                title={intl.formatMessage({ id: "chat.delete_label" }, { name: entry.profile.name })}
                onClick={() => {
                  setDeleting(entry);
                  setShowDelete(true);
                }}
              >
                <TrashIcon />
              </button>
            </li>
          );
        })}
      </ul>
      <DeleteChatModal
        name={deleting?.profile.name ?? ""}
        show={showDelete}
        onCancel={() => setShowDelete(false)}
        onConfirm={() => void confirmDelete()}
        onExited={returnFocus}
      />
    </>
  );
}
