import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { useRootData } from "../../lib/root-data";
import { servicesContext } from "../../server-context";
import { FictionalIcon } from "../../ui/fictional-icon";
import type { Route } from "./+types/video";
import { LanderFooter, LanderHead, landerHandle, NoMembers, SignupCta } from "./kit";

export const handle = landerHandle;

/**
 * /landers/video/{slug?}: a "live video" frame whose picture is the members' photos, panned and zoomed
 * with CSS keyframes (no video file); the play button is the call to sign up.
 */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "video", params.slug);
}

export default function VideoLander({ loaderData: data }: Route.ComponentProps) {
  const root = useRootData();
  const [main, ...others] = data.profiles;
  return (
    <div className="ld ld-video">
      <LanderHead data={data} />
      <h1>{data.headline}</h1>
      {main?.main_image ? (
        <div className="ld-player">
          <img className="ld-player-main" src={main.main_image.thumb_url} alt="" width={320} height={400} fetchPriority="high" />
          {others
            .slice(0, 3)
            .map((profile) =>
              profile.main_image ? (
                <img
                  key={profile.id}
                  className="ld-player-pip"
                  src={profile.main_image.thumb_url}
                  alt=""
                  width={320}
                  height={400}
                />
              ) : null,
            )}
          <span className="ld-live">
            <FormattedMessage id="lander.video.live" />
          </span>
          <p className="ld-player-caption">
            <FormattedMessage id="lander.video.caption" values={{ name: main.name, age: main.age }} />
            {main.fictional && root ? <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" /> : null}
          </p>
          <div className="ld-player-play">
            <SignupCta className="btn btn-primary btn-lg">
              <span aria-hidden="true">▶ </span>
              <FormattedMessage id="lander.video.play" />
            </SignupCta>
          </div>
        </div>
      ) : (
        <NoMembers />
      )}
      <p className="ld-lead ld-center">
        <FormattedMessage id="lander.video.lead" />
      </p>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
