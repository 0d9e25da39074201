import { type EditableSettings, type StaffSite, settingsResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sqlCount, sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { signUpMember } from "../../test/members.ts";
import { staffLogin } from "../../test/staff.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const settingsAudits = () =>
  sqlCount(database.db, sql`select count(*)::int as n from staff_audit where action = 'settings.update'`);
/** The default site's row as stored (what a refused save must leave as it was). */
const storedSite = async () =>
  (await sqlRows<{ name: string; settings: unknown }>(database.db, sql`select name, settings from sites where is_default`))[0];

async function defaultSite(client: Awaited<ReturnType<typeof staffLogin>>["client"]): Promise<StaffSite> {
  const response = await client.get("/staff/api/settings");
  expect(response.statusCode, response.body).toBe(200);
  const site = (response.json().sites as StaffSite[]).find((s) => s.is_default);
  if (!site) throw new Error("no default site");
  return site;
}

const publicSettings = async () => {
  const response = await app.server.inject({ url: "/api/settings.php" });
  return settingsResponseSchema.parse(response.json()).settings;
};

describe("site settings in the staff console (/staff/api/settings, admins only)", () => {
  it("lists each site with its Settings fields; every other role and a member are refused", async () => {
    const admin = await staffLogin(app, "admin");
    const site = await defaultSite(admin.client);
    const live = await publicSettings();
    expect(site.settings).toMatchObject({
      name: live.name,
      message_credits: live.message_credits,
      countries: live.countries,
      signups: live.signups,
      support_email: live.support_email,
    });
    for (const role of ["support", "moderator", "operator"] as const) {
      const other = await staffLogin(app, role);
      const refused = await other.client.get("/staff/api/settings");
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("staff_forbidden");
      const save = await other.client.put(`/staff/api/settings/${site.id}`, { ...site.settings, message_credits: 99 });
      expect(save.statusCode).toBe(403);
    }
    const member = await signUpMember(app);
    expect((await member.client.get("/staff/api/settings")).statusCode).toBe(404);
    expect((await publicSettings()).message_credits).toBe(live.message_credits);
  });

  it("previews what a save changes without writing, then saves with the audit row before and after", async () => {
    const admin = await staffLogin(app, "admin");
    const site = await defaultSite(admin.client);
    const next: EditableSettings = {
      ...site.settings,
      message_credits: site.settings.message_credits + 2,
      signups: "with_trafficsource",
      site_entry_popup_countries: ["NL", "BE"],
    };
    const stored = await storedSite();
    const preview = await admin.client.post(`/staff/api/settings/${site.id}/preview`, next);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().changes).toEqual([
      { field: "site_entry_popup_countries", before: site.settings.site_entry_popup_countries, after: ["NL", "BE"] },
      { field: "signups", before: site.settings.signups, after: "with_trafficsource" },
      { field: "message_credits", before: site.settings.message_credits, after: site.settings.message_credits + 2 },
    ]);
    expect(await storedSite()).toEqual(stored);
    expect(await settingsAudits()).toBe(0);

    const saved = await admin.client.put(`/staff/api/settings/${site.id}`, next);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().site.settings).toMatchObject({ message_credits: next.message_credits, signups: "with_trafficsource" });
    expect(saved.json().changes).toHaveLength(3);
    // This node sees it at once (the others within the site cache's time).
    const live = await publicSettings();
    expect(live).toMatchObject({ message_credits: next.message_credits, signups: "with_trafficsource" });
    const [audit] = await sqlRows<{ before: EditableSettings; after: EditableSettings; object_id: string; staff_id: number }>(
      database.db,
      sql`select before, after, object_id, staff_id from staff_audit where action = 'settings.update'`,
    );
    expect(audit?.object_id).toBe(String(site.id));
    expect(audit?.staff_id).toBe(admin.staff.id);
    expect(audit?.before.message_credits).toBe(site.settings.message_credits);
    expect(audit?.after.message_credits).toBe(next.message_credits);
    expect(audit?.after.signups).toBe("with_trafficsource");
  });

  it("refuses bad input with each field's problem in the staff member's language, and changes nothing", async () => {
    const admin = await staffLogin(app, "admin", "de");
    const site = await defaultSite(admin.client);
    const stored = await storedSite();
    const audits = await settingsAudits();

    // A field's own rule: a message may not be 0 characters long; an address must be one.
    const bad = await admin.client.put(`/staff/api/settings/${site.id}`, {
      ...site.settings,
      message_length: 0,
      support_email: "not an address",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      error: "validation_failed",
      fields: { message_length: "Dieser Wert ist ungültig.", support_email: expect.any(String) },
    });

    // The rules between fields: the entry warning's countries must be among the site's countries, and
    // a site serves only countries the product serves.
    const crossed = await admin.client.put(`/staff/api/settings/${site.id}`, {
      ...site.settings,
      countries: ["NL", "BE"],
      site_entry_popup_countries: ["DE"],
    });
    expect(crossed.statusCode).toBe(422);
    expect(crossed.json().fields).toEqual({
      site_entry_popup_countries: expect.stringContaining("zu den Ländern der Seite"),
      minimum_message_costs: expect.stringContaining("zu den Ländern der Seite"),
    });
    const unserved = await admin.client.post(`/staff/api/settings/${site.id}/preview`, {
      ...site.settings,
      countries: ["NL", "JP"],
    });
    expect(unserved.statusCode).toBe(422);
    expect(unserved.json().fields.countries).toBe("Diese Liste nennt ein Land, das das Produkt nicht bedient.");

    expect(await storedSite()).toEqual(stored);
    expect(await settingsAudits()).toBe(audits);
    expect((await admin.client.put("/staff/api/settings/999999", site.settings)).statusCode).toBe(404);
    expect(await settingsAudits()).toBe(audits);
  });

  it("writes the change and its audit row in one transaction: a failed audit leaves the settings as they were", async () => {
    const admin = await staffLogin(app, "admin");
    const site = await defaultSite(admin.client);
    const stored = await storedSite();
    const audits = await settingsAudits();
    await expect(
      app.services.staff.audited(
        { staff: admin.staff, address: null },
        // A value JSON cannot hold: the audit row cannot be written, and the change goes with it.
        () => ({ action: "settings.update", objectType: "site", objectId: site.id, after: { bad: 1n } }),
        (tx) => app.services.site.updateSettings(tx, site.id, { ...site.settings, name: "Changed name" }),
      ),
    ).rejects.toThrow();
    expect(await storedSite()).toEqual(stored);
    expect(await settingsAudits()).toBe(audits);
  });
});
