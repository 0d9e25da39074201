import { z } from "zod";
import { emailSchema } from "./accounts.ts";
import { LOCALE_CODES } from "./locale-list.ts";

/**
 * The staff console (issue #27): staff accounts are not members. They have their own table, sessions
 * and cookie; a member session never opens anything under /staff, and a staff session never acts as a
 * member.
 *
 * - admin: everything, staff accounts and settings
 * - moderator: the review queues, reports and bans
 * - operator: the inbox of the fictional profiles
 * - support: members, complaints, payments and credit corrections
 */
export const STAFF_ROLES = ["admin", "moderator", "operator", "support"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const staffRoleSchema = z.enum(STAFF_ROLES);

/** The staff session cookie: path /staff, HttpOnly, SameSite=Strict, a session cookie (no Max-Age). */
export const STAFF_SESSION_COOKIE = "staff.session";

export const STAFF_RULES = {
  /** A session ends after this long without a request (OWASP ASVS 3.3.2 asks ≤ 30 min for such rights). */
  idleMinutes: 30,
  /** ...and after this long in any case. */
  maxHours: 12,
  /** Wrong logins (password or code) from one address for one account before that address is locked out. */
  loginFailuresBeforeLock: 5,
  loginLockMinutes: 15,
  /** One-time recovery codes made with a staff account (each used once, in place of the TOTP code). */
  recoveryCodes: 10,
  /** The TOTP of RFC 6238: 30 s steps, 6 digits, SHA-1 (what every authenticator app reads). */
  totpDigits: 6,
  totpPeriodSeconds: 30,
  nameMax: 60,
  passwordMin: 12,
  passwordMax: 128,
} as const;

/** One call of the staff API. `roles`: who may call it; admin may always. */
export interface StaffEndpoint {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: `/staff/api/${string}`;
  readonly roles: readonly StaffRole[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
}

export const staffEndpoint = <const E extends StaffEndpoint>(definition: E): E => definition;

/** Whether a role may call an endpoint (admin may call every one). */
export const staffMay = (role: StaffRole, endpoint: Pick<StaffEndpoint, "roles">): boolean =>
  role === "admin" || endpoint.roles.includes(role);

export const staffContextSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  language: z.enum(LOCALE_CODES),
});
export type StaffContext = z.infer<typeof staffContextSchema>;

const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/);
/** A recovery code as printed: 10 letters and digits in two groups (the dash and case do not matter). */
const recoveryCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/);

export const staffLoginRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(STAFF_RULES.passwordMax),
  /** The authenticator's 6 digits, or one of the recovery codes. */
  code: z.union([totpCodeSchema, recoveryCodeSchema]),
});
export type StaffLoginRequest = z.infer<typeof staffLoginRequestSchema>;

export const staffMeResponseSchema = z.object({ staff: staffContextSchema });
export const staffOkResponseSchema = z.object({ ok: z.literal(true) });

export const staffAccountSchema = staffContextSchema.extend({
  active: z.boolean(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const staffCreateRequestSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(1).max(STAFF_RULES.nameMax),
  role: staffRoleSchema,
  language: z.enum(LOCALE_CODES),
  password: z.string().min(STAFF_RULES.passwordMin).max(STAFF_RULES.passwordMax),
});

/** What a new staff account's owner needs once: the TOTP secret (as text and QR) and the recovery codes. */
export const staffEnrolmentSchema = z.object({
  account: staffAccountSchema,
  totp_secret: z.string(),
  otpauth_uri: z.string(),
  /** An SVG of the otpauth URI's QR code. */
  qr_svg: z.string(),
  recovery_codes: z.array(z.string()),
});
export type StaffEnrolment = z.infer<typeof staffEnrolmentSchema>;

export const staffIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const staffUpdateRequestSchema = z.object({
  role: staffRoleSchema.optional(),
  active: z.boolean().optional(),
  name: z.string().trim().min(1).max(STAFF_RULES.nameMax).optional(),
  language: z.enum(LOCALE_CODES).optional(),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staff_id: z.number().int().nullable(),
  staff_email: z.string(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  member_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  address: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z.object({
  member_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  staff_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** Entries older than this id (the next page). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const auditResponseSchema = z.object({ entries: z.array(auditEntrySchema), next: z.number().int().nullable() });

/** The console's own calls: login, the session, staff accounts and the audit log. */
export const STAFF_AUTH_ENDPOINTS = {
  login: staffEndpoint({
    method: "POST",
    path: "/staff/api/login",
    roles: STAFF_ROLES,
    body: staffLoginRequestSchema,
    response: staffMeResponseSchema,
  }),
  logout: staffEndpoint({ method: "POST", path: "/staff/api/logout", roles: STAFF_ROLES, response: staffOkResponseSchema }),
  me: staffEndpoint({ method: "GET", path: "/staff/api/me", roles: STAFF_ROLES, response: staffMeResponseSchema }),
  staffList: staffEndpoint({
    method: "GET",
    path: "/staff/api/staff",
    roles: ["admin"],
    response: z.object({ accounts: z.array(staffAccountSchema) }),
  }),
  staffCreate: staffEndpoint({
    method: "POST",
    path: "/staff/api/staff",
    roles: ["admin"],
    body: staffCreateRequestSchema,
    response: staffEnrolmentSchema,
  }),
  staffUpdate: staffEndpoint({
    method: "PUT",
    path: "/staff/api/staff/:id",
    roles: ["admin"],
    params: staffIdParamsSchema,
    body: staffUpdateRequestSchema,
    response: z.object({ account: staffAccountSchema }),
  }),
  /** The audit log: per member (support and moderators see a member's), per staff account or all (admin). */
  audit: staffEndpoint({
    method: "GET",
    path: "/staff/api/audit",
    roles: ["admin", "support", "moderator"],
    query: auditQuerySchema,
    response: auditResponseSchema,
  }),
} as const;
