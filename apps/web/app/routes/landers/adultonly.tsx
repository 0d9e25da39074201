import { useEffect, useRef, useState } from "react";
import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import type { RouteHandle } from "../../lib/route-handle";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/adultonly";
import { LanderFooter, LanderHead, landerHandle, PhotoList, SignupCta } from "./kit";

/** The lander's own 18+ gate replaces the site-entry warning here. */
export const handle: RouteHandle = { ...landerHandle, hideEntryWarning: true };

/** Where "Leave" goes: away from the site. */
const LEAVE_URL = "https://www.google.com/";

/** /landers/adultonly: an explicit 18+ gate (a modal dialog) before anything else is shown. */
export function loader({ context, request }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "adultonly", undefined);
}

function AgeGate({ onEnter }: { onEnter: () => void }) {
  const enter = useRef<HTMLButtonElement>(null);
  useEffect(() => enter.current?.focus(), []);
  return (
    <div className="ld-gate">
      <div
        className="ld-gate-box"
        role="dialog"
        aria-modal="true"
        aria-labelledby="ld-gate-title"
        aria-describedby="ld-gate-body"
      >
        <p className="ld-gate-badge" aria-hidden="true">
          18+
        </p>
        <h1 id="ld-gate-title">
          <FormattedMessage id="lander.adultonly.gate_title" />
        </h1>
        <p id="ld-gate-body">
          <FormattedMessage id="lander.adultonly.gate_body" />
        </p>
        <div className="ld-gate-actions">
          <button ref={enter} type="button" className="btn btn-primary btn-lg" onClick={onEnter}>
            <FormattedMessage id="lander.adultonly.gate_enter" />
          </button>
          <a href={LEAVE_URL} className="btn btn-outline-light btn-lg" rel="noreferrer">
            <FormattedMessage id="lander.adultonly.gate_leave" />
          </a>
        </div>
      </div>
    </div>
  );
}

export default function AdultOnly({ loaderData: data }: Route.ComponentProps) {
  const [entered, setEntered] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (entered) heading.current?.focus();
  }, [entered]);
  return (
    <div className="ld ld-adult">
      <LanderHead data={data} />
      {entered ? (
        <>
          <header className="ld-head">
            <h1 ref={heading} tabIndex={-1}>
              {data.headline}
            </h1>
            <p className="ld-lead">
              <FormattedMessage id="lander.adultonly.lead" />
            </p>
            <SignupCta />
          </header>
          <PhotoList profiles={data.profiles} limit={12} className="ld-grid" />
          <LanderFooter profiles={data.profiles} />
        </>
      ) : (
        <AgeGate onEnter={() => setEntered(true)} />
      )}
    </div>
  );
}
