import { describe, expect, it } from "vitest";
import { extractTracking } from "./tracking";

describe("tracking parameters (spec §9)", () => {
  it("stores network, ref and the sub variants and strips them and cpc from the URL", () => {
    const result = extractTracking(
      new URL("https://site.example/members?network=aff1&ref=42&aff_sub=a&sub2=b&sub3=c&cpc=0.5&gender=female#top"),
    );
    expect(result).toEqual({
      record: { network: "aff1", ref: "42", sub1: "a", sub2: "b", sub3: "c" },
      cleanUrl: "/members?gender=female#top",
    });
  });

  it("leaves URLs without tracking parameters alone", () => {
    expect(extractTracking(new URL("https://site.example/?gender=male"))).toBeNull();
  });

  it("never redirects off-site", () => {
    expect(extractTracking(new URL("https://site.example//evil.example/x?network=n"))?.cleanUrl).toBe("/evil.example/x");
    expect(extractTracking(new URL("https://site.example/%5C%5Cevil.example?ref=1"))?.cleanUrl.startsWith("//")).toBe(false);
  });

  it("strips a lone cpc", () => {
    expect(extractTracking(new URL("https://site.example/?cpc=1"))?.cleanUrl).toBe("/");
  });
});
