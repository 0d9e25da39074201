import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { type PushPayload, settingsResponseSchema, userResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.ts";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { MAX_DEVICES, PUSH_TTL_SECONDS, PushRetryError } from "./service.ts";
import { generateVapidKeys, loadVapidKeys, VAPID_KEYS_FILE } from "./vapid.ts";

/** RFC 8188 decryption (aes128gcm), as a browser does it; web-push's own dependency, untyped. */
const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(
    buffer: Buffer,
    params: { version: "aes128gcm"; privateKey: ReturnType<typeof createECDH>; authSecret: string },
  ): Buffer;
};

/** What the stand-in push service received. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A push service on 127.0.0.1 (RFC 8030's receiving end): /push/gone answers 410, /push/missing 404,
 * /push/broken 500 (until `brokenHeals`), anything else 201 Created.
 */
const service = { server: null as Server | null, origin: "", received: [] as Received[], broken: true };

beforeAll(async () => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = request.url ?? "";
      service.received.push({ path: url, headers: request.headers, body: Buffer.concat(chunks) });
      const status = url.startsWith("/push/gone")
        ? 410
        : url.startsWith("/push/missing")
          ? 404
          : url.startsWith("/push/broken") && service.broken
            ? 500
            : 201;
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no address");
  service.server = server;
  service.origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => (service.server ? service.server.close(() => resolve()) : resolve())));

let app: TestApp;
useTestApp(
  {
    env: () => ({ PUSH_HTTP_ORIGINS: service.origin, VAPID_SUBJECT: "mailto:push@example.org" }),
    listen: false,
    seed: { profiles: 0 },
  },
  (env) => {
    ({ app } = env);
  },
);

/** A browser's subscription: a real P-256 key pair and 16-byte auth secret, on the stand-in's `/push/<id>`. */
function browserSubscription(id = randomBytes(6).toString("hex")) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16).toString("base64url");
  return {
    ecdh,
    auth,
    json: {
      endpoint: `${service.origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey("base64url"), auth },
    },
  };
}

const subscribe = (client: TestClient, body: unknown) => client.post("/api/user.php?push=1", body);
const pushStateOf = async (client: TestClient) =>
  userResponseSchema.parse((await client.get("/api/user.php")).json()).user?.push_subscription;
const rowsOfUser = (userId: number) =>
  sqlRows<{ endpoint: string }>(
    app.services.database.db,
    sql`select endpoint from push_subscriptions where user_id = ${userId} order by id`,
  ).then((rows) => rows.map((row) => row.endpoint));
const member = () => createMember(app, { activate: true });

const payload: PushPayload = {
  kind: "message",
  title: "Anna",
  body: "Hoi! Zin in koffie? ☕",
  url: "/members/12/chat",
  tag: "conversation-12",
  conversation_id: 12,
};

describe("routing POST /api/user.php by its query (the contract's `when`)", () => {
  it("logs in without ?push=1 and stores a subscription with it, never a login", async () => {
    const { email } = await member();
    const visitor = new TestClient(app.server);
    const refused = await visitor.post("/api/user.php?push=1", { email, password: "correct horse battery" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("authentication_required");
    expect(visitor.cookies.size).toBe(0);

    const login = await visitor.post("/api/user.php", { email, password: "correct horse battery" });
    expect(login.statusCode, login.body).toBe(200);
    expect(userResponseSchema.parse(login.json()).user?.email).toBe(email);
    // Logged in, a login body posted to ?push=1 is a bad subscription (422), not a second login.
    const again = await visitor.post("/api/user.php?push=1", { email, password: "correct horse battery" });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe("validation_failed");
    // Another value of `push` is not the push call: it is the login.
    expect((await visitor.post("/api/user.php?push=2", { email, password: "correct horse battery" })).statusCode).toBe(200);
  });
});

describe("push subscriptions (POST /api/user.php?push=1)", () => {
  it("stores a device once per endpoint, removes it with false, records 'denied', and answers the user's state", async () => {
    const anna = await member();
    expect(anna.user.push_subscription).toBe(false);
    const device = browserSubscription();
    const first = await subscribe(anna.client, { subscription: device.json });
    expect(first.statusCode, first.body).toBe(200);
    expect(userResponseSchema.parse(first.json()).user?.push_subscription).toBe(true);
    // The same device again (each logged-in visit posts it): still one row, with its new keys.
    const renewed = browserSubscription();
    expect((await subscribe(anna.client, { subscription: { ...renewed.json, endpoint: device.json.endpoint } })).statusCode).toBe(
      200,
    );
    expect(await rowsOfUser(anna.userId)).toEqual([device.json.endpoint]);
    const [row] = await sqlRows<{ p256dh: string; user_agent: string | null }>(
      app.services.database.db,
      sql`select p256dh, user_agent from push_subscriptions where endpoint = ${device.json.endpoint}`,
    );
    expect(row?.p256dh).toBe(renewed.json.keys.p256dh);

    // The data export names the device's push service and browser, never its endpoint path or keys.
    const exported = JSON.stringify(await app.services.push.exportFor({ userId: anna.userId, profileId: null }));
    expect(exported).toContain(service.origin);
    expect(exported).not.toContain(device.json.endpoint);
    expect(exported).not.toContain(renewed.json.keys.auth);

    // false with another endpoint changes nothing; with this device's, removes it.
    await subscribe(anna.client, { subscription: false, endpoint: `${service.origin}/push/other` });
    expect(await pushStateOf(anna.client)).toBe(true);
    const off = await subscribe(anna.client, { subscription: false, endpoint: device.json.endpoint });
    expect(userResponseSchema.parse(off.json()).user?.push_subscription).toBe(false);
    expect(await rowsOfUser(anna.userId)).toEqual([]);

    // Spec §8: a refused permission is stored as 'denied' ...
    const denied = await subscribe(anna.client, { subscription: "denied" });
    expect(userResponseSchema.parse(denied.json()).user?.push_subscription).toBe("denied");
    expect(await pushStateOf(anna.client)).toBe("denied");
    // ... while another device subscribed, the account is subscribed (and the refusal is over) ...
    await subscribe(anna.client, { subscription: browserSubscription().json });
    expect(await pushStateOf(anna.client)).toBe(true);
    await subscribe(anna.client, { subscription: "denied" });
    expect(await pushStateOf(anna.client)).toBe(true);
    // ... and false (this browser is not subscribed, not refused) ends a refusal.
    await app.services.database.db.execute(sql`delete from push_subscriptions where user_id = ${anna.userId}`);
    expect(await pushStateOf(anna.client)).toBe("denied");
    await subscribe(anna.client, { subscription: false });
    expect(await pushStateOf(anna.client)).toBe(false);
  });

  it(`keeps a member's ${MAX_DEVICES} most recent devices: the 11th drops the oldest`, async () => {
    const bea = await member();
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_DEVICES + 1; i++) {
      const device = browserSubscription(`bea-${bea.userId}-${i}`);
      endpoints.push(device.json.endpoint);
      expect((await subscribe(bea.client, { subscription: device.json })).statusCode).toBe(200);
    }
    const kept = await rowsOfUser(bea.userId);
    expect(kept).toHaveLength(MAX_DEVICES);
    expect(kept).not.toContain(endpoints[0]);
    expect(kept).toEqual(endpoints.slice(1));
  });

  it("moves an endpoint to the member now logged in on that browser, never duplicating it", async () => {
    const [cas, dirk] = [await member(), await member()];
    const device = browserSubscription();
    await subscribe(cas.client, { subscription: device.json });
    await subscribe(dirk.client, { subscription: device.json });
    expect(await rowsOfUser(cas.userId)).toEqual([]);
    expect(await rowsOfUser(dirk.userId)).toEqual([device.json.endpoint]);
    expect(await pushStateOf(cas.client)).toBe(false);
    // Cas's false for that endpoint does not take Dirk's device.
    await subscribe(cas.client, { subscription: false, endpoint: device.json.endpoint });
    expect(await rowsOfUser(dirk.userId)).toEqual([device.json.endpoint]);
  });

  it("refuses a subscription it could never send to with 422, storing nothing", async () => {
    const eva = await member();
    const good = browserSubscription().json;
    // A point that is not on the curve: the right length and alphabet.
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url");
    const bad: unknown[] = [
      "x",
      { ...good, keys: { ...good.keys, p256dh: offCurve } },
      { ...good, keys: { ...good.keys, p256dh: "short" } },
      { ...good, keys: { ...good.keys, auth: randomBytes(20).toString("base64url") } },
      { ...good, endpoint: "not a url" },
      { ...good, endpoint: "ftp://push.example.com/x" },
      // Plain http, a private or loopback address: only the configured stand-in's origin may be either.
      { ...good, endpoint: "http://push.example.com/x" },
      { ...good, endpoint: "https://10.1.2.3/push/x" },
      { ...good, endpoint: "https://[::1]/push/x" },
      { ...good, endpoint: "https://localhost/push/x" },
      { ...good, endpoint: "http://127.0.0.1:1/push/x" },
    ];
    for (const subscription of bad) {
      const response = await subscribe(eva.client, { subscription });
      expect(response.statusCode, JSON.stringify(subscription)).toBe(422);
      expect(response.json().error).toBe("validation_failed");
    }
    expect(await rowsOfUser(eva.userId)).toEqual([]);
    expect(await pushStateOf(eva.client)).toBe(false);
    // Not logged in: refused before anything is looked at.
    const visitor = new TestClient(app.server);
    expect((await subscribe(visitor, { subscription: good })).statusCode).toBe(403);
    expect(
      await sqlCount(
        app.services.database.db,
        sql`select count(*)::int as n from push_subscriptions where endpoint = ${good.endpoint}`,
      ),
    ).toBe(0);
  });

  it("goes with the erased account", async () => {
    const fay = await member();
    await subscribe(fay.client, { subscription: browserSubscription().json });
    await subscribe(fay.client, { subscription: "denied" });
    await app.services.database.db.execute(sql`delete from users where id = ${fay.userId}`);
    expect(
      await sqlCount(
        app.services.database.db,
        sql`select count(*)::int as n from push_subscriptions where user_id = ${fay.userId}`,
      ),
    ).toBe(0);
    expect(
      await sqlCount(app.services.database.db, sql`select count(*)::int as n from push_refusals where user_id = ${fay.userId}`),
    ).toBe(0);
  });
});

const NOTHING_SENT = { accepted: 0, removed: 0, failed: 0, refused: 0 };

describe("sending a push (web-push, to a local push service)", () => {
  let gus: TestMember;
  beforeAll(async () => {
    gus = await member();
  });

  it("gives settings the VAPID public key, a 65-byte point, and spec §9's worker and design versions (2)", async () => {
    const settings = settingsResponseSchema.parse((await new TestClient(app.server).get("/api/settings.php")).json());
    expect(settings.settings.push_public_key).toBe(app.services.push.publicKey);
    expect(Buffer.from(app.services.push.publicKey, "base64url")).toHaveLength(65);
    expect(settings.settings).toMatchObject({ push_worker_version: 2, design_version: 2 });
  });

  it("encrypts the payload for the device (RFC 8291) and signs with our VAPID key (RFC 8292)", async () => {
    const device = browserSubscription();
    await subscribe(gus.client, { subscription: device.json });
    service.received = [];
    const result = await app.services.push.send(gus.userId, payload, { key: "message:1" });
    expect(result).toEqual({ accepted: 1, removed: 0, failed: 0, refused: 0 });
    expect(service.received).toHaveLength(1);
    const [request] = service.received as [Received];
    expect(request.path).toBe(new URL(device.json.endpoint).pathname);
    expect(request.headers["content-encoding"]).toBe("aes128gcm");
    expect(request.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
    expect(request.headers.urgency).toBe("high");
    expect(request.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // The browser's side: its private key and auth secret turn the body back into the payload.
    const plain = ece.decrypt(request.body, { version: "aes128gcm", privateKey: device.ecdh, authSecret: device.auth });
    expect(JSON.parse(plain.toString("utf8"))).toEqual(payload);

    // Authorization: vapid t=<JWT signed ES256 by our private key>, k=<our public key>.
    const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(String(request.headers.authorization));
    expect(match?.[2]).toBe(app.services.push.publicKey);
    const [head, claims, signature] = (match?.[1] ?? "").split(".") as [string, string, string];
    const publicKey = Buffer.from(app.services.push.publicKey, "base64url");
    const key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: publicKey.subarray(1, 33).toString("base64url"),
        y: publicKey.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
    expect(
      verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url")),
    ).toBe(true);
    const jwt = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
    expect(jwt).toMatchObject({ aud: service.origin, sub: "mailto:push@example.org" });
    expect(jwt.exp).toBeGreaterThan(Date.now() / 1000);

    // The same key again (a job's second run): the device has it, nothing is sent.
    expect(await app.services.push.send(gus.userId, payload, { key: "message:1" })).toEqual(NOTHING_SENT);
    expect(service.received).toHaveLength(1);
  });

  it("removes a subscription the push service says is gone (410, 404), keeps one that failed (500) for the retry", async () => {
    const hal = await member();
    const ok = browserSubscription(`ok-${hal.userId}`);
    const gone = browserSubscription(`gone-${hal.userId}`);
    const missing = browserSubscription(`missing-${hal.userId}`);
    const broken = browserSubscription(`broken-${hal.userId}`);
    for (const device of [ok, gone, missing, broken]) await subscribe(hal.client, { subscription: device.json });
    service.broken = true;
    service.received = [];
    const like: PushPayload = { kind: "like", title: "Someone likes you", body: "Open your likes", url: "/likes", tag: "likes" };
    const failure = await app.services.push.send(hal.userId, like, { key: "like:7" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PushRetryError);
    expect((failure as PushRetryError).result).toEqual({ accepted: 1, removed: 2, failed: 1, refused: 0 });
    expect(service.received.find((r) => r.path.includes("ok-"))?.headers.urgency).toBe("normal");
    expect(await rowsOfUser(hal.userId)).toEqual([ok.json.endpoint, broken.json.endpoint]);
    const [kept] = await sqlRows<{ failures: number }>(
      app.services.database.db,
      sql`select failures from push_subscriptions where endpoint = ${broken.json.endpoint}`,
    );
    expect(kept?.failures).toBe(1);

    // The job's retry with the same key reaches only the device that did not get it.
    service.broken = false;
    service.received = [];
    expect(await app.services.push.send(hal.userId, like, { key: "like:7" })).toEqual({
      accepted: 1,
      removed: 0,
      failed: 0,
      refused: 0,
    });
    expect(service.received.map((r) => r.path)).toEqual([new URL(broken.json.endpoint).pathname]);
    expect(await pushStateOf(hal.client)).toBe(true);
  });

  it("sends nothing to a member without devices", async () => {
    const ida = await member();
    service.received = [];
    expect(await app.services.push.send(ida.userId, payload, { key: "message:2" })).toEqual(NOTHING_SENT);
    expect(service.received).toHaveLength(0);
  });
});

describe("VAPID keys", () => {
  it("makes a pair at the first start, keeps it (0600) and reuses it on the next; configured keys come first", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "vapid-"));
    try {
      const first = await loadVapidKeys({ dataDir });
      const second = await loadVapidKeys({ dataDir });
      expect(second).toEqual(first);
      const file = path.join(dataDir, VAPID_KEYS_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(file, "utf8"))).toEqual(first);
      const configured = generateVapidKeys();
      expect(
        await loadVapidKeys({ dataDir, VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey }),
      ).toEqual(configured);
      // A damaged file stops the start rather than being replaced (that would orphan every subscription).
      await writeFile(file, JSON.stringify({ ...first, publicKey: configured.publicKey }));
      await expect(loadVapidKeys({ dataDir })).rejects.toThrow(ConfigError);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
