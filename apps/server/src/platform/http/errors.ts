import type { ApiError } from "@app/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { AppError } from "../errors.ts";
import { t } from "../i18n.ts";
import { requestLocale } from "./request-locale.ts";

/**
 * One place that turns failures into `{ error, message }` answers: AppErrors with their status, Zod
 * failures as validation_failed with per-field messages, Fastify's own 4xx errors by their status, and
 * everything else as a logged 500 that reveals nothing.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const locale = requestLocale(request);
    let appError: AppError;
    if (error instanceof AppError) appError = error;
    else if (error instanceof ZodError) {
      const fields = Object.fromEntries(error.issues.map((issue) => [issue.path.join(".") || "_", "invalid_value"]));
      appError = new AppError("validation_failed", {}, fields);
    } else if (error.statusCode === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      appError = new AppError("payload_too_large");
    } else if (error.statusCode === 415) {
      appError = new AppError("unsupported_media_type");
    } else if (error.statusCode === 429) {
      appError = new AppError("rate_limited");
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      appError = new AppError("bad_request");
    } else {
      request.log.error({ err: error }, "unhandled error");
      appError = new AppError("internal");
    }
    const body: ApiError = { error: appError.code, message: t(locale, `error.${appError.code}`, appError.params) };
    if (appError.fields) {
      body.fields = Object.fromEntries(
        Object.entries(appError.fields).map(([field, code]) => [field, t(locale, `error.${code}`, appError.params)]),
      );
    }
    if (Object.keys(appError.params).length) body.params = appError.params;
    return reply.status(appError.status).type("application/json; charset=utf-8").send(body);
  });
}
