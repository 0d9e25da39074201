import {
  badgesResponseSchema,
  LIKES_PAGE_SIZE,
  likeResponseSchema,
  likesResponseSchema,
  type MemberEvent,
  memberResponseSchema,
  SWIPE_BATCH,
  swipeResponseSchema,
  swipeResultSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestClient } from "../../test/client.ts";
import { addPhoto, block, createMember, type MemberOptions, sqlCount, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp, usingPostgres } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

// The default site and the demo accounts, no demo profiles: each test makes the members it needs.
useTestApp({ listen: false, seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app, database } = env);
});

const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });
/** A woman seeking men and a man seeking women. */
const pair = async () => [await member({ gender: "female" }), await member({ gender: "male" })] as const;

async function like(client: TestClient, id: number) {
  const response = await client.post("/api/like.php", { id });
  expect(response.statusCode, response.body).toBe(200);
  return likeResponseSchema.parse(response.json());
}
async function unlike(client: TestClient, id: number) {
  const response = await client.delete(`/api/like.php?id=${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return likeResponseSchema.parse(response.json());
}
async function likes(client: TestClient, query = "") {
  const response = await client.get(`/api/likes.php${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return likesResponseSchema.parse(response.json());
}
async function view(client: TestClient, id: number) {
  const response = await client.get(`/api/member.php?id=${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return memberResponseSchema.parse(response.json());
}
/** The durable events recorded for a member (what their sockets got or will get on resume). */
async function eventsOf(m: TestMember): Promise<MemberEvent[]> {
  return (await app.services.events.since(m.userId, 0)).events.map((e) => e.event);
}
/** The `i`th element, which the test made sure exists. */
function nth<T>(list: readonly T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new Error(`no element ${i}`);
  return item;
}
const likeCount = () => sqlCount(database.db, sql`select count(*)::int as n from likes`);

describe("likes and matches", () => {
  it("walks every state through the API: none → liked/received → match → back, idempotent", async () => {
    const [ann, ben] = await pair();
    expect((await view(ann.client, ben.profileId)).like).toBe("none");

    expect(await like(ann.client, ben.profileId)).toEqual({ id: ben.profileId, state: "liked", match: null });
    expect((await view(ann.client, ben.profileId)).like).toBe("liked");
    expect((await view(ben.client, ann.profileId)).like).toBe("received");
    // Liking twice: same answer, no second event.
    const eventsBefore = (await eventsOf(ben)).length;
    expect(await like(ann.client, ben.profileId)).toEqual({ id: ben.profileId, state: "liked", match: null });
    expect((await eventsOf(ben)).length).toBe(eventsBefore);

    const matched = await like(ben.client, ann.profileId);
    expect(matched.state).toBe("match");
    expect(matched.match).toMatchObject({ id: ann.profileId, fictional: false, main_image: null });
    expect((await view(ann.client, ben.profileId)).like).toBe("match");
    // Liking again after the match makes no second match.
    expect((await like(ben.client, ann.profileId)).match).toBeNull();

    // Ann takes hers back: match → received for Ann, liked for Ben.
    expect(await unlike(ann.client, ben.profileId)).toEqual({ id: ben.profileId, state: "received", match: null });
    expect((await view(ben.client, ann.profileId)).like).toBe("liked");
    expect(await unlike(ann.client, ben.profileId)).toEqual({ id: ben.profileId, state: "received", match: null });
    expect(await unlike(ben.client, ann.profileId)).toEqual({ id: ann.profileId, state: "none", match: null });
    expect((await view(ann.client, ben.profileId)).like).toBe("none");
    // Visitors see "none".
    const visitor = new (ann.client.constructor as typeof TestClient)(app.server);
    expect((await view(visitor, ben.profileId)).like).toBe("none");
  });

  it("sends like.received, like.match to both (initiator the second liker) and like.changed on unlike", async () => {
    const [ann, ben] = await pair();
    await addPhoto(app, ann.profileId, { main: true });
    await like(ann.client, ben.profileId);
    expect(await eventsOf(ben)).toEqual([{ type: "like.received", profile_id: ann.profileId }, { type: "badges.changed" }]);
    const received: unknown[] = [];
    const stop = await app.services.bus.subscribe(`member:${ben.userId}`, (message) => void received.push(message));
    const answer = await like(ben.client, ann.profileId);
    expect(answer.match?.main_image?.match_url).toMatch(/^\/cdn\/photos\/[0-9a-f]+\.jpg$/);
    expect(answer.match?.main_image?.thumb_url).toMatch(/-t\.jpg$|\.jpg$/);
    const benEvents = await eventsOf(ben);
    expect(benEvents.filter((e) => e.type === "like.match")).toEqual([
      { type: "like.match", profile: answer.match, initiator: true },
    ]);
    const annEvents = await eventsOf(ann);
    expect(annEvents.filter((e) => e.type === "like.match")).toEqual([
      { type: "like.match", profile: expect.objectContaining({ id: ben.profileId }), initiator: false },
    ]);
    // Delivered live over the bus (what the WebSocket hub forwards to Ben's tabs).
    await expect.poll(() => received.some((m) => (m as { event: MemberEvent }).event.type === "like.match")).toBe(true);
    expect(received).toContainEqual({
      seq: expect.any(Number),
      event: { type: "like.match", profile: answer.match, initiator: true },
    });
    await stop();
    await unlike(ben.client, ann.profileId);
    // Ann still likes Ben; his like to her, not yet opened, leaves her badge.
    expect((await eventsOf(ann)).slice(-2)).toEqual([
      { type: "like.changed", profile_id: ben.profileId, state: "liked" },
      { type: "badges.changed" },
    ]);
    expect((await eventsOf(ben)).at(-1)).toEqual({ type: "like.changed", profile_id: ann.profileId, state: "received" });
  });

  it("makes one match, and one like.match per member, when both like at the same instant", async () => {
    for (let round = 0; round < 5; round++) {
      const [ann, ben] = await pair();
      const [a, b] = await Promise.all([like(ann.client, ben.profileId), like(ben.client, ann.profileId)]);
      // One of the two landed second: it made the match and shows the pop-up; the first saw "liked".
      expect([a.state, b.state].sort()).toEqual(["liked", "match"]);
      expect([a.match, b.match].filter(Boolean)).toHaveLength(1);
      expect((await view(ann.client, ben.profileId)).like).toBe("match");
      const matchEvents = async (m: TestMember) => (await eventsOf(m)).filter((e) => e.type === "like.match");
      expect(await matchEvents(ann)).toHaveLength(1);
      expect(await matchEvents(ben)).toHaveLength(1);
      const initiators = [...(await matchEvents(ann)), ...(await matchEvents(ben))].map(
        (e) => e.type === "like.match" && e.initiator,
      );
      expect(initiators.sort()).toEqual([false, true]);
      expect(
        await sqlCount(
          database.db,
          sql`select count(*)::int as n from likes where matched_at is not null and liker_id in (${ann.profileId}, ${ben.profileId})`,
        ),
      ).toBe(2);
    }
  });

  it("refuses bad ids, one's own, hidden, blocked and unknown profiles, and visitors, changing nothing", async () => {
    const [ann, ben] = await pair();
    const before = await likeCount();
    const post = (client: TestClient, body: unknown) => client.post("/api/like.php", body);
    expect((await post(ann.client, { id: "x" })).statusCode).toBe(422);
    expect((await post(ann.client, { id: 2147483648 })).statusCode).toBe(422);
    expect((await ann.client.delete("/api/like.php?id=abc")).statusCode).toBe(422);
    const self = await post(ann.client, { id: ann.profileId });
    expect([self.statusCode, self.json().error]).toEqual([422, "cannot_like_self"]);
    const unknown = await post(ann.client, { id: 2147483000 });
    expect([unknown.statusCode, unknown.json().error]).toEqual([422, "profile_unavailable"]);
    const hidden = await member({ gender: "male", activate: false });
    expect((await post(ann.client, { id: hidden.profileId })).json().error).toBe("profile_unavailable");
    const invisible = await member({ gender: "male" });
    await database.db.execute(sql`update users set invisible = true where id = ${invisible.userId}`);
    expect((await post(ann.client, { id: invisible.profileId })).json().error).toBe("profile_unavailable");
    await block(app, ben, ann);
    expect((await post(ann.client, { id: ben.profileId })).json().error).toBe("profile_unavailable");
    expect((await post(ben.client, { id: ann.profileId })).json().error).toBe("profile_unavailable");
    const visitor = new (ann.client.constructor as typeof TestClient)(app.server);
    for (const response of [
      await post(visitor, { id: ben.profileId }),
      await visitor.get("/api/likes.php"),
      await visitor.get("/api/badges.php"),
      await visitor.get("/api/auto-like.php"),
      await visitor.get("/api/swipe.php"),
    ]) {
      expect([response.statusCode, response.json().error]).toEqual([403, "authentication_required"]);
    }
    expect(await likeCount()).toBe(before);
  });

  it("deletes the likes both ways when one blocks the other, and tells both", async () => {
    const [ann, ben] = await pair();
    await like(ann.client, ben.profileId);
    await like(ben.client, ann.profileId);
    await block(app, ann, ben);
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from likes where ${ann.profileId} in (liker_id, liked_id) or ${ben.profileId} in (liker_id, liked_id)`,
      ),
    ).toBe(0);
    expect(await eventsOf(ben)).toContainEqual({ type: "like.changed", profile_id: ann.profileId, state: "none" });
    expect(await eventsOf(ann)).toContainEqual({ type: "like.changed", profile_id: ben.profileId, state: "none" });
    expect((await likes(ann.client, "?type=matches")).counts).toEqual({ received: 0, sent: 0, matches: 0, new: 0 });
  });
});

describe("the likes overview and the new-like flag", () => {
  it("lists each tab with liked_by and like_new, new ones first, and opening a profile clears the flag", async () => {
    const me = await member({ gender: "female" });
    const fans: TestMember[] = [];
    for (let i = 0; i < 3; i++) fans.push(await member({ gender: "male", name: `Fan${i}` }));
    for (const fan of fans) await like(fan.client, me.profileId);
    const crush = await member({ gender: "male", name: "Crush" });
    await like(me.client, crush.profileId);
    const mutual = await member({ gender: "male", name: "Mutual" });
    await like(mutual.client, me.profileId);
    await like(me.client, mutual.profileId);

    // I open the first fan's profile: not new any more, and my tabs hear of it.
    await view(me.client, nth(fans, 0).profileId);
    expect((await eventsOf(me)).slice(-2)).toEqual([
      { type: "like.changed", profile_id: nth(fans, 0).profileId, state: "received" },
      { type: "badges.changed" },
    ]);

    const received = await likes(me.client);
    expect(received.type).toBe("received");
    expect(received.counts).toEqual({ received: 3, sent: 1, matches: 1, new: 3 });
    expect(received.profiles.map((p) => p.name)).toEqual(["Fan2", "Fan1", "Fan0"]);
    expect(received.profiles.map((p) => [p.like, p.like_new])).toEqual([
      ["received", true],
      ["received", true],
      ["received", false],
    ]);
    expect(received.liked_by).toEqual(received.profiles.map((p) => ({ id: p.id, like_new: p.like_new })));
    expect([received.page, received.pages]).toEqual([1, 1]);

    const sent = await likes(me.client, "?type=sent");
    expect(sent.profiles.map((p) => [p.name, p.like, p.like_new])).toEqual([["Crush", "liked", false]]);
    expect(sent.liked_by).toEqual([]);

    const matches = await likes(me.client, "?type=matches");
    expect(matches.profiles.map((p) => [p.name, p.like, p.like_new])).toEqual([["Mutual", "match", true]]);
    expect(matches.liked_by).toEqual([{ id: mutual.profileId, like_new: true }]);

    const badges = badgesResponseSchema.parse((await me.client.get("/api/badges.php")).json());
    expect(badges).toEqual({ new_likes: 3, unread_messages: 0, new_visitors: 0 });

    // Someone who turns invisible leaves the lists and counts; blocking does too.
    await database.db.execute(sql`update users set invisible = true where id = ${nth(fans, 1).userId}`);
    expect((await likes(me.client)).counts).toEqual({ received: 2, sent: 1, matches: 1, new: 2 });
    // So does a disabled profile (both branches of the hidden set the counts check).
    await database.db.execute(sql`update profiles set status = 'disabled' where id = ${nth(fans, 2).profileId}`);
    const afterDisabled = await likes(me.client);
    expect(afterDisabled.counts).toEqual({ received: 1, sent: 1, matches: 1, new: 1 });
    expect(afterDisabled.profiles.map((p) => p.id)).not.toContain(nth(fans, 2).profileId);
    expect((await me.client.get("/api/likes.php?type=bogus")).statusCode).toBe(422);
  });

  it("pages by LIKES_PAGE_SIZE", async () => {
    const me = await member({ gender: "female" });
    const rows = [];
    for (let i = 0; i < LIKES_PAGE_SIZE + 2; i++) rows.push((await member({ gender: "male" })).profileId);
    await database.db.execute(
      sql`insert into likes (liker_id, liked_id) select unnest(${sql.param(rows)}::int[]), ${me.profileId}::int`,
    );
    const first = await likes(me.client);
    const second = await likes(me.client, "?page=2");
    expect([first.profiles.length, first.pages, second.profiles.length, second.page]).toEqual([LIKES_PAGE_SIZE, 2, 2, 2]);
    expect(new Set([...first.profiles, ...second.profiles].map((p) => p.id)).size).toBe(LIKES_PAGE_SIZE + 2);
  });
});

describe("auto-like", () => {
  it("answers a fictional profile that now likes the member, at most once a day, never a real member", async () => {
    const real = await member({ gender: "female", name: "Real" });
    const fictional = await member({ gender: "female", name: "Fictional" });
    await database.db.execute(sql`update profiles set fictional = true where id = ${fictional.profileId}`);
    const me = await member({ gender: "male", seeking: "female" });
    const get = async (m: TestMember) => {
      const response = await m.client.get("/api/auto-like.php");
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { profile: { id: number; fictional: boolean } | null };
    };
    // No photo and no like of their own: nothing.
    expect(await get(me)).toEqual({ profile: null });
    await addPhoto(app, me.profileId, { main: true });
    const clock = app.services.likes.clock;
    try {
      let now = Date.now();
      app.services.likes.clock = () => new Date(now);
      const first = await get(me);
      expect(first.profile).toMatchObject({ fictional: true });
      expect(first.profile?.id).not.toBe(real.profileId);
      const overview = await likes(me.client);
      expect(overview.liked_by).toContainEqual({ id: first.profile?.id, like_new: true });
      // Again within the day: nothing.
      expect(await get(me)).toEqual({ profile: null });
      now += 23 * 3_600_000;
      expect(await get(me)).toEqual({ profile: null });
      // A day later: another fictional profile, never one already liking, never a real member.
      for (let day = 1; day < 10; day++) {
        now += 24 * 3_600_000;
        const next = await get(me);
        if (next.profile) {
          expect(next.profile.fictional).toBe(true);
          expect(next.profile.id).not.toBe(first.profile?.id);
        }
      }
      const realLikes = await sqlCount(
        database.db,
        sql`select count(*)::int as n from likes l join profiles p on p.id = l.liker_id where l.liked_id = ${me.profileId} and not p.fictional`,
      );
      expect(realLikes).toBe(0);
    } finally {
      app.services.likes.clock = clock;
    }
  });
});

describe("auto-like for an unconfirmed member", () => {
  it("inserts no like and keeps the day's automatic like for after the confirmation (issue #29)", async () => {
    const fictional = await member({ gender: "female", name: "Fictional" });
    await database.db.execute(sql`update profiles set fictional = true where id = ${fictional.profileId}`);
    // Signed up, address not confirmed: the profile stays disabled, nobody sees it yet.
    const me = await createMember(app, { gender: "male", seeking: "female" });
    await addPhoto(app, me.profileId, { main: true });
    const get = async () => {
      const response = await me.client.get("/api/auto-like.php");
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { profile: { id: number; fictional: boolean } | null };
    };
    expect(await get()).toEqual({ profile: null });
    expect(await sqlCount(database.db, sql`select count(*)::int as n from likes where liked_id = ${me.profileId}`)).toBe(0);
    // Confirmed the same day: the automatic like was not used up.
    await app.services.profiles.activateForUser(database.db, me.userId);
    expect((await get()).profile).toMatchObject({ fictional: true });
    expect(await sqlCount(database.db, sql`select count(*)::int as n from likes where liked_id = ${me.profileId}`)).toBe(1);
  });
});

describe("the swipe game", () => {
  async function swipe(m: TestMember, id: number, liked: boolean, tz = "Europe/Berlin") {
    return m.client.post("/api/swipe.php", { id, like: liked, tz });
  }

  it("gives a free member exactly 4 likes a day, passes beyond them, and resets at local midnight", async () => {
    const me = await member({ gender: "male" });
    const others: TestMember[] = [];
    for (let i = 0; i < 7; i++) others.push(await member({ gender: "female", dateOfBirth: "1990-01-01" }));
    const clock = app.services.likes.clock;
    try {
      // 22:30 in Berlin (summer time, UTC+2).
      let now = new Date("2030-06-10T20:30:00Z");
      app.services.likes.clock = () => now;
      const candidates = swipeResponseSchema.parse((await me.client.get("/api/swipe.php?tz=Europe/Berlin")).json());
      expect(candidates.status).toEqual({ swipes_left: 100, likes_left: 4, resets_at: "2030-06-10T22:00:00.000Z", limit: null });
      const ids = candidates.profiles.map((p) => p.id);
      for (const other of others) expect(ids).toContain(other.profileId);
      for (let i = 0; i < 4; i++) {
        const response = await swipe(me, nth(others, i).profileId, true);
        expect(response.statusCode, response.body).toBe(200);
        expect(swipeResultSchema.parse(response.json()).status.likes_left).toBe(3 - i);
      }
      const fifth = await swipe(me, nth(others, 4).profileId, true);
      expect([fifth.statusCode, fifth.json().error]).toEqual([429, "swipe_likes_exhausted"]);
      expect(await sqlCount(database.db, sql`select count(*)::int as n from likes where liker_id = ${me.profileId}`)).toBe(4);
      const pass = swipeResultSchema.parse((await swipe(me, nth(others, 4).profileId, false)).json());
      expect(pass.status).toMatchObject({ swipes_left: 95, likes_left: 0, limit: "likes" });
      // Liked and passed members are not offered again today.
      const rest = swipeResponseSchema.parse((await me.client.get("/api/swipe.php?tz=Europe/Berlin")).json());
      expect(
        rest.profiles
          .map((p) => p.id)
          .filter((id) => others.some((o) => o.profileId === id))
          .sort(),
      ).toEqual([nth(others, 5).profileId, nth(others, 6).profileId].sort());
      // Switching to a zone where it is already tomorrow does not reset the day.
      const tokyo = await swipe(me, nth(others, 5).profileId, true, "Asia/Tokyo");
      expect(tokyo.json().error).toBe("swipe_likes_exhausted");
      // One minute before midnight: still exhausted; at midnight the day is new.
      now = new Date("2030-06-10T21:59:00Z");
      expect((await swipe(me, nth(others, 5).profileId, true)).json().error).toBe("swipe_likes_exhausted");
      now = new Date("2030-06-10T22:00:00Z");
      const next = await swipe(me, nth(others, 5).profileId, true);
      expect(next.statusCode, next.body).toBe(200);
      // The zone asked for at the last day's end (Tokyo) decides the new day's end: midnight in Tokyo.
      expect(swipeResultSchema.parse(next.json()).status).toMatchObject({ likes_left: 3, swipes_left: 99 });
      // The passed member comes back on the new day.
      const again = swipeResponseSchema.parse((await me.client.get("/api/swipe.php")).json());
      expect(again.profiles.map((p) => p.id)).toContain(nth(others, 4).profileId);
    } finally {
      app.services.likes.clock = clock;
    }
  });

  it("gives exactly 4 of 6 concurrent swipe likes to a free member, and no like limit to premium", async () => {
    const me = await member({ gender: "male" });
    const premium = await member({ gender: "male", paid: true });
    const others: TestMember[] = [];
    for (let i = 0; i < 6; i++) others.push(await member({ gender: "female" }));
    const answers = await Promise.all(others.map((o) => swipe(me, o.profileId, true)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await sqlCount(database.db, sql`select count(*)::int as n from likes where liker_id = ${me.profileId}`)).toBe(4);
    for (const other of others) expect((await swipe(premium, other.profileId, true)).statusCode).toBe(200);
    const status = swipeResponseSchema.parse((await premium.client.get("/api/swipe.php")).json()).status;
    expect(status).toMatchObject({ swipes_left: 94, likes_left: null, limit: null });
  });

  it("refills the candidates beyond the age range before running dry, the age range and nearest first", async () => {
    // Born 1945: the age range (±8 years) holds only the two women born 1944; younger ones refill the batch.
    const me = await member({ gender: "male", dateOfBirth: "1945-05-05", country: "NL", region: "NL-NH", city: "Amsterdam" });
    const near = await member({ gender: "female", dateOfBirth: "1944-05-05", country: "NL", region: "NL-NH", city: "Haarlem" });
    const far = await member({ gender: "female", dateOfBirth: "1944-05-05", country: "PL", region: "PL-14", city: "Warszawa" });
    for (let i = 0; i < SWIPE_BATCH; i++) await member({ gender: "female", dateOfBirth: "1995-01-01" });
    const { profiles } = swipeResponseSchema.parse((await me.client.get("/api/swipe.php")).json());
    expect(profiles.length).toBe(SWIPE_BATCH);
    expect(profiles.slice(0, 2).map((p) => p.id)).toEqual([near.profileId, far.profileId]);
    expect(profiles.slice(2).every((p) => p.age < 60)).toBe(true);
  });

  it("makes a match from a swipe like and refuses oneself, unknown and bad time zones", async () => {
    const [ann, ben] = await pair();
    await like(ann.client, ben.profileId);
    const result = swipeResultSchema.parse((await swipe(ben, ann.profileId, true)).json());
    expect(result.state).toBe("match");
    expect(result.match?.id).toBe(ann.profileId);
    expect((await swipe(ben, ben.profileId, true)).json().error).toBe("cannot_like_self");
    expect((await swipe(ben, 2147483000, false)).json().error).toBe("profile_unavailable");
    expect((await swipe(ben, ann.profileId, false, "Mars/Olympus")).json().error).toBe("validation_failed");
  });

  it("runs out of swipes after SWIPES_PER_DAY", async () => {
    const me = await member({ gender: "male" });
    const other = await member({ gender: "female" });
    await database.db.execute(
      sql`insert into swipe_days (profile_id, time_zone, day_start, day_end, swipes, likes) values (${me.profileId}, 'UTC', now() - interval '1 hour', now() + interval '1 hour', 100, 0)`,
    );
    const response = await swipe(me, other.profileId, false, "UTC");
    expect([response.statusCode, response.json().error]).toEqual([429, "swipes_exhausted"]);
    const status = swipeResponseSchema.parse((await me.client.get("/api/swipe.php")).json());
    expect(status.profiles).toEqual([]);
    expect(status.status.limit).toBe("swipes");
  });
});

it("runs on the database it was given", () => {
  expect(database.kind).toBe(usingPostgres ? "postgres" : "pglite");
});
