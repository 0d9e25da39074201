import type { ReactNode } from "react";
import { useRootData } from "../../lib/root-data";
import { useRouteFlag } from "../../lib/route-handle";
import { EntryWarning } from "../entry-warning";
import { ProgressBar } from "../progress-bar";

/** Spec §2: the lander and empty layouts show the entry warning only in Dutch and German. */
export function minimalLayoutShowsEntryWarning(locale: string): boolean {
  return locale === "nl" || locale === "de";
}

/** The shell of the chat, lander and empty layouts: progress bar and page, nothing else. */
export function Minimal({ children, entryWarning }: { children: ReactNode; entryWarning: boolean }) {
  const root = useRootData();
  const hidden = useRouteFlag("hideEntryWarning");
  return (
    <>
      <ProgressBar />
      <main id="main" className="app-main">
        {children}
      </main>
      {root && entryWarning ? (
        <EntryWarning
          settings={root.settings}
          loggedIn={root.user !== null}
          hidden={hidden || !minimalLayoutShowsEntryWarning(root.locale)}
        />
      ) : null}
    </>
  );
}
