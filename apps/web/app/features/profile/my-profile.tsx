import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import type { InterestsLoader, RegionsLoader } from "../../lib/reference-data";
import { ownProfileQuery } from "./api";
import { PhotosOverview } from "./photos-overview";
import { ProfileForm } from "./profile-form";

export interface MyProfileProps {
  paidUser: boolean;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  loadRegions: RegionsLoader;
  loadInterests: InterestsLoader;
}

/** The member's own profile (/profile): the images overview and the profile form, once the profile has loaded. */
export function MyProfile({ paidUser, countries, loadRegions, loadInterests }: MyProfileProps) {
  const intl = useIntl();
  const { data: profile, error, isFetching, refetch } = useQuery(ownProfileQuery);

  // A retry shows the spinner again until its answer.
  if (error && !isFetching) {
    return (
      <Alert variant="danger" role="alert">
        <p>{errorMessage(error, intl)}</p>
        <Button variant="outline-danger" size="sm" onClick={() => void refetch()}>
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
