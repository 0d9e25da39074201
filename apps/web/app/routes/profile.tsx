import { useCallback } from "react";
import { useIntl } from "react-intl";
import { Navigate } from "react-router";
import { MyProfile } from "../features/profile/my-profile";
import { ResellTiles } from "../features/profile/resell-tiles";
import { getInterests, getRegions } from "../features/site/api";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import { PageTitle } from "../ui/page-title";

const loadRegions = () => getRegions("all");

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/** /profile, "My profile" (spec §2: profile settings with the images overview). Members only. */
// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

export default function Profile() {
  const intl = useIntl();
  const root = useRootData();
  const { user } = useMember();
  const locale = root?.locale ?? user?.language ?? "en";
  const loadInterests = useCallback(() => getInterests(locale), [locale]);
  if (!user) return <Navigate to="/login" replace />;
  const title = intl.formatMessage({ id: "nav.my_profile" });
  return (
    <section className="container py-4" style={{ maxWidth: 960 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      <MyProfile
        paidUser={user.paid_user}
        countries={root?.settings.countries ?? []}
        loadRegions={loadRegions}
        loadInterests={loadInterests}
      />
      {root?.settings.member_resell ? <ResellTiles tiles={root.settings.resell_tiles} /> : null}
    </section>
  );
}
