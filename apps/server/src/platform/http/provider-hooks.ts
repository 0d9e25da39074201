import { assertUsableInput, InputRefusedError, parseJsonInput } from "@app/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";
import { PROVIDER_HOOKS_PREFIX } from "./csrf.ts";

export interface ProviderHook {
  /** The path below /hooks/, e.g. "mollie" for /hooks/mollie. */
  name: string;
  /**
   * Proves the call comes from the provider (a shared secret in the URL or a header, a signature over
   * the raw body, ...). False answers 403 and nothing else runs. Providers whose callbacks carry no
   * proof (Mollie sends only an id) return true and the handler asks the provider for the truth.
   */
  authenticate(request: FastifyRequest, rawBody: string): boolean | Promise<boolean>;
  /**
   * Handles the callback; it must be idempotent: providers repeat, retry and reorder their calls.
   * `fields` is the form-encoded or JSON body as flat strings.
   */
  handle(input: {
    fields: Record<string, string>;
    rawBody: string;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<unknown>;
}

/**
 * Provider callbacks (payments, mail events) under /hooks/<name>: POSTs from the provider's servers,
 * form-encoded or JSON, outside the browser CSRF rule, with no session, authenticated by the hook's
 * own means. Each hook gets the raw body for signature checks.
 */
export async function registerProviderHooks(app: FastifyInstance, hooks: readonly ProviderHook[]): Promise<void> {
  await app.register(async (scope) => {
    // In this scope only: bodies come as text, whatever the provider says they are.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    for (const hook of hooks) {
      scope.post(`${PROVIDER_HOOKS_PREFIX}${hook.name}`, async (request, reply) => {
        const rawBody = typeof request.body === "string" ? request.body : "";
        if (!(await hook.authenticate(request, rawBody))) throw new AppError("forbidden");
        const result = await hook.handle({ fields: fieldsOf(request, rawBody), rawBody, request, reply });
        if (!reply.sent)
          return reply
            .status(200)
            .type("text/plain; charset=utf-8")
            .send(result === undefined ? "ok" : String(result));
        return reply;
      });
    }
  });
}

/**
 * A form-encoded or JSON body as flat string fields (nested JSON values stay JSON text), under the
 * input rule of every entry point (decision 032): a NUL or lone surrogate in any field, or too deep a
 * nesting, answers 400 before the hook sees it (`id=%00` reached SQL before).
 */
function fieldsOf(request: FastifyRequest, rawBody: string): Record<string, string> {
  const type = String(request.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    let parsed: unknown;
    try {
      parsed = parseJsonInput(rawBody);
    } catch (error) {
      if (error instanceof InputRefusedError) throw error;
      throw new AppError("bad_request");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("bad_request");
    assertUsableInput(parsed);
    return Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]),
    );
  }
  const fields = Object.fromEntries(new URLSearchParams(rawBody));
  assertUsableInput(fields);
  return fields;
}
