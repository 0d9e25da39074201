import type { TeaserProfile } from "@app/contract";
import type { Lander, Variant } from "./variants";

export interface MapMarker {
  id: number;
  x: number;
  y: number;
}

export interface LanderMap {
  country: string;
  width: number;
  height: number;
  /** The country's outline (SVG path), pre-simplified and committed (decision 024). */
  d: string;
  markers: MapMarker[];
}

export interface LanderData {
  lander: Lander;
  variant: Variant;
  title: string;
  description: string;
  headline: string;
  /** The visitor's country (geo-ip, else the site's first country), named in the locale. */
  countryName: string | null;
  /** Members with a photo a visitor may see (none where the logged-out search rule hides members). */
  profiles: TeaserProfile[];
  map: LanderMap | null;
}
