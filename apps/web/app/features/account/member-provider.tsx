import { LIMITS, type LocaleCode, type User } from "@app/contract";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { MemberContext, type MemberState } from "../../lib/member";
import { ServerEvents, ServerEventsContext } from "../../lib/server-events";
import { onSessionLost } from "../../lib/session-lost";

/**
 * Spec §7: while logged in, the user is fetched every 60 s, the first time 5 s after the start.
 * Returns the function that stops polling.
 */
export function startPolling(
  poll: () => Promise<void>,
  timing: { firstDelayMs: number; intervalMs: number } = {
    firstDelayMs: LIMITS.firstPollDelayMs,
    intervalMs: LIMITS.pollIntervalMs,
  },
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      await poll();
    } catch {
      // A failed poll (offline, server restarting) is retried at the next interval.
    }
    if (!stopped) timer = setTimeout(tick, timing.intervalMs);
  };
  timer = setTimeout(tick, timing.firstDelayMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export interface MemberProviderProps {
  /** The member the server rendered the page for (root loader). */
  initialUser: User | null;
  children: ReactNode;
  /** Replaceable in tests. */
  loadUser?: () => Promise<User | null>;
  navigateTo?: (path: string) => void;
  /** The live connection for member events (replaceable in tests). */
  serverEvents?: ServerEvents;
}

const fullNavigation = (path: string) => window.location.assign(path);

/**
 * The account API loads with its first call: a visitor's page makes none before they act, and it
 * brings the contract's schemas along (decision 025).
 */
const accountApi = () => import("./api");
const getUser = async () => (await accountApi()).getUser();

/** Provides the member state of lib/member.ts: polling, logout, lost sessions, language saving. */
export function MemberProvider({
  initialUser,
  children,
  loadUser = getUser,
  navigateTo = fullNavigation,
  serverEvents,
}: MemberProviderProps) {
  const [ownEvents] = useState(() => serverEvents ?? new ServerEvents());
  const events = serverEvents ?? ownEvents;
  const [user, setUser] = useState<User | null>(initialUser);
  const generation = useRef(0);

  // A new server answer (language switch, explicit revalidation) replaces what we knew.
  useEffect(() => {
    generation.current++;
    setUser(initialUser);
  }, [initialUser]);

  const replaceUser = useCallback((next: User | null) => {
    generation.current++;
    setUser(next);
  }, []);

  const refresh = useCallback(async () => {
    const started = generation.current;
    const next = await loadUser();
    // An answer that arrives after a login, logout or other change is stale.
    if (started === generation.current) setUser(next);
  }, [loadUser]);

  const logout = useCallback(async () => {
    try {
      await (await accountApi()).logout();
    } catch {
      // The full navigation below reloads the member from the server either way.
    }
    replaceUser(null);
    navigateTo("/");
  }, [navigateTo, replaceUser]);

  const saveLanguage = useCallback(async (language: LocaleCode) => {
    try {
      await (await accountApi()).saveLanguage(language);
    } catch {
      // Spec §8: a failed language save is ignored.
    }
  }, []);

  useEffect(() => onSessionLost(() => replaceUser(null)), [replaceUser]);

  const loggedIn = user !== null;
  // A member is connected to /ws; the connection ends with the session.
  useEffect(() => {
    if (!loggedIn) return;
    events.start();
    return () => events.stop();
  }, [loggedIn, events]);
  const live = useSyncExternalStore(
    events.subscribeState,
    () => events.state === "open",
    () => false,
  );

  // Changes arrive as events while the socket is open; without it, the spec's polling (§7) takes over.
  useEffect(() => {
    if (!loggedIn || live) return;
    return startPolling(refresh);
  }, [loggedIn, live, refresh]);
  useEffect(() => {
    const reload = () => void refresh().catch(() => undefined);
    const offChanged = events.on("user.changed", reload);
    const offResync = events.onResync(reload);
    return () => {
      offChanged();
      offResync();
    };
  }, [events, refresh]);

  const value = useMemo<MemberState>(
    () => ({ user, setUser: replaceUser, refresh, logout, saveLanguage }),
    [user, replaceUser, refresh, logout, saveLanguage],
  );
  return (
    <ServerEventsContext.Provider value={events}>
      <MemberContext.Provider value={value}>{children}</MemberContext.Provider>
    </ServerEventsContext.Provider>
  );
}
