import { createECDH } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, defaultOrigin, loadConfig, paymentsProviderOf } from "./config.ts";

describe("configuration", () => {
  it("defaults to the embedded mode", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: "127.0.0.1", DATA_DIR: "./data", SEED: true });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.dataDir.endsWith("/data")).toBe(true);
  });

  it("stops with a message naming every bad value", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", REDIS_URL: "not a url" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL");
    expect(message).toContain("REDIS_URL");
  });

  it("accepts PostgreSQL and Redis URLs", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/app",
      REDIS_URL: "redis://127.0.0.1:6379",
      PORT: "8080",
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBe("postgres://postgres@127.0.0.1:5432/app");
  });

  it("refuses a HOST other machines reach without PUBLIC_URL, naming the variable (issue #25)", () => {
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(
      /PUBLIC_URL: required when HOST \(0\.0\.0\.0\) is not a loopback address/,
    );
    expect(() => loadConfig({ HOST: "::" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "ftp://www.example.com" })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com" }).PUBLIC_URL).toBe("https://www.example.com");
    // On loopback the origin is the one `npm start` prints.
    const local = loadConfig({ HOST: "127.0.0.1", PORT: "4000" });
    expect(defaultOrigin(local)).toBe("http://localhost:4000");
    expect(defaultOrigin(loadConfig({ PUBLIC_URL: "https://www.example.com/" }))).toBe("https://www.example.com");
  });

  it("takes payments with Mollie, the sandbox on a test site only, or nobody (decision 030)", () => {
    expect(paymentsProviderOf(loadConfig({}))).toBe("sandbox");
    expect(paymentsProviderOf(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com" }))).toBeNull();
    expect(paymentsProviderOf(loadConfig({ PUBLIC_URL: "https://www.example.com" }))).toBeNull();
    const key = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM";
    expect(paymentsProviderOf(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com", MOLLIE_API_KEY: key }))).toBe(
      "mollie",
    );
    expect(
      paymentsProviderOf(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com", PAYMENTS_PROVIDER: "sandbox" })),
    ).toBe("sandbox");
    expect(() => loadConfig({ PAYMENTS_PROVIDER: "mollie" })).toThrow(
      /MOLLIE_API_KEY: required when PAYMENTS_PROVIDER is mollie/,
    );
    expect(() => loadConfig({ PAYMENTS_PROVIDER: "paypal" })).toThrow(/PAYMENTS_PROVIDER/);
  });

  it("needs the endpoint and both keys with S3_BUCKET, and a bucket with any other S3 setting", () => {
    expect(() => loadConfig({ S3_BUCKET: "photos", S3_ENDPOINT: "http://127.0.0.1:9000", S3_ACCESS_KEY_ID: "key" })).toThrow(
      /S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/S3_BUCKET: required/);
    expect(() =>
      loadConfig({ S3_BUCKET: "photos", S3_ENDPOINT: "ftp://x", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" }),
    ).toThrow(/S3_ENDPOINT/);
    const config = loadConfig({
      S3_BUCKET: "photos",
      S3_ENDPOINT: "https://s3.example.com",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(config).toMatchObject({ S3_BUCKET: "photos", S3_REGION: "us-east-1" });
    expect(loadConfig({}).S3_BUCKET).toBeUndefined();
  });

  it("takes a VAPID key pair only whole and matching, and a mailto: or https: subject (issue #28)", () => {
    const pair = () => {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      // A private scalar with a leading zero byte comes out 31 bytes long (1 time in 256): pad it to 32, as
      // a key generator does (push/vapid.ts); CI's run drew one.
      const raw = ecdh.getPrivateKey();
      const privateKey = Buffer.concat([Buffer.alloc(32 - raw.length), raw]);
      return { VAPID_PUBLIC_KEY: ecdh.getPublicKey("base64url"), VAPID_PRIVATE_KEY: privateKey.toString("base64url") };
    };
    const good = pair();
    expect(loadConfig({ ...good, VAPID_SUBJECT: "mailto:push@example.com" })).toMatchObject(good);
    expect(loadConfig({}).VAPID_PUBLIC_KEY).toBeUndefined();
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: good.VAPID_PUBLIC_KEY })).toThrow(/VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: good.VAPID_PRIVATE_KEY })).toThrow(/VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY and/);
    expect(() => loadConfig({ ...good, VAPID_PUBLIC_KEY: "not-a-key" })).toThrow(
      /VAPID_PUBLIC_KEY: must be base64url of a 65-byte/,
    );
    expect(() => loadConfig({ ...good, VAPID_PRIVATE_KEY: good.VAPID_PRIVATE_KEY.slice(0, 20) })).toThrow(
      /VAPID_PRIVATE_KEY: must be base64url of a 32-byte/,
    );
    // Two valid keys of different pairs: the subscriptions would be made with a key we cannot sign for.
    expect(() => loadConfig({ ...good, VAPID_PUBLIC_KEY: pair().VAPID_PUBLIC_KEY })).toThrow(
      /VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY/,
    );
    expect(() => loadConfig({ ...good, VAPID_PRIVATE_KEY: Buffer.alloc(32).toString("base64url") })).toThrow(
      /VAPID_PRIVATE_KEY: is not a valid P-256 private key/,
    );
    expect(() => loadConfig({ VAPID_SUBJECT: "http://example.com" })).toThrow(/VAPID_SUBJECT/);
  });
});
