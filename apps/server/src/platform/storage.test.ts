import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import S3rver from "s3rver";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "./config.ts";
import { LocalStorage, openStorage, S3Storage, type Storage } from "./storage.ts";

// s3rver's one account: it checks that the access key exists but does not verify SigV4 signatures.
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const bucket = "photos";

let server: S3rver;
let endpoint = "";
let localRoot = "";
let s3Root = "";
let local: LocalStorage;
let s3: S3Storage;

beforeAll(async () => {
  localRoot = await mkdtemp(path.join(tmpdir(), "dating-storage-local-"));
  s3Root = await mkdtemp(path.join(tmpdir(), "dating-storage-s3-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: s3Root,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  local = new LocalStorage(localRoot);
  s3 = new S3Storage({ endpoint, bucket, region: "us-east-1", ...credentials });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([localRoot, s3Root].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  ["LocalStorage", () => local],
  ["S3Storage", () => s3],
] as const)("%s", (_name, storageOf: () => Storage) => {
  it("gives back the bytes it was given", async () => {
    const storage = storageOf();
    const data = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x80, 0x7f, 0x0a, 0x0d]);
    await storage.put("photos/12/full-abc.jpg", data, "image/jpeg");
    expect(await storage.get("photos/12/full-abc.jpg")).toEqual(data);
    // A second put replaces the object.
    await storage.put("photos/12/full-abc.jpg", Buffer.from("second"), "image/jpeg");
    expect((await storage.get("photos/12/full-abc.jpg"))?.toString()).toBe("second");
  });

  it("answers null for a missing key", async () => {
    expect(await storageOf().get("photos/missing.jpg")).toBeNull();
  });

  it("forgets a deleted object, and deleting a missing one is fine", async () => {
    const storage = storageOf();
    await storage.put("photos/gone.jpg", Buffer.from("x"), "image/jpeg");
    await storage.delete("photos/gone.jpg");
    expect(await storage.get("photos/gone.jpg")).toBeNull();
    await expect(storage.delete("photos/never-there.jpg")).resolves.toBeUndefined();
  });

  it("refuses unsafe keys before touching the disk or the network", async () => {
    const storage = storageOf();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    for (const key of ["../x", "/abs", "Photos/a.jpg", "a/../b", "", "a b"]) {
      await expect(storage.put(key, Buffer.from("x"), "image/jpeg"), key).rejects.toThrow("invalid storage key");
      await expect(storage.get(key), key).rejects.toThrow("invalid storage key");
      await expect(storage.delete(key), key).rejects.toThrow("invalid storage key");
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe("S3Storage against s3rver", () => {
  it("stores the content type with the object", async () => {
    await s3.put("photos/typed.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    const response = await new AwsClient({ ...credentials, service: "s3", region: "us-east-1" }).fetch(
      `${endpoint}/${bucket}/photos/typed.jpg`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(await response.text()).toBe("jpeg bytes");
  });

  it("rejects with the status and S3 code, never a credential, when the store refuses", async () => {
    const stranger = new S3Storage({ endpoint, bucket, region: "us-east-1", accessKeyId: "NOBODY", secretAccessKey: "hush-123" });
    const error = await stranger.put("photos/a.jpg", Buffer.from("x"), "image/jpeg").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("S3 PUT photos/a.jpg failed: 403 InvalidAccessKeyId");
    expect((error as Error).message).not.toContain("hush-123");
  });

  // s3rver 3.7 checks that the access key exists but skips the SigV4 signature calculation
  // ("Signature version 4 calculation is unimplemented"), so a wrong secret is accepted there.
  // Real S3, MinIO, Ceph and R2 answer 403 SignatureDoesNotMatch, which put turns into a rejection.
  it.skip("rejects a put signed with the wrong secret key (s3rver does not verify SigV4)", async () => {
    const wrong = new S3Storage({ endpoint, bucket, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "wrong" });
    await expect(wrong.put("photos/a.jpg", Buffer.from("x"), "image/jpeg")).rejects.toThrow("403");
  });

  it("treats a missing bucket as an error, not as a missing photo", async () => {
    const misconfigured = new S3Storage({ endpoint, bucket: "no-such-bucket", region: "us-east-1", ...credentials });
    await expect(misconfigured.get("photos/a.jpg")).rejects.toThrow("404 NoSuchBucket");
  });
});

describe("openStorage", () => {
  it("keeps photos on local disk by default", () => {
    expect(openStorage(loadConfig({ DATA_DIR: localRoot }))).toBeInstanceOf(LocalStorage);
  });

  it("uses the bucket when S3_BUCKET is set", async () => {
    const storage = openStorage(
      loadConfig({
        DATA_DIR: localRoot,
        S3_BUCKET: bucket,
        S3_ENDPOINT: `${endpoint}/`,
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      }),
    );
    expect(storage).toBeInstanceOf(S3Storage);
    await storage.put("photos/configured.jpg", Buffer.from("via config"), "image/jpeg");
    expect((await s3.get("photos/configured.jpg"))?.toString()).toBe("via config");
  });
});
