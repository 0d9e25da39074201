import { LIMITS, nameValues, type User } from "@app/contract";
import { type ReactNode, useMemo, useState } from "react";
import { Badge, Nav } from "react-bootstrap";
import NavbarCollapse from "react-bootstrap/NavbarCollapse";
import NavbarContext, { type NavbarContextType } from "react-bootstrap/NavbarContext";
import NavbarToggle from "react-bootstrap/NavbarToggle";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, NavLink, useNavigate } from "react-router";
import type { BadgeCounts } from "../lib/badges";
import { useStandalone } from "../lib/display-mode";
import { useRouteFlag } from "../lib/route-handle";
import { CountBadge } from "./count-badge";
import { LanguageSwitcher } from "./language-switcher";
import { Menu, MenuDivider } from "./menu";
import { PhotoPlaceholder } from "./photo-placeholder";

/** What the top navigation needs of a logged-in member. */
export interface NavMember {
  name: string;
  thumbUrl: string | null;
  paidUser: boolean;
  credits: number;
  unreadMessages: number;
  newLikes: number;
  newVisitors: number;
}

/** The navigation's view of the member, with the badge counts (GET /api/badges.php, kept live by events). */
export function navMemberOf(user: User, badges: BadgeCounts = { newLikes: 0, unreadMessages: 0, newVisitors: 0 }): NavMember {
  return {
    name: user.profile.name,
    thumbUrl: user.profile.main_image?.thumb_url ?? null,
    paidUser: user.paid_user,
    credits: user.credits,
    unreadMessages: badges.unreadMessages,
    newLikes: badges.newLikes,
    newVisitors: badges.newVisitors,
  };
}

/** Spec §2: the credit badge shows at 10 or fewer credits, warning above 0, danger at 0. */
export function creditBadgeVariant(credits: number): "warning" | "danger" | null {
  if (credits > LIMITS.lowCreditThreshold) return null;
  return credits > 0 ? "warning" : "danger";
}

function BackButton() {
  const intl = useIntl();
  const navigate = useNavigate();
  const standalone = useStandalone();
  const wanted = useRouteFlag("backButton");
  if (!standalone || !wanted || typeof window === "undefined" || window.history.length <= 1) return null;
  return (
    <button type="button" className="btn btn-link text-white me-2" onClick={() => navigate(-1)}>
      <span aria-hidden="true">‹</span> <span className="visually-hidden">{intl.formatMessage({ id: "nav.back" })}</span>
    </button>
  );
}

/**
 * react-bootstrap's `<Navbar expand="md" bg="primary" as="header">`, same markup and context for the
 * toggle, collapse, Nav and Dropdown inside, without the Navbar module: it imports the offcanvas and
 * with it the modal machinery, on every page (issue #13).
 */
function SiteNavbar({ children }: { children: ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const context = useMemo<NavbarContextType>(
    () => ({ onToggle: () => setExpanded((open) => !open), bsPrefix: "navbar", expanded, expand: "md" }),
    [expanded],
  );
  return (
    <NavbarContext.Provider value={context}>
      {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole lint/a11y/useSemanticElements: the role react-bootstrap's Navbar gives a header, kept so that the landmarks stay as they were. */}
      <header data-bs-theme="dark" role="navigation" className="shadow-sm navbar navbar-expand-md navbar-light bg-primary">
        {children}
      </header>
    </NavbarContext.Provider>
  );
}

export function TopNav({
  siteName,
  member,
  onLogout,
  accountMenuTop,
}: {
  siteName: string;
  member: NavMember | null;
  onLogout: () => void;
  /** What leads the account menu (the layout gives the profile's compact completeness meter). */
  accountMenuTop?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <SiteNavbar>
      <div className="container">
        <BackButton />
        <Link
          to={member ? "/members" : "/"}
          className="navbar-brand"
          aria-label={intl.formatMessage({ id: "nav.brand_home" }, { site: siteName })}
        >
          <span aria-hidden="true">♥ </span>
          {siteName}
        </Link>
        {member ? <MemberNav member={member} onLogout={onLogout} accountMenuTop={accountMenuTop} /> : null}
        <div className="d-flex align-items-center gap-2 ms-auto">
          <LanguageSwitcher />
          {member ? null : (
            <Link to="/login" className="btn btn-light btn-sm fw-semibold">
              <FormattedMessage id="nav.login" />
            </Link>
          )}
        </div>
      </div>
    </SiteNavbar>
  );
}

/** The logged-in part (spec §2): search, messages and likes with 99+ badges, credits or premium, account menu. */
export function MemberNav({
  member,
  onLogout,
  accountMenuTop,
}: {
  member: NavMember;
  onLogout: () => void;
  accountMenuTop?: ReactNode;
}) {
  const intl = useIntl();
  const credit = creditBadgeVariant(member.credits);
  return (
    <>
      <NavbarToggle aria-controls="member-nav" aria-label={intl.formatMessage({ id: "nav.toggle" })} />
      <NavbarCollapse id="member-nav">
        <Nav as="nav" aria-label={intl.formatMessage({ id: "nav.main" })} className="me-auto">
          <Nav.Link as={NavLink} to="/members">
            <FormattedMessage id="nav.search" />
          </Nav.Link>
          <Nav.Link as={NavLink} to="/chats">
            <FormattedMessage id="nav.messages" />
            <CountBadge
              count={member.unreadMessages}
              label={intl.formatMessage({ id: "nav.unread_badge" }, { count: member.unreadMessages })}
            />
          </Nav.Link>
          <Nav.Link as={NavLink} to="/likes">
            <FormattedMessage id="nav.likes" />
            <CountBadge
              count={member.newLikes}
              label={intl.formatMessage({ id: "nav.likes_badge" }, { count: member.newLikes })}
            />
          </Nav.Link>
          <Nav.Link as={NavLink} to={member.paidUser ? "/credits" : "/premium"}>
            <FormattedMessage id={member.paidUser ? "nav.credits" : "nav.get_premium"} />
            {credit ? (
              <Badge
                bg={credit}
                text={credit === "warning" ? "dark" : undefined}
                pill
                className="ms-1"
                aria-label={intl.formatMessage({ id: "nav.credits_badge" }, { count: member.credits })}
              >
                {member.credits}
              </Badge>
            ) : null}
          </Nav.Link>
        </Nav>
        <Menu
          id="account-menu"
          toggleClassName="btn-primary"
          toggleLabel={intl.formatMessage({ id: "nav.account" }, nameValues(member.name))}
          toggle={
            <>
              {member.thumbUrl ? (
                <img src={member.thumbUrl} alt="" width={28} height={28} className="rounded-circle me-2 object-fit-cover" />
              ) : (
                <PhotoPlaceholder
                  className="d-inline-flex align-middle rounded-circle bg-white me-2"
                  style={{ width: 28, height: 28 }}
                />
              )}
              {member.name}
            </>
          }
        >
          {accountMenuTop}
          <Link className="dropdown-item" to="/profile">
            <FormattedMessage id="nav.my_profile" />
          </Link>
          <Link className="dropdown-item" to="/visitors">
            <FormattedMessage id="nav.visitors" />
            <CountBadge
              count={member.newVisitors}
              label={intl.formatMessage({ id: "nav.visitors_badge" }, { count: member.newVisitors })}
            />
          </Link>
          <Link className="dropdown-item" to="/settings">
            <FormattedMessage id="nav.settings" />
          </Link>
          <MenuDivider />
          <button type="button" className="dropdown-item" onClick={onLogout}>
            <FormattedMessage id="nav.logout" />
          </button>
        </Menu>
      </NavbarCollapse>
    </>
  );
}
