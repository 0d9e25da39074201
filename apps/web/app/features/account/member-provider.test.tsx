import type { User } from "@app/contract";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reportSessionLost } from "../../lib/api";
import { FakeSocket } from "../../lib/fake-web-socket";
import { useMember } from "../../lib/member";
import { ServerEvents } from "../../lib/server-events";
import { MemberProvider, startPolling } from "./member-provider";
import { testUser } from "./test-users";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

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

function renderProvider(initialUser: User | null, loadUser: () => Promise<User | null>) {
  return render(
    <MemberProvider initialUser={initialUser} loadUser={loadUser} navigateTo={() => {}}>
      <Probe />
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
      <MemberProvider initialUser={testUser()} loadUser={async () => testUser()} navigateTo={navigateTo}>
        <Grab />
      </MemberProvider>,
    );
    await act(() => logout());
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/logout.php");
    expect(navigateTo).toHaveBeenCalledWith("/");
    vi.unstubAllGlobals();
  });
});

describe("member events (live updates instead of polling)", () => {
  function renderLive(loadUser: () => Promise<User | null>) {
    FakeSocket.made = [];
    const serverEvents = new ServerEvents({
      url: () => "ws://site.test/ws",
      WebSocket: FakeSocket as unknown as typeof WebSocket,
    });
    render(
      <MemberProvider initialUser={testUser()} loadUser={loadUser} navigateTo={() => {}} serverEvents={serverEvents}>
        <Probe />
      </MemberProvider>,
    );
    return FakeSocket.made[0] as FakeSocket;
  }

  it("does not poll while the socket is open, reloads the member on user.changed, and polls again when it drops", async () => {
    const loadUser = vi.fn(async () => testUser({ profile: { ...testUser().profile, name: "Renamed" } }));
    const socket = renderLive(loadUser);
    act(() => socket.open({ type: "hello", node: "n", user_id: 7, seq: 0 }));
    // (Within the 25 s after which the client pings; the first poll would have come at 5 s.)
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(loadUser).not.toHaveBeenCalled();

    act(() => socket.push({ type: "event", seq: 1, event: { type: "user.changed" } }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(loadUser).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("status")).toHaveTextContent("Renamed");

    // The socket drops: the spec's polling (first after 5 s) takes over until it is back.
    act(() => socket.drop(1006));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(loadUser).toHaveBeenCalledTimes(2);
  });
});
