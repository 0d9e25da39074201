import { act, fireEvent, render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { GEOLOCATION_MAX_AGE_MS, storedGeocode } from "../../lib/geolocation";
import { QueryProvider } from "../../lib/query-client";
import { LocationButton } from "./location-button";

type Listener = () => void;

/** A stand-in for the browser's PermissionStatus whose state the test can change. */
function permissionStatus(state: PermissionState) {
  const listeners = new Set<Listener>();
  return {
    state,
    addEventListener: (_: string, listener: Listener) => listeners.add(listener),
    removeEventListener: (_: string, listener: Listener) => listeners.delete(listener),
    change(next: PermissionState) {
      this.state = next;
      for (const listener of listeners) listener();
    },
  };
}

/**
 * Lets the permission query answer and what follows run: the query cache tells its components in a
 * later task, and the automatic fill then starts its own calls.
 */
async function settle() {
  for (let round = 0; round < 3; round++) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  }
}

const haarlem = { coords: { latitude: 52.38123, longitude: 4.63678 } };

function browser(options: { geolocation?: boolean; permission?: PermissionState; position?: "ok" | "denied" | "timeout" }) {
  const status = permissionStatus(options.permission ?? "prompt");
  const getCurrentPosition = vi.fn((ok: PositionCallback, fail: PositionErrorCallback, _options?: PositionOptions) => {
    if (options.position === "denied") fail({ code: 1 } as GeolocationPositionError);
    else if (options.position === "timeout") fail({ code: 3 } as GeolocationPositionError);
    else ok(haarlem as GeolocationPosition);
  });
  if (options.geolocation === false) Reflect.deleteProperty(navigator, "geolocation");
  else Object.defineProperty(navigator, "geolocation", { value: { getCurrentPosition }, configurable: true });
  Object.defineProperty(navigator, "permissions", { value: { query: async () => status }, configurable: true });
  return { status, getCurrentPosition };
}

function geocodeAnswer(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function renderButton(props: { autoFill?: boolean; countries?: string[] } = {}) {
  const onLocated = vi.fn();
  render(
    <IntlProvider locale="en" messages={en}>
      <QueryProvider>
        <LocationButton countries={props.countries ?? ["NL", "BE"]} onLocated={onLocated} autoFill={props.autoFill} />
      </QueryProvider>
    </IntlProvider>,
  );
  await settle();
  return onLocated;
}

const useButton = () => screen.queryByRole("button", { name: "Use my current location" });

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "geolocation");
  Reflect.deleteProperty(navigator, "permissions");
});

describe("location button (spec §4 geolocation permission)", () => {
  it("drops an automatic result when the member typed a city meanwhile, and never locates twice", async () => {
    const { getCurrentPosition, status } = browser({ permission: "granted" });
    let release: () => void = () => {};
    getCurrentPosition.mockImplementation((ok: PositionCallback) => {
      release = () => ok(haarlem as GeolocationPosition);
    });
    geocodeAnswer(200, { country: "NL", region: "NL-NH", city: "Haarlem" });
    const onLocated = vi.fn();
    const view = (autoFill: boolean) => (
      <IntlProvider locale="en" messages={en}>
        <QueryProvider>
          <LocationButton countries={["NL"]} onLocated={onLocated} autoFill={autoFill} />
        </QueryProvider>
      </IntlProvider>
    );
    const { rerender } = render(view(true));
    await settle();
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    rerender(view(false));
    await act(async () => status.change("granted"));
    await act(async () => release());
    expect(onLocated).not.toHaveBeenCalled();
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
  });

  it("is absent where the browser cannot locate", async () => {
    browser({ geolocation: false });
    await renderButton();
    expect(useButton()).toBeNull();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("explains a blocked permission instead of offering the button, and follows a change", async () => {
    const { status } = browser({ permission: "denied" });
    await renderButton();
    expect(useButton()).toBeNull();
    expect(screen.getByRole("status").textContent).toMatch(/blocks location access/);
    await act(async () => status.change("prompt"));
    expect(useButton()).not.toBeNull();
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it("fills in the place of the position (an hour-old fix is fine) and stores it", async () => {
    const { getCurrentPosition } = browser({ permission: "prompt" });
    const fetch = geocodeAnswer(200, { country: "NL", region: "NL-NH", city: "Haarlem" });
    const onLocated = await renderButton();
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(useButton() as HTMLElement));
    expect(getCurrentPosition.mock.calls[0]?.[2]).toMatchObject({ maximumAge: GEOLOCATION_MAX_AGE_MS });
    expect(GEOLOCATION_MAX_AGE_MS).toBe(3_600_000);
    // Only two decimals of the position leave the browser.
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/geocode.php?lat=52.38&lon=4.64");
    expect(onLocated).toHaveBeenCalledWith({ country: "NL", region: "NL-NH", city: "Haarlem" });
    expect(screen.getByRole("status").textContent).toBe("Filled in: Haarlem. Check the fields and save.");
    expect(storedGeocode()).toEqual({ country: "NL", region: "NL-NH", city: "Haarlem" });
  });

  it("stores false when the place cannot be found, and says so", async () => {
    browser({ permission: "prompt" });
    geocodeAnswer(404, { error: "not_found", message: "Not found" });
    const onLocated = await renderButton();
    await act(async () => fireEvent.click(useButton() as HTMLElement));
    expect(onLocated).not.toHaveBeenCalled();
    expect(screen.getByRole("status").textContent).toMatch(/could not find your location/);
    expect(storedGeocode()).toBe(false);
  });

  it("leaves the fields alone for a place outside the site's countries", async () => {
    browser({ permission: "prompt" });
    geocodeAnswer(200, { country: "DE", region: "DE-BE", city: "Berlin" });
    const onLocated = await renderButton({ countries: ["NL"] });
    await act(async () => fireEvent.click(useButton() as HTMLElement));
    expect(onLocated).not.toHaveBeenCalled();
    expect(screen.getByRole("status").textContent).toMatch(/outside the countries of this site/);
  });

  it("turns into the blocked hint when the member refuses the prompt", async () => {
    browser({ permission: "prompt", position: "denied" });
    const fetch = geocodeAnswer(200, {});
    await renderButton();
    await act(async () => fireEvent.click(useButton() as HTMLElement));
    expect(fetch).not.toHaveBeenCalled();
    expect(useButton()).toBeNull();
    expect(screen.getByRole("status").textContent).toMatch(/blocks location access/);
  });

  it("fills in by itself only when already allowed, and not again after a failure", async () => {
    browser({ permission: "prompt" });
    geocodeAnswer(200, { country: "NL", region: "NL-NH", city: "Haarlem" });
    expect(await renderButton({ autoFill: true })).not.toHaveBeenCalled();

    const granted = browser({ permission: "granted" });
    const auto = await renderButton({ autoFill: true });
    expect(granted.getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(auto).toHaveBeenCalledWith({ country: "NL", region: "NL-NH", city: "Haarlem" });

    window.sessionStorage.setItem("geocode", "false");
    const again = browser({ permission: "granted" });
    expect(await renderButton({ autoFill: true })).not.toHaveBeenCalled();
    expect(again.getCurrentPosition).not.toHaveBeenCalled();
  });
});
