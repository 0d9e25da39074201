import type { Settings } from "@app/contract";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { FormattedMessage } from "react-intl";
import { WITHOUT_APP } from "../lib/deferred-scripts";
import { DISMISS_ATTRIBUTE, DISMISSAL_ATTRIBUTE, dismissedAt, rememberDismissal } from "../lib/dismissals";
import { useStandalone } from "../lib/display-mode";

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

/**
 * The warning is rendered on the server, so that a first-time visitor sees it with the page and can
 * enter without the app's JavaScript (decision 028): the head script hides it before the first paint
 * where it was skipped before (`data-dismissal`) or in installed-app display (app.scss), and its button
 * works before hydration (`data-dismiss`, lib/dismissals.ts). Once hydrated, the browser's storage and
 * display mode decide, and the dialog keeps the focus until the visitor enters or leaves.
 */
export function EntryWarning({ settings, loggedIn, hidden }: { settings: Settings; loggedIn: boolean; hidden: boolean }) {
  const standalone = useStandalone();
  const [show, setShow] = useState(() =>
    shouldShowEntryWarning({ settings, loggedIn, standalone: false, hidden, skippedAt: null }),
  );
  useEffect(() => {
    const skippedAt = dismissedAt(ENTRY_WARNING_KEY)?.toISOString() ?? null;
    setShow(shouldShowEntryWarning({ settings, loggedIn, standalone, hidden, skippedAt }));
  }, [settings, loggedIn, standalone, hidden]);

  const enter = () => {
    rememberDismissal(ENTRY_WARNING_KEY);
    setShow(false);
  };

  if (!show) return null;
  return <EntryWarningDialog siteName={settings.name} onEnter={enter} />;
}

/** Bootstrap's modal markup, written out: react-bootstrap's Modal renders nothing on the server. */
function EntryWarningDialog({ siteName, onEnter }: { siteName: string; onEnter: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const enter = dialog.current?.querySelector<HTMLButtonElement>(`[${DISMISS_ATTRIBUTE}]`);
    if (dialog.current && !dialog.current.contains(document.activeElement)) enter?.focus();
  }, []);
  // The page behind is out of reach until the visitor chooses: Tab cycles within the dialog.
  const keepFocus = (event: KeyboardEvent) => {
    if (event.key !== "Tab" || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>("a[href],button")];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
  return (
    <div className="entry-warning" {...{ [DISMISSAL_ATTRIBUTE]: ENTRY_WARNING_KEY, [WITHOUT_APP]: "" }}>
      <div
        ref={dialog}
        className="modal d-block"
        id="site-entry-warning"
        role="dialog"
        aria-modal="true"
        aria-labelledby="site-entry-warning-title"
        tabIndex={-1}
        onKeyDown={keepFocus}
      >
        <div className="modal-dialog modal-dialog-centered">
          <div className="modal-content">
            <div className="modal-header">
              <h2 className="modal-title h4" id="site-entry-warning-title">
                <FormattedMessage id="entry.title" />
              </h2>
            </div>
            <div className="modal-body">
              <p className="mb-0">
                <FormattedMessage id="entry.body" values={{ site: siteName }} />
              </p>
            </div>
            <div className="modal-footer">
              <a className="btn btn-outline-secondary" href="https://www.google.com/" rel="noreferrer">
                <FormattedMessage id="entry.leave" />
              </a>
              <button
                type="button"
                className="btn btn-primary"
                onClick={onEnter}
                // biome-ignore lint/a11y/noAutofocus: the dialog's one action, focused as the page opens (a modal's first focus).
                autoFocus
                {...{ [DISMISS_ATTRIBUTE]: ENTRY_WARNING_KEY }}
              >
                <FormattedMessage id="entry.enter" />
              </button>
            </div>
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </div>
  );
}
