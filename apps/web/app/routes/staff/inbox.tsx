import { type InboxLease, STAFF_INBOX_ENDPOINTS } from "@app/contract";
import { useCallback, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { staffFetch, useStaffQuery } from "../../features/staff/api";
import { InboxConversationView } from "../../features/staff/inbox/conversation";
import { useLease, useLiveConversation } from "../../features/staff/inbox/live";
import { PersonaOutreach } from "../../features/staff/inbox/outreach";
import { InboxQueueList } from "../../features/staff/inbox/queue";
import { step, useShortcuts } from "../../features/staff/shortcuts";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

const E = STAFF_INBOX_ENDPOINTS;

/**
 * /staff/inbox (operators): the conversations with fictional profiles that wait for an answer, oldest
 * first; j/k move, Enter claims and opens, Escape leaves. The open conversation is answered as its
 * persona while the operator holds its lease (renewed while open, released on leaving).
 */
export default function StaffInbox() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.inbox.title" });
  const queue = useStaffQuery(E.inboxQueue, {}, { refetchInterval: 10_000 });
  const items = queue.data?.items ?? [];
  const [selected, setSelected] = useState(0);
  const [openId, setOpenId] = useState<number | null>(null);
  const [lease, setLease] = useState<InboxLease | null>(null);
  const [claiming, setClaiming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const conversation = useStaffQuery(
    E.inboxConversation,
    { params: { conversationId: openId ?? 0 } },
    { enabled: openId !== null },
  );
  const refresh = useCallback(() => {
    void conversation.refetch();
    void queue.refetch();
  }, [conversation, queue]);
  const held = lease && lease.conversation_id === openId ? openId : null;
  useLease(held, () => {
    setLease(null);
    setError(new Error(intl.formatMessage({ id: "error.inbox_not_claimed" })));
  });
  const { memberTyping } = useLiveConversation(held, refresh);

  const claim = async (conversationId: number) => {
    setOpenId(conversationId);
    setError(null);
    setClaiming(true);
    try {
      setLease(await staffFetch(E.inboxClaim, { params: { conversationId } }));
    } catch (failure) {
      setLease(null);
      setError(failure);
    } finally {
      setClaiming(false);
      void queue.refetch();
    }
  };
  const leave = () => {
    setLease(null);
    setOpenId(null);
    void queue.refetch();
  };
  const open = (index: number) => {
    const item = items[index];
    if (!item) return;
    setSelected(index);
    if (item.conversation_id !== openId || !held) void claim(item.conversation_id);
  };
  useShortcuts({
    j: () => setSelected((i) => step(i, 1, items.length)),
    k: () => setSelected((i) => step(i, -1, items.length)),
    Enter: () => open(selected),
    Escape: leave,
  });

  return (
    <section>
      <PageTitle title={title} />
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <span className="text-body-secondary" role="status">
          {queue.data ? <FormattedMessage id="staff.inbox.waiting" values={{ count: queue.data.waiting }} /> : null}
        </span>
        <Link to="/staff/inbox/figures" className="small">
          <FormattedMessage id="staff.inbox.figures.title" />
        </Link>
      </div>
      <p className="small text-body-secondary">
        <FormattedMessage id="staff.inbox.shortcuts" />
      </p>
      {queue.error ? <FormAlert>{errorMessage(queue.error, intl)}</FormAlert> : null}
      <div className="row g-4">
        <div className="col-xl-4">
          <InboxQueueList items={items} selected={selected} onOpen={open} />
        </div>
        <div className="col-xl-8">
          {error ? <FormAlert>{errorMessage(error, intl)}</FormAlert> : null}
          {openId !== null && conversation.data ? (
            <InboxConversationView
              conversation={conversation.data}
              lease={held ? lease : null}
              memberTyping={memberTyping}
              claiming={claiming}
              onClaim={() => void claim(openId)}
              onLeave={leave}
              onChanged={() => {
                // An answer releases the claim on the server; the next one claims again.
                if (conversation.data?.waiting_since !== null) setLease(null);
                refresh();
              }}
            />
          ) : (
            <p className="text-body-secondary">
              <FormattedMessage id="staff.inbox.select" />
            </p>
          )}
        </div>
      </div>
      <PersonaOutreach />
    </section>
  );
}
