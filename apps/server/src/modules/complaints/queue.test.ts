import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { t } from "../../platform/i18n.ts";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlRows, uniqueEmail } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;
useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const STAFF = 9001;
const DESCRIPTION = "Someone keeps writing to me from several profiles.";
const tx = <T>(change: (tx: Parameters<Parameters<TestDatabase["db"]["transaction"]>[0]>[0]) => Promise<T>) =>
  database.db.transaction(change);

async function complaintFrom(locale: string, email = uniqueEmail("complainant")) {
  const response = await new TestClient(app.server, { locale }).post("/api/complaint.php", {
    subject: "harassment",
    description: DESCRIPTION,
    email,
  });
  expect(response.statusCode, response.body).toBe(200);
  const [row] = await sqlRows<{ id: number; reference: string }>(
    database.db,
    sql`select id, reference from complaints where reference = ${response.json().reference}`,
  );
  if (!row) throw new Error("complaint not stored");
  return { ...row, email };
}
async function reportOfNewProfile() {
  const reporter = await createMember(app, { activate: true, gender: "female" });
  const reported = await createMember(app, { activate: true, gender: "male" });
  const response = await reporter.client.post("/api/report.php", { reason: "fake_profile", profile_id: reported.profileId });
  expect(response.statusCode, response.body).toBe(200);
  return { id: response.json().id as number, reported };
}
const mailsTo = async (to: string) => {
  for (let round = 0; round < 20 && (await app.services.jobs.runDue()) > 0; round++);
  return sqlRows<{ subject: string; text: string }>(
    database.db,
    sql`select subject, text from mail_outbox where "to" = ${to} order by id`,
  );
};

describe("the queue of reports and complaints", () => {
  it("lists both kinds still to handle, oldest first, and only the kinds asked for", async () => {
    const complaint = await complaintFrom("en");
    const report = await reportOfNewProfile();
    const both = await app.services.queue.list({ kinds: ["report", "complaint"], status: "active" });
    const keys = both.map((item) => `${item.kind}:${item.row.id}`);
    expect(keys.indexOf(`complaint:${complaint.id}`)).toBeLessThan(keys.indexOf(`report:${report.id}`));
    const created = both.map((item) => item.row.createdAt.getTime());
    expect(created).toEqual([...created].sort((a, b) => a - b));
    const reportsOnly = await app.services.queue.list({ kinds: ["report"], status: "active" });
    expect(reportsOnly.every((item) => item.kind === "report")).toBe(true);
    expect(reportsOnly.map((item) => item.row.id)).toContain(report.id);
  });

  it("assigns, answers a complaint by e-mail in the complainant's language, and closes with a resolution", async () => {
    const complaint = await complaintFrom("pl");
    await mailsTo(complaint.email); // the confirmation
    const assigned = await tx((t) => app.services.queue.assign(t, "complaint", complaint.id, STAFF));
    expect(assigned).toEqual({
      before: { status: "open", assigned_to: null, resolution: null },
      after: { status: "in_progress", assigned_to: STAFF, resolution: null },
      memberId: null,
    });

    await expect(tx((t) => app.services.queue.answer(t, complaint.id, STAFF, { text: " short " }))).rejects.toMatchObject({
      code: "answer_too_short",
    });
    const answered = await tx((t) =>
      app.services.queue.answer(t, complaint.id, STAFF, { text: "We removed the profiles that wrote to you." }),
    );
    expect(answered.answer.text).toBe("We removed the profiles that wrote to you.");
    const mails = await mailsTo(complaint.email);
    const answerMail = mails.at(-1);
    expect(answerMail?.subject).toBe(t("pl", "email.complaint_answer.subject", { reference: complaint.reference }));
    expect(answerMail?.subject).toContain("Nasza odpowiedź");
    expect(answerMail?.text).toContain("We removed the profiles that wrote to you.");
    expect(answerMail?.text).toContain(t("pl", "email.complaint_answer.heading"));

    const closed = await tx((t) => app.services.queue.close(t, "complaint", complaint.id, STAFF, "Answered, profiles banned"));
    expect(closed.after).toEqual({ status: "closed", assigned_to: STAFF, resolution: "Answered, profiles banned" });
    await expect(tx((t) => app.services.queue.close(t, "complaint", complaint.id, STAFF, "again"))).rejects.toMatchObject({
      code: "complaint_closed",
    });
    await expect(
      tx((t) => app.services.queue.answer(t, complaint.id, STAFF, { text: "One more thing to say." })),
    ).rejects.toMatchObject({
      code: "complaint_closed",
    });
    const closedList = await app.services.queue.list({ kinds: ["complaint"], status: "closed" });
    expect(closedList[0]).toMatchObject({
      kind: "complaint",
      row: { id: complaint.id, resolution: "Answered, profiles banned" },
    });
  });

  it("answers not_found for an unknown item and report_closed for a closed report", async () => {
    await expect(tx((t) => app.services.queue.assign(t, "report", 2_000_000_000, STAFF))).rejects.toMatchObject({
      code: "not_found",
    });
    const report = await reportOfNewProfile();
    await tx((t) => app.services.queue.close(t, "report", report.id, STAFF, "dismissed"));
    await expect(tx((t) => app.services.queue.assign(t, "report", report.id, STAFF))).rejects.toMatchObject({
      code: "report_closed",
    });
  });
});
