import { randomUUID } from "node:crypto";
import { apiErrorSchema, clientFrameSchema, ENDPOINTS, type Endpoint, type ServerFrame } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { toJSONSchema, type z } from "zod";
import { createMember, sqlCount, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { connectSocket } from "../../test/sockets.ts";

/**
 * Issue #25, holes 4 and 5 (decision 032): one input rule for every entry point. A NUL character or a
 * lone UTF-16 surrogate anywhere (JSON, form, query string, path parameter, provider callback, socket
 * frame) answers 400 with the field, too deep a nesting 400 `too_deep`, and nothing is stored or charged.
 */
let database: TestDatabase;
let app: TestApp;

useTestApp({ seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app, database } = env);
});

const LONE_SURROGATE = "hi \ud83d";
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const credits = async (who: TestMember): Promise<number> => (await who.client.get("/api/user.php")).json().user.credits;
const chatCount = async (who: TestMember): Promise<number> => (await who.client.get("/api/chats.php")).json().chats.length;

/** Two activated members, `from` with credits to send. */
async function pair() {
  const from = await createMember(app, { activate: true, gender: "female", name: "Ann", credits: 100 });
  const to = await createMember(app, { activate: true, gender: "male", name: "Ben" });
  return { from, to };
}

describe("the input rule over HTTP", () => {
  it("answers a body nested 8000 deep with a translated 400 too_deep (no stack overflow, no 500)", async () => {
    // The issue's 16 KB body, the same with objects, and 400 KB (which JSON.parse alone took 0.5 s to build).
    for (const payload of [nested(8000), `${'{"a":'.repeat(8000)}1${"}".repeat(8000)}`, nested(200_000)]) {
      const response = await app.server.inject({
        method: "POST",
        url: "/api/user.php",
        headers: { "content-type": "application/json", "accept-language": "de" },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(apiErrorSchema.parse(response.json())).toEqual({
        error: "too_deep",
        message: "Die Anfrage ist zu tief verschachtelt, um verarbeitet zu werden.",
      });
    }
    // Ordinary nesting still reaches the contract's schema (422 for a wrong shape, not too_deep).
    const shallow = await app.server.inject({
      method: "POST",
      url: "/api/user.php",
      headers: { "content-type": "application/json" },
      payload: nested(5),
    });
    expect(shallow.json().error).toBe("validation_failed");
  });

  it("refuses a lone surrogate in a message with the field's error, storing and charging nothing; an emoji goes", async () => {
    const { from, to } = await pair();
    const before = await credits(from);
    const refused = await from.client.post("/api/message.php", {
      profile_id: to.profileId,
      client_id: randomUUID(),
      text: LONE_SURROGATE,
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      error: "invalid_input",
      message: "Some fields contain characters that cannot be used.",
      fields: { text: "This field contains a character that cannot be used." },
    });
    // A trailing low half alone, and a NUL, likewise.
    for (const text of ["\ude00 there", "a\u0000b"]) {
      const again = await from.client.post("/api/message.php", { profile_id: to.profileId, client_id: randomUUID(), text });
      expect(again.statusCode, text).toBe(400);
    }
    expect(await credits(from)).toBe(before);
    expect(await chatCount(from)).toBe(0);

    // Paired surrogates (an emoji) and other Unicode are ordinary text.
    const text = "Hoi 😀 Zoë, żółć, 你好 👩🏽‍💻";
    const sent = await from.client.post("/api/message.php", { profile_id: to.profileId, client_id: randomUUID(), text });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message.text).toBe(text);
    expect(await credits(from)).toBeLessThan(before);
    const { conversation_id: id } = sent.json();
    expect((await to.client.get(`/api/chat.php?id=${id}`)).json().messages.map((m: { text: string }) => m.text)).toEqual([text]);
  });

  it("refuses a NUL or a lone surrogate in a query string with the field's error", async () => {
    for (const url of ["/api/members.php?countryregion=%00", "/api/gifs.php?q=%00", "/api/regions.php?x=%00"]) {
      const response = await app.server.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toBe("invalid_input");
    }
    const inQuery = await app.server.inject({ url: "/api/members.php?countryregion=%00" });
    expect(inQuery.json().fields).toEqual({ countryregion: expect.any(String) });
  });

  it("refuses a NUL in a path parameter (the sandbox checkout's, shown or posted; a photo's key) and changes nothing", async () => {
    const payments = () => sqlCount(database.db, sql`select count(*)::int as n from payments`);
    const before = await payments();
    const shown = await app.server.inject({ url: "/sandbox/checkout/%00" });
    expect(shown.statusCode, shown.body).toBe(400);
    expect(shown.json()).toMatchObject({ error: "invalid_input", fields: { id: expect.any(String) } });
    const host = new URL(app.url).host;
    const posted = await app.server.inject({
      method: "POST",
      url: "/sandbox/checkout/tr_%00",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}`, host },
      payload: "status=paid",
    });
    expect(posted.statusCode, posted.body).toBe(400);
    // A NUL in the form field instead of the path, likewise.
    const field = await app.server.inject({
      method: "POST",
      url: "/sandbox/checkout/tr_1",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}`, host },
      payload: "status=paid%00",
    });
    expect(field.statusCode, field.body).toBe(400);
    expect(await payments()).toBe(before);
    // Any route's path parameter, not only the sandbox's: a photo's key.
    const photo = await app.server.inject({ url: "/cdn/photos/%00.jpg" });
    expect(photo.statusCode, photo.body).toBe(400);
  });

  it("refuses a NUL in the payment webhook's body (no login needed), form-encoded or JSON", async () => {
    const hook = (contentType: string, payload: string) =>
      app.server.inject({ method: "POST", url: "/hooks/payments/sandbox", headers: { "content-type": contentType }, payload });
    const form = await hook("application/x-www-form-urlencoded", "id=%00");
    expect(form.statusCode, form.body).toBe(400);
    expect(form.json()).toMatchObject({ error: "invalid_input", fields: { id: expect.any(String) } });
    expect((await hook("application/json", JSON.stringify({ id: "tr_\u0000" }))).statusCode).toBe(400);
    expect((await hook("application/json", JSON.stringify({ id: LONE_SURROGATE }))).statusCode).toBe(400);
    expect((await hook("application/json", `{"id":"tr_1","x":${nested(8000)}}`)).json().error).toBe("too_deep");
    // An ordinary unknown id is still answered as before.
    expect((await hook("application/x-www-form-urlencoded", "id=tr_unknown")).statusCode).toBe(200);
  });
});

describe("ids in the contract", () => {
  it("refuses a verification_id that is not a UUID with the field's error (it reached a uuid column)", async () => {
    const { from } = await pair();
    for (const verification_id of ["not-a-uuid", "1", "x".repeat(64)]) {
      const response = await from.client.post("/api/directdebit-confirm.php", {
        verification_id,
        code: "123456",
        client_id: randomUUID(),
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ error: "validation_failed", fields: { verification_id: expect.any(String) } });
    }
    // A well-formed UUID that names nothing is the wrong code, as before.
    const unknown = await from.client.post("/api/directdebit-confirm.php", {
      verification_id: randomUUID(),
      code: "123456",
      client_id: randomUUID(),
    });
    expect(unknown.statusCode, unknown.body).toBeLessThan(500);
  });
});

describe("the input rule over the socket", () => {
  it("answers a send with a lone surrogate or NUL with send_failed 400, storing and charging nothing", async () => {
    const { from, to } = await pair();
    const before = await credits(from);
    const socket = await connectSocket(app, { cookie: from.client.cookieHeader() });
    await socket.next((f) => f.type === "hello");
    const answerTo = (clientId: string) => (f: ServerFrame) =>
      (f.type === "sent" && f.answer.message.client_id === clientId) || (f.type === "send_failed" && f.client_id === clientId);

    for (const text of [LONE_SURROGATE, "a\u0000b"]) {
      const message = { profile_id: to.profileId, client_id: randomUUID(), text };
      socket.socket.send(JSON.stringify({ type: "send", message }));
      expect(await socket.next(answerTo(message.client_id))).toEqual({
        type: "send_failed",
        client_id: message.client_id,
        status: 400,
        body: {
          error: "invalid_input",
          message: "Some fields contain characters that cannot be used.",
          fields: { "message.text": "This field contains a character that cannot be used." },
        },
      });
    }
    expect(await credits(from)).toBe(before);
    expect(await chatCount(from)).toBe(0);

    // Any other frame gets the error frame: a NUL in a ping's id, a frame nested 8000 deep.
    socket.socket.send(JSON.stringify({ type: "ping", id: "\u0000" }));
    expect(await socket.next((f) => f.type === "error")).toEqual({
      type: "error",
      error: "invalid_input",
      message: "Some fields contain characters that cannot be used.",
    });
    socket.socket.send(`{"type":"ping","id":${nested(8000)}}`);
    expect(await socket.next((f) => f.type === "error" && f.error === "too_deep")).toMatchObject({ type: "error" });

    // An emoji over the socket is stored as sent.
    const emoji = { profile_id: to.profileId, client_id: randomUUID(), text: "Hi 😀" };
    socket.socket.send(JSON.stringify({ type: "send", message: emoji }));
    expect(await socket.next(answerTo(emoji.client_id))).toMatchObject({ type: "sent", answer: { message: { text: "Hi 😀" } } });
    socket.socket.close();
  });
});

/** The JSON Schema (zod's input side) of a request schema, as far as the example below reads it. */
interface JsonSchema {
  type?: string | string[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
}

/** Values a field of that name must have to pass its schema, where "x" would not. */
const KNOWN: Record<string, unknown> = {
  email: "fuzz@example.org",
  new_email: "fuzz2@example.org",
  date_of_birth: "1990-04-12",
  country: "NL",
  tz: "Europe/Amsterdam",
  locale: "en_US",
  iban: "NL91ABNA0417164300",
  phone: "+31612345678",
  password: "correct horse battery",
  name: "Robin",
};

/** Fields of which a request names one (a message goes to a profile or a conversation; is a text, gift or GIF). */
const ALTERNATIVES = [
  ["profile_id", "conversation_id"],
  ["text", "gift", "gif"],
];

/**
 * A request that passes the schema (as far as names and types tell), so a changed field reaches the
 * service and its SQL: `known` gives values by field name (a real profile id, ...).
 */
function example(schema: JsonSchema, known: Record<string, unknown> = {}, name = ""): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return example(schema.anyOf.find((s) => s.type !== "null") ?? schema.anyOf[0] ?? {}, known, name);
  if (name in known) return known[name];
  if (name in KNOWN) return KNOWN[name];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object") {
    const keys = Object.keys(schema.properties ?? {});
    const skipped = ALTERNATIVES.flatMap((group) => group.filter((key) => keys.includes(key)).slice(1));
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([key]) => !skipped.includes(key))
        .map(([key, value]) => [key, example(value, known, key)]),
    );
  }
  if (type === "string") return schema.format === "uuid" ? randomUUID() : "x".repeat(Math.max(schema.minLength ?? 1, 1));
  if (type === "integer" || type === "number") return Math.max(schema.minimum ?? 1, 1);
  if (type === "boolean") return true;
  if (type === "array") return [];
  return "x";
}

const takesString = (schema: JsonSchema): boolean =>
  (schema.type === "string" && schema.const === undefined) ||
  (Array.isArray(schema.type) && schema.type.includes("string")) ||
  !!schema.anyOf?.some(takesString);

/** The string fields of a request schema (a record's values as the field `x`). */
function stringFields(schema: JsonSchema): string[] {
  const named = Object.entries(schema.properties ?? {}).filter(([, value]) => !value.enum && takesString(value));
  const record = typeof schema.additionalProperties === "object" && takesString(schema.additionalProperties) ? ["x"] : [];
  return [...named.map(([key]) => key), ...record];
}

/** Texts as JSON (body, frame) and as a query string (a lone surrogate cannot be UTF-8: its bytes as sent). */
const FUZZ_VALUES = [
  { label: "NUL", body: "\u0000", query: "%00" },
  { label: "lone surrogate", body: LONE_SURROGATE, query: "hi%20%ED%A0%BD" },
  { label: "unexpected text", body: "x'\"<>;--", query: "x'%22%3C%3E;--" },
];

describe("every endpoint of the contract", () => {
  it("answers no 5xx to a NUL, a lone surrogate or an unexpected text in any string field", { timeout: 240_000 }, async () => {
    const { from: member, to } = await pair();
    const failures: string[] = [];
    for (const endpoint of Object.values(ENDPOINTS) as Endpoint[]) {
      for (const part of ["query", "body"] as const) {
        const schema = endpoint[part];
        if (!schema || schema === "multipart") continue;
        const json = toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;
        for (const field of stringFields(json)) {
          for (const value of FUZZ_VALUES) {
            // A new example each time: its client_id too (a repeated one would answer the first request again).
            const base = (example(json, { profile_id: to.profileId }) ?? {}) as Record<string, unknown>;
            let url: string = endpoint.path;
            let payload: unknown;
            if (part === "body") payload = { ...base, [field]: value.body };
            else {
              const others = Object.entries(base).filter(([key]) => key !== field);
              const query = others.map(([key, v]) => `${key}=${encodeURIComponent(String(v))}`);
              url += `?${[...query, `${field}=${value.query}`].join("&")}`;
            }
            const response = await member.client.request(endpoint.method, url, payload);
            if (response.statusCode >= 500) {
              failures.push(
                `${endpoint.method} ${endpoint.path} ${part}.${field} = ${value.label}: ${response.statusCode} ${response.body}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("every client frame of the socket", () => {
  it("answers no internal error to a NUL, a lone surrogate or an unexpected text in any string field", {
    timeout: 120_000,
  }, async () => {
    const { from: member, to } = await pair();
    const socket = await connectSocket(app, { cookie: member.client.cookieHeader() });
    await socket.next((f) => f.type === "hello");
    const json = toJSONSchema(clientFrameSchema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const failures: string[] = [];
    for (const option of json.oneOf ?? []) {
      const base = () => example(option, { profile_id: to.profileId }) as Record<string, unknown>;
      // String fields of the frame and of an object inside it (a send's message).
      const paths: string[][] = stringFields(option).map((field) => [field]);
      for (const [key, value] of Object.entries(option.properties ?? {})) {
        if (value.type === "object") paths.push(...stringFields(value).map((field) => [key, field]));
      }
      for (const path of paths) {
        for (const value of FUZZ_VALUES) {
          const frame = base();
          const [head, leaf] = path as [string, string | undefined];
          if (leaf === undefined) frame[head] = value.body;
          else (frame[head] as Record<string, unknown>)[leaf] = value.body;
          const seen = socket.frames.length;
          socket.socket.send(JSON.stringify(frame));
          // Every such frame is answered (pong, sent, send_failed or error): the first answer after it.
          const answer = await socket.next((f) => socket.frames.indexOf(f) >= seen && f.type !== "event");
          const internal =
            (answer.type === "error" && answer.error === "internal") || (answer.type === "send_failed" && answer.status >= 500);
          if (internal) failures.push(`${frame.type} ${path.join(".")} = ${value.label}: ${JSON.stringify(answer)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    socket.socket.close();
  });
});
