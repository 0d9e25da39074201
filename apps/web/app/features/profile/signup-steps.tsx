import {
  BODY_TYPES,
  EYE_COLORS,
  HAIR_COLORS,
  type InterestKey,
  type OwnProfile,
  type Photo,
  PROFILE_LIMITS,
  type ProfileUpdate,
  RELATIONSHIP_STATUSES,
} from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Button, Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { type InterestsLoader, type RegionsLoader, useRegions } from "../../lib/reference-data";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SelectField, type SelectOption } from "../../ui/select-field";
import { TextField } from "../../ui/text-field";
import { ownProfileQuery, updateProfile, uploadPhoto } from "./api";
import { InterestChips } from "./interest-chips";
import { LocationButton } from "./location-button";
import { PhotoFileField } from "./photo-file-field";
import { BODY_TYPE_LABELS, EYE_COLOR_LABELS, HAIR_COLOR_LABELS, RELATIONSHIP_STATUS_LABELS, valueArgs } from "./profile-labels";

function StepButtons({
  busy,
  canContinue,
  skipId,
  onSkip,
}: {
  busy: boolean;
  canContinue: boolean;
  skipId: string;
  onSkip: () => void;
}) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center mt-3">
      <BusyButton type="submit" variant="primary" busy={busy} disabled={busy || !canContinue}>
        <FormattedMessage id="signup.save_continue" />
      </BusyButton>
      <Button variant="link" onClick={onSkip} disabled={busy}>
        <FormattedMessage id={skipId} />
      </Button>
    </div>
  );
}

/** Signup step "photo": upload a first photo, or continue without one. */
export function PhotoStep({ onDone }: { onDone: () => void }) {
  const intl = useIntl();
  const member = useMember();
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const upload = async (file: File) => {
    setError("");
    setBusy(true);
    try {
      const answer = await uploadPhoto(file);
      setPhotos(answer.photos);
      void member.refresh().catch(() => {});
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
    setBusy(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onDone();
  };

  return (
    <Form noValidate onSubmit={submit}>
      <p>
        <FormattedMessage id="signup.photo_intro" />
      </p>
      <FormAlert>{error}</FormAlert>
      {photos.length > 0 ? (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mb-3">
          {photos.map((photo) => (
            <li key={photo.id}>
              <img
                src={photo.thumb_url}
                alt={intl.formatMessage({ id: "signup.photo_alt" })}
                width={96}
                height={120}
                className="rounded object-fit-cover"
              />
              {photo.status === "pending" ? (
                <span className="d-block small text-body-secondary">
                  <FormattedMessage id="signup.photo_pending" />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <PhotoFileField
        id="signup-photo"
        className="mb-2"
        hasPhotos={photos.length > 0}
        busy={busy}
        onFile={(file) => void upload(file)}
        onProblem={setError}
      />
      <div role="status" className="small">
        {busy ? <FormattedMessage id="signup.photo_uploading" /> : null}
      </div>
      <StepButtons busy={busy} canContinue={photos.length > 0} skipId="signup.skip_photo" onSkip={onDone} />
    </Form>
  );
}

/** A signup step's form state, saved with PUT /api/profile.php on "Save and continue". */
function useStepSave(onDone: () => void) {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const save = async (update: ProfileUpdate) => {
    setBusy(true);
    setError("");
    try {
      await updateProfile(update);
      onDone();
    } catch (caught) {
      setError(errorMessage(caught, intl));
      setBusy(false);
    }
  };
  return { busy, error, save };
}

/** Signup step "about me": a few words about oneself, or continue without. */
export function AboutStep({ onDone }: { onDone: () => void }) {
  const [about, setAbout] = useState("");
  const { busy, error, save } = useStepSave(onDone);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!about.trim()) return onDone();
    void save({ about: about.trim() });
  };
  return (
    <Form noValidate onSubmit={submit}>
      <FormAlert>{error}</FormAlert>
      <TextField
        id="signup-about"
        rows={5}
        label={<FormattedMessage id="signup.about_label" />}
        hint={<FormattedMessage id="signup.about_hint" values={{ count: about.length, max: PROFILE_LIMITS.aboutMax }} />}
        maxLength={PROFILE_LIMITS.aboutMax}
        value={about}
        onChange={setAbout}
      />
      <StepButtons busy={busy} canContinue={about.trim().length > 0} skipId="signup.skip_about" onSkip={onDone} />
    </Form>
  );
}

/** Signup step "interests": a few interest chips, or continue without (issue #29). */
export function InterestsStep({ onDone, loadInterests }: { onDone: () => void; loadInterests: InterestsLoader }) {
  const [interests, setInterests] = useState<InterestKey[]>([]);
  const { busy, error, save } = useStepSave(onDone);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (interests.length === 0) return onDone();
    void save({ interests });
  };
  return (
    <Form noValidate onSubmit={submit}>
      <p>
        <FormattedMessage id="signup.interests_intro" />
      </p>
      <FormAlert>{error}</FormAlert>
      <InterestChips id="signup-interests" value={interests} onChange={setInterests} loadInterests={loadInterests} />
      <StepButtons busy={busy} canContinue={interests.length > 0} skipId="signup.skip_interests" onSkip={onDone} />
    </Form>
  );
}

interface PersonalValues {
  relationship_status: string;
  hair_color: string;
  eye_color: string;
  body_type: string;
  tattoos: string;
}

const EMPTY: PersonalValues = {
  relationship_status: "",
  hair_color: "",
  eye_color: "",
  body_type: "",
  tattoos: "",
};

function fromProfile(profile: OwnProfile): PersonalValues {
  return {
    relationship_status: profile.relationship_status ?? "",
    hair_color: profile.hair_color ?? "",
    eye_color: profile.eye_color ?? "",
    body_type: profile.body_type ?? "",
    tattoos: profile.tattoos === null ? "" : profile.tattoos ? "yes" : "no",
  };
}

/** The update PUT /api/profile.php gets from the personal-info form ("" means not given). */
export function personalUpdate(values: PersonalValues): ProfileUpdate {
  const orNull = <T extends string>(value: string) => (value ? (value as T) : null);
  return {
    relationship_status: orNull<(typeof RELATIONSHIP_STATUSES)[number]>(values.relationship_status),
    hair_color: orNull<(typeof HAIR_COLORS)[number]>(values.hair_color),
    eye_color: orNull<(typeof EYE_COLORS)[number]>(values.eye_color),
    body_type: orNull<(typeof BODY_TYPES)[number]>(values.body_type),
    tattoos: values.tattoos === "" ? null : values.tattoos === "yes",
  };
}

/** Signup step "personal info": relationship and looks; or continue without. */
export function PersonalInfoStep({ onDone }: { onDone: () => void }) {
  const intl = useIntl();
  const idPrefix = useId();
  const [values, setValues] = useState<PersonalValues>(EMPTY);
  const { busy, error, save } = useStepSave(onDone);

  const { data: savedProfile } = useQuery(ownProfileQuery);
  useEffect(() => {
    if (savedProfile) setValues(fromProfile(savedProfile));
  }, [savedProfile]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(personalUpdate(values));
  };

  const notSaid = intl.formatMessage({ id: "signup.not_specified" });
  const select = (field: keyof PersonalValues, labelId: string, options: SelectOption[]) => (
    <SelectField
      id={`${idPrefix}-${field}`}
      className="col-sm-6"
      label={<FormattedMessage id={labelId} />}
      value={values[field]}
      options={options}
      onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
      blank={notSaid}
    />
  );
  const labelled = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
    keys.map((key) => ({ value: key, label: intl.formatMessage({ id: labels[key] }, valueArgs(savedProfile?.gender)) }));

  return (
    <Form noValidate onSubmit={submit}>
      <FormAlert>{error}</FormAlert>
      <div className="row g-3">
        {select("relationship_status", "signup.relationship_status", labelled(RELATIONSHIP_STATUSES, RELATIONSHIP_STATUS_LABELS))}
        {select("hair_color", "signup.hair_color", labelled(HAIR_COLORS, HAIR_COLOR_LABELS))}
        {select("eye_color", "signup.eye_color", labelled(EYE_COLORS, EYE_COLOR_LABELS))}
        {select("body_type", "signup.body_type", labelled(BODY_TYPES, BODY_TYPE_LABELS))}
        {select("tattoos", "signup.tattoos", [
          { value: "yes", label: intl.formatMessage({ id: "signup.yes" }) },
          { value: "no", label: intl.formatMessage({ id: "signup.no" }) },
        ])}
      </div>
      <StepButtons busy={busy} canContinue skipId="signup.skip_personal" onSkip={onDone} />
    </Form>
  );
}

interface PlaceValues {
  country: string;
  region: string;
  city: string;
}

/** The update the location step saves ("" means not given; an empty country keeps the saved one). */
export function locationUpdate(values: PlaceValues): ProfileUpdate {
  return {
    ...(values.country ? { country: values.country } : {}),
    region: values.region || null,
    city: values.city.trim() || null,
  };
}

export interface LocationStepProps {
  onDone: () => void;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  /** Regions per country (GET /api/regions.php, cached by the caller). */
  loadRegions: RegionsLoader;
}

/**
 * Signup step "location" (spec §4, with its continue-without): country, region and city, typed or
 * found with the location button. Continuing without keeps the country of the signup and no city.
 */
export function LocationStep({ onDone, countries, loadRegions }: LocationStepProps) {
  const intl = useIntl();
  const idPrefix = useId();
  const [values, setValues] = useState<PlaceValues>({ country: countries[0] ?? "", region: "", city: "" });
  const { busy, error, save } = useStepSave(onDone);

  const regions = useRegions(loadRegions);
  const { data: savedProfile } = useQuery(ownProfileQuery);
  useEffect(() => {
    if (!savedProfile) return;
    // A place the location button filled in meanwhile wins over the empty saved one.
    setValues((current) =>
      current.city && !savedProfile.city
        ? current
        : { country: savedProfile.country, region: savedProfile.region ?? "", city: savedProfile.city ?? "" },
    );
  }, [savedProfile]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(locationUpdate(values));
  };

  const countryNames = new Intl.DisplayNames([intl.locale], { type: "region" });
  const countryRegions = regions?.[values.country] ?? [];

  return (
    <Form noValidate onSubmit={submit}>
      <p>
        <FormattedMessage id="signup.location_intro" />
      </p>
      <FormAlert>{error}</FormAlert>
      <div className="row g-3">
        {countries.length > 0 ? (
          <SelectField
            id={`${idPrefix}-country`}
            className="col-sm-6"
            label={<FormattedMessage id="signup.country" />}
            value={values.country}
            options={countries.map((code) => ({ value: code, label: countryNames.of(code) ?? code }))}
            onChange={(country) => setValues((current) => ({ ...current, country, region: "" }))}
          />
        ) : null}
        {countryRegions.length > 0 ? (
          <SelectField
            id={`${idPrefix}-region`}
            className="col-sm-6"
            label={<FormattedMessage id="signup.region" />}
            value={values.region}
            options={countryRegions.map((region) => ({ value: region.code, label: region.name }))}
            onChange={(region) => setValues((current) => ({ ...current, region }))}
            blank={intl.formatMessage({ id: "signup.not_specified" })}
          />
        ) : null}
        <div className="col-sm-6">
          <TextField
            id={`${idPrefix}-city`}
            className=""
            label={<FormattedMessage id="signup.city" />}
            autoComplete="address-level2"
            maxLength={PROFILE_LIMITS.cityMax}
            value={values.city}
            onChange={(city) => setValues((current) => ({ ...current, city }))}
          />
        </div>
        <div className="col-12">
          <LocationButton
            countries={countries}
            onLocated={(place) => setValues({ country: place.country, region: place.region ?? "", city: place.city })}
            autoFill={!values.city}
          />
        </div>
      </div>
      <StepButtons busy={busy} canContinue={values.city.trim().length > 0} skipId="signup.skip_location" onSkip={onDone} />
    </Form>
  );
}
