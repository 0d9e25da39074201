import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sqlCount } from "../../test/factories.ts";
import { useTestApp } from "../../test/harness.ts";
import { signUpMember } from "../../test/members.ts";
import { LOGIN_HISTORY_DAYS } from "./support.ts";

const context = useTestApp({ seed: { profiles: 0 } });

describe("members' logins (support's view, issue #27)", () => {
  it("records each login with its address and browser, and forgets those older than the history's days", async () => {
    const { app } = context;
    const member = await signUpMember(app);
    const { support } = app.services.accounts;
    const logins = (userId: number) =>
      sqlCount(app.services.database.db, sql`select count(*)::int as n from member_logins where user_id = ${userId}`);
    await support.recordLogin(member.userId, { method: "password", address: "198.51.100.9", userAgent: "Firefox" });
    const recorded = await support.logins(member.userId, 10);
    expect(recorded[0]).toMatchObject({ method: "password", address: "198.51.100.9", userAgent: "Firefox" });
    const total = await logins(member.userId);
    await app.services.database.db.execute(
      sql`update member_logins set created_at = now() - ${`${LOGIN_HISTORY_DAYS + 1} days`}::interval
          where user_id = ${member.userId} and address = '198.51.100.9'`,
    );
    expect(await support.pruneLogins()).toBeGreaterThanOrEqual(1);
    expect(await logins(member.userId)).toBe(total - 1);
    expect((await support.logins(member.userId, 10)).some((login) => login.address === "198.51.100.9")).toBe(false);
  });
});
