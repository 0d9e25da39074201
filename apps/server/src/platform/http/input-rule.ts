import { assertUsableInput } from "@app/contract";
import type { FastifyInstance } from "fastify";

/**
 * The input rule for every HTTP route (issue #25, decision 032): before any handler, the route's
 * parameters, query string and parsed body (JSON or form) are walked once, without recursion and to a
 * bounded depth; a NUL character or a lone UTF-16 surrogate anywhere answers 400 `invalid_input` with
 * the field, too deep a nesting 400 `too_deep`. Bodies a route keeps as raw text or a stream (provider
 * callbacks, the web app's form posts, uploads) are not walked here: provider-hooks.ts applies the same
 * rule to the fields it reads, multipart fields meet it in parseRequest, socket frames in ws.ts.
 */
export function registerInputRule(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    assertUsableInput(request.params);
    assertUsableInput(request.query);
    if (typeof request.body !== "string") assertUsableInput(request.body);
  });
}
