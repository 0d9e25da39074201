import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { addBrandSite } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { connectSocket } from "../../test/sockets.ts";

/**
 * Issue #25 hole 7 behind a proxy (TRUST_PROXY): "this site" is the origin the visitor's browser is on,
 * the scheme from X-Forwarded-Proto and the host from X-Forwarded-Host, as the site that answers is
 * chosen by that host too. A proxy that forwards the visitor's host in X-Forwarded-Host and reaches the
 * node under its own address (nginx's default `Host: $proxy_host`) left a brand site's own pages
 * refused with bad_origin and their socket with 403, while PUBLIC_URL's origin passed.
 */
let app: TestApp;

useTestApp({ env: { PUBLIC_URL: "https://www.amoria.example", TRUST_PROXY: "true" }, seed: { profiles: 0 } }, async (env) => {
  app = env.app;
  await addBrandSite(app);
});

/** What the proxy adds: the node is reached under its own address, the visitor's host and scheme forwarded. */
const viaProxy = (origin: string) => ({
  host: new URL(app.url).host,
  "x-forwarded-host": "liefde.example",
  "x-forwarded-proto": "https",
  origin,
});

describe("origin checks behind a trusted proxy", () => {
  it("accepts a brand site's own page by its forwarded host and scheme, and still refuses another scheme", async () => {
    const client = new TestClient(app.server);
    const own = await client.post("/api/reset-password.php", { email: "ghost@example.org" }, viaProxy("https://liefde.example"));
    // Reaches the handler (which knows no such address), not the origin check.
    expect(own.json().error, own.body).toBe("email_not_found");
    const otherScheme = await client.post(
      "/api/reset-password.php",
      { email: "ghost@example.org" },
      viaProxy("http://liefde.example"),
    );
    expect(otherScheme.statusCode).toBe(403);
    expect(otherScheme.json().error).toBe("bad_origin");
    const foreign = await client.post(
      "/api/reset-password.php",
      { email: "ghost@example.org" },
      viaProxy("https://evil.example"),
    );
    expect(foreign.json().error).toBe("bad_origin");
  });

  it("opens the socket for a brand site's own page behind the proxy, and refuses another scheme", async () => {
    const { socket } = await connectSocket(app, viaProxy("https://liefde.example"));
    socket.close();
    await expect(connectSocket(app, viaProxy("http://liefde.example"))).rejects.toThrow("HTTP 403");
  });
});
