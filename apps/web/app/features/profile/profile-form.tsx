import {
  BODY_TYPES,
  EYE_COLORS,
  type GeocodeResponse,
  HAIR_COLORS,
  type INTEREST_KEYS,
  type OwnProfile,
  PROFILE_LIMITS,
  type ProfileUpdate,
  RELATIONSHIP_STATUSES,
  SEEKING,
  SEXUALITIES,
} from "@app/contract";
import { type ReactNode, useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useMember } from "../../lib/member";
import { type InterestsLoader, type RegionsLoader, useRegions } from "../../lib/reference-data";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SelectField, type SelectOption } from "../../ui/select-field";
import { TextField } from "../../ui/text-field";
import { updateProfile } from "./api";
import { InterestChips } from "./interest-chips";
import { LocationButton } from "./location-button";
import {
  BODY_TYPE_LABELS,
  EYE_COLOR_LABELS,
  GENDER_LABELS,
  HAIR_COLOR_LABELS,
  RELATIONSHIP_STATUS_LABELS,
  SEXUALITY_LABELS,
  valueArgs,
} from "./profile-labels";
import { locationUpdate, personalUpdate } from "./signup-steps";

type InterestKey = (typeof INTEREST_KEYS)[number];

/** The editable fields of the profile form ("" means not given). */
export interface ProfileFormValues {
  about: string;
  seeking: OwnProfile["seeking"];
  sexuality: OwnProfile["sexuality"];
  country: string;
  region: string;
  city: string;
  relationship_status: string;
  hair_color: string;
  eye_color: string;
  body_type: string;
  tattoos: string;
  interests: InterestKey[];
}

export const PROFILE_FORM_FIELDS = [
  "about",
  "seeking",
  "sexuality",
  "country",
  "region",
  "city",
  "relationship_status",
  "hair_color",
  "eye_color",
  "body_type",
  "tattoos",
  "interests",
] as const;
type Field = (typeof PROFILE_FORM_FIELDS)[number];

export function profileFormValues(profile: OwnProfile): ProfileFormValues {
  return {
    about: profile.about,
    seeking: profile.seeking,
    sexuality: profile.sexuality,
    country: profile.country,
    region: profile.region ?? "",
    city: profile.city ?? "",
    relationship_status: profile.relationship_status ?? "",
    hair_color: profile.hair_color ?? "",
    eye_color: profile.eye_color ?? "",
    body_type: profile.body_type ?? "",
    tattoos: profile.tattoos === null ? "" : profile.tattoos ? "yes" : "no",
    interests: [...profile.interests],
  };
}

/** What PUT /api/profile.php gets from the form: every editable field. */
export function profileFormUpdate(values: ProfileFormValues): ProfileUpdate {
  return {
    ...personalUpdate(values),
    ...locationUpdate(values),
    about: values.about.trim(),
    seeking: values.seeking,
    sexuality: values.sexuality,
    interests: values.interests.slice(0, PROFILE_LIMITS.interestsMax),
  };
}

const SEEKING_LABELS: Record<OwnProfile["seeking"], string> = {
  male: "signup.seeking_male",
  female: "signup.seeking_female",
  both: "signup.seeking_both",
};

function ReadOnlyField({ id, label, value }: { id: string; label: ReactNode; value: string }) {
  return (
    <Form.Group controlId={id} className="col-sm-4">
      <Form.Label className="mb-0 small text-body-secondary">{label}</Form.Label>
      <Form.Control plaintext readOnly value={value} className="py-0 fw-semibold" />
    </Form.Group>
  );
}

export interface ProfileFormProps {
  profile: OwnProfile;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  /** Regions per country (GET /api/regions.php, cached by the caller). */
  loadRegions: RegionsLoader;
  /** Interests with labels in the page's language (GET /api/interests.php, cached by the caller). */
  loadInterests: InterestsLoader;
  onSaved?: (profile: OwnProfile) => void;
}

function aboutReviewOf(profile: Pick<OwnProfile, "about_in_review" | "about_rejection">) {
  return { inReview: profile.about_in_review, rejection: profile.about_rejection };
}

/** Beside the about text: it waits for review, or the last one was rejected and why (issue #27). */
function AboutReviewNote({ review }: { review: ReturnType<typeof aboutReviewOf> }) {
  const intl = useIntl();
  if (review.inReview) {
    return (
      <p className="alert alert-info py-2 mb-3" data-testid="about-review">
        <FormattedMessage id="profile.about_in_review" />
      </p>
    );
  }
  if (review.rejection) {
    return (
      <p className="alert alert-warning py-2 mb-3" data-testid="about-review">
        <FormattedMessage
          id="profile.about_rejected"
          values={{ reason: intl.formatMessage({ id: `moderation.reason.${review.rejection}` }) }}
        />
      </p>
    );
  }
  return null;
}

/**
 * The profile form of /profile: about text, whom one seeks, sexuality, where one lives, looks,
 * relationship status and interests. Name, gender and date of birth cannot be changed and are shown
 * as text. The server's per-field errors show at their fields.
 */
export function ProfileForm({ profile, countries, loadRegions, loadInterests, onSaved }: ProfileFormProps) {
  const intl = useIntl();
  const member = useMember();
  const [values, setValues] = useState(() => profileFormValues(profile));
  // The saved city, and whether the server found it on the map (distances to others need it).
  const [savedPlace, setSavedPlace] = useState({ city: profile.city ?? "", located: profile.located });
  const [saved, setSaved] = useState(false);
  // Issue #27: the about text waits for review, or the last one was rejected (with the reason).
  const [aboutReview, setAboutReview] = useState(() => aboutReviewOf(profile));
  const { formRef, handleSubmit, busy, errors, formError, clearError } = useApiForm({ fields: PROFILE_FORM_FIELDS });

  const regions = useRegions(loadRegions);

  const set = <K extends keyof ProfileFormValues>(field: K, value: ProfileFormValues[K]) => {
    setSaved(false);
    setValues((current) => ({ ...current, [field]: value, ...(field === "country" ? { region: "" } : {}) }));
    clearError(field as Field);
  };

  const located = (place: GeocodeResponse) => {
    setSaved(false);
    setValues((current) => ({ ...current, country: place.country, region: place.region ?? "", city: place.city }));
    clearError("country", "region", "city");
  };

  const submit = handleSubmit(
    async () => {
      const updated = await updateProfile(profileFormUpdate(values));
      setValues(profileFormValues(updated));
      setSavedPlace({ city: updated.city ?? "", located: updated.located });
      setAboutReview(aboutReviewOf(updated));
      setSaved(true);
      onSaved?.(updated);
      // Seeking and the like feed the search defaults, which come from the user call.
      void member.refresh().catch(() => {});
    },
    { before: () => setSaved(false) },
  );

  const notSaid = intl.formatMessage({ id: "signup.not_specified" });
  const labelled = <K extends string>(keys: readonly K[], labels: Record<K, string>): SelectOption[] =>
    keys.map((key) => ({ value: key, label: intl.formatMessage({ id: labels[key] }, valueArgs(profile.gender)) }));
  const countryNames = new Intl.DisplayNames([intl.locale], { type: "region" });
  const countryCodes = countries.includes(values.country) || !values.country ? countries : [values.country, ...countries];
  const countryRegions = regions?.[values.country] ?? [];
  const dateOfBirth = intl.formatDate(new Date(`${profile.date_of_birth}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" });

  return (
    <section className="card shadow-sm mb-4" aria-labelledby="profile-details-heading">
      <div className="card-body">
        <h2 id="profile-details-heading" className="h5 mb-3">
          <FormattedMessage id="profile.details_title" />
        </h2>
        <div className="row g-3 mb-1">
          <ReadOnlyField id="profile-name" label={<FormattedMessage id="signup.name" />} value={profile.name} />
          <ReadOnlyField
            id="profile-gender"
            label={<FormattedMessage id="member.gender" />}
            value={intl.formatMessage({ id: GENDER_LABELS[profile.gender] })}
          />
          <ReadOnlyField id="profile-date-of-birth" label={<FormattedMessage id="profile.date_of_birth" />} value={dateOfBirth} />
        </div>
        <p className="form-text mb-4">
          <FormattedMessage id="profile.readonly_hint" />
        </p>

        <Form ref={formRef} noValidate onSubmit={submit}>
          <FormAlert>{formError}</FormAlert>
          <TextField
            id="profile-about"
            rows={6}
            label={<FormattedMessage id="signup.about_label" />}
            hint={
              <FormattedMessage id="signup.about_hint" values={{ count: values.about.length, max: PROFILE_LIMITS.aboutMax }} />
            }
            maxLength={PROFILE_LIMITS.aboutMax}
            value={values.about}
            onChange={(value) => set("about", value)}
            error={errors.about}
          />
          <AboutReviewNote review={aboutReview} />
          <div className="row g-3 mb-4">
            <SelectField
              className="col-sm-6"
              id="profile-seeking"
              label={<FormattedMessage id="signup.seeking" />}
              value={values.seeking}
              options={labelled(SEEKING, SEEKING_LABELS)}
              onChange={(value) => set("seeking", value as ProfileFormValues["seeking"])}
              error={errors.seeking}
            />
            <SelectField
              className="col-sm-6"
              id="profile-sexuality"
              label={<FormattedMessage id="member.sexuality" />}
              value={values.sexuality}
              options={labelled(SEXUALITIES, SEXUALITY_LABELS)}
              onChange={(value) => set("sexuality", value as ProfileFormValues["sexuality"])}
              error={errors.sexuality}
            />
            <SelectField
              className="col-sm-6"
              id="profile-country"
              label={<FormattedMessage id="signup.country" />}
              value={values.country}
              options={countryCodes.map((code) => ({ value: code, label: countryNames.of(code) ?? code }))}
              onChange={(value) => set("country", value)}
              error={errors.country}
            />
            {countryRegions.length > 0 ? (
              <SelectField
                className="col-sm-6"
                id="profile-region"
                label={<FormattedMessage id="signup.region" />}
                value={values.region}
                options={countryRegions.map((region) => ({ value: region.code, label: region.name }))}
                onChange={(value) => set("region", value)}
                error={errors.region}
                blank={notSaid}
              />
            ) : null}
            <div className="col-sm-6">
              <TextField
                id="profile-city"
                className=""
                label={<FormattedMessage id="signup.city" />}
                autoComplete="address-level2"
                maxLength={PROFILE_LIMITS.cityMax}
                value={values.city}
                onChange={(value) => set("city", value)}
                error={errors.city}
                hint={
                  values.city && values.city === savedPlace.city && !savedPlace.located ? (
                    <FormattedMessage id="location.not_found" values={{ city: values.city }} />
                  ) : undefined
                }
              />
            </div>
            <div className="col-12">
              <LocationButton countries={countries} onLocated={located} autoFill={!values.city} />
            </div>
            <SelectField
              className="col-sm-6"
              id="profile-relationship-status"
              label={<FormattedMessage id="signup.relationship_status" />}
              value={values.relationship_status}
              options={labelled(RELATIONSHIP_STATUSES, RELATIONSHIP_STATUS_LABELS)}
              onChange={(value) => set("relationship_status", value)}
              error={errors.relationship_status}
              blank={notSaid}
            />
            <SelectField
              className="col-sm-6"
              id="profile-hair-color"
              label={<FormattedMessage id="signup.hair_color" />}
              value={values.hair_color}
              options={labelled(HAIR_COLORS, HAIR_COLOR_LABELS)}
              onChange={(value) => set("hair_color", value)}
              error={errors.hair_color}
              blank={notSaid}
            />
            <SelectField
              className="col-sm-6"
              id="profile-eye-color"
              label={<FormattedMessage id="signup.eye_color" />}
              value={values.eye_color}
              options={labelled(EYE_COLORS, EYE_COLOR_LABELS)}
              onChange={(value) => set("eye_color", value)}
              error={errors.eye_color}
              blank={notSaid}
            />
            <SelectField
              className="col-sm-6"
              id="profile-body-type"
              label={<FormattedMessage id="signup.body_type" />}
              value={values.body_type}
              options={labelled(BODY_TYPES, BODY_TYPE_LABELS)}
              onChange={(value) => set("body_type", value)}
              error={errors.body_type}
              blank={notSaid}
            />
            <SelectField
              className="col-sm-6"
              id="profile-tattoos"
              label={<FormattedMessage id="signup.tattoos" />}
              value={values.tattoos}
              options={[
                { value: "yes", label: intl.formatMessage({ id: "signup.yes" }) },
                { value: "no", label: intl.formatMessage({ id: "signup.no" }) },
              ]}
              onChange={(value) => set("tattoos", value)}
              error={errors.tattoos}
              blank={notSaid}
            />
          </div>

          <InterestChips
            id="profile-interests"
            value={values.interests}
            onChange={(next) => set("interests", next)}
            loadInterests={loadInterests}
            error={errors.interests}
          />

          <div className="d-flex flex-wrap align-items-center gap-3">
            <BusyButton type="submit" variant="primary" busy={busy}>
              <FormattedMessage id="profile.save" />
            </BusyButton>
            <div role="status" className="text-success fw-semibold">
              {saved ? <FormattedMessage id="profile.saved" /> : null}
            </div>
          </div>
        </Form>
      </div>
    </section>
  );
}
