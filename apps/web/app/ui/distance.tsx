import type { Distance } from "@app/contract";
import { DISTANCE_BUCKETS_KM } from "@app/contract";
import { FormattedMessage } from "react-intl";

const FURTHEST = DISTANCE_BUCKETS_KM[DISTANCE_BUCKETS_KM.length - 1];

/** "Less than 25 km away" / "More than 500 km away": the bucket the server sent, never more exact. */
export function DistanceText({ distance }: { distance: Distance }) {
  return distance.within_km === null ? (
    <FormattedMessage id="distance.beyond" values={{ km: FURTHEST }} />
  ) : (
    <FormattedMessage id="distance.within" values={{ km: distance.within_km }} />
  );
}
