import type { TimeBonus, User } from "@app/contract";
import { render } from "@testing-library/react";
import { type ReactNode, useState } from "react";
import { renderToString } from "react-dom/server";
import { IntlProvider } from "react-intl";
import { createRoutesStub, useLocation } from "react-router";
import type { vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { MemberContext, type MemberState } from "../../lib/member";
import { QueryProvider } from "../../lib/query-client";
import { DiscountProvider } from "./discount-provider";
// The provider loads the API on its first query (decision 025): loaded here first, so that tests on
// fake timers do not race the loading of a module.
import "./api";

/** Fake timers for countdowns: the timers and the monotonic clock (performance.now) they tick on. */
export const FAKE_CLOCK: Parameters<typeof vi.useFakeTimers>[0] = {
  toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "performance", "Date"],
};

/** GET /api/time-bonus.php with a bonus of `seconds_left` seconds (TIMEBONUS25, 25%). */
export function timeBonusAnswer(seconds_left: number): { time_bonus: TimeBonus } {
  return { time_bonus: { code: "TIMEBONUS25", value_percentage: 25, seconds_left } };
}

/** GET /api/discountcode.php?welcome=true with the welcome discount ending in `seconds_left` seconds. */
export function welcomeAnswer(seconds_left: number | null) {
  return {
    discount: {
      code: "WELCOME25",
      kind: "welcome" as const,
      user_id: null,
      status: "active" as const,
      expired: false,
      value_percentage: 25,
      expires: null,
      seconds_left,
      country: null,
      currency: null,
      minimum_order_value: null,
      paymentmethods: null,
      validity: "once_per_member" as const,
    },
    price: null,
  };
}

/** Lets a test change the member (pay, log out, log in) as the member provider would. */
export interface MemberControl {
  setUser(user: User | null): void;
}

/**
 * Renders `ui` in English for `user` inside the discount provider, at `path` of a route with id
 * `routeId` (the members area is decided by route ids), with a fresh query cache, on a site whose
 * settings say `purchasesAvailable` (default true).
 */
export function renderWithDiscounts(ui: ReactNode, options: PageOptions) {
  const { page, control } = discountsPage(ui, options);
  return { ...render(page), control };
}

/**
 * The HTML the server sends for `ui` as renderWithDiscounts sets it up: rendered to a string (no
 * effects, no hydration, nothing fetched), as React Router's server rendering does.
 */
export function serverHtmlWithDiscounts(ui: ReactNode, options: PageOptions): string {
  return renderToString(discountsPage(ui, options).page);
}

interface PageOptions {
  user: User | null;
  routeId?: string;
  path?: string;
  purchasesAvailable?: boolean;
}

function discountsPage(ui: ReactNode, { user, routeId = "members", path = "/members", purchasesAvailable = true }: PageOptions) {
  const control: MemberControl = { setUser: () => {} };
  function Member({ children }: { children: ReactNode }) {
    const [current, setCurrent] = useState<User | null>(user);
    control.setUser = setCurrent;
    const state: MemberState = {
      user: current,
      setUser: setCurrent,
      refresh: async () => {},
      logout: async () => {},
      saveLanguage: async () => {},
    };
    return <MemberContext.Provider value={state}>{children}</MemberContext.Provider>;
  }
  const Page = () => (
    <IntlProvider locale="en" messages={en}>
      <QueryProvider>
        <Member>
          <DiscountProvider purchasesAvailable={purchasesAvailable}>{ui}</DiscountProvider>
        </Member>
      </QueryProvider>
    </IntlProvider>
  );
  // Outside the members area: where the time-bonus popup's button leads, and any other page.
  const credits = routeId === "credits" ? [] : [{ id: "credits", path: "/credits", Component: () => <p>Credits page</p> }];
  const Stub = createRoutesStub([
    { id: routeId, path, Component: Page },
    ...credits,
    { id: "elsewhere", path: "*", Component: Elsewhere },
  ]);
  return { page: <Stub initialEntries={[path]} />, control };
}

function Elsewhere() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}
