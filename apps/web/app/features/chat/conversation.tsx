import {
  type ChatMessage,
  type ChatProfile,
  LIMITS,
  type MessageResponse,
  mayWriteTo,
  nameValues,
  type SendCosts,
  TYPING_TTL_MS,
} from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Alert, Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useLocation, useNavigate } from "react-router";
import { ApiCallError } from "../../lib/api";
import { errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { usePurchasesAvailable } from "../../lib/purchases";
import { useRootData } from "../../lib/root-data";
import { useServerEvent, useServerEventsState, useServerResync } from "../../lib/server-events";
import { FictionalIcon } from "../../ui/fictional-icon";
import { LoadFailed, Loading } from "../../ui/load-state";
import { GetPremiumAction, PurchasesUnavailableNote } from "../../ui/purchases-unavailable";
import { CHAT_KEY, CHATS_KEY, chatQuery, chatsQuery, getEarlierMessages } from "./api";
import { Avatar } from "./avatar";
import { ChatFooter } from "./chat-footer";
import { IcebreakerModal } from "./icebreaker-modal";
import { BackIcon } from "./icons";
import { type Line, MessageList } from "./message-list";
import { outboxStorageKey, useOutbox } from "./use-outbox";

/** Which conversation: an existing one, or the first message to a profile (`/members/{id}/chat`). */
export type ConversationStart = { conversationId: number } | { profile: ChatProfile };

/** Counts the times the live connection came back, so that queued messages go at once. */
function useReconnects(): number {
  const state = useServerEventsState();
  const previous = useRef(state);
  const [reconnects, setReconnects] = useState(0);
  useEffect(() => {
    if (state === "open" && previous.current !== "open") setReconnects((n) => n + 1);
    previous.current = state;
  }, [state]);
  return reconnects;
}

/** The other member's typing indicator: on with `typing: true`, off with false or TYPING_TTL_MS later. */
function useTypingIndicator(conversationId: number | null): [boolean, () => void] {
  const [typing, setTyping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    setTyping(false);
  }, []);
  useServerEvent("chat.typing", (event) => {
    if (event.conversation_id !== conversationId) return;
    clearTimeout(timer.current);
    setTyping(event.typing);
    if (event.typing) timer.current = setTimeout(() => setTyping(false), TYPING_TTL_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return [typing, hide];
}

/** The costs of a conversation that does not exist yet: the site's settings (the server charges the same). */
function settingsCosts(settings: { message_credits: number; photo_credits: number; gift_credits: number }): SendCosts {
  return {
    message: settings.message_credits,
    photo: settings.photo_credits,
    gift: settings.gift_credits,
    gif: settings.message_credits,
    minimum: null,
  };
}

/** Why the server refused a send, with what the member can do about it (spec §6, §8). */
function SendProblem({ error, name, onClose }: { error: ApiCallError; name: string; onClose(): void }) {
  const intl = useIntl();
  // Decision 030: where nothing can be bought, the way out is the note, not a link to a dead end.
  const purchasesAvailable = usePurchasesAvailable();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  let message = errorMessage(error, intl);
  let action: ReactNode = null;
  switch (error.code) {
    case "not_enough_credits":
      message = intl.formatMessage({ id: "error.not_enough_credits" });
      action = purchasesAvailable ? (
        <Link to={`/credits?return=${encodeURIComponent(here)}`} className="btn btn-primary btn-sm">
          <FormattedMessage id="chat.buy_credits" />
        </Link>
      ) : (
        <PurchasesUnavailableNote />
      );
      break;
    case "conversation_limit_reached":
      action = <GetPremiumAction />;
      break;
    case "recipient_unconfirmed":
      message = intl.formatMessage({ id: "chat.awaiting_other" }, { name });
      break;
  }
  return (
    <Alert variant="warning" dismissible onClose={onClose} className="chat-problem mx-2 mb-2 py-2 small">
      <p className="mb-1">{message}</p>
      {action}
    </Alert>
  );
}

/**
 * One conversation (spec §2): the header with the other member, the messages, the typing indicator and
 * the send footer. The newest page comes through the query cache; opening it marks the conversation read.
 * Messages that arrive live are added in order by id, once (by id, and by client_id for the member's own
 * pending ones); a message from the other member while the conversation is open opens it again, so that
 * it is read at once. Sending goes through the page's queue (useOutbox), never losing a message.
 */
export function Conversation({
  start,
  onBack,
  messageMenu,
}: {
  start: ConversationStart;
  onBack?: string;
  /** The menu of each message from the other member (Report; the route composes it, issue #27). */
  messageMenu?: (messageId: number, name: string) => ReactNode;
}) {
  const intl = useIntl();
  const root = useRootData();
  const { user, setUser } = useMember();
  const navigate = useNavigate();
  const { search } = useLocation();
  // `?gift=1` (the profile's "Send a gift") opens the picker once: when the footer has opened it, the
  // parameter leaves the address and the state, so a footer mounted again (the conversation taking its
  // id) or a reload does not open it again.
  const [openGift, setOpenGift] = useState(() => new URLSearchParams(search).get("gift") === "1");
  const giftOpened = useCallback(() => {
    setOpenGift(false);
    void navigate({ search: "" }, { replace: true, preventScrollReset: true });
  }, [navigate]);
  const queryClient = useQueryClient();
  const [conversationId, setConversationId] = useState<number | null>("conversationId" in start ? start.conversationId : null);
  const chat = useQuery({ ...chatQuery(conversationId ?? 0), enabled: conversationId !== null });
  // Spec §6's free conversation limit, said before the member types (issue #29); the server checks it again.
  const chats = useQuery({ ...chatsQuery, enabled: user !== null });
  const [live, setLive] = useState<Map<number, ChatMessage>>(() => new Map());
  const [earlierHasMore, setEarlierHasMore] = useState<boolean | null>(null);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [readMark, setReadMark] = useState<number | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [problem, setProblem] = useState<ApiCallError | null>(null);
  const [text, setText] = useState("");
  const [icebreakers, setIcebreakers] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [typing, hideTyping] = useTypingIndicator(conversationId);
  const reconnects = useReconnects();

  const profile = chat.data?.profile ?? ("profile" in start ? start.profile : null);
  const reopen = useCallback(() => {
    if (conversationId !== null) void queryClient.invalidateQueries({ queryKey: [...CHAT_KEY, conversationId] });
  }, [conversationId, queryClient]);
  // A message that arrives while the tab is in the background is read when the member comes back to it,
  // not before: the other side's "read" must mean read.
  const unreadInBackground = useRef(false);
  const markRead = useCallback(() => {
    if (document.visibilityState === "hidden") unreadInBackground.current = true;
    else reopen();
  }, [reopen]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== "visible" || !unreadInBackground.current) return;
      unreadInBackground.current = false;
      reopen();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [reopen]);

  const addMessages = useCallback((messages: ChatMessage[]) => {
    setLive((current) => {
      const next = new Map(current);
      for (const message of messages) next.set(message.id, message);
      return next;
    });
  }, []);

  const onSent = useCallback(
    (answer: MessageResponse) => {
      addMessages([answer.message]);
      setBalance(answer.credits);
      // The navigation's credit badge shows the new balance too, without asking the server again.
      if (user && user.credits !== answer.credits) setUser({ ...user, credits: answer.credits });
      setProblem(null);
      setConversationId((current) => current ?? answer.conversation_id);
      void queryClient.invalidateQueries({ queryKey: CHATS_KEY });
    },
    [addMessages, queryClient, user, setUser],
  );
  const outbox = useOutbox({
    target: conversationId !== null ? { conversation_id: conversationId } : { profile_id: profile?.id ?? 0 },
    onSent,
    onFailed: setProblem,
    reconnects,
    storageKey: user && profile ? outboxStorageKey(user.id, profile.id) : null,
  });

  useServerEvent("chat.message", (event) => {
    const { message } = event;
    // A first message of the other member while this one is still empty: that is this conversation.
    const ours =
      event.conversation_id === conversationId ||
      (conversationId === null && !message.from_me && message.profile_id === profile?.id);
    if (!ours) return;
    if (conversationId === null) setConversationId(event.conversation_id);
    addMessages([message]);
    if (!message.from_me) {
      hideTyping();
      markRead();
    }
  });
  useServerEvent("chat.read", (event) => {
    if (event.conversation_id === conversationId) setReadMark((current) => Math.max(current ?? 0, event.message_id));
  });
  useServerEvent("chat.deleted", (event) => {
    if (event.conversation_id === conversationId) void navigate("/chats");
  });
  useServerResync(reopen);

  const loadEarlier = async () => {
    const first = lines.find((line) => line.type === "stored");
    if (conversationId === null || !first || first.type !== "stored") return;
    setLoadingEarlier(true);
    try {
      const page = await getEarlierMessages(conversationId, first.message.id);
      addMessages(page.messages);
      setEarlierHasMore(page.has_more);
    } catch (error) {
      setProblem(error instanceof ApiCallError ? error : new ApiCallError(0, null));
    } finally {
      setLoadingEarlier(false);
    }
  };

  // Stored messages by id (the opening page and everything since), then ours that are still pending
  // and not already stored (the stored one carries our client_id).
  const lines = useMemo<Line[]>(() => {
    const byId = new Map<number, ChatMessage>();
    for (const message of chat.data?.messages ?? []) byId.set(message.id, message);
    for (const message of live.values())
      if (message.conversation_id === conversationId || conversationId === null) byId.set(message.id, message);
    const stored = [...byId.values()].sort((a, b) => a.id - b.id);
    const storedClientIds = new Set(stored.map((message) => message.client_id).filter((id) => id !== null));
    const pending = outbox.items.filter((item) => !storedClientIds.has(item.clientId));
    return [
      ...stored.map((message): Line => ({ type: "stored", message })),
      ...pending.map((item): Line => ({ type: "pending", item })),
    ];
  }, [chat.data, live, outbox.items, conversationId]);

  // Keep the newest message in view when one arrives (unless the member scrolled up to read), and the
  // view still when earlier ones are added above.
  const last = lines.at(-1);
  const lastKey = last ? (last.type === "stored" ? `m${last.message.id}` : `p${last.item.clientId}`) : "";
  const firstKey = lines[0]?.type === "stored" ? lines[0].message.id : null;
  const previousHeight = useRef(0);
  const previousFirst = useRef<number | null>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const wasNearBottom = element.scrollTop + element.clientHeight >= previousHeight.current - 120;
    if (previousFirst.current !== null && firstKey !== null && firstKey < previousFirst.current) {
      element.scrollTop += element.scrollHeight - previousHeight.current;
    } else if (wasNearBottom || lastKey.startsWith("p") || previousHeight.current === 0) {
      element.scrollTop = element.scrollHeight;
    }
    previousFirst.current = firstKey;
    previousHeight.current = element.scrollHeight;
  }, [lastKey, firstKey]);

  if (conversationId !== null && chat.isPending) {
    return (
      <div className="p-3">
        <Loading>
          <FormattedMessage id="chat.loading" />
        </Loading>
      </div>
    );
  }
  if (conversationId !== null && chat.isError) {
    return (
      <div className="p-3">
        <LoadFailed message={errorMessage(chat.error, intl)} retry={<FormattedMessage id="chat.retry_load" />} onRetry={reopen} />
      </div>
    );
  }
  if (!profile) return null;

  const data = chat.data;
  const costs = data?.costs ?? settingsCosts(root?.settings ?? { message_credits: 0, photo_credits: 0, gift_credits: 0 });
  const credits = balance ?? data?.credits ?? user?.credits ?? 0;
  const readUpTo = Math.max(data?.read_up_to ?? 0, readMark ?? 0) || null;
  const awaiting = data?.awaiting_confirmation ?? null;
  const hasMore = earlierHasMore ?? data?.has_more ?? false;
  const empty = lines.length === 0;
  const limitReached = chats.data ? !mayWriteTo(chats.data.conversation_limit, profile.id) : false;

  return (
    <section className="chat-conversation d-flex flex-column h-100" aria-labelledby="chat-with">
      <header className="chat-header d-flex align-items-center gap-2 px-2 py-2 border-bottom bg-body">
        {onBack ? (
          <Link
            to={onBack}
            className="btn btn-link text-body d-md-none px-1"
            aria-label={intl.formatMessage({ id: "chat.back" })}
          >
            <BackIcon />
          </Link>
        ) : null}
        <Avatar profile={profile} size={40} />
        <div className="min-w-0">
          <h2 id="chat-with" className="h6 mb-0 text-truncate">
            <Link to={`/members/${profile.id}`} className="text-body">
              {profile.name}
            </Link>
            {profile.fictional && root ? <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" /> : null}
          </h2>
          {profile.fictional && root?.settings.fictional_warning ? (
            <p className="small text-body-secondary mb-0 chat-fictional-warning">{root.settings.fictional_warning}</p>
          ) : null}
        </div>
      </header>
      <div ref={scroller} className="chat-messages flex-grow-1 overflow-auto py-2" role="log" aria-live="polite" tabIndex={-1}>
        <MessageList
          lines={lines}
          name={profile.name}
          readUpTo={readUpTo}
          olderHidden={data?.older_hidden ?? false}
          hasMore={hasMore}
          loadingEarlier={loadingEarlier}
          onLoadEarlier={() => void loadEarlier()}
          onRetry={outbox.retry}
          onDiscard={outbox.discard}
          messageMenu={messageMenu ? (messageId) => messageMenu(messageId, profile.name) : undefined}
        />
        {empty ? (
          <div className="text-center text-body-secondary p-4">
            <p>
              <FormattedMessage id="chat.empty" values={{ name: profile.name }} />
            </p>
            <Button
              variant="outline-primary"
              onClick={() => setIcebreakers(true)}
              disabled={awaiting === "other" || limitReached}
            >
              <FormattedMessage id="chat.icebreaker_open" />
            </Button>
          </div>
        ) : null}
      </div>
      <p className="chat-typing small text-body-secondary px-3 mb-0" aria-live="polite">
        {typing ? <FormattedMessage id="chat.typing" values={{ name: profile.name }} /> : null}
      </p>
      {awaiting ? (
        <Alert variant="info" className="mx-2 mb-2 py-2 small">
          <FormattedMessage
            id={awaiting === "me" ? "chat.awaiting_me" : "chat.awaiting_other"}
            values={nameValues(profile.name)}
          />
        </Alert>
      ) : null}
      {problem ? <SendProblem error={problem} name={profile.name} onClose={() => setProblem(null)} /> : null}
      {limitReached && !problem ? (
        <Alert variant="info" className="chat-limit mx-2 mb-2 py-2 small">
          <p className="mb-1">
            <FormattedMessage id="chat.limit_before" values={{ max: LIMITS.freeConversations, name: profile.name }} />
          </p>
          <GetPremiumAction />
        </Alert>
      ) : null}
      <ChatFooter
        name={profile.name}
        conversationId={conversationId}
        costs={costs}
        balance={credits}
        maxLength={root?.settings.message_length ?? 2000}
        disabled={awaiting === "other" || limitReached}
        text={text}
        onText={setText}
        onSend={outbox.send}
        textareaRef={textarea}
        openGift={openGift}
        onGiftOpened={giftOpened}
      />
      <IcebreakerModal
        name={profile.name}
        show={icebreakers}
        onHide={() => setIcebreakers(false)}
        onPick={(line) => {
          setText(line);
          setIcebreakers(false);
        }}
        onExited={() => textarea.current?.focus()}
      />
    </section>
  );
}
