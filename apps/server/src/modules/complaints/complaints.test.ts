import { complaintResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { t } from "../../platform/i18n.ts";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, uniqueEmail } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const DESCRIPTION = "Her photos are copied from a model's website, I found them there.";
const visitor = (locale = "en") => new TestClient(app.server, { locale });
const complain = (client: TestClient, body: Record<string, unknown>) =>
  client.post("/api/complaint.php", { subject: "fake_profile", description: DESCRIPTION, ...body });

const complaintCount = () => sqlCount(database.db, sql`select count(*)::int as n from complaints`);
/** Runs the due jobs (the confirmations among them), then reads the complaint mails `to` got. */
const mailsTo = async (to: string) => {
  for (let round = 0; round < 20 && (await app.services.jobs.runDue()) > 0; round++);
  return sqlRows<{ subject: string; text: string }>(
    database.db,
    sql`select subject, text from mail_outbox where "to" = ${to} and subject like '%C-%' order by id`,
  );
};
const rowOf = async (reference: string) =>
  (
    await sqlRows<{
      user_id: number | null;
      email: string;
      subject: string;
      profile_id: number | null;
      locale: string;
      status: string;
    }>(
      database.db,
      sql`select user_id, email, subject, profile_id, locale, status from complaints where reference = ${reference}`,
    )
  )[0];

describe("a complaint (POST /api/complaint.php)", () => {
  it("from a visitor: stored with the given address and confirmed in the visitor's language with the reference", async () => {
    const email = uniqueEmail("visitor");
    const response = await complain(visitor("de"), { email: ` ${email.toUpperCase()} `, subject: "harassment" });
    expect(response.statusCode, response.body).toBe(200);
    const { reference, email: confirmedTo } = complaintResponseSchema.parse(response.json());
    expect(reference).toMatch(/^C-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(confirmedTo).toBe(email);
    expect(await rowOf(reference)).toEqual({
      user_id: null,
      email,
      subject: "harassment",
      profile_id: null,
      locale: "de",
      status: "open",
    });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Wir haben deine Beschwerde ${reference} erhalten`);
    expect(mails[0]?.text).toContain(`Deine Referenz ist ${reference}.`);
    expect(mails[0]?.text).toContain("Belästigung oder Missbrauch");
    // The address is not verified: the mail does not carry the visitor's own text to it.
    expect(mails[0]?.text).not.toContain(DESCRIPTION);
  });

  it("from a member: the account's address and language, whatever e-mail the body names, and the member concerned", async () => {
    const complainant = await createMember(app, { locale: "nl" });
    const concerned = await createMember(app, { activate: true, name: "Fake Fiona" });
    const other = uniqueEmail("elsewhere");
    const response = await complain(complainant.client, { email: other, profile_id: concerned.profileId });
    expect(response.statusCode, response.body).toBe(200);
    const { reference, email } = complaintResponseSchema.parse(response.json());
    expect(email).toBe(complainant.email);
    expect(await rowOf(reference)).toMatchObject({
      user_id: complainant.userId,
      email: complainant.email,
      profile_id: concerned.profileId,
      locale: "nl",
    });
    const mails = await mailsTo(complainant.email);
    expect(mails.map((mail) => mail.subject)).toEqual([`We hebben je klacht ${reference} ontvangen`]);
    expect(await mailsTo(other)).toEqual([]);
  });

  it("asks a visitor for an e-mail address and refuses bad input without storing or mailing anything", async () => {
    const before = await complaintCount();
    const client = visitor();
    const noEmail = await complain(client, {});
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json()).toMatchObject({
      error: "validation_failed",
      fields: { email: "Please enter your e-mail address." },
    });
    const badEmail = await complain(client, { email: "not-an-address" });
    expect(badEmail.json().fields).toEqual({ email: "Invalid email" });
    const short = await complain(client, { email: uniqueEmail(), description: "   too short       " });
    expect(short.json().fields).toEqual({ description: "Please describe it in at least 20 characters." });
    const long = await complain(client, { email: uniqueEmail(), description: "x".repeat(4001) });
    expect(long.json().fields).toEqual({ description: "Please keep it under 4000 characters." });
    const subject = await complain(client, { email: uniqueEmail(), subject: "spam" });
    expect(subject.statusCode).toBe(422);
    expect(Object.keys(subject.json().fields)).toEqual(["subject"]);
    expect(await complaintCount()).toBe(before);
  });

  it("refuses a member concerned who does not exist, at the field", async () => {
    const before = await complaintCount();
    const member = await createMember(app);
    const response = await complain(member.client, { profile_id: 2_000_000_000 });
    expect(response.statusCode).toBe(422);
    expect(response.json().fields).toEqual({ profile_id: "This member does not exist." });
    expect(await complaintCount()).toBe(before);
  });

  it("refuses a complaint about oneself, at the field, translated (issue #25)", async () => {
    const before = await complaintCount();
    const member = await createMember(app);
    const response = await complain(member.client, { profile_id: member.profileId });
    expect(response.statusCode).toBe(422);
    expect(response.json().fields).toEqual({ profile_id: t("en", "error.complaint_about_self") });
    expect(await complaintCount()).toBe(before);
  });

  it("is stored even when the mail server fails, and the confirmation is retried", async () => {
    const email = uniqueEmail("unlucky");
    const send = vi.spyOn(app.services.mailer, "send").mockRejectedValueOnce(new Error("SMTP down"));
    try {
      const response = await complain(visitor(), { email });
      expect(response.statusCode).toBe(200);
      const { reference } = complaintResponseSchema.parse(response.json());
      expect(await mailsTo(email)).toEqual([]);
      expect(send).toHaveBeenCalledTimes(1);
      expect(await rowOf(reference)).toMatchObject({ email, status: "open" });
      const pending = await sqlCount(
        database.db,
        sql`select count(*)::int as n from jobs where name = 'complaints.send-confirmation' and attempts = 1 and finished_at is null`,
      );
      expect(pending).toBe(1);
    } finally {
      send.mockRestore();
    }
  });

  it("limits complaints per client address and per member", async () => {
    const client = visitor();
    for (let i = 0; i < 5; i++) expect((await complain(client, { email: uniqueEmail() })).statusCode).toBe(200);
    const sixth = await complain(client, { email: uniqueEmail() });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe("rate_limited");

    // One member from five places, then a sixth place: the member's own limit.
    const member = await createMember(app);
    for (let i = 0; i < 5; i++) {
      const elsewhere = new TestClient(app.server);
      for (const [name, value] of member.client.cookies) elsewhere.cookies.set(name, value);
      expect((await complain(elsewhere, {})).statusCode).toBe(200);
    }
    const before = await complaintCount();
    const another = new TestClient(app.server);
    for (const [name, value] of member.client.cookies) another.cookies.set(name, value);
    const refused = await complain(another, {});
    expect(refused.statusCode).toBe(429);
    expect(await complaintCount()).toBe(before);
  });
});

describe("staff handling (ComplaintService)", () => {
  it("lists complaints by status and moves one along", async () => {
    const email = uniqueEmail("handled");
    const { reference } = complaintResponseSchema.parse((await complain(visitor(), { email, subject: "payment" })).json());
    const open = await app.services.complaints.list({ status: "open" });
    const complaint = open.find((row) => row.reference === reference);
    expect(complaint).toMatchObject({ email, subject: "payment", status: "open" });
    if (!complaint) throw new Error("not listed");
    expect(await app.services.complaints.setStatus(complaint.id, "in_progress")).toBe(true);
    expect((await app.services.complaints.list({ status: "open" })).some((row) => row.id === complaint.id)).toBe(false);
    expect((await app.services.complaints.list({ status: "in_progress" })).map((row) => row.id)).toContain(complaint.id);
    expect(await app.services.complaints.setStatus(2_000_000_000, "closed")).toBe(false);
  });
});
