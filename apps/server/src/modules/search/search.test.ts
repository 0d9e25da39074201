import { DISTANCE_BUCKETS_KM, SEARCH_PAGE_SIZE } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { addPhoto, createMember, sqlRows } from "../../test/factories.ts";
import { useTestApp } from "../../test/harness.ts";
import { searchAs, signUpMember } from "../../test/members.ts";
import { LocationService } from "../location/service.ts";
import { onlineCondition } from "../notifications/presence.ts";
import { SearchService } from "./service.ts";

const env = useTestApp({ listen: false, seed: { profiles: 150 }, timeout: 300_000 });

const rows = <T>(query: ReturnType<typeof sql>) => sqlRows<T>(env.database.db, query);
const member = (options: { paid?: boolean; activate?: boolean } = {}) => signUpMember(env.app, options);
const search = searchAs;

describe("member search", () => {
  it("filters by gender, country, region and age, with the exact count and stable paging", async () => {
    const { client } = await member();
    const result = await search(client, "?gender=female&min_age=25&max_age=40");
    const [expected] = await rows<{ n: number }>(
      sql`select count(*)::int as n from profiles where status = 'active' and gender = 'female'
          and date_part('year', age(birth_date)) between 25 and 40`,
    );
    expect(result.numResults).toBe(expected?.n);
    expect(result.profiles.length).toBe(Math.min(SEARCH_PAGE_SIZE, result.numResults));
    for (const p of result.profiles) expect(p.age >= 25 && p.age <= 40).toBe(true);
    const genders = await rows<{ gender: string }>(
      sql`select distinct gender from profiles where id in (${sql.join(
        result.profiles.map((p) => sql`${p.id}`),
        sql`, `,
      )})`,
    );
    expect(genders).toEqual([{ gender: "female" }]);

    const all = await search(client, "");
    expect(all.pages).toBe(Math.ceil(all.numResults / SEARCH_PAGE_SIZE));
    const second = await search(client, "?page=2");
    const firstIds = new Set(all.profiles.map((p) => p.id));
    expect(second.profiles.some((p) => firstIds.has(p.id))).toBe(false);

    const nl = await search(client, "?country=nl");
    expect(nl.profiles.every((p) => p.country === "NL")).toBe(true);
    const [region] = await rows<{ region: string }>(
      sql`select region from profiles where country = 'NL' and region is not null limit 1`,
    );
    const inRegion = await search(client, `?country=NL&countryregion=${region?.region}`);
    const regions = await rows<{ region: string }>(
      sql`select distinct region from profiles where id in (${sql.join(
        [0, ...inRegion.profiles.map((p) => p.id)].map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(regions).toEqual([{ region: region?.region }]);
  });

  it("never lists invisible, unconfirmed, pending-deletion members or the asker", async () => {
    const asker = await member();
    const hidden = await member();
    const leaving = await member();
    const unconfirmed = await member({ activate: false });
    const shown = await member();
    await env.database.db.execute(sql`update users set invisible = true where id = ${hidden.userId}`);
    await env.database.db.execute(sql`update users set status = 'pending_deletion' where id = ${leaving.userId}`);
    const ids = new Set<number>();
    const first = await search(asker.client, "?gender=male&country=NL");
    for (let page = 1; page <= first.pages; page++)
      for (const p of (await search(asker.client, `?gender=male&country=NL&page=${page}`)).profiles) ids.add(p.id);
    expect(ids.has(shown.profileId)).toBe(true);
    for (const excluded of [asker, hidden, leaving, unconfirmed]) expect(ids.has(excluded.profileId)).toBe(false);
  });

  it("offers similar members when the search finds few", async () => {
    const { client } = await member();
    const narrow = await search(client, "?gender=female&country=NZ&min_age=69&max_age=69");
    expect(narrow.numResults).toBeLessThan(6);
    expect(narrow.similar.length).toBeGreaterThan(0);
    const found = new Set(narrow.profiles.map((p) => p.id));
    expect(narrow.similar.some((p) => found.has(p.id))).toBe(false);
    const wide = await search(client, "?gender=female");
    expect(wide.similar).toEqual([]);
  });

  it("refuses bad filters with a clear error", async () => {
    const { client } = await member();
    for (const bad of ["?min_age=abc", "?min_age=17", "?min_age=40&max_age=30", "?gender=robot", "?page=0"]) {
      const response = await client.get(`/api/members.php${bad}`);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json().error).toBe("validation_failed");
    }
  });

  it("keeps visitors out of the search where the site closes it, but not members", async () => {
    await env.database.db.execute(
      sql`update sites set settings = ${JSON.stringify({ logged_out_search: "none", logged_out_search_trafficsource: "none" })}::jsonb where is_default`,
    );
    env.app.services.site.invalidate();
    try {
      const visitor = await new TestClient(env.app.server).get("/api/members.php");
      expect(visitor.statusCode).toBe(403);
      expect(visitor.json().error).toBe("authentication_required");
      expect((await (await member()).client.get("/api/members.php")).statusCode).toBe(200);
    } finally {
      await env.database.db.execute(sql`update sites set settings = '{}'::jsonb where is_default`);
      env.app.services.site.invalidate();
    }
  });

  it("sorted by newest, puts members with a public photo first, newest first in each group, across pages", async () => {
    const { client } = await member();
    const listed: number[] = [];
    const first = await search(client, "?gender=female&sort=newest");
    for (let page = 1; page <= first.pages; page++)
      listed.push(...(await search(client, `?gender=female&sort=newest&page=${page}`)).profiles.map((p) => p.id));
    const expected = await rows<{ id: number }>(
      sql`select p.id from profiles p join users u on u.id = p.user_id
          where p.status = 'active' and p.gender = 'female' and not u.invisible and u.status <> 'pending_deletion'
          order by exists (select 1 from photos f where f.profile_id = p.id and f.is_main and f.status = 'active' and not f.private) desc,
                   p.created_at desc, p.id desc`,
    );
    expect(listed).toEqual(expected.map((r) => r.id));
    expect(first.numResultsCapped).toBe(false);
  });

  it("lists an Amsterdam member's first page Dutch members nearest first, then by distance, across pages, and online first", async () => {
    const { client } = await createMember(env.app, {
      gender: "male",
      seeking: "female",
      activate: true,
      country: "NL",
      region: "NL-NH",
      city: "Amsterdam",
    });
    const amsterdam = env.app.services.location.coordinatesOf("NL", "NL-NH", "Amsterdam");
    if (!amsterdam) throw new Error("Amsterdam has no position");
    const first = await search(client, "?gender=female");
    expect(first.profiles.length).toBe(SEARCH_PAGE_SIZE);
    // The default order is nearby: the page opens with Dutch members, nearest bucket first.
    expect(first.profiles[0]?.country).toBe("NL");
    expect(first.profiles[0]?.distance?.within_km).toBeLessThanOrEqual(50);
    const dutch = first.profiles.filter((p) => p.country === "NL");
    const firstOther = first.profiles.findIndex((p) => p.country !== "NL");
    if (firstOther >= 0) expect(first.profiles.slice(firstOther).some((p) => p.country === "NL" && p.main_image)).toBe(false);
    const km = (p: (typeof dutch)[number]) => p.distance?.within_km ?? Number.POSITIVE_INFINITY;
    const withPhoto = dutch.filter((p) => p.main_image);
    expect(withPhoto.map(km)).toEqual([...withPhoto.map(km)].sort((a, b) => a - b));
    expect((await search(client, "?gender=female&sort=nearby")).profiles.map((p) => p.id)).toEqual(
      first.profiles.map((p) => p.id),
    );

    // Some members online now (with and without a photo, near and far), so both orders meet the online key.
    const someFemales = await rows<{ user_id: number }>(
      sql`select user_id from profiles where gender = 'female' and status = 'active' order by id limit 60`,
    );
    const online = someFemales.filter((_, i) => i % 4 === 0);
    for (const m of online) await env.app.services.presence.here(m.user_id);
    const candidates = await rows<{
      id: number;
      country: string;
      latitude: number | null;
      longitude: number | null;
      photo: boolean;
      online: boolean;
      created: string;
    }>(
      sql`select p.id, p.country, p.latitude, p.longitude, p.created_at::text as created,
                 exists (select 1 from photos f where f.profile_id = p.id and f.is_main and f.status = 'active' and not f.private) as photo,
                 exists (select 1 from member_presence m where m.user_id = p.user_id and m.looking_until > now()) as online
          from profiles p join users u on u.id = p.user_id
          where p.status = 'active' and p.gender = 'female' and not u.invisible and u.status <> 'pending_deletion'`,
    );
    expect(candidates.filter((c) => c.online).length).toBeGreaterThan(0);
    const bucket = (c: (typeof candidates)[number]) =>
      c.latitude === null || c.longitude === null
        ? DISTANCE_BUCKETS_KM.length + 1
        : (() => {
            const d = LocationService.distanceKm(amsterdam, { lat: c.latitude, lon: c.longitude });
            const i = DISTANCE_BUCKETS_KM.findIndex((bound) => d < bound);
            return i < 0 ? DISTANCE_BUCKETS_KM.length : i;
          })();
    // Every page of each order, against the order computed here: photo first, then `nearby`: Dutch first,
    // distance bucket (unknown last), online now, newest; `online`: online now first, then as nearby.
    const orders = {
      nearby: (c: (typeof candidates)[number]) => [c.photo ? 0 : 1, c.country === "NL" ? 0 : 1, bucket(c), c.online ? 0 : 1],
      online: (c: (typeof candidates)[number]) => [c.photo ? 0 : 1, c.online ? 0 : 1, c.country === "NL" ? 0 : 1, bucket(c)],
    };
    for (const [sort, key] of Object.entries(orders)) {
      const listed: number[] = [];
      for (let page = 1; page <= first.pages; page++)
        listed.push(...(await search(client, `?gender=female&sort=${sort}&page=${page}`)).profiles.map((p) => p.id));
      const expected = [...candidates].sort((a, b) => {
        const [ka, kb] = [key(a), key(b)];
        for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
        return b.created.localeCompare(a.created) || b.id - a.id;
      });
      expect(listed, sort).toEqual(expected.map((c) => c.id));
    }
    for (const m of online) await env.app.services.presence.away(m.user_id);
  });

  it("sorts online members first and filters to members online now, never an invisible or departed one", async () => {
    const { client } = await member();
    const here = await createMember(env.app, { gender: "female", activate: true });
    const alsoHere = await createMember(env.app, { gender: "female", activate: true });
    const left = await createMember(env.app, { gender: "female", activate: true });
    const invisible = await createMember(env.app, { gender: "female", activate: true });
    for (const m of [here, alsoHere, left, invisible]) {
      await addPhoto(env.app, m.profileId, { main: true });
      await env.app.services.presence.here(m.userId);
    }
    await env.app.services.presence.away(left.userId);
    await env.database.db.execute(sql`update users set invisible = true where id = ${invisible.userId}`);
    const onlineIds = [here.profileId, alsoHere.profileId].sort((a, b) => a - b);

    const online = await search(client, "?gender=female&online=1");
    expect(online.numResults).toBe(2);
    expect(online.profiles.map((p) => p.id).sort((a, b) => a - b)).toEqual(onlineIds);
    const first = await search(client, "?gender=female&sort=online");
    expect(
      first.profiles
        .slice(0, 2)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    ).toEqual(onlineIds);
    const newest = await search(client, "?gender=female&sort=newest");
    expect(newest.profiles.slice(0, 3).map((p) => p.id)).toEqual([left.profileId, alsoHere.profileId, here.profileId]);
    expect((await client.get("/api/members.php?sort=closest")).statusCode).toBe(422);
    await env.app.services.presence.away(here.userId);
    await env.app.services.presence.away(alsoHere.userId);
    expect((await search(client, "?gender=female&online=1")).numResults).toBe(0);
  });

  it("counts up to the cap, says there are more, and answers no profiles past the cap", async () => {
    const { profileId } = await member();
    const capped = new SearchService(
      env.database.db,
      env.app.services.profiles,
      env.app.services.photos,
      env.app.services.visibility,
      { online: onlineCondition, labelOf: () => null },
      {
        countCap: 10,
      },
    );
    const settings = await env.app.services.site.settingsFor("localhost", "en");
    const asker = { profileId, paid: false };
    const page1 = await capped.search({}, asker, settings);
    expect(page1).toMatchObject({ numResults: 10, numResultsCapped: true, page: 1, pages: 1 });
    expect(page1.profiles.length).toBe(SEARCH_PAGE_SIZE);
    const past = await capped.search({ page: 2 }, asker, settings);
    expect(past).toMatchObject({ profiles: [], numResults: 10, numResultsCapped: true, page: 2, pages: 1 });
    const narrow = await capped.search({ gender: "female", country: "NZ", min_age: 69, max_age: 69 }, asker, settings);
    expect(narrow.numResultsCapped).toBe(false);
  });
});

describe("search cards", () => {
  it("show the thumbnail of the active main photo, and none while it waits for approval", async () => {
    const { client } = await member();
    const [waiting] = await rows<{ profile_id: number }>(
      sql`select p.profile_id from photos p join profiles pr on pr.id = p.profile_id
          where p.is_main and p.status = 'active' and pr.gender = 'female' and pr.status = 'active' limit 1`,
    );
    await env.database.db.execute(
      sql`update photos set status = 'pending' where profile_id = ${waiting?.profile_id} and is_main`,
    );
    try {
      const seen = new Map<number, string | null>();
      const first = await search(client, "?gender=female");
      for (let page = 1; page <= first.pages; page++)
        for (const p of (await search(client, `?gender=female&page=${page}`)).profiles)
          seen.set(p.id, p.main_image?.thumb_url ?? null);
      expect(seen.get(waiting?.profile_id ?? 0)).toBeNull();
      const active = await rows<{ profile_id: number; thumb_filename: string }>(
        sql`select profile_id, thumb_filename from photos where is_main and status = 'active'`,
      );
      const expected = new Map(active.map((r) => [r.profile_id, `/cdn/${r.thumb_filename}`]));
      expect(seen.size).toBe(first.numResults);
      for (const [id, thumb] of seen) expect(thumb).toBe(expected.get(id) ?? null);
      expect([...seen.values()].filter(Boolean).length).toBeGreaterThan(0);
    } finally {
      await env.database.db.execute(
        sql`update photos set status = 'active' where profile_id = ${waiting?.profile_id} and is_main`,
      );
    }
  });
});

describe("match finder", () => {
  it("suggests members of the sought gender within 8 years, with a photo, own country first", async () => {
    const { client, userId } = await member();
    await env.database.db.execute(sql`update profiles set country = 'DE' where user_id = ${userId}`);
    const response = await client.get("/api/match-finder.php");
    expect(response.statusCode).toBe(200);
    const { profiles, criteria } = response.json() as {
      profiles: { id: number; age: number; country: string; main_image: unknown }[];
      criteria: { gender: string; min_age: number; max_age: number; country: string };
    };
    const age =
      new Date().getUTCFullYear() -
      1988 -
      (new Date().getUTCMonth() < 1 || (new Date().getUTCMonth() === 1 && new Date().getUTCDate() < 2) ? 1 : 0);
    expect(criteria).toEqual({ gender: "female", min_age: age - 8, max_age: age + 8, country: "DE" });
    expect(profiles.length).toBeGreaterThan(0);
    for (const p of profiles) {
      expect(p.age).toBeGreaterThanOrEqual(age - 8);
      expect(p.age).toBeLessThanOrEqual(age + 8);
      expect(p.main_image).not.toBeNull();
    }
    const genders = await rows<{ gender: string }>(
      sql`select distinct gender from profiles where id in (${sql.join(
        profiles.map((p) => sql`${p.id}`),
        sql`, `,
      )})`,
    );
    expect(genders).toEqual([{ gender: "female" }]);
    // Own country first: once another country appears, no German member follows.
    const firstOther = profiles.findIndex((p) => p.country !== "DE");
    if (firstOther >= 0) expect(profiles.slice(firstOther).some((p) => p.country === "DE")).toBe(false);
    expect((await new TestClient(env.app.server).get("/api/match-finder.php")).statusCode).toBe(403);
  });
});
