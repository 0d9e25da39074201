import type { User } from "@app/contract";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import en from "./i18n/locales/en.json";
import { MemberContext, type MemberState } from "./lib/member";
import { QueryProvider } from "./lib/query-client";

/** Renders `ui` in English at `path`, for `user` (null: a visitor), as the app's providers would (with a fresh query cache). For tests. */
export function renderAsMember(ui: ReactNode, { user, path = "/" }: { user: User | null; path?: string }) {
  const state: MemberState = {
    user,
    setUser: () => {},
    refresh: async () => {},
    logout: async () => {},
    saveLanguage: async () => {},
  };
  const Stub = createRoutesStub([
    {
      path: "*",
      Component: () => (
        <IntlProvider locale="en" messages={en}>
          <QueryProvider>
            <MemberContext.Provider value={state}>{ui}</MemberContext.Provider>
          </QueryProvider>
        </IntlProvider>
      ),
    },
  ]);
  return render(<Stub initialEntries={[path]} />);
}
