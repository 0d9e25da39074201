import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/whoneedsstrings";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/whoneedsstrings: bold type on the left, three promises, a fan of photos on the right. */
export function loader({ context, request }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "whoneedsstrings", undefined);
}

const POINTS = ["lander.whoneedsstrings.point1", "lander.whoneedsstrings.point2", "lander.whoneedsstrings.point3"] as const;

export default function WhoNeedsStrings({ loaderData: data }: Route.ComponentProps) {
  return (
    <div className="ld ld-strings">
      <LanderHead data={data} />
      <div className="ld-split">
        <section>
          <h1>{data.headline}</h1>
          <p className="ld-lead">
            <FormattedMessage id="lander.whoneedsstrings.lead" />
          </p>
          <ul className="ld-points">
            {POINTS.map((id) => (
              <li key={id}>
                <FormattedMessage id={id} />
              </li>
            ))}
          </ul>
          <SignupCta />
        </section>
        <ul className="ld-fan">
          {data.profiles.slice(0, 3).map((profile, index) => (
            <li key={profile.id}>
              <MemberPhoto profile={profile} priority={index === 0} />
            </li>
          ))}
        </ul>
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
