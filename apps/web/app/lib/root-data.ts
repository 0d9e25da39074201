import type { CompanyInfo, LocaleCode, Settings, User } from "@app/contract";
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
}

/** The root loader's data; undefined only when the root loader itself failed (root error boundary). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
