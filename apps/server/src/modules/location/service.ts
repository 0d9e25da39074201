import { City } from "country-state-city";
import { around } from "geokdbush";
import KDBush from "kdbush";

export interface GeocodeResult {
  country: string;
  /** ISO 3166-2 code of our region list, or null when the data's state code is not one of them. */
  region: string | null;
  city: string;
}

interface Place {
  name: string;
  country: string;
  state: string;
  lon: number;
  lat: number;
}

/**
 * Offline reverse geocoding: the nearest city (GeoNames-based list of ~148k places shipped in the
 * `country-state-city` package) within `maxKm`, through a k-d tree built on first use. Nothing leaves
 * the machine; no external service is asked.
 */
export class LocationService {
  private index: { tree: KDBush; places: Place[] } | null = null;

  constructor(
    private readonly servedCountries: readonly string[],
    private readonly regionsOf: (country: string) => readonly string[],
    private readonly maxKm = 50,
  ) {}

  private build() {
    if (this.index) return this.index;
    const served = new Set(this.servedCountries);
    const places: Place[] = [];
    for (const city of City.getAllCities()) {
      if (!served.has(city.countryCode) || !city.latitude || !city.longitude) continue;
      places.push({
        name: city.name,
        country: city.countryCode,
        state: city.stateCode,
        lat: Number(city.latitude),
        lon: Number(city.longitude),
      });
    }
    const tree = new KDBush(places.length);
    for (const place of places) tree.add(place.lon, place.lat);
    tree.finish();
    this.index = { tree, places };
    return this.index;
  }

  /** The nearest served city to a point, or null when none is within reach. */
  reverse(lat: number, lon: number): GeocodeResult | null {
    const { tree, places } = this.build();
    const [nearest] = around(tree, lon, lat, 1, this.maxKm);
    const place = nearest === undefined ? undefined : places[nearest];
    if (!place) return null;
    const region = `${place.country}-${place.state}`;
    return { country: place.country, region: this.regionsOf(place.country).includes(region) ? region : null, city: place.name };
  }
}
