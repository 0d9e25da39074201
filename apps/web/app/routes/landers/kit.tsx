/**
 * Not a route: what every lander (decision 024) shares — its <title> and description, the call to sign
 * up, the member photo and the small footer. Kept light: the signup modal's code loads only when a
 * desktop visitor clicks the call (smartphones, modified clicks and no-script visitors go to /signup).
 */
import { nameValues, signupsEnabled, type TeaserProfile } from "@app/contract";
import { lazy, type MouseEvent, type ReactNode, Suspense, useCallback, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate } from "react-router";
import type { LanderData } from "../../features/landers/types";
import { NEEDS_APP, NEEDS_APP_ON_DESKTOP } from "../../lib/deferred-scripts";
import { isSmartphone } from "../../lib/media";
import { useRootData } from "../../lib/root-data";
import type { RouteHandle } from "../../lib/route-handle";
import { FictionalIcon } from "../../ui/fictional-icon";
import { LegalLinks } from "../../ui/legal-links";

const SignupModal = lazy(() => import("../signup-flow").then((module) => ({ default: module.SignupModal })));

/** Landers set their own meta description (root.tsx then leaves the site's out). */
export const landerHandle: RouteHandle = { ownDescription: true, startOnIntent: true };

/** The lander's document title and meta description, hoisted into <head> by React. */
export function LanderHead({ data }: { data: Pick<LanderData, "title" | "description"> }) {
  return (
    <>
      <title>{data.title}</title>
      <meta name="description" content={data.description} />
    </>
  );
}

/**
 * The call to sign up (spec §2): the signup modal on desktop, the /signup route on smartphones. Where
 * signups are closed (spec §4), the invitation-only notice instead.
 */
export function SignupCta({ className = "btn btn-primary btn-lg", children }: { className?: string; children?: ReactNode }) {
  const root = useRootData();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const finish = useCallback(() => {
    setOpen(false);
    void navigate("/members");
  }, [navigate]);
  if (!root) return null;
  if (!signupsEnabled(root.settings, root.hasTrafficSource)) {
    return (
      <p className="ld-invite" role="status">
        <FormattedMessage id="signup.invite_only" />
      </p>
    );
  }
  return (
    <>
      <Link
        to="/signup"
        className={className}
        {...{ [NEEDS_APP]: NEEDS_APP_ON_DESKTOP }}
        onClick={(event: MouseEvent) => {
          if (isSmartphone() || event.metaKey || event.ctrlKey || event.shiftKey) return;
          event.preventDefault();
          setLoaded(true);
          setOpen(true);
        }}
      >
        {children ?? <FormattedMessage id="lander.cta" />}
      </Link>
      {loaded ? (
        <Suspense fallback={null}>
          <SignupModal show={open} onHide={close} onFinish={finish} />
        </Suspense>
      ) : null}
    </>
  );
}

/** A member's photo as a visitor may see it, with the fictional-profile mark where it applies. */
export function MemberPhoto({
  profile,
  className,
  priority = false,
  caption = true,
}: {
  profile: TeaserProfile;
  className?: string;
  priority?: boolean;
  caption?: boolean;
}) {
  const intl = useIntl();
  const root = useRootData();
  if (!profile.main_image) return null;
  return (
    <figure className={`ld-photo ${className ?? ""}`}>
      <img
        src={profile.main_image.thumb_url}
        alt={intl.formatMessage({ id: "home.photo_alt" }, nameValues(profile.name))}
        width={320}
        height={400}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
      />
      {caption ? (
        <figcaption>
          {profile.name}, {profile.age}
          {profile.fictional && root ? <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" /> : null}
        </figcaption>
      ) : null}
    </figure>
  );
}

/** Log in for members, the policy links and, when fictional profiles are shown, the site's disclaimer. */
export function LanderFooter({ profiles }: { profiles: TeaserProfile[] }) {
  const root = useRootData();
  if (!root) return null;
  const { settings } = root;
  return (
    <footer className="ld-footer">
      <p>
        <FormattedMessage id="lander.member_question" />{" "}
        <Link to="/login">
          <FormattedMessage id="lander.login" />
        </Link>
      </p>
      {profiles.some((profile) => profile.fictional) ? (
        <p>
          <FictionalIcon name={settings.fictional_icon} className="me-1" /> {settings.fictional_warning}
        </p>
      ) : null}
      <LegalLinks />
      <p>
        <FormattedMessage id="footer.rights" values={{ year: 2025, company: root.company.name }} />
      </p>
    </footer>
  );
}

/** Up to `limit` members' photos in a list (the first `priority` loaded first), or NoMembers when none. */
export function PhotoList({
  profiles,
  limit,
  className,
  priority = 0,
}: {
  profiles: TeaserProfile[];
  limit: number;
  className: string;
  priority?: number;
}) {
  if (profiles.length === 0) return <NoMembers />;
  return (
    <ul className={className}>
      {profiles.slice(0, limit).map((profile, index) => (
        <li key={profile.id}>
          <MemberPhoto profile={profile} priority={index < priority} />
        </li>
      ))}
    </ul>
  );
}

/** A lander's photos, or a short note when none may be shown to this visitor. */
export function NoMembers() {
  return (
    <p className="ld-note">
      <FormattedMessage id="lander.no_members" />
    </p>
  );
}
