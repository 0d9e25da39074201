import type { User } from "@app/contract";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reportSessionLost } from "../../lib/api";
import { FakeSocket } from "../../lib/fake-web-socket";
import { useHeartbeat } from "../../lib/heartbeat";
import { useMember } from "../../lib/member";
import { ServerEvents } from "../../lib/server-events";
import { MemberProvider, startPolling } from "./member-provider";
import { setDeviceState } from "./push";
import { testUser } from "./test-users";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  setDeviceState(null);
});

/** A push subscription as PushSubscription.toJSON() gives it. */
const deviceSubscription = {
  endpoint: "https://push.example/send/abc",
  expirationTime: null,
  keys: { p256dh: `B${"A".repeat(86)}`, auth: "AAAAAAAAAAAAAAAAAAAAAA" },
};

describe("member polling timing (spec §7)", () => {
  it("polls first after 5 s, then every 60 s, until stopped", async () => {
    const poll = vi.fn(async () => {});
    const stop = startPolling(poll);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(poll).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(poll).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(poll).toHaveBeenCalledTimes(4);
  });

  it("keeps polling after a failed poll", async () => {
    const poll = vi.fn(async () => {
      throw new Error("offline");
    });
    const stop = startPolling(poll);
    await vi.advanceTimersByTimeAsync(65_000);
    expect(poll).toHaveBeenCalledTimes(2);
    stop();
  });
});

function Probe() {
  const { user } = useMember();
  return <output>{user ? user.profile.name : "logged out"}</output>;
}

const noSync = async () => null;

function renderProvider(
  initialUser: User | null,
  loadUser: () => Promise<User | null>,
  extra: { syncPush?: (userId: number) => Promise<unknown>; pageHidden?: () => void; onBeat?: () => void } = {},
) {
  function Beats() {
    useHeartbeat(() => extra.onBeat?.());
    return null;
  }
  return render(
    <MemberProvider
      initialUser={initialUser}
      loadUser={loadUser}
      navigateTo={() => {}}
      syncPush={extra.syncPush ?? noSync}
      pageHidden={extra.pageHidden ?? (() => {})}
    >
      <Probe />
      <Beats />
    </MemberProvider>,
  );
}

describe("member state", () => {
  it("polls the user call while logged in and follows its answer", async () => {
    const loadUser = vi.fn(async () => testUser({ profile: { ...testUser().profile, name: "Renamed" } }));
    renderProvider(testUser(), loadUser);
    expect(screen.getByText("Sam")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(loadUser).toHaveBeenCalledTimes(1);
    expect(screen.getByText("Renamed")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(loadUser).toHaveBeenCalledTimes(2);
  });

  it("drops to logged out when the answer is user: null, and stops polling", async () => {
    const loadUser = vi.fn(async () => null);
    renderProvider(testUser(), loadUser);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByText("logged out")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(loadUser).toHaveBeenCalledTimes(1);
  });

  it("does not poll for a visitor", async () => {
    const loadUser = vi.fn(async () => null);
    renderProvider(null, loadUser);
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(loadUser).not.toHaveBeenCalled();
  });

  it("logs out when a call reports authentication_required", async () => {
    renderProvider(
      testUser(),
      vi.fn(async () => testUser()),
    );
    act(() => reportSessionLost());
    expect(screen.getByText("logged out")).toBeVisible();
  });

  it("logs out through /api/logout.php, then navigates to / with a full page load", async () => {
    vi.useRealTimers();
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ ok: true }));
    vi.stubGlobal("fetch", fetch);
    const navigateTo = vi.fn();
    let logout: () => Promise<void> = async () => {};
    function Grab() {
      logout = useMember().logout;
      return null;
    }
    render(
      <MemberProvider initialUser={testUser()} loadUser={async () => testUser()} navigateTo={navigateTo} syncPush={noSync}>
        <Grab />
      </MemberProvider>,
    );
    await act(() => logout());
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/logout.php");
    expect(navigateTo).toHaveBeenCalledWith("/");
    vi.unstubAllGlobals();
  });
});

describe("the client loop of spec §7 (user, chats and likes; 5 s, then 60 s, 300 s with push)", () => {
  it("beats the heartbeat with each poll: first after 5 s, then every 60 s without push", async () => {
    const loadUser = vi.fn(async () => testUser());
    const onBeat = vi.fn();
    renderProvider(testUser(), loadUser, { onBeat });
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(onBeat).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onBeat).toHaveBeenCalledTimes(1);
    expect(loadUser).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(59_999));
    expect(onBeat).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onBeat).toHaveBeenCalledTimes(2);
    expect(loadUser).toHaveBeenCalledTimes(2);
  });

  it("polls every 300 s once this device has a push subscription, and every 60 s again without it", async () => {
    const loadUser = vi.fn(async () => testUser());
    const syncPush = vi.fn(async () => setDeviceState(deviceSubscription));
    renderProvider(testUser(), loadUser, { syncPush });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(syncPush).toHaveBeenCalledWith(testUser().id);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(loadUser).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(loadUser).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(239_999));
    expect(loadUser).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(loadUser).toHaveBeenCalledTimes(2);
    // Unsubscribed: the next wait is 60 s again.
    act(() => void setDeviceState(false));
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(loadUser).toHaveBeenCalledTimes(3);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(loadUser).toHaveBeenCalledTimes(4);
  });

  it("sends the page-hidden beacon when the page becomes hidden, for a member only; back after a while, it asks at once", async () => {
    const pageHidden = vi.fn();
    const loadUser = vi.fn(async () => testUser());
    let visibility: DocumentVisibilityState = "visible";
    const spy = vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
    const flip = (to: DocumentVisibilityState) => {
      visibility = to;
      document.dispatchEvent(new Event("visibilitychange"));
    };
    try {
      const { unmount } = renderProvider(testUser(), loadUser, { pageHidden });
      flip("hidden");
      expect(pageHidden).toHaveBeenCalledTimes(1);
      // Back within a moment: nothing extra.
      flip("visible");
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(pageHidden).toHaveBeenCalledTimes(1);
      expect(loadUser).not.toHaveBeenCalled();
      // Away for 2 minutes (no timers ran meanwhile, as in a background tab): the user is asked at once.
      flip("hidden");
      vi.setSystemTime(Date.now() + 120_000);
      flip("visible");
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(loadUser).toHaveBeenCalledTimes(1);
      unmount();
      renderProvider(null, async () => null, { pageHidden });
      flip("hidden");
      expect(pageHidden).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("member events", () => {
  function renderLive(loadUser: () => Promise<User | null>) {
    FakeSocket.made = [];
    const serverEvents = new ServerEvents({
      url: () => "ws://site.test/ws",
      WebSocket: FakeSocket as unknown as typeof WebSocket,
    });
    render(
      <MemberProvider
        initialUser={testUser()}
        loadUser={loadUser}
        navigateTo={() => {}}
        serverEvents={serverEvents}
        syncPush={noSync}
        pageHidden={() => {}}
      >
        <Probe />
      </MemberProvider>,
    );
    return FakeSocket.made[0] as FakeSocket;
  }

  it("polls beside the open socket (spec §7: not only when it is down) and reloads the member on user.changed", async () => {
    const loadUser = vi.fn(async () => testUser({ profile: { ...testUser().profile, name: "Renamed" } }));
    const socket = renderLive(loadUser);
    act(() => socket.open({ type: "hello", node: "n", user_id: 7, seq: 0 }));
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(loadUser).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(loadUser).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("status")).toHaveTextContent("Renamed");

    act(() => socket.push({ type: "event", seq: 1, event: { type: "user.changed" } }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(loadUser).toHaveBeenCalledTimes(2);
    // The socket drops: the loop goes on at its pace.
    act(() => socket.drop(1006));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(loadUser).toHaveBeenCalledTimes(3);
  });
});
