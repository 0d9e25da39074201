// @vitest-environment node
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL } from "./deferred-scripts";
import { deferScripts, deferScriptsStream } from "./deferred-scripts.server";

const HTML =
  '<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="n"/><link rel="stylesheet" href="/assets/app.css"/></head>' +
  '<body><p>rel=&quot;modulepreload&quot; said the member, and &lt;script type=&quot;module&quot;&gt;</p><img alt="é ü ł"/>' +
  '<script nonce="n">window.__reactRouterContext.streamController.enqueue("[\\"<link rel=\\\\\\"modulepreload\\\\\\">\\"]");</script>' +
  '<script nonce="n" type="module" async="">import "/assets/manifest-C.js";</script></body></html>';

async function throughStream(chunks: Buffer[]): Promise<string> {
  let ended = 0;
  const out: Buffer[] = [];
  const stream = Readable.from(chunks).pipe(deferScriptsStream(() => ended++));
  for await (const chunk of stream) out.push(Buffer.from(chunk));
  expect(ended).toBe(1);
  return Buffer.concat(out).toString("utf8");
}

describe("deferScripts", () => {
  const expected = deferScripts(HTML);

  it("makes React Router's preloads and module script inert, and nothing else", () => {
    expect(expected.match(new RegExp(`rel="${DEFERRED_PRELOAD_REL}"`, "g"))).toHaveLength(2);
    expect(expected).toContain(`<script nonce="n" type="${DEFERRED_MODULE_TYPE}" async="">import "/assets/manifest-C.js";`);
    expect(expected).not.toMatch(/<link rel="modulepreload"|<script[^>]*type="module"/);
    // The stylesheet, the member's text (React escapes its quotes) and the loader data are left as they were.
    expect(expected).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(expected).toContain(
      "<p>rel=&quot;modulepreload&quot; said the member, and &lt;script type=&quot;module&quot;&gt;</p>",
    );
    expect(expected).toContain('enqueue("[\\"<link rel=\\\\\\"modulepreload\\\\\\">\\"]")');
  });

  it("rewrites the same whatever the chunks the HTML streams in", async () => {
    const bytes = Buffer.from(HTML, "utf8");
    // Every split point, so a tag or a multi-byte character cut in two is covered.
    for (let at = 1; at < bytes.length; at++) {
      expect(await throughStream([bytes.subarray(0, at), bytes.subarray(at)])).toBe(expected);
    }
    const bytewise = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await throughStream(bytewise)).toBe(expected);
  });
});
