import type { Settings, SsrServices, TeaserProfile } from "@app/contract";
import { createIntl } from "react-intl";
import { redirect } from "react-router";
import { messagesFor } from "../../i18n/messages.server";
import { resolveLocale } from "../../lib/locale.server";
import { OUTLINES } from "./outlines.server";
import type { LanderData, LanderMap, MapMarker } from "./types";
import { type Lander, variantOf, variantQuery } from "./variants";

/** How many members a lander shows at most. */
const MEMBER_LIMIT = 24;

/** The visitor's country: geo-ip when the site serves it, else the selected one, else the site's first. */
function visitorCountry(settings: Settings): string | null {
  const served = settings.countries;
  if (settings.geoip_country && served.includes(settings.geoip_country)) return settings.geoip_country;
  if (settings.geoip_selected_country && served.includes(settings.geoip_selected_country)) return settings.geoip_selected_country;
  return served[0] ?? null;
}

/** A small fixed offset per member (up to ±7 units), so that members of one city do not hide each other. */
function jitter(id: number, salt: number): number {
  const h = Math.sin(id * 12.9898 + salt * 78.233) * 43758.5453;
  return (h - Math.floor(h) - 0.5) * 14;
}

/**
 * Members on the country's outline: each at its city's centre (rounded to 0.1°, about 10 km), moved
 * by a fixed jitter; never a member's own position (the server knows none). Cities outside the
 * outline's mainland (islands far away) are left off the map.
 */
async function mapOf(services: SsrServices, country: string, profiles: TeaserProfile[]): Promise<LanderMap | null> {
  const outline = OUTLINES[country];
  if (!outline) return null;
  const markers: MapMarker[] = [];
  const inCountry = profiles.filter((profile) => profile.country === country && profile.city);
  const centres = await Promise.all(inCountry.map((profile) => services.cityCentre(country, profile.city ?? "")));
  inCountry.forEach((profile, index) => {
    const centre = centres[index];
    if (!centre) return;
    const lat = Math.round(centre.lat * 10) / 10;
    const lon = Math.round(centre.lon * 10) / 10;
    const x = Math.round((lon - outline.lon0) * outline.kx * outline.scale + jitter(profile.id, 1));
    const y = Math.round((outline.lat1 - lat) * outline.scale + jitter(profile.id, 2));
    if (x < 0 || y < 0 || x > outline.width || y > outline.height) return;
    markers.push({ id: profile.id, x, y });
  });
  return { country, width: outline.width, height: outline.height, d: outline.d, markers };
}

/**
 * Everything a lander renders, on the server: the variant its slug selects, its title, description
 * and headline in the visitor's language, and the members it shows. Logged-in members go to the
 * members area (a lander asks visitors to sign up).
 */
export async function loadLander(
  services: SsrServices,
  request: Request,
  lander: Lander,
  slug: string | undefined,
): Promise<LanderData> {
  if (await services.currentUser()) throw redirect("/members");
  const { locale } = await resolveLocale(request, services);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const settings = await services.settings({ locale, query });
  const variant = variantOf(lander, slug);
  const country = visitorCountry(settings);
  const countryName = country ? (new Intl.DisplayNames([locale], { type: "region" }).of(country) ?? country) : null;

  let profiles: TeaserProfile[];
  if (lander === "maplanding" && country) {
    const search = await services.searchMembers({ ...variantQuery(variant, country), country });
    profiles = search?.profiles ?? [];
  } else if (variant === "default") {
    profiles = await services.teaser({ limit: MEMBER_LIMIT });
  } else {
    profiles = (await services.searchMembers(variantQuery(variant, country)))?.profiles ?? [];
  }
  const map = lander === "maplanding" && country ? await mapOf(services, country, profiles) : null;
  // Photos only: a lander's visual is the members' faces.
  profiles = profiles.filter((profile) => profile.main_image).slice(0, MEMBER_LIMIT);

  const intl = createIntl({ locale, defaultLocale: "en", messages: messagesFor(locale) });
  const values = { site: settings.name, country: countryName ?? "" };
  const headline =
    variant === "default"
      ? intl.formatMessage({ id: `lander.${lander}.headline` }, values)
      : intl.formatMessage({ id: `lander.variant.${variant}` }, values);
  return {
    lander,
    variant,
    title: intl.formatMessage({ id: `lander.${lander}.title` }, values),
    description: intl.formatMessage({ id: `lander.${lander}.description` }, values),
    headline,
    countryName,
    profiles,
    map,
  };
}
