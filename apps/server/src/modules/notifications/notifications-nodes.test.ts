import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlCount, type TestMember } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { useTwoNodes } from "../../test/sockets.ts";

let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({ seed: { profiles: 0 }, timeout: 120_000 }, (nodes) => {
  ({ nodeA, nodeB } = nodes);
});

const db = () => nodeA.services.database.db;

async function member(app: TestApp, gender: "male" | "female"): Promise<TestMember> {
  const created = await createMember(app, { activate: true, credits: 200, gender });
  await db().execute(sql`update users set status = 'active' where id = ${created.userId}`);
  return created;
}

/** Both nodes drain the queue and run their due jobs at the same time, as their runners would. */
async function bothNodesRun() {
  await Promise.all([nodeA.services.notifications.drainAll(), nodeB.services.notifications.drainAll()]);
  await Promise.all([nodeA.services.jobs.runAllDue(), nodeB.services.jobs.runAllDue()]);
}

const notificationMails = (m: TestMember) =>
  sqlCount(db(), sql`select count(*)::int as n from mail_outbox where "to" = ${m.email} and headers ? 'List-Unsubscribe'`);

describe("notifications across two server nodes on one database", () => {
  it("sends each notification exactly once while both nodes drain and run jobs concurrently, also when events are queued again", async () => {
    const ben = await member(nodeA, "male");
    const writers = await Promise.all([1, 2, 3, 4, 5].map(() => member(nodeB, "female")));
    for (const writer of writers) {
      const sent = await writer.client.post("/api/message.php", {
        client_id: randomUUID(),
        profile_id: ben.profileId,
        text: "Hi",
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    await bothNodesRun();
    await bothNodesRun();
    // One new-conversation e-mail per writer.
    expect(await notificationMails(ben)).toBe(5);

    // A node that died after enqueueing but before deleting its queue rows: the events are decided again.
    await db().execute(
      sql`insert into notification_queue (user_id, seq) select user_id, seq from member_events where user_id = ${ben.userId}`,
    );
    await bothNodesRun();
    await bothNodesRun();
    expect(await notificationMails(ben)).toBe(5);
    expect(await sqlCount(db(), sql`select count(*)::int as n from notification_queue`)).toBe(0);
    expect(
      await sqlCount(
        db(),
        sql`select count(*)::int as n from notifications where user_id = ${ben.userId} and sent_at is not null`,
      ),
    ).toBe(5);
  });
});
