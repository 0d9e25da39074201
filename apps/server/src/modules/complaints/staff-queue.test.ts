import { randomUUID } from "node:crypto";
import { bansResponseSchema, queueItemResponseSchema, queueResponseSchema, SESSION_COOKIE } from "@app/contract";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, type TestMember, uniqueEmail } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { staffLogin } from "../../test/staff.ts";
import { sendRules } from "../chat/routes.ts";

let database: TestDatabase;
let app: TestApp;
useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

type Staff = Awaited<ReturnType<typeof staffLogin>>;
const member = (gender: "male" | "female" = "male") => createMember(app, { activate: true, gender });

async function reported(): Promise<{ reportId: number; target: TestMember }> {
  const reporter = await member("female");
  const target = await member("male");
  const response = await reporter.client.post("/api/report.php", {
    reason: "scam",
    profile_id: target.profileId,
    text: "Asks for money",
  });
  expect(response.statusCode, response.body).toBe(200);
  return { reportId: response.json().id, target };
}
async function complaint(locale: string) {
  const email = uniqueEmail("complainant");
  const response = await new TestClient(app.server, { locale }).post("/api/complaint.php", {
    subject: "harassment",
    description: "Someone keeps writing to me from several profiles.",
    email,
  });
  expect(response.statusCode, response.body).toBe(200);
  const [row] = await sqlRows<{ id: number; reference: string }>(
    database.db,
    sql`select id, reference from complaints where reference = ${response.json().reference}`,
  );
  if (!row) throw new Error("no complaint");
  return { ...row, email };
}
const queueOf = async (staff: Staff, status = "active") => {
  const response = await staff.client.get(`/staff/api/reports?status=${status}`);
  expect(response.statusCode, response.body).toBe(200);
  return queueResponseSchema.parse(response.json()).items;
};
const auditRows = (objectType: string, objectId: number) =>
  sqlRows<{ action: string; staff_id: number; member_id: number | null; before: unknown; after: unknown }>(
    database.db,
    sql`select action, staff_id, member_id, before, after from staff_audit where object_type = ${objectType} and object_id = ${String(objectId)} order by id`,
  );
const reportStatus = async (id: number) =>
  (await sqlRows<{ status: string }>(database.db, sql`select status from reports where id = ${id}`))[0]?.status;

describe("the staff queue (/staff/api/reports)", () => {
  it("shows moderators the reports, support the complaints and admins both; others are refused", async () => {
    const { reportId } = await reported();
    const { id: complaintId } = await complaint("en");
    const keys = (items: Awaited<ReturnType<typeof queueOf>>) => items.map((i) => `${i.kind}:${i.id}`);

    const moderator = keys(await queueOf(await staffLogin(app, "moderator")));
    expect(moderator).toContain(`report:${reportId}`);
    expect(moderator.some((k) => k.startsWith("complaint:"))).toBe(false);
    const support = keys(await queueOf(await staffLogin(app, "support")));
    expect(support).toContain(`complaint:${complaintId}`);
    expect(support.some((k) => k.startsWith("report:"))).toBe(false);
    const admin = keys(await queueOf(await staffLogin(app, "admin")));
    expect(admin).toEqual(expect.arrayContaining([`report:${reportId}`, `complaint:${complaintId}`]));

    const operator = await staffLogin(app, "operator");
    const refused = await operator.client.get("/staff/api/reports");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("staff_forbidden");
    const asMember = await member();
    expect((await asMember.client.get("/staff/api/reports")).statusCode).toBe(404);
  });

  it("shows a report with what was reported, and a moderator assigns it to themself (audited)", async () => {
    const { reportId, target } = await reported();
    const moderator = await staffLogin(app, "moderator");
    const item = (await queueOf(moderator)).find((i) => i.kind === "report" && i.id === reportId);
    expect(item).toMatchObject({
      kind: "report",
      status: "open",
      reason: "scam",
      text: "Asks for money",
      object_type: "profile",
      member_id: target.userId,
      profile_id: target.profileId,
      content: { type: "profile", about: "" },
    });
    const assigned = await moderator.client.post(`/staff/api/reports/${reportId}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(queueItemResponseSchema.parse(assigned.json()).item).toMatchObject({
      status: "in_progress",
      assigned_to: moderator.staff.id,
      assigned_to_name: moderator.staff.name,
    });
    expect(await auditRows("report", reportId)).toEqual([
      {
        action: "report.assign",
        staff_id: moderator.staff.id,
        member_id: target.userId,
        before: { status: "open", assigned_to: null, resolution: null },
        after: { status: "in_progress", assigned_to: moderator.staff.id, resolution: null },
      },
    ]);
  });

  it("bans the reported member from the report: their session ends, the report closes, one audit row records both", async () => {
    const { reportId, target } = await reported();
    const moderator = await staffLogin(app, "moderator");
    const ends = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const response = await moderator.client.post(`/staff/api/reports/${reportId}/ban`, {
      reason: "scam",
      ends_at: ends,
      note: "Same text as three earlier scammers",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(queueItemResponseSchema.parse(response.json()).item).toMatchObject({ status: "closed", resolution: "ban: scam" });
    // The member's next call with the old cookie is refused as banned.
    const call = await target.client.get("/api/chats.php");
    expect(call.json().error).toBe("account_banned");
    const [row] = await auditRows("report", reportId);
    expect(row).toMatchObject({
      action: "report.ban",
      member_id: target.userId,
      before: { report: { status: "open" }, ban: null },
      after: { report: { status: "closed" }, ban: { reason: "scam", endsAt: ends, note: "Same text as three earlier scammers" } },
    });
    // The ban shows on the member's bans, to support too.
    const support = await staffLogin(app, "support");
    const bans = bansResponseSchema.parse((await support.client.get(`/staff/api/members/${target.userId}/bans`)).json());
    expect(bans.current).toMatchObject({ reason: "scam", ends_at: ends, created_by: moderator.staff.id });
    // Acting on a closed report is refused.
    const again = await moderator.client.post(`/staff/api/reports/${reportId}/dismiss`, { resolution: "no" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("report_closed");
  });

  it("a ban that fails changes nothing and leaves no audit row (same transaction)", async () => {
    const { reportId, target } = await reported();
    const moderator = await staffLogin(app, "moderator");
    const past = await moderator.client.post(`/staff/api/reports/${reportId}/ban`, {
      reason: "scam",
      ends_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().error).toBe("ban_end_in_past");
    expect(await reportStatus(reportId)).toBe("open");
    expect(await auditRows("report", reportId)).toEqual([]);
    expect((await target.client.get("/api/chats.php")).statusCode).toBe(200);
    expect(await app.services.bans.current(target.userId)).toBeNull();

    // An unban of a member who is not banned: 409, no row.
    const before = await sqlCount(
      database.db,
      sql`select count(*)::int as n from staff_audit where member_id = ${target.userId}`,
    );
    const unban = await moderator.client.post(`/staff/api/members/${target.userId}/unban`, {});
    expect(unban.statusCode).toBe(409);
    expect(unban.json().error).toBe("not_banned");
    expect(await sqlCount(database.db, sql`select count(*)::int as n from staff_audit where member_id = ${target.userId}`)).toBe(
      before,
    );
  });

  it("dismisses a report with a resolution", async () => {
    const { reportId } = await reported();
    const moderator = await staffLogin(app, "moderator");
    const bad = await moderator.client.post(`/staff/api/reports/${reportId}/dismiss`, { resolution: "  " });
    expect(bad.statusCode).toBe(422);
    const dismissed = await moderator.client.post(`/staff/api/reports/${reportId}/dismiss`, {
      resolution: "Profile checked, nothing wrong",
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json().item).toMatchObject({ status: "closed", resolution: "Profile checked, nothing wrong" });
    expect((await auditRows("report", reportId)).map((r) => r.action)).toEqual(["report.dismiss"]);
    expect((await queueOf(moderator, "closed")).some((i) => i.kind === "report" && i.id === reportId)).toBe(true);
  });
});

describe("complaints in the queue (support)", () => {
  it("answers by e-mail in the complainant's language, then closes; each step audited", async () => {
    const { id, reference, email } = await complaint("it");
    const support = await staffLogin(app, "support");
    const short = await support.client.post(`/staff/api/complaints/${id}/answer`, { text: "ok" });
    expect(short.statusCode).toBe(422);
    expect(short.json().error).toBe("answer_too_short");
    const answered = await support.client.post(`/staff/api/complaints/${id}/answer`, {
      text: "We have removed the profiles that wrote to you.",
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().item).toMatchObject({
      status: "in_progress",
      assigned_to: support.staff.id,
      locale: "it",
      answers: [{ text: "We have removed the profiles that wrote to you.", staff_id: support.staff.id }],
    });
    for (let round = 0; round < 20 && (await app.services.jobs.runDue()) > 0; round++);
    const [mail] = await sqlRows<{ subject: string; text: string }>(
      database.db,
      sql`select subject, text from mail_outbox where "to" = ${email} and subject like 'La nostra risposta%'`,
    );
    expect(mail?.subject).toBe(`La nostra risposta al tuo reclamo ${reference}`);
    expect(mail?.text).toContain("We have removed the profiles that wrote to you.");
    expect(mail?.text).toContain(`Il nostro team ha esaminato il tuo reclamo ${reference}`);

    const closed = await support.client.post(`/staff/api/complaints/${id}/close`, { resolution: "Answered" });
    expect(closed.json().item).toMatchObject({ status: "closed", resolution: "Answered" });
    expect((await auditRows("complaint", id)).map((r) => r.action)).toEqual(["complaint.answer", "complaint.close"]);

    // A moderator does not handle complaints.
    const moderator = await staffLogin(app, "moderator");
    expect((await moderator.client.post(`/staff/api/complaints/${id}/assign`, {})).json().error).toBe("staff_forbidden");
  });
});

describe("bans from the console (moderators)", () => {
  it("bans and unbans a member, each audited; support may look but not ban", async () => {
    const target = await member();
    const moderator = await staffLogin(app, "moderator");
    const support = await staffLogin(app, "support");
    const refused = await support.client.post(`/staff/api/members/${target.userId}/ban`, { reason: "spam" });
    expect(refused.statusCode).toBe(403);
    expect(target.client.cookies.has(SESSION_COOKIE)).toBe(true);
    expect((await target.client.get("/api/chats.php")).statusCode).toBe(200);

    const banned = await moderator.client.post(`/staff/api/members/${target.userId}/ban`, { reason: "spam" });
    expect(banned.statusCode, banned.body).toBe(200);
    expect(bansResponseSchema.parse(banned.json()).current).toMatchObject({ reason: "spam", ends_at: null });
    expect((await target.client.get("/api/chats.php")).json().error).toBe("account_banned");
    const lifted = await moderator.client.post(`/staff/api/members/${target.userId}/unban`, {});
    expect(bansResponseSchema.parse(lifted.json())).toMatchObject({ current: null, history: [{ reason: "spam" }] });
    expect((await auditRows("member", target.userId)).map((r) => r.action)).toEqual(["member.ban", "member.unban"]);
    expect((await moderator.client.post("/staff/api/members/2000000000/ban", { reason: "spam" })).statusCode).toBe(404);
  });
});

describe("a reported photo message", () => {
  it("shows its photo to those who handle reports while the chat keeps it, and to nobody else", async () => {
    const reporter = await createMember(app, { activate: true, gender: "female" });
    const sender = await createMember(app, { activate: true, gender: "male", credits: 500 });
    const bytes = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .toBuffer();
    const rules = sendRules(await app.services.site.settingsFor("", "en"));
    const sent = await app.services.chat.sendPhoto(
      sender,
      { profile_id: reporter.profileId, client_id: randomUUID() },
      bytes,
      rules,
    );
    const reported = await reporter.client.post("/api/report.php", {
      message_id: sent.message.id,
      reason: "inappropriate_content",
    });
    expect(reported.statusCode, reported.body).toBe(200);
    const [row] = await sqlRows<{ id: number }>(app.services.database.db, sql`select id from reports order by id desc limit 1`);
    const path = `/staff/api/reports/${row?.id}/photo.jpg`;
    const moderator = await staffLogin(app, "moderator");
    const shown = await moderator.client.get(path);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/jpeg");
    expect(shown.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await (await staffLogin(app, "operator")).client.get(path)).statusCode).toBe(403);
    expect((await reporter.client.get(path)).statusCode).toBe(404);
    expect((await moderator.client.get("/staff/api/reports/999999/photo.jpg")).statusCode).toBe(404);
  });
});
