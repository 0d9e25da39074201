import { z } from "zod";
import { ACCOUNT_RULES } from "./account-rules.ts";
import { idSchema } from "./http.ts";
import { localeCodeSchema } from "./locales.ts";

export * from "./account-rules.ts";

/** Name of the session cookie (spec §9: prefix "auth.", 30 days, path /). */
export const SESSION_COOKIE = "auth.session";
/** Marks a browser the member has logged in with (the account-wide login throttle spares it). */
export const DEVICE_COOKIE = "auth.device";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

export const USER_STATUSES = ["not_confirmed", "active", "pending_deletion"] as const;
export const userStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof userStatusSchema>;
export const GENDERS = ["male", "female"] as const;
export const genderSchema = z.enum(GENDERS);
/** Whom a member is looking for. */
export const SEEKING = ["male", "female", "both"] as const;
export const seekingSchema = z.enum(SEEKING);

/** Spec §3: notification preference categories and the reasons a category can be off. */
export const NOTIFICATION_CATEGORIES = [
  "new_conversations",
  "new_messages",
  "like",
  "unread_message_reminders",
  "promotions",
  "weekly_updates",
  "news",
  "reminders",
] as const;
export const notificationCategorySchema = z.enum(NOTIFICATION_CATEGORIES);
export type NotificationCategory = z.infer<typeof notificationCategorySchema>;
/** "user": switched off by the member; fbl: marked as spam; bounce: invalid address; listunsubscribe. */
export const NOTIFICATION_DISABLED_REASONS = ["user", "fbl", "bounce", "listunsubscribe"] as const;
export const notificationReasonSchema = z.enum(NOTIFICATION_DISABLED_REASONS);
export const disabledNotificationSchema = z.object({ category: notificationCategorySchema, reason: notificationReasonSchema });
export type DisabledNotification = z.infer<typeof disabledNotificationSchema>;

/**
 * The account's push state in the user answer: true when at least one device is subscribed, 'denied'
 * when the member refused the permission (and no device is subscribed), else false. A device knows its
 * own subscription from its service worker; this tells the others (and the server's choice of channel).
 */
export const pushStateSchema = z.union([z.literal(true), z.literal(false), z.literal("denied")]);
export type PushState = z.infer<typeof pushStateSchema>;

/** Lower-cased, trimmed e-mail address. Invalid gives the code invalid_email. */
export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const passwordSchema = z.string().min(ACCOUNT_RULES.passwordMin).max(ACCOUNT_RULES.passwordMax);
/** YYYY-MM-DD. */
export const dateOfBirthSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const mainImageSchema = z.object({
  filename: z.string(),
  thumb_filename: z.string(),
  status: z.enum(["pending", "active", "rejected"]),
  url: z.string(),
  thumb_url: z.string(),
});
export type MainImage = z.infer<typeof mainImageSchema>;

/** The member's own profile as the user call carries it. */
export const ownProfileSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(["active", "disabled"]),
  gender: genderSchema,
  seeking: seekingSchema,
  main_image: mainImageSchema.nullable(),
});

/** Spec §3 User, as GET /api/user.php answers it to the member themself. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  status: userStatusSchema,
  profile: ownProfileSummarySchema,
  paid_user: z.boolean(),
  credits: z.number().int().nonnegative(),
  /** The icon name fictional profiles are marked with (settings.fictional_icon). */
  fictional_icon: z.string(),
  language: localeCodeSchema,
  notifications_disabled: z.array(disabledNotificationSchema),
  /** Spec §3 push subscription, for the account (see pushStateSchema; POST /api/user.php?push=1 sets it). */
  push_subscription: pushStateSchema,
  signup_date: z.string(),
  invisible: z.boolean(),
  /** Issue #29: the member hides their online status and last activity (and sees no one's). */
  hide_presence: z.boolean(),
});
export type User = z.infer<typeof userSchema>;
/** GET/POST/PUT /api/user.php: `user` is null when nobody is logged in (GET only). */
export const userResponseSchema = z.object({ user: userSchema.nullable() });
export type UserResponse = z.infer<typeof userResponseSchema>;

/** POST /api/signup.php: step 0 of the signup flow (spec §3 Signup form, plus gender and seeking). */
export const signupRequestSchema = z.object({
  email: z.string().max(254),
  name: z.string().trim().min(1).max(ACCOUNT_RULES.nameMax),
  password: z.string().max(ACCOUNT_RULES.passwordMax * 4),
  date_of_birth: z.string().max(10),
  gender: genderSchema,
  seeking: seekingSchema,
  signup_message: z.string().trim().max(ACCOUNT_RULES.signupMessageMax).optional(),
  /** Signing up from a profile (/members/{id}/signup). */
  via_profile_id: idSchema.optional(),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

/** POST /api/user.php: log in. */
export const loginRequestSchema = z.object({ email: z.string().max(254), password: z.string().max(1024) });
/** PUT /api/user.php: save the interface language. */
export const languageRequestSchema = z.object({ language: localeCodeSchema });

/** POST /api/activation.php: send the activation e-mail again. GET /api/activation.php?token= activates. */
export const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/);
export const tokenRequestSchema = z.object({ token: z.string().max(200) });

/** POST /api/reset-password.php: request a reset link. */
export const resetPasswordRequestSchema = z.object({ email: z.string().max(254) });
/** POST /api/reset-password-do.php: set a new password with the link's token. */
export const resetPasswordDoRequestSchema = z.object({
  token: z.string().max(200),
  password: z.string().max(ACCOUNT_RULES.passwordMax * 4),
  password_confirm: z.string().max(ACCOUNT_RULES.passwordMax * 4),
});

/** POST /api/password.php: change the password (the old one is asked again). */
export const passwordChangeRequestSchema = z.object({
  old_password: z.string().max(1024),
  new_password: z.string().max(ACCOUNT_RULES.passwordMax * 4),
  new_password_confirm: z.string().max(ACCOUNT_RULES.passwordMax * 4),
  /** Log out every other device. */
  end_other_sessions: z.boolean().default(true),
});

/** POST /api/mail-change.php: ask to move the account to a new address (confirmed by a link). */
export const mailChangeRequestSchema = z.object({ new_email: z.string().max(254), password: z.string().max(1024) });
/** POST /api/mail-change-do.php: confirm with the link's token. */

/** POST /api/delete-account.php: delete (pending for 14 days, reactivatable by an e-mail link). */
export const deleteAccountRequestSchema = z.object({ password: z.string().max(1024) });

/** PUT /api/invisible.php. */
export const invisibleRequestSchema = z.object({ invisible: z.boolean() });
/** PUT /api/presence-privacy.php (issue #29): hide the online status and last activity. */
export const presencePrivacyRequestSchema = z.object({ hide_presence: z.boolean() });

/** GET/PUT /api/notifications.php: one entry per category; `reason` says why it is off. */
export const notificationSettingSchema = z.object({
  category: notificationCategorySchema,
  enabled: z.boolean(),
  reason: notificationReasonSchema.nullable(),
});
export const notificationsResponseSchema = z.object({ notifications: z.array(notificationSettingSchema) });
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;
export const notificationsRequestSchema = z.object({
  enabled: z.partialRecord(notificationCategorySchema, z.boolean()),
});

export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** Age in whole years on `today` of someone born on `dateOfBirth` (YYYY-MM-DD); NaN when invalid. */
export function ageOn(dateOfBirth: string, today: Date): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!match) return Number.NaN;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const born = new Date(Date.UTC(year, month - 1, day));
  if (born.getUTCFullYear() !== year || born.getUTCMonth() !== month - 1 || born.getUTCDate() !== day) return Number.NaN;
  let age = today.getUTCFullYear() - year;
  const beforeBirthday = today.getUTCMonth() < month - 1 || (today.getUTCMonth() === month - 1 && today.getUTCDate() < day);
  if (beforeBirthday) age--;
  return age;
}

/** Spec §5: the username may not be the e-mail address and may not start with @. */
export function nameProblem(name: string, email: string): "name_is_email" | "name_starts_with_at" | null {
  const trimmed = name.trim();
  if (trimmed.startsWith("@")) return "name_starts_with_at";
  if (trimmed.toLowerCase() === email.trim().toLowerCase()) return "name_is_email";
  return null;
}
