import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/gallery";
import { LanderFooter, LanderHead, landerHandle, PhotoList, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/gallery/{slug?}: an even grid of members' photos under the headline, one call to sign up. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "gallery", params.slug);
}

export default function Gallery({ loaderData: data }: Route.ComponentProps) {
  return (
    <div className="ld ld-gallery">
      <LanderHead data={data} />
      <header className="ld-head">
        <h1>{data.headline}</h1>
        <p className="ld-lead">
          <FormattedMessage id="lander.gallery.lead" />
        </p>
        <SignupCta />
      </header>
      <PhotoList profiles={data.profiles} limit={18} className="ld-grid" priority={4} />
      <div className="ld-center">
        <SignupCta />
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
