import { FormattedMessage, useIntl } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { useRootData } from "../../lib/root-data";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/maplanding";
import { LanderFooter, LanderHead, landerHandle, PhotoList, SignupCta } from "./kit";

export const handle = landerHandle;

/**
 * /landers/maplanding/{slug?}: members of the visitor's country on its outline, an inline SVG drawn
 * from committed data (no map tiles, no outside request); each marker sits at the member's city,
 * rounded and jittered (decision 024).
 */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "maplanding", params.slug);
}

export default function MapLanding({ loaderData: data }: Route.ComponentProps) {
  const intl = useIntl();
  const site = useRootData()?.settings.name ?? "";
  const { map } = data;
  const count = map?.markers.length ?? 0;
  return (
    <div className="ld ld-map">
      <LanderHead data={data} />
      <div className="ld-split">
        <section>
          <h1>{data.headline}</h1>
          <p className="ld-lead">
            <FormattedMessage id="lander.maplanding.lead" values={{ site }} />
          </p>
          <p className="ld-map-count">
            <FormattedMessage id="lander.maplanding.count" values={{ count, country: data.countryName ?? "" }} />
          </p>
          <SignupCta />
        </section>
        {map ? (
          <svg
            className="ld-map-svg"
            viewBox={`-10 -10 ${map.width + 20} ${map.height + 20}`}
            role="img"
            aria-label={intl.formatMessage({ id: "lander.maplanding.map_label" }, { count, country: data.countryName ?? "" })}
          >
            <path d={map.d} className="ld-map-land" />
            {map.markers.map((marker, index) => (
              <circle
                key={marker.id}
                className="ld-map-marker"
                cx={marker.x}
                cy={marker.y}
                r={7}
                style={{ animationDelay: `${(index % 8) * 0.4}s` }}
              />
            ))}
          </svg>
        ) : null}
      </div>
      <PhotoList profiles={data.profiles} limit={6} className="ld-strip" />
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
