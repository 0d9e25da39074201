import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/alonetonight";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, NoMembers, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/alonetonight/{slug?}: a night sky, a moon and a row of members who are up tonight too. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "alonetonight", params.slug);
}

export default function AloneTonight({ loaderData: data }: Route.ComponentProps) {
  return (
    <div className="ld ld-night">
      <LanderHead data={data} />
      <header className="ld-head">
        <span className="ld-moon" aria-hidden="true" />
        <h1>{data.headline}</h1>
        <p className="ld-lead">
          <FormattedMessage id="lander.alonetonight.lead" />
        </p>
      </header>
      {data.profiles.length ? (
        <ul className="ld-row">
          {data.profiles.slice(0, 6).map((profile, index) => (
            <li key={profile.id}>
              <MemberPhoto profile={profile} priority={index < 2} />
              <span className="ld-online">
                <FormattedMessage id="lander.alonetonight.awake" />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <NoMembers />
      )}
      <div className="ld-center">
        <SignupCta className="btn btn-light btn-lg" />
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
