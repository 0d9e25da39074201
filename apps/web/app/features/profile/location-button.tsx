import type { GeocodeResponse } from "@app/contract";
import { useEffect, useRef, useState } from "react";
import { Button, Spinner } from "react-bootstrap";
import { FormattedMessage } from "react-intl";
import { type LocateResult, locate, storedGeocode, useGeolocationPermission } from "../../lib/geolocation";

type Outcome = "idle" | "busy" | "found" | "failed" | "outside" | "denied";

function PinGlyph() {
  return (
    <svg viewBox="0 0 16 16" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false" className="me-1">
      <path d="M8 0a5.5 5.5 0 0 0-5.5 5.5C2.5 9.6 8 16 8 16s5.5-6.4 5.5-10.5A5.5 5.5 0 0 0 8 0Zm0 8a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5Z" />
    </svg>
  );
}

export interface LocationButtonProps {
  /** The site's countries: a place elsewhere is not filled in. */
  countries: readonly string[];
  /** Fill in country, region (when the data knows it) and city. */
  onLocated: (place: GeocodeResponse) => void;
  /**
   * Fill in without a click when the browser already allows geolocation (no prompt appears) and the
   * member has not given a city yet. Re-read when the place arrives: what the member typed meanwhile wins.
   */
  autoFill?: boolean;
}

/**
 * "Use my current location" next to the location fields (spec §4 geolocation permission states,
 * §7 geocode). Hidden where the browser cannot locate; a short hint instead of the button when the
 * member has blocked it. The member still checks the fields and saves them.
 */
export function LocationButton({ countries, onLocated, autoFill = false }: LocationButtonProps) {
  const permission = useGeolocationPermission();
  const [outcome, setOutcome] = useState<Outcome>("idle");
  const [city, setCity] = useState("");
  const tried = useRef(false);
  const latest = useRef({ countries, onLocated, autoFill });
  latest.current = { countries, onLocated, autoFill };

  const apply = (result: LocateResult, automatic = false) => {
    if (automatic && !latest.current.autoFill) return setOutcome("idle");
    if (result.kind !== "found") return setOutcome(result.kind);
    if (!latest.current.countries.includes(result.place.country)) return setOutcome("outside");
    latest.current.onLocated(result.place);
    setCity(result.place.city);
    setOutcome("found");
  };

  const run = async (automatic = false) => {
    // One attempt at a time; a click also ends the automatic one (a granted prompt must not start another).
    tried.current = true;
    setOutcome("busy");
    apply(await locate(), automatic);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the permission is known (apply and run read refs).
  useEffect(() => {
    if (!autoFill || permission !== "granted" || tried.current) return;
    tried.current = true;
    const stored = storedGeocode();
    if (stored) apply({ kind: "found", place: stored }, true);
    // false: it failed before in this session; the member can still press the button.
    else if (stored === null) void run(true);
  }, [autoFill, permission]);

  if (permission === "unsupported") return null;
  const denied = permission === "denied" || outcome === "denied";
  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      {denied ? null : (
        <Button variant="outline-secondary" size="sm" onClick={() => void run()} disabled={outcome === "busy"}>
          {outcome === "busy" ? (
            <Spinner as="span" animation="border" size="sm" className="me-1" aria-hidden="true" />
          ) : (
            <PinGlyph />
          )}
          <FormattedMessage id="location.use" />
        </Button>
      )}
      <span role="status" className={`small ${outcome === "found" ? "text-success" : "text-body-secondary"}`}>
        {denied ? <FormattedMessage id="location.denied" /> : null}
        {!denied && outcome === "busy" ? <FormattedMessage id="location.locating" /> : null}
        {!denied && outcome === "found" ? <FormattedMessage id="location.found" values={{ city }} /> : null}
        {!denied && outcome === "failed" ? <FormattedMessage id="location.failed" /> : null}
        {!denied && outcome === "outside" ? <FormattedMessage id="location.outside" /> : null}
      </span>
    </div>
  );
}
