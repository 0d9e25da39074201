import { assertUsableInput, INPUT_MAX_DEPTH, InputRefusedError, nestsDeeperThan } from "@app/contract";
import type { FastifyInstance } from "fastify";

/**
 * The input rule for every HTTP route (issue #25, decision 032): before any handler, the route's
 * parameters, query string and parsed body (JSON or form) are walked once, without recursion and to a
 * bounded depth; a NUL character or a lone UTF-16 surrogate anywhere answers 400 `invalid_input` with
 * the field, too deep a nesting 400 `too_deep` (JSON bodies: before they are parsed). Bodies a route
 * keeps as raw text or a stream (provider callbacks, the web app's form posts, uploads) are not walked
 * here: provider-hooks.ts applies the same rule to the fields it reads, multipart fields meet it in
 * parseRequest, socket frames in ws.ts.
 */
export function registerInputRule(app: FastifyInstance): void {
  // JSON bodies: too deep a nesting is refused before it is parsed (see nestsDeeperThan), then
  // Fastify's own parser (prototype-poisoning checks included) does the rest. Registered before the
  // routes, so every scope that keeps the default parsers gets this one.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body); // parseAs "string": always a string already
    if (nestsDeeperThan(text, INPUT_MAX_DEPTH)) {
      done(new InputRefusedError({ kind: "depth" }), undefined);
      return;
    }
    void parseJson(request, text, done); // synchronous: it answers through `done`
  });
  app.addHook("preValidation", async (request) => {
    assertUsableInput(request.params);
    assertUsableInput(request.query);
    if (typeof request.body !== "string") assertUsableInput(request.body);
  });
}
