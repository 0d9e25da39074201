import type { Settings } from "@app/contract";
import { lazy, Suspense, useEffect, useState } from "react";
import { useStandalone } from "../lib/display-mode";
import { useMountedOnceActive } from "../lib/lazy";

/** The dialog itself loads only for a visitor who gets to see it (issue #13). */
const EntryWarningModal = lazy(() => import("./entry-warning-modal"));

export const ENTRY_WARNING_KEY = "skipped-site-entry-warning";

/**
 * Spec §4: the site-entry warning is shown once to logged-out visitors; closing it stores a skipped
 * timestamp. It is suppressed in installed-app display, when disabled in settings, when logged in, or
 * when the visitor's country is outside the optional allowed list.
 */
export function shouldShowEntryWarning(input: {
  settings: Pick<Settings, "enable_site_entry_popup" | "site_entry_popup_countries" | "geoip_selected_country">;
  loggedIn: boolean;
  standalone: boolean;
  hidden: boolean;
  skippedAt: string | null;
}): boolean {
  const { settings } = input;
  if (input.loggedIn || input.standalone || input.hidden || input.skippedAt) return false;
  if (settings.enable_site_entry_popup === "no") return false;
  const allowed = settings.site_entry_popup_countries;
  if (allowed.length > 0 && !(settings.geoip_selected_country && allowed.includes(settings.geoip_selected_country))) return false;
  return true;
}

export function EntryWarning({ settings, loggedIn, hidden }: { settings: Settings; loggedIn: boolean; hidden: boolean }) {
  const standalone = useStandalone();
  const [show, setShow] = useState(false);
  useEffect(() => {
    let skippedAt: string | null = null;
    try {
      skippedAt = window.localStorage.getItem(ENTRY_WARNING_KEY);
    } catch {
      skippedAt = null;
    }
    setShow(shouldShowEntryWarning({ settings, loggedIn, standalone, hidden, skippedAt }));
  }, [settings, loggedIn, standalone, hidden]);

  const enter = () => {
    try {
      window.localStorage.setItem(ENTRY_WARNING_KEY, new Date().toISOString());
    } catch {
      // Storage may be blocked; the warning then simply returns on the next visit.
    }
    setShow(false);
  };

  const mounted = useMountedOnceActive(show);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <EntryWarningModal show={show} siteName={settings.name} onEnter={enter} />
    </Suspense>
  );
}
