import { render, screen } from "@testing-library/react";
import { FormattedMessage, IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadMessages, type Messages, messagesPath, useLocaleMessages } from "./messages";

const hello = (text: string): Messages => ({ "nav.login": [{ type: 0, value: text }] });

function Probe({ locale }: { locale: string }) {
  const intl = useLocaleMessages(locale, "v1");
  return (
    <IntlProvider locale={intl.locale} messages={intl.messages} onError={() => undefined}>
      <p data-testid="lang">{intl.locale}</p>
      <FormattedMessage id="nav.login" />
    </IntlProvider>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the browser's messages", () => {
  it("are fetched once per locale from the versioned path", async () => {
    const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(hello("Inloggen"))));
    vi.stubGlobal("fetch", fetch);
    const [first, second] = await Promise.all([loadMessages("nl", "v1"), loadMessages("nl", "v1")]);
    expect(first).toEqual(hello("Inloggen"));
    expect(second).toBe(first);
    expect(await loadMessages("nl", "v1")).toBe(first);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe(messagesPath("nl", "v1"));
  });

  it("keep the page in its language until the next language's messages are here", async () => {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify(hello("Login"))));
    await loadMessages("en", "v1");
    let arrive: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", () => new Promise<Response>((resolve) => (arrive = resolve)));
    const { rerender } = render(<Probe locale="en" />);
    expect(screen.queryByText("Login")).toBeInTheDocument();
    rerender(<Probe locale="de" />);
    // Not message ids, not a mix: still English, as English.
    expect(screen.getByTestId("lang").textContent).toBe("en");
    expect(screen.queryByText("Login")).toBeInTheDocument();
    arrive(new Response(JSON.stringify(hello("Anmelden"))));
    expect(await screen.findByText("Anmelden")).toBeInTheDocument();
    expect(screen.getByTestId("lang").textContent).toBe("de");
  });

  it("do not keep a failed load: the next call asks again", async () => {
    vi.stubGlobal("fetch", async () => new Response("", { status: 503 }));
    await expect(loadMessages("pl", "v1")).rejects.toThrow(/503/);
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify(hello("Zaloguj się"))));
    expect(await loadMessages("pl", "v1")).toEqual(hello("Zaloguj się"));
  });
});
