import { type LocaleCode, POLL_FIRST_MS, POLL_MS, POLL_WITH_PUSH_MS, type User } from "@app/contract";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Heartbeat, HeartbeatContext } from "../../lib/heartbeat";
import { MemberContext, type MemberState } from "../../lib/member";
import { ServerEvents, ServerEventsContext } from "../../lib/server-events";
import { onSessionLost } from "../../lib/session-lost";
import { sendPageHidden } from "./page-hidden";
import { type DevicePushState, isSubscribed, syncDevicePush, useDevicePushState } from "./push";

/** When the loop runs: its first beat, then the time between beats (read again after each beat). */
export interface PollTiming {
  firstDelayMs: number;
  intervalMs: number | (() => number);
}

/**
 * Spec §7: while logged in, the user (with the chats and the likes) is fetched every 60 s, every 300 s
 * when this device has a push subscription, the first time 5 s after the start. Returns the function
 * that stops polling.
 */
export function startPolling(
  poll: () => Promise<void>,
  timing: PollTiming = { firstDelayMs: POLL_FIRST_MS, intervalMs: POLL_MS },
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const interval = () => (typeof timing.intervalMs === "function" ? timing.intervalMs() : timing.intervalMs);
  const tick = async () => {
    try {
      await poll();
    } catch {
      // A failed poll (offline, server restarting) is retried at the next interval.
    }
    if (!stopped) timer = setTimeout(tick, interval());
  };
  timer = setTimeout(tick, timing.firstDelayMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Spec §7: the polling interval for this device's push state. */
export function pollIntervalFor(push: DevicePushState): number {
  return isSubscribed(push) ? POLL_WITH_PUSH_MS : POLL_MS;
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
  /** Reads this device's push subscription and posts it to the account (replaceable in tests). */
  syncPush?: (userId: number) => Promise<unknown>;
  /** Tells the server the page became hidden (replaceable in tests). */
  pageHidden?: () => void;
}

const fullNavigation = (path: string) => window.location.assign(path);

/**
 * The account API loads with its first call: a visitor's page makes none before they act, and it
 * brings the contract's schemas along (decision 025).
 */
const accountApi = () => import("./api");
const getUser = async () => (await accountApi()).getUser();
/**
 * Provides the member state of lib/member.ts: polling (and the heartbeat of lib/heartbeat.ts), logout,
 * lost sessions, language saving, this device's push subscription, and the page-hidden beacon.
 */
export function MemberProvider({
  initialUser,
  children,
  loadUser = getUser,
  navigateTo = fullNavigation,
  serverEvents,
  syncPush = syncDevicePush,
  pageHidden = sendPageHidden,
}: MemberProviderProps) {
  const [ownEvents] = useState(() => serverEvents ?? new ServerEvents());
  const [heartbeat] = useState(() => new Heartbeat());
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

  // Spec §4: a device's push subscription is posted to the account when logged in.
  const userId = user?.id ?? null;
  useEffect(() => {
    if (userId === null) return;
    void syncPush(userId).catch(() => undefined);
  }, [userId, syncPush]);

  // Spec §7: the user, the chats and the likes every 60 s (300 s with push), first after 5 s: beside the
  // socket, not only when it is down; the heartbeat that catches anything the socket missed.
  const push = useDevicePushState();
  const interval = useRef(pollIntervalFor(push));
  interval.current = pollIntervalFor(push);
  const poll = useCallback(async () => {
    heartbeat.beat();
    await refresh();
  }, [heartbeat, refresh]);
  useEffect(() => {
    if (!loggedIn) return;
    return startPolling(poll, { firstDelayMs: POLL_FIRST_MS, intervalMs: () => interval.current });
  }, [loggedIn, poll]);

  // Spec §7: a beacon when the page becomes hidden, so that the server knows the member is not looking.
  // Back after a while, the page asks at once (the user call tells the server the member is here again).
  useEffect(() => {
    if (!loggedIn) return;
    let hiddenAt: number | null = null;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hiddenAt = Date.now();
        pageHidden();
      } else if (hiddenAt !== null) {
        const away = Date.now() - hiddenAt;
        hiddenAt = null;
        if (away >= POLL_FIRST_MS) void poll().catch(() => undefined);
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [loggedIn, pageHidden, poll]);

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
      <HeartbeatContext.Provider value={heartbeat}>
        <MemberContext.Provider value={value}>{children}</MemberContext.Provider>
      </HeartbeatContext.Provider>
    </ServerEventsContext.Provider>
  );
}
