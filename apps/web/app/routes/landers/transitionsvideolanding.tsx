import type { CSSProperties } from "react";
import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/transitionsvideolanding";
import { LanderFooter, LanderHead, landerHandle, SignupCta } from "./kit";

export const handle = landerHandle;

/** Seconds each photo stays in the slideshow (fade in, hold, fade out overlap the next). */
const SLIDE_SECONDS = 4;
/** Photos in one cycle: the `ld-crossfade` keyframes (landers.css) show each for a sixth of it. */
const SLIDES = 6;

/**
 * /landers/transitionsvideolanding/{slug?}: a full-screen "video" made of the members' photos
 * crossfading into each other with a slow zoom (CSS keyframes only), the headline over it.
 */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "transitionsvideolanding", params.slug);
}

export default function TransitionsVideoLanding({ loaderData: data }: Route.ComponentProps) {
  // Always six slides (photos repeat when there are fewer), the number the keyframes are timed for.
  const photos = data.profiles.slice(0, SLIDES);
  const slides = photos.length ? Array.from({ length: SLIDES }, (_, index) => photos[index % photos.length]) : [];
  const total = SLIDES * SLIDE_SECONDS;
  return (
    <div className="ld ld-transitions">
      <LanderHead data={data} />
      <div className="ld-stage">
        <div className="ld-slides" aria-hidden="true">
          {slides.map((profile, index) =>
            profile?.main_image ? (
              <img
                // biome-ignore lint/suspicious/noArrayIndexKey: the same photo may repeat; its place is its identity.
                key={index}
                src={profile.main_image.thumb_url}
                alt=""
                width={320}
                height={400}
                fetchPriority={index === 0 ? "high" : undefined}
                style={{ animationDuration: `${total}s`, animationDelay: `${index * SLIDE_SECONDS - 1}s` } as CSSProperties}
              />
            ) : null,
          )}
        </div>
        <div className="ld-stage-text">
          <h1>{data.headline}</h1>
          <p className="ld-lead">
            <FormattedMessage id="lander.transitionsvideolanding.lead" />
          </p>
          <SignupCta />
        </div>
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
