import { z } from "zod";
import { idSchema } from "./http.ts";
import { editableSettingsSchema, settingsChangeSchema, staffSiteSchema } from "./site-settings-edit.ts";
import { staffEndpoint } from "./staff.ts";

const siteParams = z.object({ siteId: z.coerce.number().pipe(idSchema) });

/**
 * The site settings per domain in the staff console (issue #27, /staff/settings): admins only (an empty
 * `roles`: admin is implicit). Every save goes through the audit log with the values before and after.
 */
export const STAFF_SETTINGS_ENDPOINTS = {
  settingsSites: staffEndpoint({
    method: "GET",
    path: "/staff/api/settings",
    roles: [],
    response: z.object({ sites: z.array(staffSiteSchema), served_countries: z.array(z.string()) }),
  }),
  /** What a save would change, checked as a save is; nothing is written. */
  settingsPreview: staffEndpoint({
    method: "POST",
    path: "/staff/api/settings/:siteId/preview",
    roles: [],
    params: siteParams,
    body: editableSettingsSchema,
    response: z.object({ changes: z.array(settingsChangeSchema) }),
  }),
  settingsSave: staffEndpoint({
    method: "PUT",
    path: "/staff/api/settings/:siteId",
    roles: [],
    params: siteParams,
    body: editableSettingsSchema,
    response: z.object({ site: staffSiteSchema, changes: z.array(settingsChangeSchema) }),
  }),
};
