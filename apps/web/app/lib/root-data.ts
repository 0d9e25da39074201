import type {
  BadgesResponse,
  CompanyInfo,
  DiscountCodeResponse,
  LocaleCode,
  Settings,
  TimeBonusResponse,
  User,
} from "@app/contract";
import { useRouteLoaderData } from "react-router";

/**
 * What the root loader (root.tsx) gives every page: locale and messages' version, site settings, company
 * details and the member the page was rendered for. Declared here, not inferred from root.tsx, so
 * that shared ui/ and lib/ code can read it without importing the root route.
 */
export interface RootData {
  locale: LocaleCode;
  /** The catalogues' version: the browser loads a locale's messages from `messagesPath(locale, version)`. */
  messagesVersion: string;
  browserLocale: LocaleCode | null;
  settings: Settings;
  company: CompanyInfo;
  hasTrafficSource: boolean;
  user: User | null;
  /** The member's first answers, rendered with the page; null for a visitor. */
  firstAnswers: FirstAnswers | null;
}

/**
 * Issue #29: what a member's page would ask the API for at once (the navigation's counts, the time
 * bonus, else the welcome discount), answered by the root loader instead, each validated on the server
 * with its endpoint's schema. The providers start from these and refresh through the API as before, so
 * the first screen needs neither the API client nor zod. A field is absent where the page would not ask
 * or the server's call failed: the browser then asks as before.
 */
export interface FirstAnswers {
  badges?: BadgesResponse;
  timeBonus?: TimeBonusResponse;
  welcomeDiscount?: DiscountCodeResponse;
}

/** The root loader's data; undefined only when the root loader itself failed (root error boundary). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
