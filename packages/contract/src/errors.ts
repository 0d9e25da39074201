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
  "bad_origin",
  // accounts
  "invalid_email",
  "email_taken",
  "email_pending_deletion",
  "invalid_date_of_birth",
  "name_is_email",
  "name_starts_with_at",
  "password_too_short",
  "password_too_long",
  "password_too_common",
  "password_is_email",
  "passwords_differ",
  "signups_closed",
  "login_failed",
  "login_locked",
  "login_throttled",
  "activation_failed",
  "email_not_found",
  "token_invalid",
  "new_email_taken",
  "new_email_invalid",
  "old_password_wrong",
  "password_wrong",
  // profiles and photos
  "photo_limit_reached",
  "photo_invalid",
  "photo_too_large",
  // blocking
  "blocked_by",
  "cannot_block_self",
  // likes and the swipe game
  "cannot_like_self",
  "swipes_exhausted",
  "swipe_likes_exhausted",
  // signup from a profile
  "profile_unavailable",
  // chat and credits
  "not_enough_credits",
  "conversation_limit_reached",
  "message_too_long",
  "cannot_message_self",
  "recipient_unconfirmed",
  "gift_unavailable",
  "gif_unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export const errorCodeSchema = z.enum(ERROR_CODES);

export const apiErrorSchema = z.object({
  error: errorCodeSchema,
  message: z.string(),
  /** Per-field problems: field name → translated message. */
  fields: z.record(z.string(), z.string()).optional(),
  /** Values of the message's placeholders (e.g. minutes of a login lock), for clients with own texts. */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
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
  bad_origin: 403,
  invalid_email: 422,
  email_taken: 409,
  email_pending_deletion: 409,
  invalid_date_of_birth: 422,
  name_is_email: 422,
  name_starts_with_at: 422,
  password_too_short: 422,
  password_too_long: 422,
  password_too_common: 422,
  password_is_email: 422,
  passwords_differ: 422,
  signups_closed: 403,
  login_failed: 401,
  login_locked: 429,
  login_throttled: 429,
  activation_failed: 400,
  email_not_found: 404,
  token_invalid: 400,
  new_email_taken: 409,
  new_email_invalid: 422,
  old_password_wrong: 401,
  password_wrong: 401,
  photo_limit_reached: 403,
  photo_invalid: 422,
  photo_too_large: 413,
  blocked_by: 403,
  cannot_block_self: 422,
  cannot_like_self: 422,
  swipes_exhausted: 429,
  swipe_likes_exhausted: 429,
  profile_unavailable: 422,
  not_enough_credits: 402,
  conversation_limit_reached: 403,
  message_too_long: 422,
  cannot_message_self: 422,
  gift_unavailable: 422,
  gif_unavailable: 422,
  recipient_unconfirmed: 403,
};
