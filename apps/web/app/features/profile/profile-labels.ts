import type { BODY_TYPES, EYE_COLORS, GENDERS, HAIR_COLORS, RELATIONSHIP_STATUSES, SEXUALITIES } from "@app/contract";

/** Message ids of the profile values of spec §3 (`profile.<field>.<key>`, written out so the catalogue test sees them). */
export const HAIR_COLOR_LABELS: Record<(typeof HAIR_COLORS)[number], string> = {
  black: "profile.hair_color.black",
  blond: "profile.hair_color.blond",
  dark_blond: "profile.hair_color.dark_blond",
  brunette: "profile.hair_color.brunette",
  brown: "profile.hair_color.brown",
  dark_brown: "profile.hair_color.dark_brown",
  gray: "profile.hair_color.gray",
  red: "profile.hair_color.red",
  white: "profile.hair_color.white",
  bald: "profile.hair_color.bald",
  other: "profile.hair_color.other",
};

export const EYE_COLOR_LABELS: Record<(typeof EYE_COLORS)[number], string> = {
  blue: "profile.eye_color.blue",
  green: "profile.eye_color.green",
  hazel: "profile.eye_color.hazel",
  brown: "profile.eye_color.brown",
};

export const BODY_TYPE_LABELS: Record<(typeof BODY_TYPES)[number], string> = {
  slim: "profile.body_type.slim",
  normal: "profile.body_type.normal",
  fat: "profile.body_type.fat",
};

export const RELATIONSHIP_STATUS_LABELS: Record<(typeof RELATIONSHIP_STATUSES)[number], string> = {
  single: "profile.relationship_status.single",
  married: "profile.relationship_status.married",
  divorced: "profile.relationship_status.divorced",
  widowed: "profile.relationship_status.widowed",
  unmarried: "profile.relationship_status.unmarried",
  living_together: "profile.relationship_status.living_together",
};

/** Sexuality and gender as another member's profile shows them. */
export const SEXUALITY_LABELS: Record<(typeof SEXUALITIES)[number], string> = {
  hetero: "member.sexuality.hetero",
  gay: "member.sexuality.gay",
  lesbian: "member.sexuality.lesbian",
  bi: "member.sexuality.bi",
};

export const GENDER_LABELS: Record<(typeof GENDERS)[number], string> = {
  male: "member.gender.male",
  female: "member.gender.female",
};

/**
 * The arguments of a profile value's message: the gender of the profile it describes. Where a
 * language's word agrees with it (pl "Wdowa"/"Wdowiec", fr "Mariée"/"Marié", es, it, nl), the message
 * chooses with an ICU `select` (issue #29); `other`, for a gender not known (hidden), keeps both forms.
 */
export function valueArgs(gender: (typeof GENDERS)[number] | null | undefined): { gender: string } {
  return { gender: gender ?? "other" };
}
