import { useMatches } from "react-router";

/** Per-route flags a route module exports as `handle` and the layouts read. */
export interface RouteHandle {
  /** Show the back button in installed-app display (spec §2). */
  backButton?: boolean;
  /** Hide the site-entry warning on this screen (complete-signup, reset-password). */
  hideEntryWarning?: boolean;
  /** The route writes its own meta description (the landers); the site's is then left out. */
  ownDescription?: boolean;
  /**
   * A logged-out visitor's copy of this page loads the app only when the visitor reaches for a
   * control (decision 028): the home page, the pages, the landers and the member landings.
   */
  startOnIntent?: boolean;
}

export function useRouteFlag(flag: keyof RouteHandle): boolean {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.[flag] === true);
}
