import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { around, distance } from "geokdbush";
import KDBush from "kdbush";

export interface GeocodeResult {
  country: string;
  /** ISO 3166-2 code of our region list, or null when the data's state code is not one of them. */
  region: string | null;
  city: string;
}

export interface Coordinates {
  lat: number;
  lon: number;
}

/** A place known besides the data set's (for example the demo cities with their local names). */
export interface KnownPlace extends Coordinates {
  country: string;
  region: string | null;
  name: string;
}

interface Place extends Coordinates {
  name: string;
  country: string;
  /** Our region code, or null when the data's state is not one of our regions. */
  region: string | null;
}

/**
 * The data set's state codes that differ from the ISO 3166-2 codes our region lists use:
 * Poland's voivodeships by letters (ISO now uses numbers), Spain's Castilla y León and Balearic
 * provinces (we list autonomous communities). Belgium's and Ireland's cities only carry the
 * region or province above ours; for them the region stays unknown rather than guessed.
 */
const REGION_ALIASES: Record<string, string> = {
  "PL-DS": "PL-02",
  "PL-KP": "PL-04",
  "PL-LU": "PL-06",
  "PL-LB": "PL-08",
  "PL-LD": "PL-10",
  "PL-MA": "PL-12",
  "PL-MZ": "PL-14",
  "PL-OP": "PL-16",
  "PL-PK": "PL-18",
  "PL-PD": "PL-20",
  "PL-PM": "PL-22",
  "PL-SL": "PL-24",
  "PL-SK": "PL-26",
  "PL-WN": "PL-28",
  "PL-WP": "PL-30",
  "PL-ZP": "PL-32",
  "ES-AV": "ES-CL",
  "ES-BU": "ES-CL",
  "ES-LE": "ES-CL",
  "ES-P": "ES-CL",
  "ES-SA": "ES-CL",
  "ES-SG": "ES-CL",
  "ES-SO": "ES-CL",
  "ES-VA": "ES-CL",
  "ES-ZA": "ES-CL",
  "ES-PM": "ES-IB",
};

/**
 * The data set's cities as the package ships them: [name, country, state, latitude, longitude].
 * Read from its file, not through `import { City } from "country-state-city"`: the package's module
 * parses all ~148k cities of the world when imported and keeps them (and the objects `getAllCities()`
 * makes of them) for the life of the process, about 50 MB of heap for the few countries we serve
 * (issue #25, "Memory"; decision 034). Parsed here once, on first use, only the served countries' are
 * kept and the rest is garbage.
 */
type CityRow = [name: string, country: string, state: string, latitude: string, longitude: string];
function readCities(): CityRow[] {
  const file = createRequire(import.meta.url).resolve("country-state-city/lib/assets/city.json");
  return JSON.parse(readFileSync(file, "utf8")) as CityRow[];
}

/** Case, accents, apostrophes and dashes do not matter when a member types their city. */
export function normalisePlaceName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/['’`.-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Offline geocoding over the GeoNames-based list of ~148k places shipped in the `country-state-city`
 * package, limited to the served countries, plus `known` places. Nothing leaves the machine.
 * - reverse: the nearest place within `maxKm` of a point (a k-d tree built on first use);
 * - coordinatesOf: the centre of a city a member typed, so that distances between members can be
 *   shown (bucketed) without ever storing a device's position.
 */
export class LocationService {
  private index: { tree: KDBush; places: Place[]; byName: Map<string, Place[]> } | null = null;

  constructor(
    private readonly servedCountries: readonly string[],
    private readonly regionsOf: (country: string) => readonly string[],
    private readonly known: readonly KnownPlace[] = [],
    private readonly maxKm = 50,
  ) {}

  /** Our region code for the data set's state of a country, or null. */
  private regionFor(country: string, state: string): string | null {
    const code = `${country}-${state}`;
    const region = REGION_ALIASES[code] ?? code;
    return this.regionsOf(country).includes(region) ? region : null;
  }

  private build() {
    if (this.index) return this.index;
    const served = new Set(this.servedCountries);
    const places: Place[] = [];
    for (const [name, country, state, latitude, longitude] of readCities()) {
      if (!served.has(country) || !latitude || !longitude) continue;
      places.push({ name, country, region: this.regionFor(country, state), lat: Number(latitude), lon: Number(longitude) });
    }
    const tree = new KDBush(places.length);
    for (const place of places) tree.add(place.lon, place.lat);
    tree.finish();
    // Known places first, so their (local) names win a tie.
    const byName = new Map<string, Place[]>();
    for (const place of [...this.known, ...places]) {
      const key = `${place.country}:${normalisePlaceName(place.name)}`;
      const list = byName.get(key);
      if (list) list.push(place);
      else byName.set(key, [place]);
    }
    this.index = { tree, places, byName };
    return this.index;
  }

  /** The nearest served city to a point, or null when none is within reach. */
  reverse(lat: number, lon: number): GeocodeResult | null {
    const { tree, places } = this.build();
    const [nearest] = around(tree, lon, lat, 1, this.maxKm);
    const place = nearest === undefined ? undefined : places[nearest];
    if (!place) return null;
    return { country: place.country, region: place.region, city: place.name };
  }

  /**
   * The centre of a city of a country, preferring one in the given region (several places share a
   * name), or null when the city is not known.
   */
  coordinatesOf(country: string, region: string | null, city: string | null): Coordinates | null {
    if (!city?.trim()) return null;
    const candidates = this.build().byName.get(`${country}:${normalisePlaceName(city)}`);
    if (!candidates?.length) return null;
    const place = candidates.find((c) => region && c.region === region) ?? candidates[0];
    return place ? { lat: place.lat, lon: place.lon } : null;
  }

  /** Great-circle distance in kilometres. */
  static distanceKm(a: Coordinates, b: Coordinates): number {
    return distance(a.lon, a.lat, b.lon, b.lat);
  }
}
