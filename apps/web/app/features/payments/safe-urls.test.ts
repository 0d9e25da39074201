import { describe, expect, it } from "vitest";
import { safeCheckoutUrl, safeReturnPath } from "./safe-urls";

describe("where the payment pages may send the browser", () => {
  it("goes back only to a path of this site after paying", () => {
    expect(safeReturnPath("/chats/5")).toBe("/chats/5");
    expect(safeReturnPath("/members/7?tab=photos")).toBe("/members/7?tab=photos");
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "chats/5",
      "/a\nb",
      "",
    ]) {
      expect(safeReturnPath(bad), bad).toBeNull();
    }
  });

  it("follows the provider's checkout page only when it is a web address or a path of this site", () => {
    expect(safeCheckoutUrl("https://www.mollie.com/checkout/select-method/abc")).toBe(
      "https://www.mollie.com/checkout/select-method/abc",
    );
    expect(safeCheckoutUrl("/sandbox/checkout/12")).toBe("/sandbox/checkout/12");
    expect(safeCheckoutUrl("javascript:alert(1)")).toBeNull();
    expect(safeCheckoutUrl("//evil.example/")).toBeNull();
    expect(safeCheckoutUrl(null)).toBeNull();
  });
});
