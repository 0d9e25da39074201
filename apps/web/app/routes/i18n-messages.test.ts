// @vitest-environment node
import { LOCALE_CODES } from "@app/contract";
import { describe, expect, it } from "vitest";
import { MESSAGES_VERSION, messagesFor } from "../i18n/messages.server";
import { messagesPath } from "../lib/messages";
import { loader } from "./i18n-messages";

const get = (locale: string, version: string) =>
  loader({
    request: new Request(`http://localhost${messagesPath(locale, version)}`),
    params: { locale },
  } as unknown as Parameters<typeof loader>[0]);

describe("GET /i18n/:locale", () => {
  it("answers each locale's precompiled messages, cached for a year at the current version", async () => {
    for (const locale of LOCALE_CODES) {
      const response = get(locale, MESSAGES_VERSION);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(messagesFor(locale))));
    }
    const nl = (await get("nl", MESSAGES_VERSION).json()) as Record<string, unknown>;
    expect(nl["nav.login"]).toEqual(messagesFor("nl")["nav.login"]);
    expect(nl["nav.login"]).not.toEqual(messagesFor("en")["nav.login"]);
  });

  it("does not let an old or made-up version be cached, and knows no other locale", () => {
    expect(get("de", "old").headers.get("cache-control")).toBe("no-cache");
    for (const locale of ["xx", "EN", "../en", ""]) {
      try {
        get(locale, MESSAGES_VERSION);
        expect.unreachable(`${locale} answered`);
      } catch (error) {
        expect((error as Response).status).toBe(404);
      }
    }
  });
});
