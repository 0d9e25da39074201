import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { useRouteFlag } from "../../lib/route-handle";
import { useRootData } from "../../root";
import { EntryWarning } from "../entry-warning";
import { ProgressBar } from "../progress-bar";

/** Spec §2: the lander and empty layouts show the entry warning only in Dutch and German. */
const ENTRY_WARNING_LOCALES = new Set(["nl", "de"]);

function Minimal({ children, entryWarning }: { children: ReactNode; entryWarning: boolean }) {
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
          hidden={hidden || !ENTRY_WARNING_LOCALES.has(root.locale)}
        />
      ) : null}
    </>
  );
}

/** Chat layout: the conversation fills the screen; no footer, no entry warning (members only). */
export function ChatLayout() {
  return (
    <Minimal entryWarning={false}>
      <Outlet />
    </Minimal>
  );
}

/** Lander layout for the /landers/* campaign pages. */
export function LanderLayout() {
  return (
    <Minimal entryWarning>
      <Outlet />
    </Minimal>
  );
}

/** Empty layout: only the page itself. */
export function EmptyLayout() {
  return (
    <Minimal entryWarning>
      <Outlet />
    </Minimal>
  );
}
