import { z } from "zod";

/**
 * Stable error codes. The server answers every failure as `{ error, message }` with one of these codes
 * and the message translated into the request's locale; the web maps codes to its own messages
 * (`error.<code>` in the locale files).
 */
export const ERROR_CODES = [
  "bad_request",
  "validation_failed",
  "authentication_required",
  "forbidden",
  "not_found",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal",
  "unknown_middleware",
  "service_unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export const errorCodeSchema = z.enum(ERROR_CODES);

export const apiErrorSchema = z.object({
  error: errorCodeSchema,
  message: z.string(),
  /** Per-field problems of a validation failure: field path → translated message. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  authentication_required: 403,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unknown_middleware: 500,
  service_unavailable: 503,
};
