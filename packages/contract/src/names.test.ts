import { describe, expect, it } from "vitest";
import { elides, nameValues } from "./names.ts";

describe("French elision before a name", () => {
  it("elides before a vowel, accented or not, in either case", () => {
    for (const name of ["Anna", "Émile", "Îris", "œdipe", "ursula", " Oscar"]) expect(elides(name), name).toBe(true);
  });

  it("keeps 'de' before a consonant, an h (mute or aspirated cannot be told apart) and anything that is not a letter", () => {
    for (const name of ["Marc", "Hélène", "Hugo", "", "😀 Zoé", "4ever"]) expect(elides(name), name).toBe(false);
  });

  it("elides before a y that is a vowel (Yves) but not before one that is a consonant (Yasmine)", () => {
    expect(nameValues("Yves")).toEqual({ name: "Yves", elide: "yes" });
    expect(nameValues("Yvonne").elide).toBe("yes");
    expect(nameValues("Yasmine").elide).toBe("other");
    expect(nameValues("Y").elide).toBe("other");
  });
});
