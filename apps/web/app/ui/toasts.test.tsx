import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../i18n/locales/en.json";
import { ToastProvider, useToast } from "./toasts";

afterEach(() => vi.useRealTimers());

function Trigger({ text }: { text: string }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast({ body: text, delayMs: 5_000 })}>
      Show
    </button>
  );
}

function renderToasts() {
  return render(
    <IntlProvider locale="en" messages={en}>
      <ToastProvider>
        <Trigger text="Order #12 is completed" />
      </ToastProvider>
    </IntlProvider>,
  );
}

const region = () => document.querySelector('[aria-live="polite"]') as HTMLElement;

describe("toasts", () => {
  it("appear in a polite live region that is in the page before them, and close with their button", () => {
    renderToasts();
    expect(region()).toBeEmptyDOMElement();
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(within(region()).getByRole("status")).toHaveTextContent("Order #12 is completed");
    fireEvent.click(within(region()).getByRole("button", { name: "Close" }));
    expect(region()).toBeEmptyDOMElement();
  });

  it("close once their link is followed", () => {
    function LinkTrigger() {
      const toast = useToast();
      return (
        <button type="button" onClick={() => toast({ body: <a href="#chat">Open the conversation</a> })}>
          Show
        </button>
      );
    }
    render(
      <IntlProvider locale="en" messages={en}>
        <ToastProvider>
          <LinkTrigger />
        </ToastProvider>
      </IntlProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    fireEvent.click(within(region()).getByRole("link", { name: "Open the conversation" }));
    expect(region()).toBeEmptyDOMElement();
  });

  it("hide by themselves after their delay, but not while the pointer is on them", () => {
    vi.useFakeTimers();
    renderToasts();
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    const toast = within(region()).getByRole("status");
    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(10_000));
    expect(toast).toBeInTheDocument();
    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(4_999));
    expect(toast).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(region()).toBeEmptyDOMElement();
  });
});
