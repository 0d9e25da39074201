import {
  INBOX_RENEW_SECONDS,
  type InboxLiveEvent,
  inboxLiveEventSchema,
  STAFF_INBOX_ENDPOINTS,
  TYPING_THROTTLE_MS,
} from "@app/contract";
import { useEffect, useRef, useState } from "react";
import { staffFetch, staffPath } from "../api";

const E = STAFF_INBOX_ENDPOINTS;
/** How long the member's "typing" shows after their last typing event without a stop (as in the chat). */
const TYPING_SHOWN_MS = 6_000;

/**
 * While `conversationId` is claimed by me: renews the lease every INBOX_RENEW_SECONDS, and releases it
 * when the operator leaves (another conversation, another page, the tab closed). `onLost` runs when a renewal is refused
 * (the lease ran out and someone else took it).
 */
export function useLease(conversationId: number | null, onLost: () => void): void {
  const lost = useRef(onLost);
  lost.current = onLost;
  useEffect(() => {
    if (conversationId === null) return;
    const params = { conversationId };
    const timer = window.setInterval(() => {
      staffFetch(E.inboxRenew, { params }).catch(() => lost.current());
    }, INBOX_RENEW_SECONDS * 1000);
    // The tab closing: a request that outlives the page (keepalive), else the lease runs out by itself.
    const closing = () => {
      void fetch(staffPath(E.inboxRelease, { params }), {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: "{}",
      }).catch(() => undefined);
    };
    window.addEventListener("pagehide", closing);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("pagehide", closing);
      staffFetch(E.inboxRelease, { params }).catch(() => undefined);
    };
  }, [conversationId]);
}

/**
 * The claimed conversation's live stream (server-sent events, see modules/operators/README.md): whether
 * the member is typing now, and each new message (`onMessage`).
 */
export function useLiveConversation(conversationId: number | null, onMessage: () => void): { memberTyping: boolean } {
  const [memberTyping, setMemberTyping] = useState(false);
  const message = useRef(onMessage);
  message.current = onMessage;
  useEffect(() => {
    if (conversationId === null) return;
    const source = new EventSource(`/staff/api/inbox/${conversationId}/live`);
    let clear: number | undefined;
    source.onmessage = (raw) => {
      const parsed = inboxLiveEventSchema.safeParse(JSON.parse(String(raw.data)));
      if (!parsed.success) return;
      const event: InboxLiveEvent = parsed.data;
      window.clearTimeout(clear);
      if (event.type === "typing") {
        setMemberTyping(event.typing);
        if (event.typing) clear = window.setTimeout(() => setMemberTyping(false), TYPING_SHOWN_MS);
      } else {
        setMemberTyping(false);
        message.current();
      }
    };
    return () => {
      window.clearTimeout(clear);
      source.close();
      setMemberTyping(false);
    };
  }, [conversationId]);
  return { memberTyping };
}

/** Tells the member the persona is typing: a start at most every TYPING_THROTTLE_MS, a stop when done. */
export function usePersonaTyping(conversationId: number | null) {
  const last = useRef(0);
  return {
    typed() {
      if (conversationId === null || Date.now() - last.current < TYPING_THROTTLE_MS) return;
      last.current = Date.now();
      staffFetch(E.inboxTyping, { params: { conversationId }, body: { typing: true } }).catch(() => undefined);
    },
    stopped() {
      if (conversationId === null || last.current === 0) return;
      last.current = 0;
      staffFetch(E.inboxTyping, { params: { conversationId }, body: { typing: false } }).catch(() => undefined);
    },
  };
}
