import { useCallback } from "react";
import { useIntl } from "react-intl";
import { Navigate, redirect } from "react-router";
import { MyProfile } from "../features/profile/my-profile";
import { ResellTiles } from "../features/profile/resell-tiles";
import { getInterests, getRegions } from "../features/site/api";
import { useMember } from "../lib/member";
import { useRootData } from "../lib/root-data";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/profile";

const loadRegions = () => getRegions("all");

/** /profile, "My profile" (spec §2: profile settings with the images overview). Members only. */
export async function loader({ context }: Route.LoaderArgs) {
  if (!(await context.get(servicesContext).currentUser())) throw redirect("/login");
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
