import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL } from "./deferred-scripts";

/**
 * What React Router's <Scripts> writes, as React renders it (attributes in double quotes). User text
 * never matches: React escapes quotes in text and attributes, and the loader data is a JSON string
 * inside a script, where they are backslash-escaped.
 */
const PATTERN = /(<link rel=)"modulepreload"|(<script[^<>]*? type=)"module"/g;
/** A chunk may end inside a tag: this much of its end waits for the next chunk. */
const HOLD_BACK = 200;

export function deferScripts(html: string): string {
  return html.replace(PATTERN, (_match, link: string | undefined, script: string | undefined) =>
    link ? `${link}"${DEFERRED_PRELOAD_REL}"` : `${script}"${DEFERRED_MODULE_TYPE}"`,
  );
}

/**
 * The HTML stream with the app's scripts made inert until START_SCRIPTS starts them (lib/deferred-scripts.ts).
 * Rewrites as it streams; only the last HOLD_BACK characters of what arrived wait for more, and only
 * up to the last `<` in them, so a tag split between chunks is rewritten whole.
 */
export function deferScriptsStream(onEnd?: () => void): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      pending += typeof chunk === "string" ? chunk : decoder.write(chunk);
      const cut = pending.lastIndexOf("<", pending.length - 1);
      const keepFrom = cut >= 0 && pending.length - cut <= HOLD_BACK ? cut : pending.length;
      const ready = pending.slice(0, keepFrom);
      pending = pending.slice(keepFrom);
      callback(null, ready ? deferScripts(ready) : undefined);
    },
    flush(callback) {
      pending += decoder.end();
      onEnd?.();
      callback(null, pending ? deferScripts(pending) : undefined);
    },
  });
}
