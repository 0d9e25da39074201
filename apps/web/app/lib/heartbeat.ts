import { createContext, useContext, useEffect, useRef } from "react";

/**
 * Spec §7's client loop: while a member is logged in, the user, the chats and the likes are fetched
 * again every POLL_MS (POLL_WITH_PUSH_MS with push), beside the live socket, so that anything the socket
 * missed shows up. The member provider beats; the features that show chats and likes listen (and reload
 * what is on screen), without the account feature naming their queries.
 */
export class Heartbeat {
  private readonly listeners = new Set<() => void>();

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  beat(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The page's heartbeat (provided by the member provider; none outside it). */
export const HeartbeatContext = createContext<Heartbeat | null>(null);

/** Runs `handler` on every beat of the member's polling loop (the latest handler is used). */
export function useHeartbeat(handler: () => void): void {
  const heartbeat = useContext(HeartbeatContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => heartbeat?.on(() => latest.current()), [heartbeat]);
}
