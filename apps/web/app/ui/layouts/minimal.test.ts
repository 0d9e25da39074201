import { describe, expect, it } from "vitest";
import { minimalLayoutShowsEntryWarning } from "./minimal";

describe("minimal layouts (spec §2)", () => {
  it("show the entry warning for nl and de only", () => {
    expect(["en", "nl", "de", "es", "fr", "it", "pl"].filter(minimalLayoutShowsEntryWarning)).toEqual(["nl", "de"]);
  });
});
