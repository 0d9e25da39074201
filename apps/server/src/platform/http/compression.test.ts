import { existsSync, readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { webRoot } from "./ssr.ts";

// The asset and page cases need the production build (npm test builds first; `npm run build` alone).
const built = existsSync(`${webRoot}build/server/index.js`);
let database: TestDatabase;
let app: TestApp;

useTestApp({ web: built ? "production" : false, seed: { profiles: 2 } }, (env) => {
  ({ app, database } = env);
});

const BR_OR_GZIP = { "accept-encoding": "gzip, deflate, br" };
const GZIP_ONLY = { "accept-encoding": "gzip" };

/** The first built script and stylesheet the home page links. */
async function builtAssets(): Promise<string[]> {
  const page = await app.server.inject({ url: "/" });
  const js = /(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
  const css = /(\/assets\/[^"]+\.css)"/.exec(page.body)?.[1];
  if (!js || !css) throw new Error("the home page links no built script or stylesheet");
  return [js, css];
}

describe.runIf(built)("built assets", () => {
  it("are sent precompressed: brotli when accepted, else gzip, else as they are; cached for a year", async () => {
    for (const asset of await builtAssets()) {
      const original = readFileSync(`${webRoot}build/client${asset}`);

      const br = await app.server.inject({ url: asset, headers: BR_OR_GZIP });
      expect(br.statusCode, asset).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(br.headers["content-type"]).toMatch(asset.endsWith(".js") ? /javascript/ : /text\/css/);
      // The build-time file itself (quality 11), not one compressed per request.
      expect(br.rawPayload.equals(readFileSync(`${webRoot}build/client${asset}.br`))).toBe(true);
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

      const gzip = await app.server.inject({ url: asset, headers: GZIP_ONLY });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);

      const plain = await app.server.inject({ url: asset, headers: { "accept-encoding": "identity" } });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.rawPayload.equals(original)).toBe(true);
    }
  });

  it("does not expose the compressed siblings as files of their own", async () => {
    const [js] = await builtAssets();
    expect((await app.server.inject({ url: `${js}.br` })).statusCode).toBe(404);
  });
});

describe.runIf(built)("server-rendered pages", () => {
  it("are compressed with brotli, or gzip when only gzip is accepted", async () => {
    const br = await app.server.inject({ url: "/", headers: BR_OR_GZIP });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-length"]).toBeUndefined();
    expect(br.headers["content-security-policy"]).toContain("'nonce-");
    const html = brotliDecompressSync(br.rawPayload).toString();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain("</html>");
    expect(br.rawPayload.length).toBeLessThan(html.length / 3);

    const gzip = await app.server.inject({ url: "/", headers: GZIP_ONLY });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toContain("</html>");
  });
});

describe("dynamic answers", () => {
  it("compresses a large JSON answer", async () => {
    const response = await app.server.inject({ url: "/api/settings.php", headers: BR_OR_GZIP });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    const body = brotliDecompressSync(response.rawPayload);
    expect(body.length).toBeGreaterThan(1024);
    expect(JSON.parse(body.toString())).toHaveProperty("settings");
  });

  it("leaves answers under 1 KB and requests without Accept-Encoding as they are", async () => {
    const small = await app.server.inject({ url: "/healthz", headers: BR_OR_GZIP });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json().status).toBe("ok");
    const plain = await app.server.inject({ url: "/api/settings.php" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json()).toHaveProperty("settings");
  });

  it("sends photo bytes (already JPEG) uncompressed", async () => {
    const [photoRow] = await sqlRows<{ filename: string }>(database.db, sql`select filename from photos limit 1`);
    const filename = photoRow?.filename;
    expect(filename).toBeTruthy();
    const photo = await app.server.inject({ url: `/cdn/${filename}`, headers: BR_OR_GZIP });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    expect(photo.headers["content-encoding"]).toBeUndefined();
    expect(photo.rawPayload.length).toBeGreaterThan(1024);
    expect(photo.rawPayload.subarray(0, 3).toString("hex")).toBe("ffd8ff");
  });

  it("opens the WebSocket for a browser that accepts compressed answers, with plain frames", async () => {
    const socket = new WebSocket(`${app.url.replace("http", "ws")}/ws`, { headers: BR_OR_GZIP, perMessageDeflate: false });
    const upgrade = new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.once("upgrade", (response) => resolve(response.headers));
      socket.once("error", reject);
      socket.once("unexpected-response", (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    });
    const hello = new Promise<string>((resolve) => socket.once("message", (raw) => resolve(raw.toString())));
    const headers = await upgrade;
    expect(headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(await hello)).toMatchObject({ type: "hello" });
    socket.close();
  });
});
