import type { User } from "@app/contract";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { IntlProvider } from "react-intl";
import { createRoutesStub, Outlet } from "react-router";
import { vi } from "vitest";
import en from "./i18n/locales/en.json";
import { FakeSocket } from "./lib/fake-web-socket";
import { type Heartbeat, HeartbeatContext } from "./lib/heartbeat";
import { MemberContext, type MemberState } from "./lib/member";
import { QueryProvider } from "./lib/query-client";
import { ServerEvents, ServerEventsContext } from "./lib/server-events";
import { ToastProvider } from "./ui/toasts";

export { testUser } from "./features/account/test-users";
export { testMemberResponse } from "./features/profile/test-profiles";

/** A member event connection over a FakeSocket, opened (live and not pinging), for tests that push events. */
export function liveServerEvents(): { events: ServerEvents; socket: () => FakeSocket } {
  FakeSocket.made = [];
  const events = new ServerEvents({
    url: () => "ws://site.test/ws",
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    pingEveryMs: 24 * 3600 * 1000,
  });
  events.start();
  const socket = () => FakeSocket.made.at(-1) as FakeSocket;
  socket().open({ type: "hello", node: "n", user_id: 7, seq: 0 });
  return { events, socket };
}

/**
 * Renders `ui` in English at `path`, for `user` (null: a visitor), as the app's providers would (with a
 * fresh query cache, the toasts, `events` as the member's event connection, `heartbeat` as the member's
 * polling loop and `refresh` as the member reload). For tests. With `purchasesAvailable`, under a root route whose settings carry that flag
 * (decision 030); the page then renders once the root's loader has answered (use `findBy…`).
 */
export function renderAsMember(
  ui: ReactNode,
  {
    user,
    path = "/",
    events = null,
    refresh = async () => {},
    purchasesAvailable,
    heartbeat = null,
  }: {
    user: User | null;
    path?: string;
    events?: ServerEvents | null;
    refresh?: () => Promise<void>;
    purchasesAvailable?: boolean;
    /** The member's polling loop (spec §7), beaten by the test. */
    heartbeat?: Heartbeat | null;
  },
) {
  const state: MemberState = {
    user,
    setUser: () => {},
    refresh,
    logout: async () => {},
    saveLanguage: async () => {},
  };
  const page = {
    path: "*",
    Component: () => (
      <IntlProvider locale="en" messages={en}>
        <QueryProvider>
          <ServerEventsContext.Provider value={events}>
            <HeartbeatContext.Provider value={heartbeat}>
              <MemberContext.Provider value={state}>
                <ToastProvider>{ui}</ToastProvider>
              </MemberContext.Provider>
            </HeartbeatContext.Provider>
          </ServerEventsContext.Provider>
        </QueryProvider>
      </IntlProvider>
    ),
  };
  const Stub = createRoutesStub(
    purchasesAvailable === undefined
      ? [page]
      : [
          {
            id: "root",
            loader: () => ({ settings: { purchases_available: purchasesAvailable } }),
            HydrateFallback: () => null,
            Component: Outlet,
            children: [page],
          },
        ],
  );
  return render(<Stub initialEntries={[path]} />);
}

type Route = unknown | ((init: RequestInit | undefined) => unknown);

/**
 * Stubs fetch for API calls: `routes` answers by "METHOD /path?query" or, failing that, "METHOD /path",
 * with JSON (status 200) or a Response (a function may answer later with a promise of either, or throw
 * for a network failure); anything else is a 404. Returns the mock to inspect the calls.
 */
export function stubApi(routes: Record<string, Route>) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const route = routes[`${method} ${url}`] ?? routes[`${method} ${url.split("?")[0]}`];
    if (route === undefined) return new Response(JSON.stringify({ error: "not_found", message: "Not found." }), { status: 404 });
    const body = typeof route === "function" ? await (route as (init: RequestInit | undefined) => unknown)(init) : route;
    return body instanceof Response ? body : new Response(JSON.stringify(body), { status: 200 });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/** An API error answer, as the server's error handler writes it. */
export function apiError(status: number, error: string, message: string): Response {
  return new Response(JSON.stringify({ error, message }), { status });
}

/** The JSON bodies of the calls `fetch` got for "METHOD path". */
export function bodiesOf(fetch: { mock: { calls: unknown[][] } }, method: string, path: string): Record<string, unknown>[] {
  return fetch.mock.calls
    .filter(
      ([url, init]) => String(url).split("?")[0] === path && ((init as RequestInit | undefined)?.method ?? "GET") === method,
    )
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);
}
