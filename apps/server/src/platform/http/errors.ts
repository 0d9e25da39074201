import { type ApiError, InputRefusedError, type LocaleCode } from "@app/contract";
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { AppError } from "../errors.ts";
import { t } from "../i18n.ts";
import { requestLocale } from "./request-locale.ts";

/**
 * One place that turns failures into `{ error, message }` answers: AppErrors with their status, Zod
 * failures as validation_failed with per-field messages, the input rule's refusals as 400 (decision
 * 032), Fastify's own 4xx errors by their status, and everything else as a logged 500 that reveals
 * nothing.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const { status, body } = errorAnswer(error, requestLocale(request), request.log);
    return reply.status(status).type("application/json; charset=utf-8").send(body);
  });
}

/** PostgreSQL SQLSTATE classes and codes that mean "the server is not there now", not "the query is wrong". */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-4]|53300|53400)/;
/** Node's socket failures (the connection could not be made or broke). */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/** node-postgres, pg-pool and ioredis report a lost or missing connection by message only. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  /^Connection is closed\.$/,
  /^Stream isn't writeable/,
  /^Command timed out$/,
  /^Reached the max retries per request limit/,
];

/**
 * Whether a failure is a dependency being away (PostgreSQL shut down or restarting, its connections
 * terminated, Redis down) rather than a fault of the request or the code. Drizzle wraps driver errors
 * (`cause`), Node wraps a refused dual-stack connect in an AggregateError (`errors`): both are looked into.
 */
export function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && (SOCKET_CODES.has(code) || (code.length === 5 && UNAVAILABLE_SQLSTATE.test(code)))) return true;
  if (typeof message === "string" && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return isConnectionFailure(cause, depth + 1);
}

/**
 * The status and translated `{ error, message }` body of a failure, as the API answers it (HTTP, and
 * the WebSocket frames that stand for an API call). Unexpected errors are logged and reveal nothing.
 */
export function errorAnswer(
  error: unknown,
  locale: LocaleCode,
  log: Pick<FastifyBaseLogger, "error">,
): { status: number; body: ApiError } {
  let appError: AppError;
  const fastifyError = error as Partial<FastifyError>;
  if (error instanceof AppError) appError = error;
  else if (error instanceof InputRefusedError) appError = inputRefused(error);
  else if (error instanceof ZodError) {
    const fields = Object.fromEntries(error.issues.map((issue) => [issue.path.join(".") || "_", "invalid_value"]));
    appError = new AppError("validation_failed", {}, fields);
  } else if (fastifyError.statusCode === 413 || fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    appError = new AppError("payload_too_large");
  } else if (fastifyError.statusCode === 415) {
    appError = new AppError("unsupported_media_type");
  } else if (fastifyError.statusCode === 429) {
    appError = new AppError("rate_limited");
  } else if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    appError = new AppError("bad_request");
  } else if (isConnectionFailure(error)) {
    // The database (or Redis) is unreachable or just dropped the connection: the client may try again,
    // and a load balancer may send it elsewhere (issue #25: a write during an outage answers 503).
    log.error({ err: error }, "dependency unavailable");
    appError = new AppError("service_unavailable");
  } else {
    log.error({ err: error }, "unhandled error");
    appError = new AppError("internal");
  }
  const body: ApiError = { error: appError.code, message: t(locale, `error.${appError.code}`, appError.params) };
  if (appError.fields) {
    body.fields = Object.fromEntries(
      Object.entries(appError.fields).map(([field, code]) => [field, t(locale, `error.${code}`, appError.params)]),
    );
  }
  if (Object.keys(appError.params).length) body.params = appError.params;
  return { status: appError.status, body };
}

/** The input rule's refusal (decision 032): the field with an unusable character, or too deep a nesting. */
function inputRefused({ problem }: InputRefusedError): AppError {
  if (problem.kind === "depth") return new AppError("too_deep");
  return new AppError("invalid_input", {}, { [problem.path.join(".") || "_"]: "invalid_characters" });
}
