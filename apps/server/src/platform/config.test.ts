import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

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
});
