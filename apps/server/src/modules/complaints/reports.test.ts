import { randomUUID } from "node:crypto";
import { messageResponseSchema, REPORT_TEXT_MAX, reportResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { addPhoto, block, createMember, type MemberOptions, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { REPORTS_PER_HOUR } from "./reports.ts";

let database: TestDatabase;
let app: TestApp;
useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const member = (options: MemberOptions = {}) => createMember(app, { activate: true, credits: 100, ...options });
const report = (client: TestClient, body: Record<string, unknown>) => client.post("/api/report.php", { reason: "spam", ...body });
const reportCount = () => sqlCount(database.db, sql`select count(*)::int as n from reports`);
const rowOf = async (id: number) =>
  (
    await sqlRows<{
      reporter_id: number;
      object_type: string;
      object_id: number;
      profile_id: number;
      user_id: number;
      reason: string;
      text: string;
      content: Record<string, unknown>;
      status: string;
    }>(database.db, sql`select * from reports where id = ${id}`)
  )[0];
async function sendMessage(from: TestMember, to: TestMember, text: string) {
  const response = await from.client.post("/api/message.php", { client_id: randomUUID(), text, profile_id: to.profileId });
  expect(response.statusCode, response.body).toBe(200);
  return messageResponseSchema.parse(response.json()).message.id;
}

describe("a report (POST /api/report.php)", () => {
  it("of a profile keeps its about text and main photo as they were, with the reason and the reporter's words", async () => {
    const reporter = await member({ gender: "female" });
    const reported = await member({ gender: "male", name: "Maxime" });
    await reported.client.put("/api/profile.php", { about: "Send me money for the ticket" });
    const photo = await addPhoto(app, reported.profileId, { main: true });
    const response = await report(reporter.client, {
      profile_id: reported.profileId,
      reason: "scam",
      text: "  Asks for money  ",
    });
    expect(response.statusCode, response.body).toBe(200);
    const { id } = reportResponseSchema.parse(response.json());
    // The about text changes afterwards: the report keeps what the reporter saw.
    await reported.client.put("/api/profile.php", { about: "Nothing to see" });
    expect(await rowOf(id)).toMatchObject({
      reporter_id: reporter.userId,
      object_type: "profile",
      object_id: reported.profileId,
      profile_id: reported.profileId,
      user_id: reported.userId,
      reason: "scam",
      text: "Asks for money",
      status: "open",
      content: {
        type: "profile",
        name: "Maxime",
        about: "Send me money for the ticket",
        main_photo_url: `/cdn/${photo.filename}`,
      },
    });
  });

  it("of a message keeps its text and names its sender; only a message the reporter received", async () => {
    const reporter = await member({ gender: "female" });
    const sender = await member({ gender: "male", name: "Tomasz" });
    const received = await sendMessage(sender, reporter, "You will regret ignoring me");
    const own = await sendMessage(reporter, sender, "Please stop");
    const response = await report(reporter.client, { message_id: received, reason: "harassment" });
    expect(response.statusCode, response.body).toBe(200);
    const { id } = reportResponseSchema.parse(response.json());
    expect(await rowOf(id)).toMatchObject({
      object_type: "message",
      object_id: received,
      profile_id: sender.profileId,
      user_id: sender.userId,
      content: { type: "message", sender_name: "Tomasz", kind: "text", text: "You will regret ignoring me" },
    });

    // Not one's own message, nor one of a conversation one is not in.
    const before = await reportCount();
    const ownReport = await report(reporter.client, { message_id: own });
    expect(ownReport.statusCode).toBe(422);
    expect(ownReport.json()).toMatchObject({ error: "message_not_found", fields: { message_id: expect.any(String) } });
    const stranger = await member({ gender: "female" });
    expect((await report(stranger.client, { message_id: received })).json().error).toBe("message_not_found");
    expect(await reportCount()).toBe(before);
  });

  it("refuses bad input with a clear error and stores nothing", async () => {
    const reporter = await member({ gender: "female" });
    const other = await member({ gender: "male" });
    const before = await reportCount();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ profile_id: reporter.profileId }, 422, "report_about_self"],
      [{ profile_id: 2_000_000_000 }, 422, "profile_not_found"],
      [{ profile_id: other.profileId, reason: "boring" }, 422, "validation_failed"],
      [{}, 422, "validation_failed"],
      [{ profile_id: other.profileId, message_id: 1 }, 422, "validation_failed"],
      [{ profile_id: other.profileId, text: "x".repeat(REPORT_TEXT_MAX + 1) }, 422, "report_text_too_long"],
    ];
    for (const [body, status, error] of cases) {
      const response = await report(reporter.client, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().error, JSON.stringify(body)).toBe(error);
    }
    // A visitor cannot report.
    expect((await report(new TestClient(app.server), { profile_id: other.profileId })).json().error).toBe(
      "authentication_required",
    );
    // A profile whose member blocked the reporter is not theirs to see.
    const blocker = await member({ gender: "male" });
    await block(app, blocker, reporter);
    expect((await report(reporter.client, { profile_id: blocker.profileId })).json().error).toBe("profile_not_found");
    expect(await reportCount()).toBe(before);
  });

  it("keeps one open report per reporter and object; once closed, the object can be reported again", async () => {
    const reporter = await member({ gender: "female" });
    const other = await member({ gender: "male" });
    const first = await report(reporter.client, { profile_id: other.profileId });
    expect(first.statusCode).toBe(200);
    const again = await report(reporter.client, { profile_id: other.profileId, reason: "fake_profile" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("report_duplicate");
    // Someone else may report the same profile.
    const second = await member({ gender: "female" });
    expect((await report(second.client, { profile_id: other.profileId })).statusCode).toBe(200);
    await database.db.execute(sql`update reports set status = 'closed' where id = ${first.json().id}`);
    expect((await report(reporter.client, { profile_id: other.profileId })).statusCode).toBe(200);
  });

  it(`limits a member to ${REPORTS_PER_HOUR} reports an hour`, async () => {
    const reporter = await member({ gender: "female" });
    for (let i = 0; i < REPORTS_PER_HOUR; i++) {
      const other = await member({ gender: "male" });
      expect((await report(reporter.client, { profile_id: other.profileId })).statusCode).toBe(200);
    }
    const over = await member({ gender: "male" });
    const refused = await report(reporter.client, { profile_id: over.profileId });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe("rate_limited");
  });
});
