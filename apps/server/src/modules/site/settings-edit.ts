import {
  type EditableSettings,
  editableSettingsSchema,
  isLocaleCode,
  type SettingsChange,
  type StaffSite,
  settingsProblems,
} from "@app/contract";
import { AppError } from "../../platform/errors.ts";
import { DEFAULT_OVERRIDES, SERVED_COUNTRIES, type SiteOverrides, siteOverridesSchema } from "./overrides.ts";
import type { NewSite, SiteRow } from "./queries.ts";

/** The fields kept in the site's own columns; every other editable field is an override (the jsonb). */
const COLUMN_FIELDS = ["name", "index_title", "description", "domain_language", "support_email"] as const;

/** A site's settings as the console edits them: its columns, and its overrides over the product's defaults. */
export function editableOf(row: SiteRow): EditableSettings {
  const parsed = siteOverridesSchema.safeParse(row.settings);
  const overrides: Required<SiteOverrides> = { ...DEFAULT_OVERRIDES, ...(parsed.success ? parsed.data : {}) };
  return {
    ...overrides,
    name: row.name,
    index_title: row.indexTitle,
    description: row.description,
    domain_language: isLocaleCode(row.domainLanguage) ? row.domainLanguage : null,
    support_email: row.supportEmail,
  };
}

export function presentSite(row: SiteRow): StaffSite {
  return { id: row.id, host: row.host, is_default: row.isDefault, settings: editableOf(row) };
}

/**
 * The settings to store, checked: each field by its schema (the contract's, as GET /api/settings.php
 * answers it), then the rules between fields (settingsProblems). A failure throws validation_failed with
 * every field's problem (translated by the error handler), and nothing is written.
 */
export function checkedSettings(input: unknown): EditableSettings {
  const settings = editableSettingsSchema.parse(input);
  const problems = settingsProblems(settings, SERVED_COUNTRIES);
  if (Object.keys(problems).length) throw new AppError("validation_failed", {}, problems);
  return settings;
}

/** The site row's values for `settings`: its columns, and every override in the jsonb. */
export function rowValuesOf(settings: EditableSettings): Partial<NewSite> {
  const overrides: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(settings)) {
    if (!(COLUMN_FIELDS as readonly string[]).includes(field)) overrides[field] = value;
  }
  return {
    name: settings.name,
    indexTitle: settings.index_title,
    description: settings.description,
    domainLanguage: settings.domain_language,
    supportEmail: settings.support_email,
    settings: siteOverridesSchema.parse(overrides),
  };
}

/** The fields whose value differs, in the schema's order (the preview, and the audit log's summary). */
export function changesBetween(before: EditableSettings, after: EditableSettings): SettingsChange[] {
  const changes: SettingsChange[] = [];
  for (const field of Object.keys(editableSettingsSchema.shape) as (keyof EditableSettings)[]) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes.push({ field, before: before[field], after: after[field] });
    }
  }
  return changes;
}
