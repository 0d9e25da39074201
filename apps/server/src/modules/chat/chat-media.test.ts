import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  chatResponseSchema,
  chatsResponseSchema,
  GIF_PAGE_SIZE,
  GIFT_IDS,
  gifsResponseSchema,
  giftsResponseSchema,
  type MessageResponse,
  messageResponseSchema,
  PHOTO_UPLOAD,
} from "@app/contract";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { TestClient } from "../../test/client.ts";
import {
  block,
  createMember,
  type MemberOptions,
  signupBody,
  sqlCount,
  sqlRows,
  type TestMember,
  uniqueEmail,
} from "../../test/factories.ts";
import { startTestApp, type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app, database } = env);
});

/** The default site's settings (spec §9): message 10, photo 20, gift 30 credits; signup bonus 20; 2,000 characters. */
const MESSAGE = 10;
const PHOTO = 20;
const GIFT = 30;
const SIGNUP = 20;
const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });
const pair = async (options: MemberOptions = {}) =>
  [await member({ gender: "female", ...options }), await member({ gender: "male", ...options })] as const;

const post = (client: TestClient, body: Record<string, unknown>) =>
  client.post("/api/message.php", { client_id: randomUUID(), ...body });
async function send(client: TestClient, body: Record<string, unknown>): Promise<MessageResponse> {
  const response = await post(client, body);
  expect(response.statusCode, response.body).toBe(200);
  return messageResponseSchema.parse(response.json());
}
const balanceOf = async (m: TestMember) => (await app.services.credits.account(app.services.database.db, m.userId)).credits;
const messagesOf = (m: TestMember) =>
  sqlCount(database.db, sql`select count(*)::int as n from messages where sender_id = ${m.profileId}`);
const conversationsOf = (m: TestMember) =>
  sqlCount(database.db, sql`select count(*)::int as n from conversation_members where profile_id = ${m.profileId}`);
async function chats(client: TestClient) {
  const response = await client.get("/api/chats.php");
  expect(response.statusCode, response.body).toBe(200);
  return chatsResponseSchema.parse(response.json());
}
async function open(client: TestClient, id: number) {
  const response = await client.get(`/api/chat.php?id=${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return chatResponseSchema.parse(response.json());
}

describe("gifts", () => {
  it("answers the catalogue in its order at gift_credits, with images served by the site", async () => {
    const ann = await member();
    const response = await ann.client.get("/api/gifts.php");
    expect(response.statusCode, response.body).toBe(200);
    const { gifts } = giftsResponseSchema.parse(response.json());
    expect(gifts.map((gift) => gift.id)).toEqual([...GIFT_IDS]);
    expect(gifts).toHaveLength(14);
    expect(gifts.every((gift) => gift.credits === GIFT)).toBe(true);
    for (const gift of gifts) {
      expect(gift.image_url).toBe(`/media/gifts/${gift.id}.svg`);
      const image = await app.server.inject({ method: "GET", url: gift.image_url });
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/svg+xml");
      expect(image.headers["cache-control"]).toBe("public, max-age=604800");
      expect(image.body).toMatch(/^<svg [^>]*viewBox="0 0 96 96"/);
    }
    expect((await app.server.inject({ method: "GET", url: "/media/gifts/unicorn.svg" })).statusCode).toBe(404);
    expect((await new TestClient(app.server).get("/api/gifts.php")).statusCode).toBe(403);
  });

  it("sends a gift with a text for 30 credits; the other member sees it in the list and the conversation", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const sent = await send(ann.client, { profile_id: ben.profileId, gift: "rose", text: "For you" });
    expect(sent.credits).toBe(SIGNUP + 100 - GIFT);
    expect(await balanceOf(ann)).toBe(SIGNUP + 100 - GIFT);
    expect(sent.message).toMatchObject({
      kind: "gift",
      text: "For you",
      gift: { id: "rose", image_url: "/media/gifts/rose.svg" },
      photo: null,
      gif: null,
    });
    const [row] = await sqlRows<{ kind: string; gift_id: string }>(
      database.db,
      sql`select kind, gift_id from messages where id = ${sent.message.id}`,
    );
    expect(row).toEqual({ kind: "gift", gift_id: "rose" });
    const ledger = await sqlRows<{ delta: number; reason: string }>(
      database.db,
      sql`select delta, reason from credit_ledger where user_id = ${ann.userId} and key = ${`message:${sent.message.client_id}`}`,
    );
    expect(ledger).toEqual([{ delta: -GIFT, reason: "gift" }]);
    expect((await chats(ben.client)).chats[0]?.last_message).toMatchObject({ kind: "gift", text: "For you", from_me: false });
    const seen = await open(ben.client, sent.conversation_id);
    expect(seen.messages[0]).toMatchObject({ kind: "gift", gift: { id: "rose" }, client_id: null });
    expect(seen.costs).toMatchObject({ message: MESSAGE, photo: PHOTO, gift: GIFT, gif: MESSAGE });

    // A gift without a text is a gift all the same.
    const bare = await send(ann.client, { conversation_id: sent.conversation_id, gift: "teddy" });
    expect(bare.message).toMatchObject({ kind: "gift", text: "", gift: { id: "teddy" } });
    expect(bare.credits).toBe(SIGNUP + 100 - 2 * GIFT);
  });

  it("refuses an unknown gift (422 gift_unavailable) and a gift's text over message_length, charging nothing", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const unknown = await post(ann.client, { profile_id: ben.profileId, gift: "yacht" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: "gift_unavailable" });
    const long = await post(ann.client, { profile_id: ben.profileId, gift: "rose", text: "x".repeat(2001) });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({ error: "message_too_long", params: { max: 2000 } });
    expect(await balanceOf(ann)).toBe(SIGNUP + 100);
    expect(await messagesOf(ann)).toBe(0);
  });

  it("refuses a gift the member cannot pay (402 not_enough_credits): no message, no conversation", async () => {
    const [ann, ben] = await pair();
    expect(await balanceOf(ann)).toBe(SIGNUP);
    const response = await post(ann.client, { profile_id: ben.profileId, gift: "champagne" });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ error: "not_enough_credits" });
    expect(await balanceOf(ann)).toBe(SIGNUP);
    expect(await messagesOf(ann)).toBe(0);
    expect(await conversationsOf(ann)).toBe(0);
    // A text still fits in the signup bonus.
    expect((await send(ann.client, { profile_id: ben.profileId, text: "Hi" })).credits).toBe(SIGNUP - MESSAGE);
  });
});

describe("GIFs (the embedded catalogue)", () => {
  const search = async (client: TestClient, q: string, locale?: string) => {
    const response = await client.get(`/api/gifs.php?q=${encodeURIComponent(q)}${locale ? `&locale=${locale}` : ""}`);
    expect(response.statusCode, response.body).toBe(200);
    return gifsResponseSchema.parse(response.json());
  };
  const ids = (answer: { gifs: { id: string }[] }) => answer.gifs.map((gif) => gif.id);

  it("finds by the tags of the member's language and English, whatever the case and accents", async () => {
    const ann = await member();
    const all = await search(ann.client, "");
    expect(all.provider).toBe("local");
    expect(all.gifs).toHaveLength(GIF_PAGE_SIZE);
    expect(new Set(ids(all)).size).toBe(24);

    expect(ids(await search(ann.client, "kus", "nl_NL"))).toContain("local-kiss");
    expect(ids(await search(ann.client, "Welterusten", "nl_NL"))).toEqual(["local-good-night"]);
    expect(ids(await search(ann.client, "proost", "nl_NL"))).toEqual(["local-cheers"]);
    // English tags count in every language; Dutch ones do not in English.
    expect(ids(await search(ann.client, "kiss", "nl_NL"))).toContain("local-kiss");
    expect(ids(await search(ann.client, "welterusten", "en_US"))).toEqual([]);
    expect(ids(await search(ann.client, "wave", "en_US"))).toEqual(["local-hello"]);
    // Case and accents: "KUSSCHEN" finds "küsschen", "milosc" finds "miłość", "cafe" finds "café".
    expect(ids(await search(ann.client, "KUSSCHEN", "de_DE"))).toEqual(["local-kiss"]);
    expect(ids(await search(ann.client, "milosc", "pl_PL"))).toEqual(expect.arrayContaining(["local-heart", "local-love"]));
    expect(ids(await search(ann.client, "cafe", "es_ES"))).toEqual(["local-coffee"]);

    const [hello] = (await search(ann.client, "hallo", "nl_NL")).gifs;
    expect(hello).toEqual({
      id: "local-hello",
      title: "Hello",
      url: "/media/gifs/hello.gif",
      preview_url: "/media/gifs/hello.gif",
      width: 120,
      height: 120,
    });
  });

  it("serves every GIF of the catalogue as an animation", async () => {
    const ann = await member();
    for (const gif of (await search(ann.client, "")).gifs) {
      const file = await app.server.inject({ method: "GET", url: gif.url });
      expect(file.statusCode, gif.url).toBe(200);
      expect(file.headers["content-type"]).toBe("image/gif");
      const meta = await sharp(file.rawPayload, { animated: true }).metadata();
      expect(meta.format).toBe("gif");
      expect(meta.pages ?? 1, gif.id).toBeGreaterThan(1);
      expect([meta.width, meta.pageHeight]).toEqual([120, 120]);
    }
    expect((await app.server.inject({ method: "GET", url: "/media/gifs/../../service.ts" })).statusCode).toBe(404);
  });

  it("sends a GIF for message_credits and stores what it shows; an unknown GIF is 422 gif_unavailable", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const sent = await send(ann.client, { profile_id: ben.profileId, gif: "local-party" });
    expect(sent.credits).toBe(SIGNUP + 100 - MESSAGE);
    expect(sent.message).toMatchObject({
      kind: "gif",
      text: "",
      gif: { id: "local-party", url: "/media/gifs/party.gif", width: 120, height: 120 },
    });
    expect((await open(ben.client, sent.conversation_id)).messages[0]?.gif).toEqual(sent.message.gif);
    expect((await chats(ben.client)).chats[0]?.last_message).toMatchObject({ kind: "gif", text: "" });

    const unknown = await post(ann.client, { conversation_id: sent.conversation_id, gif: "local-nothing" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: "gif_unavailable" });
    // A GIF carries no text (the contract refuses one).
    expect((await post(ann.client, { conversation_id: sent.conversation_id, gif: "local-party", text: "hi" })).statusCode).toBe(
      422,
    );
    expect(await balanceOf(ann)).toBe(SIGNUP + 100 - MESSAGE);
    expect(await messagesOf(ann)).toBe(1);
  });
});

/** A stand-in for GIPHY on 127.0.0.1: its search, trending and by-id calls, and media files. */
async function startFakeGiphy() {
  const requests: URL[] = [];
  const gifBytes = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#e63950" } })
    .gif()
    .toBuffer();
  let base = "";
  const item = (id: string, title: string) => ({
    id,
    title,
    images: {
      fixed_height: { url: `${base}/media/${id}/200.gif?cid=abc&rid=200.gif`, width: "400", height: "200" },
      fixed_height_small: { url: `${base}/media/${id}/100.gif`, width: "200", height: "100" },
    },
  });
  const server: Server = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? "/", base);
    requests.push(url);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/v1/") && url.searchParams.get("api_key") !== "test-key") return json(401, {});
    if (url.pathname === "/v1/gifs/search") return json(200, { data: [item("HalloG1f", "Hallo zwaai"), item("bad id!", "x")] });
    if (url.pathname === "/v1/gifs/trending") return json(200, { data: [item("Tr3nd", "Trending")] });
    if (url.pathname === "/v1/gifs/HalloG1f") return json(200, { data: item("HalloG1f", "Hallo zwaai") });
    if (url.pathname.startsWith("/v1/gifs/")) return json(404, { meta: { status: 404 } });
    if (url.pathname === "/media/huge/200.gif") {
      response.writeHead(200, { "content-type": "image/gif" });
      return response.end(Buffer.alloc(9 * 1024 * 1024));
    }
    if (url.pathname === "/media/page/200.gif") {
      response.writeHead(200, { "content-type": "text/html" });
      return response.end("<script>alert(1)</script>");
    }
    if (url.pathname.startsWith("/media/")) {
      response.writeHead(200, { "content-type": "image/gif" });
      return response.end(gifBytes);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, gifBytes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("GIFs through a provider (GIPHY)", () => {
  it("searches GIPHY in the member's language and answers its media through our proxy only", async () => {
    const giphy = await startFakeGiphy();
    const other = await startTestApp(database, {
      listen: false,
      env: { GIPHY_API_KEY: "test-key", GIPHY_API_URL: giphy.base },
    });
    try {
      const ann = await createMember(other, { activate: true, gender: "female", credits: 100 });
      const ben = await createMember(other, { activate: true, gender: "male" });
      const found = await ann.client.get("/api/gifs.php?q=hallo&locale=nl_NL");
      expect(found.statusCode, found.body).toBe(200);
      const answer = gifsResponseSchema.parse(found.json());
      expect(answer.provider).toBe("giphy");
      // The item with an id GIPHY never makes is left out.
      expect(answer.gifs).toHaveLength(1);
      const [gif] = answer.gifs;
      expect(gif).toMatchObject({ id: "HalloG1f", title: "Hallo zwaai", width: 400, height: 200 });
      const search = giphy.requests.find((url) => url.pathname === "/v1/gifs/search");
      expect(Object.fromEntries(search?.searchParams ?? [])).toMatchObject({ q: "hallo", lang: "nl", api_key: "test-key" });
      // Same-origin paths only: the browser never contacts the provider.
      expect(gif?.url).toMatch(/^\/media\/gif-proxy\/[\w-]+$/);
      expect(gif?.preview_url).toMatch(/^\/media\/gif-proxy\/[\w-]+$/);
      expect(JSON.stringify(answer)).not.toContain("127.0.0.1");

      const media = await ann.client.get(gif?.url ?? "");
      expect(media.statusCode).toBe(200);
      expect(media.headers["content-type"]).toBe("image/gif");
      expect(Buffer.compare(media.rawPayload, giphy.gifBytes)).toBe(0);
      expect(
        giphy.requests.some((url) => url.pathname === "/media/HalloG1f/200.gif" && url.searchParams.get("cid") === "abc"),
      ).toBe(true);
      // Visitors get nothing; neither do other hosts, non-images or files over the cap.
      expect((await new TestClient(other.server).get(gif?.url ?? "")).statusCode).toBe(404);
      const proxy = (url: string) => `/media/gif-proxy/${Buffer.from(url).toString("base64url")}`;
      const asked = giphy.requests.length;
      expect((await ann.client.get(proxy("http://169.254.169.254/latest/meta-data/"))).statusCode).toBe(404);
      expect((await ann.client.get(proxy("https://example.com/a.gif"))).statusCode).toBe(404);
      expect(giphy.requests.length).toBe(asked);
      expect((await ann.client.get(proxy(`${giphy.base}/media/page/200.gif`))).statusCode).toBe(404);
      expect((await ann.client.get(proxy(`${giphy.base}/media/huge/200.gif`))).statusCode).toBe(404);

      // An empty query answers GIPHY's trending ones.
      expect(gifsResponseSchema.parse((await ann.client.get("/api/gifs.php")).json()).gifs.map((g) => g.id)).toEqual(["Tr3nd"]);

      // Sending looks the id up at GIPHY and stores what it shows; an id GIPHY does not know is refused.
      const sent = messageResponseSchema.parse(
        (
          await ann.client.post("/api/message.php", { client_id: randomUUID(), profile_id: ben.profileId, gif: "HalloG1f" })
        ).json(),
      );
      expect(sent.message).toMatchObject({ kind: "gif", gif: { id: "HalloG1f", url: gif?.url } });
      expect(sent.credits).toBe(SIGNUP + 100 - MESSAGE);
      const missing = await ann.client.post("/api/message.php", {
        client_id: randomUUID(),
        profile_id: ben.profileId,
        gif: "N0ne",
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({ error: "gif_unavailable" });
      // Local ids stay sendable with a provider configured.
      const local = await ann.client.post("/api/message.php", {
        client_id: randomUUID(),
        profile_id: ben.profileId,
        gif: "local-wink",
      });
      expect(local.statusCode, local.body).toBe(200);
      expect(await balanceOf(ann)).toBe(SIGNUP + 100 - 2 * MESSAGE);
    } finally {
      await other.stop();
      await giphy.close();
    }
  });

  it("answers the local catalogue when the provider fails", async () => {
    const giphy = await startFakeGiphy();
    const other = await startTestApp(database, { listen: false, env: { GIPHY_API_KEY: "wrong-key", GIPHY_API_URL: giphy.base } });
    try {
      const ann = await createMember(other, { activate: true });
      const answer = gifsResponseSchema.parse((await ann.client.get("/api/gifs.php?q=kus&locale=nl_NL")).json());
      expect(answer.provider).toBe("local");
      expect(answer.gifs.map((gif) => gif.id)).toContain("local-kiss");
    } finally {
      await other.stop();
      await giphy.close();
    }
  });
});

/** A JPEG with camera and GPS metadata (what a phone would send). */
function photoWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: "SecretCam", Copyright: "Jane Secret" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 22/1 1/1", GPSLongitudeRef: "E", GPSLongitude: "4/1 53/1 1/1" },
    })
    .toBuffer();
}

function multipart(fields: Record<string, string>, file: Buffer, type = "image/jpeg") {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = Buffer.from(
    `${parts.join("")}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function sendPhoto(client: TestClient, fields: Record<string, string>, file: Buffer, type?: string) {
  const body = multipart(fields, file, type);
  return app.server.inject({
    method: "POST",
    url: "/api/message-photo.php",
    remoteAddress: client.address,
    headers: { "content-type": body.contentType, cookie: client.cookieHeader() },
    payload: body.payload,
  });
}

const chatFiles = () => readdir(`${app.dataDir}/files/chat`).catch(() => [] as string[]);

describe("photo messages", () => {
  it("sends a photo for 20 credits without its metadata, served to the pair only", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const carol = await member({ gender: "male" });
    const filesBefore = (await chatFiles()).length;
    const clientId = randomUUID();
    const response = await sendPhoto(
      ann.client,
      { profile_id: String(ben.profileId), client_id: clientId },
      await photoWithExif(),
    );
    expect(response.statusCode, response.body).toBe(200);
    const sent = messageResponseSchema.parse(response.json());
    expect(sent.credits).toBe(SIGNUP + 100 - PHOTO);
    expect(sent.message).toMatchObject({
      kind: "photo",
      text: "",
      client_id: clientId,
      photo: { url: `/media/chat-photos/${sent.message.id}.jpg`, width: 960, height: 720 },
    });
    const ledger = await sqlRows<{ delta: number; reason: string }>(
      database.db,
      sql`select delta, reason from credit_ledger where user_id = ${ann.userId} and key = ${`message:${clientId}`}`,
    );
    expect(ledger).toEqual([{ delta: -PHOTO, reason: "photo" }]);

    const url = sent.message.photo?.url ?? "";
    for (const viewer of [ann, ben]) {
      const image = await viewer.client.get(url);
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/jpeg");
      expect(image.headers["cache-control"]).toBe("private, max-age=300");
      const meta = await sharp(image.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(image.rawPayload.includes(Buffer.from("SecretCam"))).toBe(false);
      expect([meta.width, meta.height]).toEqual([960, 720]);
    }
    expect((await carol.client.get(url)).statusCode).toBe(404);
    expect((await new TestClient(app.server).get(url)).statusCode).toBe(404);
    expect((await open(ben.client, sent.conversation_id)).messages[0]).toMatchObject({ kind: "photo", photo: { url } });
    expect((await chats(ben.client)).chats[0]?.last_message).toMatchObject({ kind: "photo", text: "" });

    // A retry with the same client_id: the same message, charged and stored once.
    const again = await sendPhoto(ann.client, { profile_id: String(ben.profileId), client_id: clientId }, await photoWithExif());
    expect(again.statusCode, again.body).toBe(200);
    expect(messageResponseSchema.parse(again.json()).message.id).toBe(sent.message.id);
    expect(await balanceOf(ann)).toBe(SIGNUP + 100 - PHOTO);
    expect(await messagesOf(ann)).toBe(1);
    expect((await chatFiles()).length).toBe(filesBefore + 1);

    // A block deletes the conversation (spec §6), and with it the photo: nobody gets it any more.
    await block(app, ben, ann);
    expect((await ann.client.get(url)).statusCode).toBe(404);
    expect((await ben.client.get(url)).statusCode).toBe(404);
    expect((await chatFiles()).length).toBe(filesBefore);
  });

  it("deletes a photo's file with its message past the retention window", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const response = await sendPhoto(
      ann.client,
      { profile_id: String(ben.profileId), client_id: randomUUID() },
      await photoWithExif(),
    );
    const sent = messageResponseSchema.parse(response.json());
    const filesBefore = (await chatFiles()).length;
    await database.db.execute(sql`update messages set created_at = now() - interval '91 days' where id = ${sent.message.id}`);
    expect((await ben.client.get(sent.message.photo?.url ?? "")).statusCode).toBe(404);
    await app.services.chat.purgeExpired();
    expect(await messagesOf(ann)).toBe(0);
    expect((await chatFiles()).length).toBe(filesBefore - 1);
  });

  it("deletes the photo files of an erased account's conversations", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const filesBefore = (await chatFiles()).length;
    for (const [from, to] of [
      [ann, ben],
      [ben, ann],
    ] as const) {
      const sent = await sendPhoto(
        from.client,
        { profile_id: String(to.profileId), client_id: randomUUID() },
        await photoWithExif(),
      );
      expect(sent.statusCode, sent.body).toBe(200);
    }
    expect((await chatFiles()).length).toBe(filesBefore + 2);
    await database.db.execute(
      sql`update users set status = 'pending_deletion', deletion_requested_at = now() - interval '15 days' where id = ${ann.userId}`,
    );
    await app.services.accounts.purgeExpiredDeletions();
    expect(await sqlCount(database.db, sql`select count(*)::int as n from users where id = ${ann.userId}`)).toBe(0);
    expect((await chatFiles()).length).toBe(filesBefore);
  });

  it("refuses a file that is not an image and one without enough credits, charging and storing nothing", async () => {
    const [ann, ben] = await pair();
    const filesBefore = (await chatFiles()).length;
    const fields = () => ({ profile_id: String(ben.profileId), client_id: randomUUID() });
    const text = await sendPhoto(ann.client, fields(), Buffer.from("%PDF-1.4 not an image"), "image/jpeg");
    expect(text.statusCode).toBe(422);
    expect(text.json()).toMatchObject({ error: "photo_invalid" });
    expect(await balanceOf(ann)).toBe(SIGNUP);
    const huge = await sendPhoto(ann.client, fields(), Buffer.alloc(PHOTO_UPLOAD.maxBytes + 1));
    expect(huge.json()).toMatchObject({ error: "photo_too_large" });
    expect(await balanceOf(ann)).toBe(SIGNUP);

    await app.services.credits.changeNow(database.db, { userId: ann.userId, delta: -15, reason: "test_spend" });
    const poor = await sendPhoto(ann.client, fields(), await photoWithExif());
    expect(poor.statusCode).toBe(402);
    expect(poor.json()).toMatchObject({ error: "not_enough_credits" });
    expect(await balanceOf(ann)).toBe(SIGNUP - 15);
    expect(await messagesOf(ann)).toBe(0);
    expect((await chatFiles()).length).toBe(filesBefore);

    // No file at all, and a missing client_id.
    const empty = await app.server.inject({
      method: "POST",
      url: "/api/message-photo.php",
      remoteAddress: ann.client.address,
      headers: { "content-type": "multipart/form-data; boundary=x", cookie: ann.client.cookieHeader() },
      payload: `--x\r\nContent-Disposition: form-data; name="client_id"\r\n\r\n${randomUUID()}\r\n--x\r\nContent-Disposition: form-data; name="profile_id"\r\n\r\n${ben.profileId}\r\n--x--\r\n`,
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ error: "photo_invalid" });
    expect((await sendPhoto(ann.client, { profile_id: String(ben.profileId) }, await photoWithExif())).statusCode).toBe(422);
    expect(await messagesOf(ann)).toBe(0);
  });
});

describe("photo messages' rules before the decode (issue #25)", () => {
  it("answers not_enough_credits to a member with 0 credits without decoding the photo", async () => {
    const [ann, ben] = await pair();
    await app.services.credits.changeNow(database.db, { userId: ann.userId, delta: -SIGNUP, reason: "test_spend" });
    const decode = vi.spyOn(app.services.photos, "storeChatPhoto");
    try {
      const fields = { profile_id: String(ben.profileId), client_id: randomUUID() };
      // Not an image at all: had it been decoded first, the answer would be photo_invalid.
      const bytes = await sendPhoto(ann.client, fields, Buffer.from("%PDF-1.4 not an image"), "image/jpeg");
      expect(bytes.statusCode).toBe(402);
      expect(bytes.json()).toMatchObject({ error: "not_enough_credits" });
      const photo = await sendPhoto(ann.client, { ...fields, client_id: randomUUID() }, await photoWithExif());
      expect(photo.json()).toMatchObject({ error: "not_enough_credits" });
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
    expect(await messagesOf(ann)).toBe(0);
  });
});

describe("send costs", () => {
  it("shows the member's own country's message price (minimum_message_costs)", async () => {
    const ann = await member({ gender: "female", country: "PL", credits: 100 });
    const ben = await member({ gender: "male", country: "NL" });
    const sent = await send(ann.client, { profile_id: ben.profileId, text: "Cześć" });
    expect((await open(ann.client, sent.conversation_id)).costs).toEqual({
      message: MESSAGE,
      photo: PHOTO,
      gift: GIFT,
      gif: MESSAGE,
      minimum: { costs: 4.49, currency: "PLN" },
    });
    expect((await open(ben.client, sent.conversation_id)).costs.minimum).toEqual({ costs: 0.99, currency: "EUR" });
  });
});

describe("the signup message (spec §1, §4)", () => {
  async function signUpVia(profileId: number, message: string) {
    const client = new TestClient(app.server);
    const email = uniqueEmail("via");
    const response = await client.post(
      "/api/signup.php",
      signupBody(email, { via_profile_id: profileId, signup_message: message }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [mail] = await sqlRows<{ text: string }>(
      database.db,
      sql`select text from mail_outbox where "to" like ${`%${email}%`} order by id desc limit 1`,
    );
    const token = /\/api\/activation\.php\?token=([\w-]{43})/.exec(mail?.text ?? "")?.[1];
    expect(token).toBeDefined();
    const [user] = await sqlRows<{ id: number; profile_id: number }>(
      database.db,
      sql`select u.id, p.id as profile_id from users u join profiles p on p.user_id = u.id where u.email = ${email}`,
    );
    return { client, link: `/api/activation.php?token=${token}`, userId: Number(user?.id), profileId: Number(user?.profile_id) };
  }

  it("goes to the profile as a chat message once the address is confirmed, once however often", async () => {
    const target = await member({ gender: "male" });
    const newcomer = await signUpVia(target.profileId, "Hi! I liked your profile.");
    expect((await chats(target.client)).chats).toHaveLength(0);

    const confirmed = await newcomer.client.get(newcomer.link);
    expect(confirmed.headers.location).toBe("/activate/done");
    const list = await chats(target.client);
    expect(list.chats).toHaveLength(1);
    expect(list.chats[0]).toMatchObject({
      profile: { id: newcomer.profileId },
      num_unread_messages: 1,
      last_message: { kind: "text", text: "Hi! I liked your profile.", from_me: false },
    });
    // Paid out of the signup credits: one message of the allowance.
    const { credits } = await app.services.credits.account(database.db, newcomer.userId);
    expect(credits).toBe(SIGNUP - MESSAGE);
    const events = (await app.services.events.since(target.userId, 0)).events.map((e) => e.event.type);
    expect(events).toContain("chat.message");

    // The link clicked again (or by a mail scanner first): no second message, no second debit.
    expect((await newcomer.client.get(newcomer.link)).headers.location).toBe("/activate/done");
    expect((await chats(target.client)).chats[0]?.num_unread_messages).toBe(1);
    expect((await app.services.credits.account(database.db, newcomer.userId)).credits).toBe(SIGNUP - MESSAGE);
    const [row] = await sqlRows<{ delivered: boolean }>(
      database.db,
      sql`select delivered_at is not null as delivered from signup_messages where user_id = ${newcomer.userId}`,
    );
    expect(row?.delivered).toBe(true);
  });

  it("is dropped quietly when the profile can no longer be reached", async () => {
    const target = await member({ gender: "male" });
    const newcomer = await signUpVia(target.profileId, "Hello there");
    await block(app, target, { profileId: newcomer.profileId });
    expect((await newcomer.client.get(newcomer.link)).headers.location).toBe("/activate/done");
    expect(
      await sqlCount(database.db, sql`select count(*)::int as n from messages where sender_id = ${newcomer.profileId}`),
    ).toBe(0);
    expect((await app.services.credits.account(database.db, newcomer.userId)).credits).toBe(SIGNUP);
    const [row] = await sqlRows<{ delivered: boolean }>(
      database.db,
      sql`select delivered_at is not null as delivered from signup_messages where user_id = ${newcomer.userId}`,
    );
    expect(row?.delivered).toBe(true);
  });
});
