import { describe, expect, it } from "vitest";
import { landingDesign, landingVariant } from "./variants";

describe("member landing URLs", () => {
  it("take the design from the path", () => {
    expect(landingDesign("/members/12/landing")).toBe("landing");
    expect(landingDesign("/members/12/landing2")).toBe("landing2");
    expect(landingDesign("/members/12/landing2/date")).toBe("landing2");
    expect(landingDesign("/members/12/landing3/whatever")).toBe("landing3");
  });

  it("fall back to the default angle for a slug we do not know", () => {
    expect(landingVariant(undefined)).toBe("chat");
    expect(landingVariant("date")).toBe("date");
    expect(landingVariant("nearby")).toBe("nearby");
    expect(landingVariant("DATE")).toBe("chat");
    expect(landingVariant("no-such-campaign")).toBe("chat");
  });
});
