/**
 * A browser's push service on 127.0.0.1, for the browser tests (the server allows its origin through
 * PUSH_HTTP_ORIGINS). Chromium subscribes through Google's push service, which this machine cannot
 * reach, so this process plays both parts of the browser's side that need it: it makes each device's
 * subscription keys (as the browser would) and receives the site's pushes (RFC 8030: a POST with the VAPID
 * Authorization header) and decrypts them (RFC 8291, aes128gcm); the test then hands the plaintext to
 * the page's service worker through the DevTools protocol, as the browser does with a push it received.
 *   tsx e2e/push-service.ts <port>
 *   POST /devices → a new device's subscription (PushSubscription.toJSON()'s shape)
 *   GET /received?device=<id> → the pushes that device received, decrypted, oldest first
 */
import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";

const [port = "3196"] = process.argv.slice(2);
const devices = new Map<string, { ecdh: ECDH; auth: Buffer; received: { payload: unknown; headers: object }[] }>();

createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const json = (status: number, body: unknown) =>
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    if (url.pathname === "/healthz") return json(200, { ok: true });
    if (request.method === "POST" && url.pathname === "/devices") {
      const id = randomBytes(8).toString("hex");
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth, received: [] });
      return json(200, {
        id,
        subscription: {
          endpoint: `http://127.0.0.1:${port}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
        },
      });
    }
    if (request.method === "GET" && url.pathname === "/received") {
      return json(200, devices.get(url.searchParams.get("device") ?? "")?.received ?? []);
    }
    const device = request.method === "POST" && url.pathname.startsWith("/push/") && devices.get(url.pathname.slice(6));
    if (!device) return json(404, { error: "no such subscription" });
    try {
      const payload = JSON.parse(decrypt(Buffer.concat(chunks), device.ecdh, device.auth).toString("utf8"));
      device.received.push({ payload, headers: { ttl: request.headers.ttl, authorization: request.headers.authorization } });
      response.writeHead(201).end();
    } catch {
      json(400, { error: "could not decrypt" });
    }
  });
}).listen(Number(port), "127.0.0.1");

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, decrypted as the user agent does. */
function decrypt(body: Buffer, device: ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const secret = device.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), device.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync("sha256", secret, auth, info, 32));
  const key = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record's text ends with the delimiter 2, then zero padding.
  const end = padded.lastIndexOf(2);
  if (end < 0) throw new Error("no record delimiter");
  return padded.subarray(0, end);
}
