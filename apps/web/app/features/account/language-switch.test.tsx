import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { MemberContext, type MemberState } from "../../lib/member";
import { testUser } from "../../test-utils";
import { LanguageSettings } from "./preference-settings";

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test clears the cookie the switch wrote.
  document.cookie = "i18n_redirected=; max-age=0; path=/";
});

describe("switching the language", () => {
  it("switches at once while the account's save is still trying, and ignores its failure (spec §8)", async () => {
    let failSave: (error: Error) => void = () => {};
    const saveLanguage = vi.fn(
      () =>
        new Promise<void>((_resolve, reject) => {
          failSave = reject;
        }),
    );
    const state: MemberState = {
      user: testUser(),
      setUser: () => {},
      refresh: async () => {},
      logout: async () => {},
      saveLanguage,
    };
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <IntlProvider locale="en" messages={en}>
            <MemberContext.Provider value={state}>
              <LanguageSettings current="en" />
            </MemberContext.Provider>
          </IntlProvider>
        ),
      },
    ]);
    render(<Stub />);
    fireEvent.change(screen.getByLabelText(en["settings.language_label"]), { target: { value: "pl" } });
    // The save has not answered (its retries take about 20 s when it fails), yet the language is switched.
    await waitFor(() => expect(document.cookie).toContain("i18n_redirected=pl"));
    expect(saveLanguage).toHaveBeenCalledWith("pl");
    expect(await screen.findByRole("status")).toHaveTextContent("Polski");
    failSave(new Error("network"));
  });
});
