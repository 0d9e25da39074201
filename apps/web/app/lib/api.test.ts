// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ENDPOINTS } from "@app/contract";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiCallError, apiCall, callEndpoint, onceBy, onSessionLost } from "./api";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real HTTP server that answers with the given statuses in turn. */
async function serve(statuses: number[]): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((_req, res) => {
    const status = statuses[Math.min(hits, statuses.length - 1)] ?? 200;
    hits++;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        status === 200
          ? { ok: true }
          : status === 403
            ? { error: "authentication_required", message: "Log in" }
            : { error: "internal", message: "x" },
      ),
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

const okSchema = z.object({ ok: z.boolean() });
const fast = { backoffMs: () => 1 };

describe("API client", () => {
  it("retries server errors up to 5 times and succeeds when the server recovers", async () => {
    const { url, hits } = await serve([503, 502, 500, 503, 500, 200]);
    await expect(apiCall("/api/x.php", okSchema, {}, { ...fast, baseUrl: url })).resolves.toEqual({ ok: true });
    expect(hits()).toBe(6);
  });

  it("gives up after 1 + 5 attempts", async () => {
    const { url, hits } = await serve([500]);
    await expect(apiCall("/api/x.php", okSchema, {}, { ...fast, baseUrl: url })).rejects.toBeInstanceOf(ApiCallError);
    expect(hits()).toBe(6);
  });

  it("never repeats a POST the server may have processed, but retries one it refused with 503", async () => {
    const failing = await serve([500, 200]);
    await expect(
      apiCall("/api/x.php", okSchema, { method: "POST", body: "{}" }, { ...fast, baseUrl: failing.url }),
    ).rejects.toBeInstanceOf(ApiCallError);
    expect(failing.hits()).toBe(1);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    const busy = await serve([503, 200]);
    await expect(
      apiCall("/api/x.php", okSchema, { method: "POST", body: "{}" }, { ...fast, baseUrl: busy.url }),
    ).resolves.toEqual({
      ok: true,
    });
    expect(busy.hits()).toBe(2);
  });

  it("does not retry a 403 authentication_required and reports it", async () => {
    const { url, hits } = await serve([403]);
    let loggedOut = 0;
    const error = await apiCall(
      "/api/x.php",
      okSchema,
      {},
      { ...fast, baseUrl: url, onAuthenticationRequired: () => void loggedOut++ },
    ).catch((e: unknown) => e);
    expect((error as ApiCallError).code).toBe("authentication_required");
    expect(hits()).toBe(1);
    expect(loggedOut).toBe(1);
  });

  it("backs off exponentially", async () => {
    const { url } = await serve([500, 500, 500, 200]);
    const delays: number[] = [];
    const recordDefault = (attempt: number) => {
      delays.push(250 * 2 ** attempt);
      return 1;
    };
    await apiCall("/api/x.php", okSchema, {}, { baseUrl: url, backoffMs: recordDefault });
    expect(delays).toEqual([250, 500, 1000]);
  });

  it("loads cached reference data once per key and retries after a failure", async () => {
    let calls = 0;
    const load = onceBy(async (key: string) => {
      calls++;
      if (calls === 1) throw new Error("offline");
      return key.toUpperCase();
    });
    await expect(load("a")).rejects.toThrow("offline");
    expect(await load("a")).toBe("A");
    expect(await load("a")).toBe("A");
    expect(calls).toBe(2);
  });
});

describe("calls of the contract's endpoint table", () => {
  /** A server that records each request and answers `answer`. */
  async function recording(status: number, answer: unknown) {
    const seen: Array<{ method: string; url: string; type: string | undefined; body: string }> = [];
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", type: req.headers["content-type"], body });
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it("sends the endpoint's method, path, query and JSON body, and parses the answer with its schema", async () => {
    const { url, seen } = await recording(200, { blocked: false, extra: "dropped" });
    const answer = await callEndpoint(ENDPOINTS.unblock, { query: { id: 42 } }, { baseUrl: url });
    expect(answer).toEqual({ blocked: false });
    expect(seen[0]).toMatchObject({ method: "DELETE", url: "/api/block.php?id=42", body: "" });
    await callEndpoint(ENDPOINTS.block, { body: { id: 7 } }, { baseUrl: url });
    expect(seen[1]).toMatchObject({ method: "POST", url: "/api/block.php", type: "application/json", body: '{"id":7}' });
  });

  it("puts an endpoint's `when` values in the query string: two calls of one method and path stay apart (spec §7)", async () => {
    const { url, seen } = await recording(200, { user: null });
    await callEndpoint(ENDPOINTS.pushSubscription, { body: { subscription: "denied" } }, { baseUrl: url });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/user.php?push=1", body: '{"subscription":"denied"}' });
    await callEndpoint(ENDPOINTS.login, { body: { email: "sam@example.com", password: "x" } }, { baseUrl: url });
    expect(seen[1]).toMatchObject({ method: "POST", url: "/api/user.php" });
  });

  it("reports a lost session for member calls only, never for the user call (spec §4)", async () => {
    const { url } = await recording(403, { error: "authentication_required", message: "Log in" });
    let lost = 0;
    const stop = onSessionLost(() => lost++);
    try {
      await expect(callEndpoint(ENDPOINTS.photos, {}, { baseUrl: url })).rejects.toBeInstanceOf(ApiCallError);
      expect(lost).toBe(1);
      await expect(callEndpoint(ENDPOINTS.user, {}, { baseUrl: url })).rejects.toBeInstanceOf(ApiCallError);
      expect(lost).toBe(1);
    } finally {
      stop();
    }
  });
});
