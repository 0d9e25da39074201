import { ERROR_STATUS, type ErrorCode } from "@app/contract";

/**
 * A failure with a stable code. Services throw it; the HTTP error handler turns it into
 * `{ error, message }` with the status of the code and the message translated for the request.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    /** Per-field problems: field name → error code (translated as `error.<code>` for the answer). */
    readonly fields?: Record<string, string>,
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
  }
}
