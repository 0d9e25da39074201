import { STAFF_SETTINGS_ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { actorOf, handleStaff, type StaffService } from "../staff/index.ts";
import { SERVED_COUNTRIES, type SiteService } from "./service.ts";

/**
 * The site settings per domain in the staff console (issue #27): admins read, preview and save them.
 * A save is checked before anything is written (validation_failed with each field's translated
 * problem), runs in one transaction with its audit row (settings.update, the values before and after),
 * and reaches this node at once and the others within the site cache's time.
 */
export async function settingsStaffRoutes(app: FastifyInstance, { site, staff }: { site: SiteService; staff: StaffService }) {
  handleStaff(app, STAFF_SETTINGS_ENDPOINTS.settingsSites, async () => ({
    sites: await site.sitesForStaff(),
    served_countries: SERVED_COUNTRIES,
  }));

  handleStaff(app, STAFF_SETTINGS_ENDPOINTS.settingsPreview, async ({ params, body }) => ({
    changes: await site.previewSettings(params.siteId, body),
  }));

  handleStaff(app, STAFF_SETTINGS_ENDPOINTS.settingsSave, async ({ request, staff: who, params, body }) => {
    const saved = await staff.audited(
      actorOf(request, who),
      (result) => ({
        action: "settings.update",
        objectType: "site",
        objectId: params.siteId,
        before: result.before,
        after: result.after,
      }),
      (tx: Tx) => site.updateSettings(tx, params.siteId, body),
    );
    site.invalidate();
    const updated = (await site.sitesForStaff()).find((row) => row.id === params.siteId);
    if (!updated) throw new AppError("not_found");
    return { site: updated, changes: saved.changes };
  });
}
