import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { block, createMember, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let app: TestApp;
let database: TestDatabase;
useTestApp({ listen: false, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

/**
 * The visibility policy is written twice on purpose: as lent conditions the list queries' planner
 * sees (search, likes, chats) and as `visibility_may_contact`, the SQL function the chat send calls
 * under its locks (PostgreSQL would not inline a function with subqueries into a list). These hold
 * the two to one answer for every case the policy knows.
 */
describe("visibility_may_contact and the lent condition", () => {
  async function answers(viewer: TestMember, target: number) {
    const visibility = app.services.visibility;
    const [row] = await sqlRows<{ lent: boolean; named: boolean }>(
      database.db,
      sql`select ${visibility.visibleProfile(sql`${target}::int`, viewer.profileId, "either")} as "lent",
                 visibility_may_contact(${viewer.profileId}::int, ${target}::int) as "named"`,
    );
    return { lent: row?.lent, named: row?.named, canContact: await visibility.canContact(viewer.profileId, target) };
  }
  const both = (ok: boolean) => ({ lent: ok, named: ok, canContact: ok });

  it("agree on visible, invisible, pending deletion, banned, ban over, inactive, fictional, blocked either way and unknown profiles", async () => {
    const viewer = await createMember(app, { activate: true });
    const member = () => createMember(app, { activate: true, gender: "male" });

    const visible = await member();
    expect(await answers(viewer, visible.profileId)).toEqual(both(true));

    const invisible = await member();
    await database.db.execute(sql`update users set invisible = true where id = ${invisible.userId}`);
    expect(await answers(viewer, invisible.profileId)).toEqual(both(false));

    const leaving = await member();
    await database.db.execute(sql`update users set status = 'pending_deletion' where id = ${leaving.userId}`);
    expect(await answers(viewer, leaving.profileId)).toEqual(both(false));

    const banned = await member();
    await database.db.transaction((tx) =>
      app.services.bans.ban(tx, { userId: banned.userId, reason: "spam", endsAt: null, staffId: null }),
    );
    expect(await answers(viewer, banned.profileId)).toEqual(both(false));

    // A ban over by itself (its end passed, the mark not cleared yet) hides nobody.
    const banOver = await member();
    await database.db.execute(sql`update users set banned_until = now() - interval '1 minute' where id = ${banOver.userId}`);
    expect(await answers(viewer, banOver.profileId)).toEqual(both(true));

    const inactive = await createMember(app, { gender: "male" });
    expect(await answers(viewer, inactive.profileId)).toEqual(both(false));

    const fictional = await member();
    await database.db.execute(sql`update profiles set fictional = true where id = ${fictional.profileId}`);
    expect(await answers(viewer, fictional.profileId)).toEqual(both(true));

    const blocked = await member();
    await block(app, viewer, blocked);
    expect(await answers(viewer, blocked.profileId)).toEqual(both(false));

    const blocker = await member();
    await block(app, blocker, viewer);
    expect(await answers(viewer, blocker.profileId)).toEqual(both(false));

    expect(await answers(viewer, 2_000_000_000)).toEqual(both(false));
  });

  it("never lets a member contact themselves", async () => {
    const viewer = await createMember(app, { activate: true });
    expect(await app.services.visibility.canContact(viewer.profileId, viewer.profileId)).toBe(false);
  });
});
