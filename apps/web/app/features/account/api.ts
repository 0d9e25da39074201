import {
  type LocaleCode,
  type NotificationCategory,
  notificationsResponseSchema,
  okResponseSchema,
  type SignupRequest,
  type User,
  userResponseSchema,
} from "@app/contract";
import { apiCall, jsonBody, sessionCall } from "../../lib/api";

/** The account calls of the accounts issue; each answer is parsed with the contract's schema. */

/** GET /api/user.php: the logged-in member, or null. Never reports a lost session (spec §4). */
export async function getUser(): Promise<User | null> {
  const { user } = await apiCall("/api/user.php", userResponseSchema, { headers: { "x-requested-with": "XMLHttpRequest" } });
  return user;
}

/** POST /api/user.php: log in; the server sets the session cookie. */
export async function login(email: string, password: string): Promise<User | null> {
  const { user } = await apiCall("/api/user.php", userResponseSchema, jsonBody("POST", { email, password }));
  return user;
}

/** PUT /api/user.php: the interface language of the account. */
export async function saveLanguage(language: LocaleCode): Promise<User | null> {
  const { user } = await sessionCall("/api/user.php", userResponseSchema, jsonBody("PUT", { language }));
  return user;
}

/** POST /api/logout.php: ends the session and clears the cookie (the spec's GET is for links only). */
export async function logout(): Promise<void> {
  await apiCall("/api/logout.php", okResponseSchema, jsonBody("POST", {}));
}

/** POST /api/signup.php: step 0 of the signup; creates the account and logs in. */
export async function signup(request: SignupRequest): Promise<User | null> {
  const { user } = await apiCall("/api/signup.php", userResponseSchema, jsonBody("POST", request));
  return user;
}

/** POST /api/activation.php: send the activation e-mail again. */
export async function resendActivation(): Promise<void> {
  await sessionCall("/api/activation.php", okResponseSchema, jsonBody("POST", {}));
}

/** POST /api/reset-password.php: mail a link to set a new password. */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiCall("/api/reset-password.php", okResponseSchema, jsonBody("POST", { email }));
}

/** POST /api/reset-password-do.php: set the new password with the link's token; logs in. */
export async function resetPassword(input: { token: string; password: string; password_confirm: string }): Promise<User | null> {
  const { user } = await apiCall("/api/reset-password-do.php", userResponseSchema, jsonBody("POST", input));
  return user;
}

/** POST /api/password.php: change the password, optionally ending the other sessions. */
export async function changePassword(input: {
  old_password: string;
  new_password: string;
  new_password_confirm: string;
  end_other_sessions: boolean;
}): Promise<void> {
  await sessionCall("/api/password.php", okResponseSchema, jsonBody("POST", input));
}

/** POST /api/mail-change.php: mail a confirmation link to the new address. */
export async function requestMailChange(input: { new_email: string; password: string }): Promise<void> {
  await sessionCall("/api/mail-change.php", okResponseSchema, jsonBody("POST", input));
}

/** POST /api/mail-change-do.php: confirm the new address with the link's token. */
export async function confirmMailChange(token: string): Promise<User | null> {
  const { user } = await apiCall("/api/mail-change-do.php", userResponseSchema, jsonBody("POST", { token }));
  return user;
}

/** POST /api/delete-account.php: the account goes to pending deletion and the session ends. */
export async function deleteAccount(password: string): Promise<void> {
  await sessionCall("/api/delete-account.php", okResponseSchema, jsonBody("POST", { password }));
}

/** PUT /api/invisible.php. */
export async function setInvisible(invisible: boolean): Promise<User | null> {
  const { user } = await sessionCall("/api/invisible.php", userResponseSchema, jsonBody("PUT", { invisible }));
  return user;
}

/** GET /api/notifications.php: every category with its state and, when off, the reason. */
export async function getNotifications() {
  const { notifications } = await sessionCall("/api/notifications.php", notificationsResponseSchema);
  return notifications;
}

/** PUT /api/notifications.php: switch categories on or off. */
export async function setNotifications(enabled: Partial<Record<NotificationCategory, boolean>>) {
  const { notifications } = await sessionCall(
    "/api/notifications.php",
    notificationsResponseSchema,
    jsonBody("PUT", { enabled }),
  );
  return notifications;
}

/** POST /api/reactivate.php: bring back an account pending deletion with the e-mailed token. */
export async function reactivate(token: string): Promise<void> {
  await apiCall("/api/reactivate.php", okResponseSchema, jsonBody("POST", { token }));
}
