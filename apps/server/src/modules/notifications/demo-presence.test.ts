import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../../platform/db/index.ts";
import { createMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { DEMO_ROTATION_EVERY_MS, demoPresenceAt, onlineCondition, Presence } from "./presence.ts";
import { ACTIVE_TODAY_MS, ACTIVE_WEEK_MS } from "./presence-labels.ts";

let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app } = env);
});

const ids = Array.from({ length: 2000 }, (_, i) => i + 1);
const START = Date.parse("2026-11-27T18:00:00Z");

function shares(now: number) {
  const states = ids.map((id) => demoPresenceAt(id, now));
  const share = (test: (s: (typeof states)[number]) => boolean) => states.filter(test).length / ids.length;
  return {
    online: share((s) => s.lookingUntil !== null && s.lookingUntil.getTime() > now),
    today: share((s) => s.seenAt.getTime() > now - ACTIVE_TODAY_MS),
    week: share((s) => s.seenAt.getTime() > now - ACTIVE_WEEK_MS),
    future: share((s) => s.seenAt.getTime() > now),
  };
}

describe("the demo site's fictional presence (issue #29)", () => {
  it("keeps a share online, most active today or this week, at any time, not only at the seed", () => {
    for (const offset of [0, 3 * 3_600_000, 26 * 3_600_000, 9 * 86_400_000, 400 * 86_400_000]) {
      const at = shares(START + offset);
      expect(at.online, `online at +${offset}`).toBeGreaterThan(0.03);
      expect(at.online).toBeLessThan(0.1);
      expect(at.today).toBeGreaterThan(0.6);
      expect(at.week).toBeGreaterThan(0.8);
      expect(at.week).toBeLessThan(0.97);
      expect(at.future).toBe(0);
    }
  });

  it("rotates: who is online changes between runs of the job", () => {
    const online = (now: number) => new Set(ids.filter((id) => demoPresenceAt(id, now).lookingUntil !== null));
    const now = online(START);
    const hourLater = online(START + 3_600_000);
    expect([...now].filter((id) => !hourLater.has(id)).length).toBeGreaterThan(10);
    expect([...hourLater].filter((id) => !now.has(id)).length).toBeGreaterThan(10);
    // An online member stays online past the next run of the job that writes it (no flicker between runs).
    for (const id of now) {
      const until = demoPresenceAt(id, START).lookingUntil?.getTime() ?? 0;
      if (until > START + DEMO_ROTATION_EVERY_MS)
        expect(demoPresenceAt(id, START + DEMO_ROTATION_EVERY_MS).lookingUntil).not.toBeNull();
    }
  });

  it("writes it through the presence service, and an invisible or presence-hiding member stays hidden", async () => {
    const db = app.services.database.db;
    const members = await Promise.all([1, 2, 3].map(() => createMember(app, { activate: true, gender: "female" })));
    const [shown, invisible, hiding] = members.map((m) => m.userId) as [number, number, number];
    await db.execute(sql`update users set invisible = true where id = ${invisible}`);
    await db.execute(sql`update users set hide_presence = true where id = ${hiding}`);
    // Each at a moment of one of their sessions, when the rotation has them online.
    const online = async (userId: number) => {
      let at = START;
      while (demoPresenceAt(userId, at).lookingUntil === null) at += 5 * 60_000;
      await new Presence(db, () => new Date(at)).rotateDemo([userId]);
      const [row] = await rowsOf<{ online: boolean }>(
        db,
        sql`select ${onlineCondition(sql`${userId}::int`, new Date(at))} as "online"`,
      );
      return row?.online === true;
    };
    expect(await online(shown)).toBe(true);
    expect(await online(invisible)).toBe(false);
    expect(await online(hiding)).toBe(false);
  });
});
