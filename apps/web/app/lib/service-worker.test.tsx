import { act, render, screen } from "@testing-library/react";
import { createRoutesStub, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onWorkerMessage, useWorkerClickNavigation } from "./service-worker";

/** navigator.serviceWorker as far as the page's messages go: an event target the test dispatches on. */
function fakeContainer() {
  const container = new EventTarget();
  Object.defineProperty(navigator, "serviceWorker", { value: container, configurable: true });
  return (data: unknown) => container.dispatchEvent(new MessageEvent("message", { data }));
}

afterEach(() => Reflect.deleteProperty(navigator, "serviceWorker"));

const payload = { kind: "message", title: "New message from Ada", body: "Hi", url: "/chats/5", tag: "conversation-5" };

describe("service worker messages (spec §7)", () => {
  it("passes on NEW_PUSH_MESSAGE and NEW_PUSH_CLICK as the contract has them, and nothing else", async () => {
    const post = fakeContainer();
    const seen = vi.fn();
    const stop = onWorkerMessage(seen);
    post({ type: "NEW_PUSH_MESSAGE", payload });
    post({ type: "NEW_PUSH_CLICK", payload });
    post({ type: "SOMETHING_ELSE" });
    post({ type: "NEW_PUSH_MESSAGE", payload: { ...payload, url: "https://elsewhere.example/" } });
    await vi.waitFor(() => expect(seen).toHaveBeenCalledTimes(2));
    expect(seen.mock.calls.map(([message]) => message.type)).toEqual(["NEW_PUSH_MESSAGE", "NEW_PUSH_CLICK"]);
    stop();
    post({ type: "NEW_PUSH_MESSAGE", payload });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it("opens the clicked notification's page in the app (React Router), never another site", async () => {
    const post = fakeContainer();
    function Page() {
      useWorkerClickNavigation();
      return <output>{useLocation().pathname}</output>;
    }
    const Stub = createRoutesStub([{ path: "*", Component: Page }]);
    render(<Stub initialEntries={["/members"]} />);
    expect(screen.getByRole("status")).toHaveTextContent("/members");
    act(() => void post({ type: "NEW_PUSH_MESSAGE", payload }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole("status")).toHaveTextContent("/members");
    act(() => void post({ type: "NEW_PUSH_CLICK", payload: { ...payload, url: "//elsewhere.example/x" } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole("status")).toHaveTextContent("/members");
    act(() => void post({ type: "NEW_PUSH_CLICK", payload }));
    await vi.waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("/chats/5"));
  });
});
