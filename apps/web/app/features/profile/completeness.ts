import type { OwnProfile } from "@app/contract";

/**
 * The profile-completeness meter of issue #29 (the spec is silent, so this is our choice). Each part
 * weighs what it does for being found and answered: a photo most, then the about text, interests,
 * where one lives and the details of looks and relationship. The parts are listed most important
 * first, and the next step is the first part not yet done. Name, gender and date of birth come with
 * the account and do not count.
 */
export const COMPLETENESS_PARTS = [
  { id: "photo", weight: 30, target: "profile-photo-upload" },
  { id: "about", weight: 25, target: "profile-about" },
  { id: "interests", weight: 20, target: "profile-interests" },
  { id: "location", weight: 10, target: "profile-city" },
  { id: "details", weight: 15, target: "profile-relationship-status" },
] as const;

export type CompletenessPart = (typeof COMPLETENESS_PARTS)[number];
export type CompletenessPartId = CompletenessPart["id"];

/** Interests count as done from this many on (a few say more than one). */
export const MIN_INTERESTS = 3;

type Measured = Pick<
  OwnProfile,
  "photos" | "about" | "interests" | "city" | "relationship_status" | "hair_color" | "eye_color" | "body_type" | "tattoos"
>;

/** How much of a part is done, from 0 to 1 (details count per field given, the others all or nothing). */
export function partDone(profile: Measured, id: CompletenessPartId): number {
  switch (id) {
    case "photo":
      return profile.photos.length > 0 ? 1 : 0;
    case "about":
      return profile.about.trim() ? 1 : 0;
    case "interests":
      return Math.min(profile.interests.length, MIN_INTERESTS) / MIN_INTERESTS;
    case "location":
      return profile.city?.trim() ? 1 : 0;
    case "details": {
      const given = [profile.relationship_status, profile.hair_color, profile.eye_color, profile.body_type, profile.tattoos];
      return given.filter((value) => value !== null).length / given.length;
    }
  }
}

export interface Completeness {
  /** 0 to 100, whole percent. */
  percent: number;
  /** The first part not fully done, or null when the profile is complete. */
  next: CompletenessPart | null;
}

export function profileCompleteness(profile: Measured): Completeness {
  let total = 0;
  let next: CompletenessPart | null = null;
  for (const part of COMPLETENESS_PARTS) {
    const done = partDone(profile, part.id);
    total += part.weight * done;
    if (done < 1 && !next) next = part;
  }
  return { percent: Math.round(total), next };
}
