import type { Interest, OwnProfile, Region } from "@app/contract";
import { useCallback, useEffect, useState } from "react";
import { Alert, Button, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { getOwnProfile } from "./api";
import { PhotosOverview } from "./photos-overview";
import { ProfileForm } from "./profile-form";

export interface MyProfileProps {
  paidUser: boolean;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  loadRegions: () => Promise<Record<string, Region[]>>;
  loadInterests: () => Promise<Interest[]>;
}

/** The member's own profile (/profile): the images overview and the profile form, once the profile has loaded. */
export function MyProfile({ paidUser, countries, loadRegions, loadInterests }: MyProfileProps) {
  const intl = useIntl();
  const [profile, setProfile] = useState<OwnProfile | null>(null);
  const [error, setError] = useState("");

  const load = useCallback(() => {
    let active = true;
    setError("");
    getOwnProfile()
      .then((loaded) => active && setProfile(loaded))
      .catch((caught: unknown) => active && setError(errorMessage(caught, intl)));
    return () => {
      active = false;
    };
  }, [intl]);
  useEffect(() => load(), [load]);

  if (error) {
    return (
      <Alert variant="danger" role="alert">
        <p>{error}</p>
        <Button variant="outline-danger" size="sm" onClick={() => load()}>
          <FormattedMessage id="profile.retry" />
        </Button>
      </Alert>
    );
  }
  if (!profile) {
    return (
      <div role="status" className="d-flex align-items-center gap-2 py-4">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        <FormattedMessage id="profile.loading" />
      </div>
    );
  }
  return (
    <>
      <PhotosOverview photos={profile.photos} limit={profile.photo_limit} paidUser={paidUser} />
      <ProfileForm profile={profile} countries={countries} loadRegions={loadRegions} loadInterests={loadInterests} />
    </>
  );
}
