/**
 * The member landings of spec §2 (`/members/{id}/landing`, `/landing2/{slug?}`, `/landing3/{slug?}`):
 * campaign pages about one member, leading a visitor to sign up via that profile.
 *
 * Three designs, one per route: `landing` a portrait card, `landing2` a split page with the steps to
 * a first message, `landing3` a chat window whose first message is written on the page. The optional
 * `{slug}` of landing2 and landing3 picks the campaign's angle (headline and lead); a slug we do not know
 * falls back to the default angle, so a mistyped campaign link still lands.
 */
export const LANDING_DESIGNS = ["landing", "landing2", "landing3"] as const;
export type LandingDesign = (typeof LANDING_DESIGNS)[number];

export const LANDING_VARIANTS = ["chat", "date", "nearby"] as const;
export type LandingVariant = (typeof LANDING_VARIANTS)[number];
export const DEFAULT_LANDING_VARIANT: LandingVariant = "chat";

export function landingVariant(slug: string | undefined): LandingVariant {
  return (LANDING_VARIANTS as readonly string[]).includes(slug ?? "") ? (slug as LandingVariant) : DEFAULT_LANDING_VARIANT;
}

/** The design a landing URL asks for: the path segment after the member's id. */
export function landingDesign(pathname: string): LandingDesign {
  const match = /^\/members\/[^/]+\/(landing[23]?)(?:\/|$)/.exec(pathname);
  return (match?.[1] as LandingDesign | undefined) ?? "landing";
}
