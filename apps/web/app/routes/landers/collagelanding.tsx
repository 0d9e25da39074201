import type { CSSProperties } from "react";
import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/collagelanding";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, NoMembers, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/collagelanding/{slug?}: photos scattered as tilted prints around the call to sign up. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "collagelanding", params.slug);
}

export default function CollageLanding({ loaderData: data }: Route.ComponentProps) {
  const photos = data.profiles.slice(0, 9);
  return (
    <div className="ld ld-collage">
      <LanderHead data={data} />
      <div className="ld-collage-board">
        {photos.length ? (
          <ul className="ld-collage-prints">
            {photos.map((profile, index) => (
              <li key={profile.id} style={{ "--tilt": `${((index * 7) % 11) - 5}deg` } as CSSProperties}>
                <MemberPhoto profile={profile} priority={index < 3} />
              </li>
            ))}
          </ul>
        ) : (
          <NoMembers />
        )}
        <section className="ld-collage-card">
          <h1>{data.headline}</h1>
          <p className="ld-lead">
            <FormattedMessage id="lander.collagelanding.lead" />
          </p>
          <SignupCta />
        </section>
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
