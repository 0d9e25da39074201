import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { geoipCountryFrom, hasTrafficSource } from "./visitor.ts";

const withCookie = (tracking: string | undefined) => ({ cookies: { tracking } }) as unknown as FastifyRequest;
const withHeaders = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as FastifyRequest;

describe("hasTrafficSource", () => {
  it("is true when the tracking cookie names a network or a referrer", () => {
    expect(hasTrafficSource(withCookie(JSON.stringify({ network: "tradedoubler" })))).toBe(true);
    expect(hasTrafficSource(withCookie(JSON.stringify({ ref: "partner", sub1: "x" })))).toBe(true);
  });

  it("is false without the cookie, with neither field, or with a cookie that is not a JSON record", () => {
    for (const raw of [undefined, "", JSON.stringify({ sub1: "x" }), JSON.stringify({ network: "" }), "null", "{oops", "42"]) {
      expect(hasTrafficSource(withCookie(raw)), String(raw)).toBe(false);
    }
  });
});

describe("geoipCountryFrom", () => {
  it("reads a two-letter country from the configured header, in upper case", () => {
    const geoipCountry = geoipCountryFrom("x-country");
    expect(geoipCountry(withHeaders({ "x-country": "be" }))).toBe("BE");
    expect(geoipCountry(withHeaders({ "x-country": ["DE", "FR"] }))).toBe("DE");
  });

  it("is null without a configured header, without the header, or for anything but a country code", () => {
    expect(geoipCountryFrom(undefined)(withHeaders({ "x-country": "BE" }))).toBeNull();
    const geoipCountry = geoipCountryFrom("x-country");
    for (const value of ["", "XX1", "B", "unknown"]) expect(geoipCountry(withHeaders({ "x-country": value })), value).toBeNull();
    expect(geoipCountry(withHeaders({}))).toBeNull();
  });
});
