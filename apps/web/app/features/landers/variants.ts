/**
 * The advertising landing pages (spec §2, decision 024) and their campaign variants. A lander's
 * `{slug}` picks one variant from the lander's own list; an unknown slug (or none) is the default.
 *
 * A variant changes the headline and the audience the photos are drawn from:
 * - `women` / `men`: members of that gender;
 * - `over40`: members aged 40 and over;
 * - `nearby`: members of the visitor's country (geo-ip, else the site's first country), named in the headline.
 */
export const LANDERS = [
  "adultonly",
  "tinderswipe",
  "whoneedsstrings",
  "alonetonight",
  "collagelanding",
  "gallery",
  "iconslanding",
  "maplanding",
  "socialnetwork",
  "transitionsvideolanding",
  "video",
] as const;
export type Lander = (typeof LANDERS)[number];

export const VARIANTS = ["women", "men", "over40", "nearby"] as const;
export type Variant = (typeof VARIANTS)[number] | "default";

/** Which variants each lander's campaigns use (the three without a slug in their route have none). */
export const LANDER_VARIANTS: Record<Lander, readonly Variant[]> = {
  adultonly: [],
  tinderswipe: [],
  whoneedsstrings: [],
  alonetonight: ["women", "men", "nearby"],
  collagelanding: ["women", "men", "over40"],
  gallery: ["women", "men", "over40", "nearby"],
  iconslanding: ["women", "men", "over40"],
  maplanding: ["women", "men", "nearby"],
  socialnetwork: ["women", "men", "over40"],
  transitionsvideolanding: ["women", "men", "nearby"],
  video: ["women", "men", "over40", "nearby"],
};

/** The variant a slug selects on a lander; unknown or missing slugs give the default variant. */
export function variantOf(lander: Lander, slug: string | undefined): Variant {
  const wanted = slug?.toLowerCase();
  return LANDER_VARIANTS[lander].find((variant) => variant === wanted) ?? "default";
}

/** The member search a variant draws its photos from (the default: the newest members of the site). */
export function variantQuery(
  variant: Variant,
  country: string | null,
): { gender?: "female" | "male"; min_age?: number; country?: string } {
  switch (variant) {
    case "women":
      return { gender: "female" };
    case "men":
      return { gender: "male" };
    case "over40":
      return { min_age: 40 };
    case "nearby":
      return country ? { country } : {};
    default:
      return {};
  }
}
