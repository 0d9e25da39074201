import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { linkIn, startSmtp } from "../../test/smtp.ts";

/** A notification e-mail over real SMTP: RFC 8058's headers reach the wire, and the unsubscribe link works. */
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

// The mail server outlives the app (hooks: before in order, after in reverse).
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

useTestApp({ env: () => ({ SMTP_URL: smtp.url }), seed: { profiles: 0 } }, (context) => {
  ({ app } = context);
});

async function member(gender: "male" | "female", name: string): Promise<TestMember> {
  const created = await createMember(app, { activate: true, credits: 200, gender, name });
  await app.services.database.db.execute(sql`update users set status = 'active' where id = ${created.userId}`);
  await smtp.next(created.email); // the signup's confirmation
  return created;
}

describe("notification e-mails over SMTP", () => {
  it("carries List-Unsubscribe and List-Unsubscribe-Post, a text and an HTML part, and the settings link", async () => {
    const ann = await member("female", "Ann");
    const ben = await member("male", "Ben");
    const sent = await ann.client.post("/api/message.php", { client_id: randomUUID(), profile_id: ben.profileId, text: "Hi" });
    expect(sent.statusCode, sent.body).toBe(200);
    await app.services.notifications.drainAll();
    await app.services.jobs.runAllDue();
    const mail = await smtp.next(ben.email, /Ann sent you a message/);
    // mailparser reads the List-* headers into one structured "list" header.
    const list = mail.headers.get("list") as { unsubscribe?: { url?: string }; "unsubscribe-post"?: { name?: string } };
    const unsubscribe = String(list.unsubscribe?.url);
    expect(unsubscribe).toMatch(/^http:\/\/localhost:\d+\/api\/unsubscribe\.php\?token=[\w.%-]+$/);
    expect(list["unsubscribe-post"]?.name).toBe("List-Unsubscribe=One-Click");
    expect(mail.html).toContain("/notifications");
    expect(linkIn(mail, "/notifications")).toMatch(/\/notifications$/);

    const url = new URL(unsubscribe);
    const response = await app.server.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(response.json()).toEqual({ ok: true, category: "new_conversations" });
  });
});
