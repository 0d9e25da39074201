import { type ReactNode, useEffect } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useMember } from "../../lib/member";
import { useRootData } from "../../lib/root-data";
import { TopNav } from "../../ui/top-nav";
import { ChatList } from "./chat-list";
import { BackIcon } from "./icons";

/**
 * Spec §6: visitors are asked to log in to chat. The chat layout has no navigation of its own (a
 * member's screen fills the viewport), so a visitor gets the site's top navigation here, not a bare
 * page (issue #29).
 */
export function LoginToChat() {
  const root = useRootData();
  return (
    <>
      {root ? <TopNav siteName={root.settings.name} member={null} onLogout={() => undefined} /> : null}
      <div className="container py-5" style={{ maxWidth: 520 }}>
        <div className="card card-body text-center">
          <h1 className="h4 fw-normal mb-4">
            <FormattedMessage id="chat.login_required" />
          </h1>
          <div className="d-flex justify-content-center gap-2">
            <Link to="/login" className="btn btn-primary">
              <FormattedMessage id="nav.login" />
            </Link>
            <Link to="/" className="btn btn-outline-secondary">
              <FormattedMessage id="error.home_link" />
            </Link>
          </div>
        </div>
      </div>
    </>
  );
}

/**
 * While the chat screen is open, an on-screen keyboard shrinks the layout (Chrome's
 * `interactive-widget=resizes-content`), so that the full-height screen, and with it the send footer,
 * ends right above the keyboard instead of behind it. Other pages keep the browser's default.
 */
function useKeyboardResizesContent(): void {
  useEffect(() => {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
    if (!meta || meta.content.includes("interactive-widget")) return;
    const before = meta.content;
    meta.content = `${before}, interactive-widget=resizes-content`;
    return () => {
      meta.content = before;
    };
  }, []);
}

/**
 * The chat screen (spec §2, chat layout): on a desktop the conversation list on the left and the open
 * conversation on the right; on a phone two screens, the list or the conversation (whose header has a
 * back button). The screen is as tall as the visible viewport (dvh), so the footer stays above a phone's
 * keyboard.
 */
export function ChatScreen({ activeId, children }: { activeId: number | null; children?: ReactNode }) {
  const intl = useIntl();
  const { user } = useMember();
  useKeyboardResizesContent();
  if (!user) return <LoginToChat />;
  const open = children !== undefined && children !== null;
  return (
    <div className={`chat-screen d-flex${open ? " chat-screen-open" : ""}`}>
      <nav
        className="chat-sidebar d-flex flex-column border-end bg-body"
        aria-label={intl.formatMessage({ id: "chat.list_label" })}
      >
        <div className="chat-sidebar-header d-flex align-items-center gap-2 px-2 py-2 border-bottom">
          <Link
            to="/members"
            className="btn btn-link text-body px-1"
            aria-label={intl.formatMessage({ id: "chat.back_to_site" })}
          >
            <BackIcon />
          </Link>
          <h1 className="h5 mb-0 flex-grow-1">
            <FormattedMessage id="chat.title" />
          </h1>
        </div>
        <div className="flex-grow-1 overflow-auto">
          <ChatList activeId={activeId} />
        </div>
      </nav>
      <div className="chat-main flex-grow-1 min-w-0">
        {open ? (
          children
        ) : (
          <div className="h-100 d-flex align-items-center justify-content-center text-body-secondary p-4 text-center">
            <p className="mb-0">
              <FormattedMessage id="chat.pick_conversation" />
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
