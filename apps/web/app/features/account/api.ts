import {
  ENDPOINTS,
  type LocaleCode,
  type NotificationCategory,
  PAGE_VISIBILITY_HEADER,
  type PushSubscriptionRequest,
  type SignupRequest,
  type User,
} from "@app/contract";
import { callEndpoint } from "../../lib/api";

/** The account calls of the contract's endpoint table; each answer is parsed with its schema. */

/**
 * GET /api/user.php: the logged-in member, or null. Never reports a lost session (spec §4). Marked as
 * the client's request, with whether the page is visible (the server's sign that the member is looking).
 */
export async function getUser(): Promise<User | null> {
  const visibility = typeof document === "undefined" ? "hidden" : document.visibilityState;
  const { user } = await callEndpoint(ENDPOINTS.user, {
    headers: { "x-requested-with": "XMLHttpRequest", [PAGE_VISIBILITY_HEADER]: visibility },
  });
  return user;
}

/** POST /api/user.php: log in; the server sets the session cookie. */
export async function login(email: string, password: string): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.login, { body: { email, password } });
  return user;
}

/** PUT /api/user.php: the interface language of the account. */
export async function saveLanguage(language: LocaleCode): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.language, { body: { language } });
  return user;
}

/** POST /api/user.php?push=1: this device's push subscription, its end (false) or 'denied' (spec §3, §7). */
export async function savePushSubscription(request: PushSubscriptionRequest): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.pushSubscription, { body: request });
  return user;
}

/** POST /api/logout.php: ends the session and clears the cookie (the spec's GET is for links only). */
export async function logout(): Promise<void> {
  await callEndpoint(ENDPOINTS.logoutPost);
}

/** POST /api/signup.php: step 0 of the signup; creates the account and logs in. */
export async function signup(request: SignupRequest): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.signup, { body: request });
  return user;
}

/** POST /api/activation.php: send the activation e-mail again. */
export async function resendActivation(): Promise<void> {
  await callEndpoint(ENDPOINTS.resendActivation);
}

/** POST /api/reset-password.php: mail a link to set a new password. */
export async function requestPasswordReset(email: string): Promise<void> {
  await callEndpoint(ENDPOINTS.resetPassword, { body: { email } });
}

/** POST /api/reset-password-do.php: set the new password with the link's token; logs in. */
export async function resetPassword(input: { token: string; password: string; password_confirm: string }): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.resetPasswordDo, { body: input });
  return user;
}

/** POST /api/password.php: change the password, optionally ending the other sessions. */
export async function changePassword(input: {
  old_password: string;
  new_password: string;
  new_password_confirm: string;
  end_other_sessions: boolean;
}): Promise<void> {
  await callEndpoint(ENDPOINTS.changePassword, { body: input });
}

/** POST /api/mail-change.php: mail a confirmation link to the new address. */
export async function requestMailChange(input: { new_email: string; password: string }): Promise<void> {
  await callEndpoint(ENDPOINTS.mailChange, { body: input });
}

/** POST /api/mail-change-do.php: confirm the new address with the link's token. */
export async function confirmMailChange(token: string): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.mailChangeDo, { body: { token } });
  return user;
}

/** POST /api/delete-account.php: the account goes to pending deletion and the session ends. */
export async function deleteAccount(password: string): Promise<void> {
  await callEndpoint(ENDPOINTS.deleteAccount, { body: { password } });
}

/** PUT /api/invisible.php. */
export async function setInvisible(invisible: boolean): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.invisible, { body: { invisible } });
  return user;
}

/** PUT /api/presence-privacy.php (issue #29): hide the online status and last activity. */
export async function setHidePresence(hide: boolean): Promise<User | null> {
  const { user } = await callEndpoint(ENDPOINTS.presencePrivacy, { body: { hide_presence: hide } });
  return user;
}

/** GET /api/notifications.php: every category with its state and, when off, the reason. */
export async function getNotifications() {
  const { notifications } = await callEndpoint(ENDPOINTS.notifications);
  return notifications;
}

/** PUT /api/notifications.php: switch categories on or off. */
export async function setNotifications(enabled: Partial<Record<NotificationCategory, boolean>>) {
  const { notifications } = await callEndpoint(ENDPOINTS.saveNotifications, { body: { enabled } });
  return notifications;
}

/** POST /api/reactivate.php: bring back an account pending deletion with the e-mailed token. */
export async function reactivate(token: string): Promise<void> {
  await callEndpoint(ENDPOINTS.reactivate, { body: { token } });
}
