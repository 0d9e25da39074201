import { type MemberProfile, nameValues, type PresenceLabel as PresenceLabelValue } from "@app/contract";
import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { type RegionsLoader, useRegions } from "../../lib/reference-data";
import { DistanceText } from "../../ui/distance";
import { FictionalIcon } from "../../ui/fictional-icon";
import { PresenceLabel } from "../../ui/presence-label";
import { MemberPhotos } from "./member-photos";
import {
  BODY_TYPE_LABELS,
  EYE_COLOR_LABELS,
  GENDER_LABELS,
  HAIR_COLOR_LABELS,
  RELATIONSHIP_STATUS_LABELS,
  SEXUALITY_LABELS,
  valueArgs,
} from "./profile-labels";

/** The name of a member's region, once the site's regions have arrived (the profile holds its code). */
function useRegionName(country: string | null, region: string | null, loadRegions: RegionsLoader) {
  const regions = useRegions(loadRegions, Boolean(country && region));
  if (!country || !region) return null;
  return regions?.[country]?.find((r) => r.code === region)?.name ?? null;
}

/** "34 years · Haarlem, North Holland, Netherlands": what the header says under the name. */
export function useMemberSubtitle(
  profile: Pick<MemberProfile, "age" | "city" | "region" | "country">,
  loadRegions: RegionsLoader,
): string {
  const intl = useIntl();
  const regionName = useRegionName(profile.country, profile.region, loadRegions);
  const countryName = profile.country
    ? (new Intl.DisplayNames([intl.locale], { type: "region" }).of(profile.country) ?? profile.country)
    : null;
  const location = [profile.city, regionName, countryName].filter(Boolean).join(", ");
  return location
    ? intl.formatMessage({ id: "member.age_location" }, { age: profile.age, location })
    : intl.formatMessage({ id: "member.age_only" }, { age: profile.age });
}

/** The fields of the details list, in order, with their label and the value's label (null: hidden or not given). */
function details(profile: MemberProfile): { field: string; labelId: string; valueId: string | null }[] {
  return [
    { field: "gender", labelId: "member.gender", valueId: profile.gender && GENDER_LABELS[profile.gender] },
    { field: "sexuality", labelId: "member.sexuality", valueId: profile.sexuality && SEXUALITY_LABELS[profile.sexuality] },
    {
      field: "relationship_status",
      labelId: "member.relationship_status",
      valueId: profile.relationship_status && RELATIONSHIP_STATUS_LABELS[profile.relationship_status],
    },
    { field: "hair_color", labelId: "member.hair_color", valueId: profile.hair_color && HAIR_COLOR_LABELS[profile.hair_color] },
    { field: "eye_color", labelId: "member.eye_color", valueId: profile.eye_color && EYE_COLOR_LABELS[profile.eye_color] },
    { field: "body_type", labelId: "member.body_type", valueId: profile.body_type && BODY_TYPE_LABELS[profile.body_type] },
    {
      field: "tattoos",
      labelId: "member.tattoos",
      valueId: profile.tattoos === null ? null : profile.tattoos ? "signup.yes" : "signup.no",
    },
  ];
}

export interface MemberViewProps {
  profile: MemberProfile;
  loadRegions: RegionsLoader;
  /** settings.fictional_icon and settings.fictional_warning: fictional profiles carry both. */
  fictionalIcon: string;
  fictionalWarning: string;
  /** settings.visible_profile_notes: a note under a field, by field name. */
  notes?: Record<string, string>;
  /** What the asker can do here (the actions, or the visitors' login prompt). */
  actions?: ReactNode;
  /** Issue #29: how lately the member was around, where the server shows it. */
  presence?: PresenceLabelValue;
}

/**
 * Spec §2 profile view of another member: header (name, age, place, fictional mark), the photos,
 * the details the site shows (hidden fields arrive as null and are left out), interests and the
 * about text.
 */
export function MemberView({
  profile,
  loadRegions,
  fictionalIcon,
  fictionalWarning,
  notes = {},
  actions,
  presence,
}: MemberViewProps) {
  const intl = useIntl();
  const subtitle = useMemberSubtitle(profile, loadRegions);
  const rows = details(profile).flatMap(({ valueId, ...row }) => (valueId ? [{ ...row, valueId }] : []));
  return (
    <article className="row g-4" aria-labelledby="member-name">
      <div className="col-md-5 col-lg-4">
        <MemberPhotos profile={profile} />
      </div>
      <div className="col-md-7 col-lg-8">
        <header className="mb-3">
          <h1 id="member-name" className="h2 mb-1">
            {profile.name}
            {profile.fictional ? <FictionalIcon name={fictionalIcon} labelled className="ms-2 text-primary" /> : null}
          </h1>
          <p className="lead text-body-secondary mb-0">{subtitle}</p>
          {presence ? (
            <p className="mb-0">
              <PresenceLabel presence={presence} />
            </p>
          ) : null}
          {profile.distance ? (
            <p className="text-body-secondary mb-0">
              <DistanceText distance={profile.distance} />
            </p>
          ) : null}
        </header>
        {profile.fictional && fictionalWarning ? (
          <p className="alert alert-warning small" role="note">
            {fictionalWarning}
          </p>
        ) : null}
        {actions}

        {profile.about ? (
          <section className="mb-4" aria-labelledby="member-about">
            <h2 id="member-about" className="h5">
              <FormattedMessage id="member.about" values={nameValues(profile.name)} />
            </h2>
            <p className="member-about mb-0">{profile.about}</p>
          </section>
        ) : null}

        {rows.length > 0 ? (
          <section className="mb-4" aria-labelledby="member-details">
            <h2 id="member-details" className="h5">
              <FormattedMessage id="member.details" />
            </h2>
            <dl className="row mb-0">
              {rows.map((row) => (
                // A long value (pl "Heteroseksualna") goes under its label rather than past the grid's edge.
                <div key={row.field} className="col-sm-6 d-flex flex-wrap column-gap-2 mb-2">
                  <dt className="fw-normal text-body-secondary">
                    <FormattedMessage id={row.labelId} />
                  </dt>
                  <dd className="mb-0 fw-semibold text-break">
                    {intl.formatMessage({ id: row.valueId }, valueArgs(profile.gender))}
                    {notes[row.field] ? (
                      <span className="d-block small fw-normal text-body-secondary">{notes[row.field]}</span>
                    ) : null}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}

        {profile.interests.length > 0 ? (
          <section className="mb-4" aria-labelledby="member-interests">
            <h2 id="member-interests" className="h5">
              <FormattedMessage id="member.interests" />
            </h2>
            <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
              {profile.interests.map((key) => (
                <li key={key} className="badge rounded-pill text-bg-light border fw-normal fs-6">
                  {intl.formatMessage({ id: `interest.${key}` })}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </article>
  );
}
