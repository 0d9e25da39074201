// @vitest-environment node
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, INTEREST_KEYS, LOCALE_CODES, memberEventSchema, PAYMENT_METHODS } from "@app/contract";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";

const dir = path.dirname(fileURLToPath(import.meta.url));
const load = (code: string) =>
  JSON.parse(readFileSync(path.join(dir, "locales", `${code}.json`), "utf8")) as Record<string, string>;
const catalogues = Object.fromEntries(LOCALE_CODES.map((code) => [code, load(code)]));
const en = catalogues.en as Record<string, string>;

function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (
      element.type === TYPE.argument ||
      element.type === TYPE.number ||
      element.type === TYPE.date ||
      element.type === TYPE.time
    ) {
      into.add(element.value);
    } else if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(element.value);
      for (const option of Object.values(element.options)) placeholders(option.value, into);
    } else if (element.type === TYPE.tag) {
      placeholders(element.children, into);
    }
  }
  return into;
}

/**
 * The web app's and the server's code (t(locale, "…")), without its comments: comments name things that
 * are not messages (a table's column, `payments.provider`). Comments are taken as such only where they
 * open a line, so that a string like "image/*" stays code. Job names (`jobs.define("payments.receipt", …)`)
 * and the staff audit log's actions (`action: "member.ban"`) look like ids but are not messages.
 */
function codeTexts(): string[] {
  const root = path.resolve(dir, "..");
  const server = path.resolve(dir, "../../../server/src");
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) {
        if (name !== "node_modules" && name !== "+types") walk(full);
      } else if (/\.(tsx?)$/.test(name) && !name.endsWith(".test.ts") && !name.endsWith(".test.tsx")) files.push(full);
    }
  };
  walk(root);
  walk(server);
  return files.map((file) =>
    readFileSync(file, "utf8")
      .replace(/^\s*\/\*[\s\S]*?\*\//gm, "")
      .replace(/^\s*\/\/.*$/gm, "")
      .replace(/\.define(?:<[^(]*?>)?\(\s*["'`][^"'`]*["'`]/g, ".define(")
      .replace(/\baction:\s*["'`][^"'`]*["'`]/g, "action:"),
  );
}

/**
 * Message ids the code names: every string literal of the form "namespace.key" whose namespace the
 * catalogue uses (nav, footer, home, error, …), in the web app and in the server.
 * Ids built at run time (`error.${code}`, `interest.${key}`) are checked against their key lists below.
 */
function idsUsedInCode(): Set<string> {
  const namespaces = new Set(Object.keys(en).map((id) => id.split(".")[0]));
  // Member event types ("chat.message", "like.received") look like ids but name events, not messages.
  const eventTypes = new Set<string>(memberEventSchema.options.map((option) => option.shape.type.value));
  const ids = new Set<string>();
  for (const text of codeTexts()) {
    for (const match of text.matchAll(/["'`]([a-z_]+)\.([a-z0-9_]+(?:\.[a-z0-9_]+)*)["'`]/g)) {
      const id = `${match[1]}.${match[2]}`;
      if (namespaces.has(match[1] as string) && !eventTypes.has(id)) ids.add(id);
    }
  }
  return ids;
}

/** The beginnings of ids the code builds at run time: `error.${code}` gives "error.", `staff.x.kind_${k}` "staff.x.kind_". */
function idPrefixesBuiltInCode(): string[] {
  const prefixes = new Set<string>();
  for (const text of codeTexts()) {
    for (const match of text.matchAll(/`([a-z_]+(?:\.[a-z0-9_]+)*[._])\$\{/g)) prefixes.add(match[1] as string);
  }
  return [...prefixes];
}

describe("locale catalogues", () => {
  it.each(LOCALE_CODES)("%s has exactly the keys of en.json", (code) => {
    const keys = Object.keys(catalogues[code] ?? {}).sort();
    expect(keys).toEqual(Object.keys(en).sort());
  });

  it.each(LOCALE_CODES)("%s: every message is valid ICU with the same placeholders as English, and translated", (code) => {
    const catalogue = catalogues[code] as Record<string, string>;
    for (const [id, message] of Object.entries(catalogue)) {
      let ast: MessageFormatElement[];
      try {
        ast = parse(message);
      } catch (error) {
        throw new Error(`${code}.json ${id}: ${(error as Error).message}`);
      }
      // `elide` comes with every name (packages/contract/src/names.ts) and only French has a use for it.
      const own = [...placeholders(ast)].filter((name) => name !== "elide");
      expect(own.sort(), `${code}.json ${id}`).toEqual([...placeholders(parse(en[id] as string))].sort());
      expect(message.trim(), `${code}.json ${id} is empty`).not.toBe("");
    }
  });

  it("has a real translation: most messages differ from English in every other locale", () => {
    for (const code of LOCALE_CODES.filter((c) => c !== "en")) {
      const catalogue = catalogues[code] as Record<string, string>;
      const same = Object.keys(en).filter((id) => catalogue[id] === en[id]);
      expect(same.length / Object.keys(en).length, `${code}: ${same.join(", ")}`).toBeLessThan(0.15);
    }
  });

  it("contains every message id the code uses", () => {
    // Event types ("chat.message") look like message ids of the chat namespace but are not messages.
    const eventTypes = new Set<string>(memberEventSchema.options.map((option) => option.shape.type.value));
    const used = idsUsedInCode();
    expect(used.size).toBeGreaterThan(60);
    expect([...used].filter((id) => !(id in en) && !eventTypes.has(id))).toEqual([]);
  });

  it("names every message it has: none is left behind by code that was removed", () => {
    const code = codeTexts().join("\n");
    const named = (id: string) => ['"', "'", "`"].some((quote) => code.includes(`${quote}${id}${quote}`));
    const prefixes = idPrefixesBuiltInCode();
    const unused = Object.keys(en).filter((id) => !named(id) && !prefixes.some((prefix) => id.startsWith(prefix)));
    expect(unused).toEqual([]);
  });

  it("has a message for every error code, interest key and payment method the server sends", () => {
    for (const code of ERROR_CODES) expect(en[`error.${code}`], code).toBeTruthy();
    for (const method of PAYMENT_METHODS) expect(en[`payments.method.${method}`], method).toBeTruthy();
    for (const key of INTEREST_KEYS) expect(en[`interest.${key}`], key).toBeTruthy();
  });
});
