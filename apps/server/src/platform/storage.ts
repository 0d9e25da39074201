import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import type { Config } from "./config.ts";

/** Where photo files live. Local disk by default; an S3-compatible object store when S3_BUCKET is set. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const safeKey = /^[a-z0-9][a-z0-9._/-]{0,200}$/;

/** Every store accepts the same keys: lower-case names and folders, never `..` or an absolute path. */
function checkKey(key: string): string {
  if (!safeKey.test(key) || key.includes("..")) throw new Error(`invalid storage key: ${key}`);
  return key;
}

/** Local disk under DATA_DIR/files, or the S3 bucket when S3_BUCKET is set (loadConfig checks the rest). */
export function openStorage(config: Config): Storage {
  const bucket = config.S3_BUCKET;
  if (!bucket) return new LocalStorage(path.join(config.dataDir, "files"));
  const { S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!endpoint || !accessKeyId || !secretAccessKey) {
    throw new Error("S3_BUCKET needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
  }
  return new S3Storage({ endpoint, bucket, region: config.S3_REGION, accessKeyId, secretAccessKey });
}

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

export interface S3Options {
  /** The service's base URL, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000` (MinIO). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Per request, retries included. */
  timeoutMs?: number;
}

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...) addressed path-style, `endpoint/bucket/key`,
 * with SigV4-signed requests. Error messages name the operation, key and status, never a credential.
 */
export class S3Storage implements Storage {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(options: S3Options) {
    this.client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: "s3",
      region: options.region,
      // aws4fetch retries 5xx and 429 with backoff; a few tries are enough within the timeout.
      retries: 2,
    });
    this.base = `${options.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(options.bucket)}`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private urlOf(key: string): string {
    return `${this.base}/${checkKey(key).split("/").map(encodeURIComponent).join("/")}`;
  }

  private async request(method: "PUT" | "GET" | "DELETE", key: string, init: RequestInit = {}): Promise<Response> {
    const url = this.urlOf(key);
    return this.client.fetch(url, { ...init, method, signal: AbortSignal.timeout(this.timeoutMs) });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const response = await this.request("PUT", key, {
      // A copy typed over a plain ArrayBuffer, which fetch's BodyInit wants (a Buffer may sit on shared memory).
      body: new Uint8Array(data),
      headers: {
        "Content-Type": contentType,
        // A signed payload hash (instead of UNSIGNED-PAYLOAD): the store rejects bytes changed on the way.
        "X-Amz-Content-Sha256": createHash("sha256").update(data).digest("hex"),
      },
    });
    if (!response.ok) throw await failure("PUT", key, response);
    await response.body?.cancel();
  }

  async get(key: string): Promise<Buffer | null> {
    const response = await this.request("GET", key);
    if (response.ok) return Buffer.from(await response.arrayBuffer());
    const error = await failure("GET", key, response);
    // A missing object is no error, a missing bucket is a misconfiguration.
    if (response.status === 404 && error.code !== "NoSuchBucket") return null;
    throw error;
  }

  async delete(key: string): Promise<void> {
    const response = await this.request("DELETE", key);
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const error = await failure("DELETE", key, response);
    if (response.status === 404 && error.code !== "NoSuchBucket") return;
    throw error;
  }
}

export class S3Error extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "S3Error";
  }
}

/** Reads the S3 error code (`<Code>NoSuchKey</Code>`) from the body; the rest of the body stays out of the message. */
async function failure(method: string, key: string, response: Response): Promise<S3Error> {
  const body = await response.text().catch(() => "");
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body)?.[1] ?? null;
  return new S3Error(`S3 ${method} ${key} failed: ${response.status}${code ? ` ${code}` : ""}`, response.status, code);
}
