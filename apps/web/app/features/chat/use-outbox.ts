import { type Gif, type Gift, gifSchema, giftSchema, type MessageResponse } from "@app/contract";
import { useCallback, useContext, useEffect, useRef, useState } from "react";
import { ApiCallError } from "../../lib/api";
import { ServerEventsContext } from "../../lib/server-events";
import { postMessage, postPhoto, type SendTarget } from "./api";

/** What the member sends: a text, a gift (with an optional text), a GIF or a photo. */
export type OutgoingContent =
  | { kind: "text"; text: string }
  | { kind: "gift"; gift: Gift; text: string }
  | { kind: "gif"; gif: Gif }
  | { kind: "photo"; file: File; previewUrl: string | null };

/**
 * A message of this page that the server has not stored yet. `queued`: waiting for its turn or for the
 * connection (`offline`: the last try got no answer, it is tried again by itself); `sending`: on its
 * way; `failed`: the server refused it (`error`), shown with the reason and a retry button.
 */
export interface Outgoing {
  clientId: string;
  content: OutgoingContent;
  createdAt: string;
  status: "queued" | "sending" | "failed";
  offline: boolean;
  error: { code: string; message: string } | null;
}

/** A try that got no answer, or one the server did not process (a retry with the same client_id is safe). */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiCallError)) return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Waits before the n-th automatic retry (0-based): 1 s, 2 s, 4 s … at most 30 s. */
export const retryDelayMs = (attempt: number) => Math.min(30_000, 1_000 * 2 ** attempt);

/**
 * The outbox kept in this browser's storage (issue #29: a failed message vanished on reload): one
 * entry per member and conversation partner, holding what is not stored on the server yet with its
 * client_id, so that a send after a reload is the same message (the server stores and charges a
 * client_id once). An entry goes when the server has the message or the member removes it. Photos
 * are not kept: a File does not survive a reload (the member attaches it again).
 */
export const outboxStorageKey = (userId: number, profileId: number) => `chat-outbox:${userId}:${profileId}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One stored entry, checked (storage is the browser's: anything may be there); null when it is not one. */
function restoredItem(value: unknown): Outgoing | null {
  if (typeof value !== "object" || value === null) return null;
  const { clientId, content, createdAt, status, error } = value as Record<string, unknown>;
  if (typeof clientId !== "string" || !UUID.test(clientId) || typeof createdAt !== "string") return null;
  if (status !== "queued" && status !== "failed") return null;
  const failure =
    typeof error === "object" && error !== null && typeof (error as Record<string, unknown>).code === "string"
      ? {
          code: String((error as Record<string, unknown>).code),
          message: String((error as Record<string, unknown>).message ?? ""),
        }
      : null;
  if (typeof content !== "object" || content === null) return null;
  const c = content as Record<string, unknown>;
  let kept: OutgoingContent | null = null;
  if (c.kind === "text" && typeof c.text === "string") kept = { kind: "text", text: c.text };
  else if (c.kind === "gift" && typeof c.text === "string" && giftSchema.safeParse(c.gift).success)
    kept = { kind: "gift", gift: giftSchema.parse(c.gift), text: c.text };
  else if (c.kind === "gif" && gifSchema.safeParse(c.gif).success) kept = { kind: "gif", gif: gifSchema.parse(c.gif) };
  if (!kept) return null;
  return { clientId, content: kept, createdAt, status, offline: false, error: status === "failed" ? failure : null };
}

/** What storage holds under `key`: messages still to send (a try cut short by the reload goes again) and failed ones. */
export function readStoredOutbox(key: string): Outgoing[] {
  try {
    const raw: unknown = JSON.parse(window.localStorage.getItem(key) ?? "[]");
    return Array.isArray(raw) ? raw.map(restoredItem).filter((item) => item !== null) : [];
  } catch {
    return [];
  }
}

function writeStoredOutbox(key: string, items: Outgoing[]): void {
  const kept = items
    .filter((item) => item.content.kind !== "photo")
    .map(({ clientId, content, createdAt, status, error }) => ({
      clientId,
      content,
      createdAt,
      status: status === "failed" ? "failed" : "queued",
      error,
    }));
  try {
    if (kept.length === 0) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(kept));
  } catch {
    // Storage full or unavailable: the page's own queue still holds them.
  }
}

export interface OutboxOptions {
  target: SendTarget;
  /** The server stored a message of ours: show it (it replaces the pending one by client_id). */
  onSent(answer: MessageResponse): void;
  /** The server refused one (not enough credits, limit, …): the page explains what to do. */
  onFailed?(error: ApiCallError): void;
  /** Increases whenever the member events connection is (re)established: queued messages go at once. */
  reconnects: number;
  /** Where this conversation's outbox is kept across reloads (outboxStorageKey); null: not known yet, nothing kept. */
  storageKey?: string | null;
  newClientId?: () => string;
}

/**
 * The page's queue of messages to send (issue #10: never lose a message). A message shows at once as
 * pending and is sent in order, one at a time, so that the server's order is the member's. A try that
 * gets no answer (offline, a dropped connection, a restarting server) keeps the message queued and tries
 * again with the SAME client_id (the server stores and charges it once): after a backoff, when the
 * browser comes back online, and when the live connection is back. A refusal keeps it visible as failed.
 */
export function useOutbox({
  target,
  onSent,
  onFailed,
  reconnects,
  storageKey = null,
  newClientId = () => crypto.randomUUID(),
}: OutboxOptions) {
  const [items, setItems] = useState<Outgoing[]>([]);
  const queue = useRef<Outgoing[]>([]);
  const busy = useRef(false);
  const attempt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The member's live connection: a message goes over it when it is open (see postMessage).
  const events = useContext(ServerEventsContext);
  const latest = useRef({ target, onSent, onFailed, events });
  latest.current = { target, onSent, onFailed, events };
  const mounted = useRef(true);

  const stored = useRef<string | null>(null);
  const publish = useCallback(() => {
    if (stored.current !== null) writeStoredOutbox(stored.current, queue.current);
    if (mounted.current) setItems([...queue.current]);
  }, []);

  const update = useCallback(
    (clientId: string, change: Partial<Outgoing>) => {
      queue.current = queue.current.map((item) => (item.clientId === clientId ? { ...item, ...change } : item));
      publish();
    },
    [publish],
  );

  const pump = useCallback(async (): Promise<void> => {
    if (busy.current || retryTimer.current !== undefined || !mounted.current) return;
    const next = queue.current.find((item) => item.status === "queued");
    if (!next) return;
    busy.current = true;
    update(next.clientId, { status: "sending" });
    const { target: to, events: live } = latest.current;
    try {
      const { content } = next;
      const answer =
        content.kind === "photo"
          ? await postPhoto(to, next.clientId, content.file)
          : await postMessage(
              {
                ...to,
                client_id: next.clientId,
                ...(content.kind === "text" ? { text: content.text } : {}),
                ...(content.kind === "gift" ? { gift: content.gift.id, ...(content.text ? { text: content.text } : {}) } : {}),
                ...(content.kind === "gif" ? { gif: content.gif.id } : {}),
              },
              live,
            );
      attempt.current = 0;
      queue.current = queue.current.filter((item) => item.clientId !== next.clientId);
      if (content.kind === "photo" && content.previewUrl) URL.revokeObjectURL(content.previewUrl);
      latest.current.onSent(answer);
      publish();
    } catch (error) {
      if (isTransient(error)) {
        update(next.clientId, { status: "queued", offline: true });
        busy.current = false;
        retryTimer.current = setTimeout(
          () => {
            retryTimer.current = undefined;
            void pump();
          },
          retryDelayMs(attempt.current++),
        );
        return;
      }
      const failure = error instanceof ApiCallError ? error : new ApiCallError(0, null);
      update(next.clientId, { status: "failed", offline: false, error: { code: failure.code, message: failure.message } });
      latest.current.onFailed?.(failure);
    }
    busy.current = false;
    await pump();
  }, [publish, update]);

  /** Skips the backoff: the connection is back, so whatever waits goes now. */
  const flush = useCallback(() => {
    clearTimeout(retryTimer.current);
    retryTimer.current = undefined;
    attempt.current = 0;
    void pump();
  }, [pump]);

  const send = useCallback(
    (content: OutgoingContent) => {
      queue.current = [
        ...queue.current,
        { clientId: newClientId(), content, createdAt: new Date().toISOString(), status: "queued", offline: false, error: null },
      ];
      publish();
      void pump();
    },
    [newClientId, publish, pump],
  );

  /** Sends a failed message again, with its own client_id. */
  const retry = useCallback(
    (clientId: string) => {
      update(clientId, { status: "queued", error: null });
      flush();
    },
    [update, flush],
  );

  /** Gives up on a failed message. */
  const discard = useCallback(
    (clientId: string) => {
      queue.current = queue.current.filter((item) => item.clientId !== clientId);
      publish();
    },
    [publish],
  );

  useEffect(() => {
    mounted.current = true;
    window.addEventListener("online", flush);
    return () => {
      mounted.current = false;
      window.removeEventListener("online", flush);
      clearTimeout(retryTimer.current);
      retryTimer.current = undefined;
    };
  }, [flush]);

  useEffect(() => {
    if (reconnects > 0) flush();
  }, [reconnects, flush]);

  // Once the conversation is known: what an earlier page left unsent comes back (failed ones as
  // failed, the rest goes again with its own client_id), and from now on the queue is kept there.
  useEffect(() => {
    if (storageKey === null || stored.current === storageKey) return;
    stored.current = storageKey;
    const known = new Set(queue.current.map((item) => item.clientId));
    const restored = readStoredOutbox(storageKey).filter((item) => !known.has(item.clientId));
    queue.current = [...restored, ...queue.current];
    publish();
    void pump();
  }, [storageKey, publish, pump]);

  return { items, send, retry, discard };
}
