import type { OwnProfile, Photo } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import type { InterestsLoader, RegionsLoader } from "../../lib/reference-data";
import { LoadFailed, Loading } from "../../ui/load-state";
import { ownProfileQuery } from "./api";
import { CompletenessMeter } from "./completeness-meter";
import { PhotosOverview } from "./photos-overview";
import { ProfileForm } from "./profile-form";

export interface MyProfileProps {
  paidUser: boolean;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  loadRegions: RegionsLoader;
  loadInterests: InterestsLoader;
}

/**
 * The member's own profile (/profile): the completeness meter (issue #29), the images overview and the
 * profile form, once the profile has loaded.
 */
export function MyProfile({ paidUser, countries, loadRegions, loadInterests }: MyProfileProps) {
  const intl = useIntl();
  const { data: profile, error, isFetching, refetch } = useQuery(ownProfileQuery);
  const queryClient = useQueryClient();
  // The forms keep their own state; the cached profile follows what was saved, and the meter with it.
  const saved = (change: Partial<OwnProfile>) =>
    queryClient.setQueryData(ownProfileQuery.queryKey, (current) => (current ? { ...current, ...change } : current));

  // A retry shows the spinner again until its answer.
  if (error && !isFetching) {
    return (
      <LoadFailed
        message={errorMessage(error, intl)}
        retry={<FormattedMessage id="profile.retry" />}
        onRetry={() => void refetch()}
      />
    );
  }
  if (!profile) {
    return (
      <Loading>
        <FormattedMessage id="profile.loading" />
      </Loading>
    );
  }
  return (
    <>
      <CompletenessMeter profile={profile} />
      <PhotosOverview
        photos={profile.photos}
        limit={profile.photo_limit}
        paidUser={paidUser}
        onPhotosChange={(photos: Photo[]) => saved({ photos })}
      />
      <ProfileForm
        profile={profile}
        countries={countries}
        loadRegions={loadRegions}
        loadInterests={loadInterests}
        onSaved={(updated) => saved(updated)}
      />
    </>
  );
}
