import { nameValues, type TeaserProfile } from "@app/contract";
import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useRootData } from "../lib/root-data";
import { DistanceText } from "./distance";
import { FictionalIcon } from "./fictional-icon";
import { PhotoPlaceholder } from "./photo-placeholder";
import { PresenceLabel } from "./presence-label";

/**
 * A member's photo card linking to the profile (home teaser, members list, signup matches). `priority`:
 * the card opens the page's content and its photo is likely the largest paint, so it loads at once
 * (not lazily) and ahead of the scripts (React also preloads it from the head). `href`: where the card
 * leads (the profile by default); `mark`: a label over the photo's corner (the likes overview's "New").
 */
export function ProfileCard({
  profile,
  priority = false,
  href = `/members/${profile.id}`,
  mark,
}: {
  profile: TeaserProfile;
  priority?: boolean;
  href?: string;
  mark?: ReactNode;
}) {
  const intl = useIntl();
  const root = useRootData();
  return (
    <li className="col">
      <Link to={href} className="card profile-card border-0 shadow-sm text-white overflow-hidden h-100">
        {profile.main_image ? (
          <img
            src={profile.main_image.thumb_url}
            alt={intl.formatMessage({ id: "home.photo_alt" }, nameValues(profile.name))}
            className="card-img"
            loading={priority ? "eager" : "lazy"}
            fetchPriority={priority ? "high" : undefined}
            width={320}
            height={400}
          />
        ) : (
          <PhotoPlaceholder name={profile.name} className="card-img" style={{ aspectRatio: "4 / 5" }} />
        )}
        {mark ? <div className="profile-card-mark position-absolute top-0 start-0 p-2 d-flex gap-1">{mark}</div> : null}
        <div className="card-img-overlay p-2">
          <p className="card-title fw-semibold mb-0">
            {profile.name}
            {profile.fictional && root ? <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" /> : null}
          </p>
          <p className="card-text small mb-0">
            <FormattedMessage
              id={profile.city ? "home.age_city" : "home.age_only"}
              values={{ age: profile.age, city: profile.city }}
            />
          </p>
          {profile.presence ? (
            <p className="card-text small mb-0">
              <PresenceLabel presence={profile.presence} />
            </p>
          ) : null}
          {profile.distance ? (
            <p className="card-text small mb-0 opacity-75">
              <DistanceText distance={profile.distance} />
            </p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}

/** Cards of the first row on a phone (row-cols-2), whose photos load first when the grid leads the page. */
const FIRST_ROW = 2;

/**
 * The card grid of profile cards; when fictional profiles are among them, a legend says what their mark
 * means. `leading`: the grid is the page's main content near the top (the members list), so the first
 * row's photos load with high priority instead of lazily. `card`: per profile, where its card leads and
 * its mark (see ProfileCard).
 */
export function ProfileGrid<P extends TeaserProfile>({
  profiles,
  leading = false,
  card,
}: {
  profiles: P[];
  leading?: boolean;
  card?: (profile: P) => { href?: string; mark?: ReactNode };
}) {
  const root = useRootData();
  const withFictional = root !== undefined && profiles.some((profile) => profile.fictional);
  return (
    <>
      <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled">
        {profiles.map((profile, index) => (
          <ProfileCard key={profile.id} profile={profile} priority={leading && index < FIRST_ROW} {...card?.(profile)} />
        ))}
      </ul>
      {withFictional && root ? (
        // For sighted readers; each card's mark already carries its name for assistive technology.
        <p className="small text-body-secondary mt-2 mb-0" aria-hidden="true">
          <FormattedMessage
            id="fictional.legend"
            values={{
              icon: () => <FictionalIcon name={root.settings.fictional_icon} className="text-primary" />,
              kind: root.settings.fictional_plural,
            }}
          />
        </p>
      ) : null}
    </>
  );
}
