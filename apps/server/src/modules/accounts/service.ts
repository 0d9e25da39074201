import {
  ACCOUNT_RULES,
  type DisabledNotification,
  disabledNotificationSchema,
  emailSchema,
  isLocaleCode,
  LIMITS,
  type LocaleCode,
  type MemberContext,
  NOTIFICATION_CATEGORIES,
  type NotificationCategory,
  type NotificationsResponse,
  type PushState,
  type SignupRequest,
  type User,
} from "@app/contract";
import type { SQL } from "drizzle-orm";
import { z } from "zod";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { clientNetwork } from "../../platform/http/client-address.ts";
import type { Mailer } from "../../platform/mailer.ts";
import { DUMMY_PASSWORD_HASH, hashPassword, hashToken, newToken, verifyPassword } from "../../platform/secrets.ts";
import type { CreditService } from "../credits/index.ts";
import type { ProfileService } from "../profiles/service.ts";
import { banInForce, insertBanNoticeSession } from "./ban-queries.ts";
import { accountEmail } from "./emails.ts";
import {
  accountFailures,
  clearFailures,
  consumeToken,
  deleteSession,
  deleteSessions,
  deleteUser,
  deviceOwner,
  devicesOfUser,
  expiredDeletions,
  findMemberUser,
  findSessionUser,
  findToken,
  findUser,
  findUserByEmail,
  findValidToken,
  insertDevice,
  insertSession,
  insertSignupMessage,
  insertToken,
  insertUser,
  type LentMemberColumns,
  lockLoginAccount,
  lockNotificationSettings,
  type MemberUserRow,
  markSignupMessageDelivered,
  type NewUser,
  type NotificationRecipientRow,
  notificationRecipients,
  pruneFailures,
  recentFailures,
  recordFailure,
  sessionsOfUser,
  signupMessagesOfUser,
  type TokenKind,
  touchSession,
  type UserRow,
  undeliveredSignupMessages,
  updateUser,
  voidTokens,
} from "./queries.ts";
import { dateOfBirthProblem, emailProblem, type FieldProblems, nameProblem, passwordProblem } from "./rules.ts";
import { AccountSupport } from "./support.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What a request tells the account rules about where it comes from. */
export interface RequestContext {
  locale: LocaleCode;
  /** Client address (for login lockout). */
  address: string;
  /** Origin for links in e-mails: the site's configured one (SiteService.originFor), never the request's Host. */
  baseUrl: string;
  /** The site's name, for e-mails. */
  siteName: string;
}

export interface SessionInfo {
  token: string;
  user: UserRow;
  /** A new device cookie for this browser (login only; absent when it already had a valid one). */
  deviceToken?: string;
  /**
   * The account is banned (issue #27): `token` is no session but the ban's notice (an ended session
   * /pages/ban reads the reason and end from); the login route sets it and refuses with account_banned.
   */
  banned?: true;
}

/** Throws one field's problem as its own code, several as validation_failed with every field. */
function throwProblems(problems: FieldProblems): void {
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  const fields = Object.fromEntries(entries);
  if (entries.length === 1) throw new AppError(entries[0]?.[1] as never, {}, fields);
  throw new AppError("validation_failed", {}, fields);
}

export interface AccountServiceDeps {
  db: Db;
  mailer: Mailer;
  credits: CreditService;
  profiles: ProfileService;
  /** Whether a visitor may see this profile (a signup message may only go to such a profile). */
  visibility: { canSee(viewerProfileId: number | null, profileId: number): Promise<boolean> };
  fictionalIcon: () => Promise<string>;
  /** Spec §3 push subscription of the account (the push module keeps the devices). */
  pushState: (userId: number) => Promise<PushState>;
  log: { error(obj: unknown, msg?: string): void };
  /** Called after a member's sessions were ended (other nodes close that member's sockets). */
  sessionsEnded?: (userId: number, reason?: "banned") => void;
}

/** A signup message to deliver: the chat module's hook sends it (decision 020). */
export interface PendingSignupMessage {
  id: number;
  userId: number;
  toProfileId: number;
  text: string;
}

/**
 * Delivers one signup message once the member's address is confirmed, on the site of `host` (its
 * prices). Resolving means handled: sent, or dropped because it cannot be (the profile is gone); a
 * throw leaves it for the next confirmation.
 */
export type SignupMessageHook = (message: PendingSignupMessage, host: string) => Promise<void>;

/** Removes another module's files of an account about to be erased (its rows go with the cascade). */
export type EraseHook = (userId: number) => Promise<void>;

/** The address a login lock applies to: IPv4 as is, IPv6 by its /64 network (platform/http/client-address.ts). */
export const lockAddress = clientNetwork;

/**
 * The stored list of notifications a member turned off, checked on every request with a session: made
 * once here (building a zod schema costs more than using it; it was 4 % of a chat node's CPU per frame).
 */
const disabledNotificationsSchema = z.array(disabledNotificationSchema);

export class AccountService {
  private readonly db: Db;
  /** Support's view of accounts: the member search, the account and its logins (issue #27). */
  readonly support: AccountSupport;

  private readonly signupMessageHooks: SignupMessageHook[] = [];
  private readonly eraseHooks: EraseHook[] = [];

  constructor(private readonly deps: AccountServiceDeps) {
    this.db = deps.db;
    this.support = new AccountSupport(deps.db);
  }

  /** Files other modules keep for an account (chat photos), deleted before the account is erased. */
  onErase(hook: EraseHook): void {
    this.eraseHooks.push(hook);
  }

  /** Spec §1, §4: who sends the message written on a profile's signup page (the chat module). */
  onSignupMessage(hook: SignupMessageHook): void {
    this.signupMessageHooks.push(hook);
  }

  /**
   * After a confirmation committed: hands the member's undelivered signup messages to the hooks and
   * marks each handled. The hook is idempotent per message, so a second confirmation, or two at once,
   * deliver once; a failure is logged and the message waits for the next confirmation.
   */
  private async deliverSignupMessages(userId: number, host: string): Promise<void> {
    if (this.signupMessageHooks.length === 0) return;
    for (const message of await undeliveredSignupMessages(this.db, userId)) {
      try {
        for (const hook of this.signupMessageHooks) await hook(message, host);
        await markSignupMessageDelivered(this.db, message.id);
      } catch (err) {
        this.deps.log.error({ err, signupMessage: message.id }, "signup message delivery failed");
      }
    }
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  verifyPassword(passwordHash: string, password: string): Promise<boolean> {
    return verifyPassword(passwordHash, password);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return findUserByEmail(this.db, email);
  }

  create(row: NewUser): Promise<UserRow> {
    return insertUser(this.db, { ...row, email: row.email?.toLowerCase() ?? null });
  }

  /** Spec §3 User, as the member sees themself. */
  async present(member: MemberContext): Promise<User> {
    const [profile, fictionalIcon, pushState] = await Promise.all([
      this.deps.profiles.summaryForUser(member.userId),
      this.deps.fictionalIcon(),
      this.deps.pushState(member.userId),
    ]);
    if (!profile) throw new Error(`user ${member.userId} has no profile`);
    return {
      id: member.userId,
      email: member.email,
      status: member.status,
      profile,
      paid_user: member.paid,
      credits: member.credits,
      fictional_icon: fictionalIcon,
      language: member.locale,
      notifications_disabled: member.notificationsDisabled,
      push_subscription: pushState,
      signup_date: member.signupDate.toISOString(),
      invisible: member.invisible,
      hide_presence: member.hidePresence,
    };
  }

  /** The member context of a user row with what the profiles and credits modules lend (the request's `member`). */
  private contextOf(
    user: MemberUserRow,
    lent: { profileId: number; credits: number; paid: boolean; latitude: number | null; longitude: number | null },
  ): MemberContext {
    const disabled = disabledNotificationsSchema.safeParse(user.notificationsDisabled);
    return {
      userId: user.id,
      profileId: lent.profileId,
      status: user.status,
      email: user.email ?? "",
      paid: lent.paid,
      credits: lent.credits,
      locale: isLocaleCode(user.language) ? user.language : "en",
      invisible: user.invisible,
      hidePresence: user.hidePresence,
      signupDate: user.signupDate,
      notificationsDisabled: disabled.success ? disabled.data : [],
      promotionsConsent: user.promotionsConsentAt !== null,
      position: lent.latitude === null || lent.longitude === null ? null : { lat: lent.latitude, lon: lent.longitude },
    };
  }

  /** The columns other modules lend to the member's one query: profile id, city centre, balance, premium flag. */
  private readonly lentColumns = (userId: SQL): LentMemberColumns => ({
    profileId: this.deps.profiles.profileIdOf(userId),
    ...this.deps.profiles.positionOf(userId),
    ...this.deps.credits.memberColumns(userId),
  });

  /** The member of a user id (after a login or signup, when no session cookie has been read yet). */
  async memberOfUser(userId: number): Promise<MemberContext | null> {
    const found = await findMemberUser(this.db, userId, this.lentColumns);
    if (!found || found.profileId === null) return null;
    return this.contextOf(found.user, { ...found, profileId: found.profileId });
  }

  // Sessions

  private async startSession(userId: number, tx: Pick<Db, "insert"> = this.db): Promise<string> {
    const { token, hash: tokenHash } = newToken();
    await insertSession(tx as Db, userId, tokenHash, new Date(Date.now() + LIMITS.authCookieMaxAgeSeconds * 1000));
    return token;
  }

  /**
   * The member of a session cookie, or null (unknown, expired, or account pending deletion): one query
   * for the session, the account and the profile's id.
   */
  async member(token: string | undefined): Promise<MemberContext | null> {
    if (!token || token.length > 100) return null;
    const now = new Date();
    const found = await findSessionUser(this.db, hashToken(token), this.lentColumns);
    if (!found || found.user.status === "pending_deletion" || found.profileId === null) return null;
    if (now.getTime() - found.session.lastSeenAt.getTime() > HOUR) await touchSession(this.db, found.session.id, now);
    return this.contextOf(found.user, { ...found, profileId: found.profileId });
  }

  /**
   * What identifies this cookie's session (the token's hash; chat_send_v1 checks it with `accounts_session_stands`), or null for no cookie
   * or a malformed one.
   */
  sessionKey(token: string | undefined): string | null {
    return !token || token.length > 100 ? null : hashToken(token);
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token || token.length > 100) return;
    const found = await findSessionUser(this.db, hashToken(token), this.lentColumns);
    await deleteSession(this.db, hashToken(token));
    if (found) this.deps.sessionsEnded?.(found.user.id);
  }

  // Signup

  async signup(
    input: SignupRequest,
    context: RequestContext & { signupsOpen: boolean; signupCredits: number; country: string },
  ): Promise<SessionInfo> {
    if (!context.signupsOpen) throw new AppError("signups_closed");
    const email = input.email.trim().toLowerCase();
    const problems: FieldProblems = {};
    const emailIssue = emailProblem(email);
    if (emailIssue) problems.email = emailIssue;
    const nameIssue = nameProblem(input.name, email);
    if (nameIssue) problems.name = nameIssue;
    const passwordIssue = passwordProblem(input.password, email);
    if (passwordIssue) problems.password = passwordIssue;
    const dobIssue = dateOfBirthProblem(input.date_of_birth);
    if (dobIssue) problems.date_of_birth = dobIssue;
    throwProblems(problems);
    // Spec §4: the message written on a profile's signup page goes to that profile, which must still be
    // one a visitor may see (not hidden, deleted or made up).
    if (input.via_profile_id && input.signup_message && !(await this.deps.visibility.canSee(null, input.via_profile_id))) {
      throw new AppError("profile_unavailable", {}, { via_profile_id: "profile_unavailable" });
    }

    const existing = await findUserByEmail(this.db, email);
    if (existing) {
      throw new AppError(
        existing.status === "pending_deletion" ? "email_pending_deletion" : "email_taken",
        {},
        {
          email: existing.status === "pending_deletion" ? "email_pending_deletion" : "email_taken",
        },
      );
    }
    const passwordHash = await this.hashPassword(input.password);
    let created: { user: UserRow; token: string };
    try {
      created = await this.db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          email,
          passwordHash,
          status: "not_confirmed",
          language: context.locale,
        });
        await this.deps.profiles.createForSignup(tx, {
          userId: user.id,
          name: input.name.trim(),
          gender: input.gender,
          seeking: input.seeking,
          birthDate: input.date_of_birth,
          country: context.country,
        });
        if (context.signupCredits > 0) {
          await this.deps.credits.change(tx, { userId: user.id, delta: context.signupCredits, reason: "signup_bonus" });
        }
        if (input.signup_message && input.via_profile_id) {
          await insertSignupMessage(tx, { userId: user.id, toProfileId: input.via_profile_id, text: input.signup_message });
        }
        const token = await this.startSession(user.id, tx);
        return { user: (await findUser(tx, user.id)) ?? user, token };
      });
    } catch (error) {
      // Two signups with one address at the same moment: the unique index decides.
      if (
        String((error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code) ===
        "23505"
      ) {
        throw new AppError("email_taken", {}, { email: "email_taken" });
      }
      throw error;
    }
    // The account exists either way; a mail server hiccup must not turn the signup into an error
    // (the member can ask for the mail again from the activation reminder).
    await this.sendActivation(created.user, context).catch((err: unknown) =>
      this.deps.log.error({ err }, "activation mail failed"),
    );
    return created;
  }

  // Activation

  private async issueToken(
    userId: number,
    kind: TokenKind,
    lifetimeMs: number,
    newEmail?: string,
    options: { keepEarlier?: boolean } = {},
  ): Promise<string> {
    const { token, hash: tokenHash } = newToken();
    await insertToken(
      this.db,
      { userId, kind, tokenHash, expiresAt: new Date(Date.now() + lifetimeMs), newEmail },
      options.keepEarlier,
    );
    return token;
  }

  /** POST /api/activation.php: the activation mail again, for the member asking. */
  async resendActivation(member: MemberContext, context: Pick<RequestContext, "baseUrl" | "siteName">): Promise<void> {
    await this.sendActivation(await this.rowOf(member), context);
  }

  /** The account row of a member (with what the member context leaves out, e.g. the password hash). */
  private async rowOf(member: MemberContext): Promise<UserRow> {
    const user = await findUser(this.db, member.userId);
    if (!user) throw new AppError("authentication_required");
    return user;
  }

  private async sendActivation(user: UserRow, context: Pick<RequestContext, "baseUrl" | "siteName">): Promise<void> {
    if (user.status !== "not_confirmed" || !user.email) return;
    const token = await this.issueToken(user.id, "activation", ACCOUNT_RULES.activationTokenHours * HOUR);
    await this.mail(user, "activation", `${context.baseUrl}/api/activation.php?token=${token}`, context.siteName);
  }

  /**
   * Confirms the address of the link's account: not_confirmed → active, its profile visible. A second
   * click (or a mail scanner's click before the member's) finds the account active and succeeds too.
   */
  async activate(token: string, host = ""): Promise<UserRow | null> {
    const user = await this.db.transaction(async (tx) => {
      const used = await consumeToken(tx, "activation", hashToken(token), new Date());
      if (!used) {
        const earlier = await findToken(tx, "activation", hashToken(token));
        const owner = earlier?.usedAt ? await findUser(tx, earlier.userId) : undefined;
        return owner?.status === "active" ? owner : null;
      }
      const user = await findUser(tx, used.userId);
      if (!user || user.status === "pending_deletion") return null;
      const updated = user.status === "not_confirmed" ? await updateUser(tx, user.id, { status: "active" }) : user;
      await this.deps.profiles.activateForUser(tx, user.id);
      return updated ?? null;
    });
    if (user?.status === "active") await this.deliverSignupMessages(user.id, host);
    return user;
  }

  // Login

  async login(
    emailInput: string,
    password: string,
    context: RequestContext & { deviceToken?: string | undefined },
  ): Promise<SessionInfo> {
    const email = emailInput.trim().toLowerCase();
    const address = lockAddress(context.address);
    const lockMs = ACCOUNT_RULES.loginLockMinutes * 60_000;
    const limit = ACCOUNT_RULES.loginFailuresBeforeLock;
    /** Minutes until the oldest of the last `limit` failures leaves the window. */
    const minutesLeft = (failedAt: Date[], now: number) => {
      const oldest = failedAt[failedAt.length - limit]?.getTime() ?? now;
      return Math.max(1, Math.ceil((oldest + lockMs - now) / 60_000));
    };
    const deviceHash = context.deviceToken && context.deviceToken.length <= 100 ? hashToken(context.deviceToken) : null;
    const outcome = await this.db.transaction(async (tx) => {
      // Attempts for one account run one at a time, so parallel guesses are all counted.
      await lockLoginAccount(tx, email);
      const now = Date.now();
      const since = new Date(now - lockMs);
      const failures = (await recentFailures(tx, email, address, since)).map((f) => f.failedAt);
      if (failures.length >= limit) return { locked: minutesLeft(failures, now) };
      const user = emailSchema.safeParse(email).success ? await findUserByEmail(tx, email) : undefined;
      const trusted = !!user && !!deviceHash && (await deviceOwner(tx, deviceHash)) === user.id;
      if (!trusted) {
        // Guesses from many addresses: each further one waits twice as long after the last failure.
        const account = await accountFailures(tx, email, since);
        const over = account.count - ACCOUNT_RULES.loginFailuresBeforeThrottle;
        if (over >= 0 && account.last) {
          const waitMs = Math.min(2 ** over, ACCOUNT_RULES.loginThrottleMaxSeconds) * 1000;
          const left = account.last.getTime() + waitMs - now;
          if (left > 0) return { throttled: Math.ceil(left / 1000) };
        }
      }
      const valid = await this.verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, password);
      if (!user?.passwordHash || !valid) {
        const at = new Date(now);
        await recordFailure(tx, email, address, at);
        failures.push(at);
        return failures.length >= limit ? { locked: minutesLeft(failures, now) } : { failed: true as const };
      }
      await clearFailures(tx, email, address);
      return { user, trusted };
    });
    if ("locked" in outcome) throw new AppError("login_locked", { minutes: outcome.locked ?? 1 });
    if ("throttled" in outcome) throw new AppError("login_throttled", { seconds: outcome.throttled ?? 1 });
    if (!("user" in outcome) || !outcome.user) throw new AppError("login_failed");
    const { user } = outcome;
    if (user.status === "pending_deletion") {
      // The right password on an account being deleted: send a fresh reactivation link.
      await this.sendReactivation(user, context).catch((err: unknown) =>
        this.deps.log.error({ err }, "reactivation mail failed"),
      );
      throw new AppError("email_pending_deletion");
    }
    // Issue #27: the right password on a banned account logs nobody in; the browser gets the ban's notice.
    const ban = await banInForce(this.db, user.id);
    if (ban) {
      const notice = newToken();
      await insertBanNoticeSession(this.db, user.id, notice.hash, ban.id);
      return { user, token: notice.token, banned: true };
    }
    let deviceToken: string | undefined;
    if (!outcome.trusted) {
      const device = newToken();
      await insertDevice(this.db, user.id, device.hash);
      deviceToken = device.token;
    }
    return { user, token: await this.startSession(user.id), ...(deviceToken ? { deviceToken } : {}) };
  }

  // Password reset

  async requestPasswordReset(emailInput: string, context: RequestContext): Promise<void> {
    const email = emailInput.trim().toLowerCase();
    if (emailProblem(email)) throw new AppError("invalid_email", {}, { email: "invalid_email" });
    const user = await findUserByEmail(this.db, email);
    if (!user || user.status === "pending_deletion") throw new AppError("email_not_found", {}, { email: "email_not_found" });
    const token = await this.issueToken(user.id, "reset_password", ACCOUNT_RULES.resetTokenHours * HOUR);
    await this.mail(user, "reset_password", `${context.baseUrl}/reset-password/do?token=${token}`, context.siteName);
  }

  /** Sets a new password from a reset link: ends every session and starts a new one. */
  async resetPassword(token: string, password: string, confirm: string, host = ""): Promise<SessionInfo> {
    const tokenHash = hashToken(token);
    const pending = await findValidToken(this.db, "reset_password", tokenHash, new Date());
    if (!pending) throw new AppError("token_invalid");
    const user = await findUser(this.db, pending.userId);
    if (!user || user.status === "pending_deletion") throw new AppError("token_invalid");
    const problems: FieldProblems = {};
    const issue = passwordProblem(password, user.email ?? undefined);
    if (issue) problems.password = issue;
    else if (password !== confirm) problems.password_confirm = "passwords_differ";
    throwProblems(problems);
    const passwordHash = await this.hashPassword(password);
    const session = await this.db
      .transaction(async (tx) => {
        if (!(await consumeToken(tx, "reset_password", tokenHash, new Date()))) throw new AppError("token_invalid");
        // Following the link proves the address, so an unconfirmed account is confirmed too.
        const status = user.status === "not_confirmed" ? "active" : user.status;
        const updated = await updateUser(tx, user.id, { passwordHash, status });
        if (status !== user.status) await this.deps.profiles.activateForUser(tx, user.id);
        await deleteSessions(tx, user.id);
        return { user: updated ?? user, token: await this.startSession(user.id, tx) };
      })
      .finally(() => this.deps.sessionsEnded?.(user.id));
    if (user.status === "not_confirmed") await this.deliverSignupMessages(user.id, host);
    return session;
  }

  // Password change

  async changePassword(
    member: MemberContext,
    input: { old_password: string; new_password: string; new_password_confirm: string; end_other_sessions: boolean },
    currentToken: string | undefined,
  ): Promise<void> {
    const user = await this.rowOf(member);
    if (!user.passwordHash || !(await this.verifyPassword(user.passwordHash, input.old_password))) {
      throw new AppError("old_password_wrong", {}, { old_password: "old_password_wrong" });
    }
    const issue = passwordProblem(input.new_password, user.email ?? undefined);
    if (issue) throw new AppError(issue, {}, { new_password: issue });
    if (input.new_password !== input.new_password_confirm) {
      throw new AppError("passwords_differ", {}, { new_password_confirm: "passwords_differ" });
    }
    const passwordHash = await this.hashPassword(input.new_password);
    await this.db.transaction(async (tx) => {
      await updateUser(tx, user.id, { passwordHash });
      if (input.end_other_sessions) await deleteSessions(tx, user.id, currentToken ? hashToken(currentToken) : undefined);
    });
    if (input.end_other_sessions) this.deps.sessionsEnded?.(user.id);
  }

  // E-mail change

  async requestMailChange(
    member: MemberContext,
    newEmailInput: string,
    password: string,
    context: RequestContext,
  ): Promise<void> {
    const user = await this.rowOf(member);
    if (!user.passwordHash || !(await this.verifyPassword(user.passwordHash, password))) {
      throw new AppError("old_password_wrong", {}, { password: "old_password_wrong" });
    }
    const newEmail = newEmailInput.trim().toLowerCase();
    if (emailProblem(newEmail)) throw new AppError("new_email_invalid", {}, { new_email: "new_email_invalid" });
    if (newEmail === user.email || (await findUserByEmail(this.db, newEmail))) {
      throw new AppError("new_email_taken", {}, { new_email: "new_email_taken" });
    }
    const token = await this.issueToken(user.id, "mail_change", ACCOUNT_RULES.mailChangeTokenHours * HOUR, newEmail);
    await this.mail(
      { ...user, email: newEmail },
      "mail_change",
      `${context.baseUrl}/mail-change/do?token=${token}`,
      context.siteName,
    );
  }

  async confirmMailChange(token: string, host = ""): Promise<UserRow> {
    let confirmed: { user: UserRow; wasUnconfirmed: boolean };
    try {
      confirmed = await this.db.transaction(async (tx) => {
        const used = await consumeToken(tx, "mail_change", hashToken(token), new Date());
        if (!used?.newEmail) throw new AppError("token_invalid");
        const user = await findUser(tx, used.userId);
        if (!user || user.status === "pending_deletion") throw new AppError("token_invalid");
        // The new address is proven by the link: the account counts as confirmed.
        const status = user.status === "not_confirmed" ? "active" : user.status;
        const updated = await updateUser(tx, user.id, { email: used.newEmail, status });
        // Links mailed to the old address no longer act on the account.
        await voidTokens(tx, user.id, ["reset_password", "activation"]);
        if (status !== user.status) await this.deps.profiles.activateForUser(tx, user.id);
        return { user: updated ?? user, wasUnconfirmed: user.status === "not_confirmed" };
      });
    } catch (error) {
      if (String((error as { cause?: { code?: string } }).cause?.code) === "23505") throw new AppError("new_email_taken");
      throw error;
    }
    if (confirmed.wasUnconfirmed) await this.deliverSignupMessages(confirmed.user.id, host);
    return confirmed.user;
  }

  // Deletion and reactivation

  async requestDeletion(member: MemberContext, password: string, context: RequestContext): Promise<void> {
    const user = await this.rowOf(member);
    if (!user.passwordHash || !(await this.verifyPassword(user.passwordHash, password))) {
      throw new AppError("password_wrong", {}, { password: "password_wrong" });
    }
    await this.db.transaction((tx) => this.startDeletion(tx, user.id));
    await this.afterDeletionStarted(user, context);
  }

  /**
   * The erasure's first step, in the caller's transaction (the member's own request above, or staff's
   * on the member's behalf through the audit log): the account waits 14 days for reactivation, every
   * session ends and no older link may act on it. Answers the status before and after, or null when
   * there is no such member account (fictional ones have none to erase this way).
   */
  async startDeletion(tx: Tx, userId: number): Promise<{ before: string; after: string } | null> {
    const user = await findUser(tx, userId);
    if (!user || user.fictional) return null;
    if (user.status === "pending_deletion") return { before: user.status, after: user.status };
    await updateUser(tx, user.id, {
      status: "pending_deletion",
      deletionRequestedAt: new Date(),
      statusBeforeDeletion: user.status,
    });
    await deleteSessions(tx, user.id);
    // No older link (reset, e-mail change, activation) may act on the account any more.
    await voidTokens(tx, user.id);
    return { before: user.status, after: "pending_deletion" };
  }

  /** After startDeletion committed: other nodes close the member's sockets, and the reactivation link goes out. */
  async afterDeletionStarted(user: UserRow, context: Pick<RequestContext, "baseUrl" | "siteName">): Promise<void> {
    this.deps.sessionsEnded?.(user.id);
    // The deletion stands even when the mail server fails; a login with the right password sends the
    // reactivation link again.
    await this.sendReactivation(user, context).catch((err: unknown) => this.deps.log.error({ err }, "reactivation mail failed"));
  }

  private async sendReactivation(user: UserRow, context: Pick<RequestContext, "baseUrl" | "siteName">): Promise<void> {
    // Every link mailed stays valid until one is used or it expires (issue #29): a login sends a new
    // one, and the first mail's link must still work.
    const token = await this.issueToken(user.id, "reactivation", ACCOUNT_RULES.reactivationDays * DAY, undefined, {
      keepEarlier: true,
    });
    await this.mail(user, "reactivation", `${context.baseUrl}/account-reactivate?token=${token}`, context.siteName);
  }

  /** Brings an account back from pending deletion (the page behind the e-mailed link posts the token). */
  async reactivate(token: string): Promise<UserRow | null> {
    return this.db.transaction(async (tx) => {
      const used = await consumeToken(tx, "reactivation", hashToken(token), new Date());
      if (!used) return null;
      const user = await findUser(tx, used.userId);
      if (user?.status !== "pending_deletion") return null;
      // The other reactivation links (each login sent one) end with the first one used.
      await voidTokens(tx, user.id, ["reactivation"]);
      // The account comes back as it was (issue #29): one that never confirmed its address comes back
      // not_confirmed, its profile still hidden, and confirms its address through the activation
      // link as any new member does (the reminder's "send again" mails one): reactivating undoes the
      // deletion and nothing else.
      const status = user.statusBeforeDeletion ?? "active";
      const updated = await updateUser(tx, user.id, { status, deletionRequestedAt: null, statusBeforeDeletion: null });
      if (status === "active") await this.deps.profiles.activateForUser(tx, user.id);
      return updated ?? null;
    });
  }

  /** Erases accounts whose 14 days to reactivate are over, with everything they own. Returns how many. */
  async purgeExpiredDeletions(now = new Date()): Promise<number> {
    const ids = await expiredDeletions(this.db, new Date(now.getTime() - ACCOUNT_RULES.reactivationDays * DAY));
    for (const id of ids) {
      for (const hook of this.eraseHooks) await hook(id);
      await this.deps.profiles.deleteFilesOfUser(id);
      await deleteUser(this.db, id);
    }
    await pruneFailures(this.db, new Date(now.getTime() - DAY));
    return ids.length;
  }

  // Preferences

  async setLanguage(member: MemberContext, language: LocaleCode): Promise<void> {
    await updateUser(this.db, member.userId, { language });
  }

  async setInvisible(member: MemberContext, invisible: boolean): Promise<void> {
    await updateUser(this.db, member.userId, { invisible });
  }

  /** Issue #29: hide (or show again) the member's online status and last activity; hiding is mutual. */
  async setHidePresence(member: MemberContext, hidePresence: boolean): Promise<void> {
    await updateUser(this.db, member.userId, { hidePresence });
  }

  /**
   * Spec §3's categories, each on unless switched off; promotions only with the member's consent (issue
   * #28): without it the category is off with no reason (nothing went wrong, the member never agreed).
   */
  notifications(
    member: Pick<MemberContext, "notificationsDisabled" | "promotionsConsent">,
  ): NotificationsResponse["notifications"] {
    const disabled = new Map(member.notificationsDisabled.map((d) => [d.category, d.reason]));
    return NOTIFICATION_CATEGORIES.map((category) => ({
      category,
      enabled: !disabled.has(category) && (category !== "promotions" || member.promotionsConsent),
      reason: disabled.get(category) ?? null,
    }));
  }

  /**
   * Switches categories on or off; a category the member switches off gets the reason "user".
   * Promotions switched on records the consent (and its time); switched off withdraws it.
   */
  async setNotifications(member: MemberContext, enabled: Partial<Record<NotificationCategory, boolean>>): Promise<void> {
    const next: DisabledNotification[] = [];
    for (const entry of this.notifications(member)) {
      const wanted = enabled[entry.category];
      if (wanted === true) continue;
      if (entry.category === "promotions" && entry.reason === null && (wanted === false || !entry.enabled)) continue;
      if (wanted === false) next.push({ category: entry.category, reason: entry.reason ?? "user" });
      else if (!entry.enabled && entry.reason) next.push({ category: entry.category, reason: entry.reason });
    }
    const consent = enabled.promotions;
    await updateUser(this.db, member.userId, {
      notificationsDisabled: next,
      ...(consent === true && !member.promotionsConsent ? { promotionsConsentAt: new Date() } : {}),
      ...(consent === false ? { promotionsConsentAt: null } : {}),
    });
  }

  findUser(id: number): Promise<UserRow | undefined> {
    return findUser(this.db, id);
  }

  /**
   * Switches notification categories off for a reason other than the member's own choice (issue #28):
   * a one-click unsubscribe (listunsubscribe) turns one category off and keeps the reason of one already
   * off; a hard bounce or a spam complaint (bounce, fbl) turns every category off with that reason.
   * Idempotent. Returns false when there is no such account.
   */
  async turnOffNotifications(
    userId: number,
    categories: readonly NotificationCategory[],
    reason: Exclude<DisabledNotification["reason"], "user">,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const user = await lockNotificationSettings(tx, userId);
      if (!user) return false;
      const parsed = disabledNotificationsSchema.safeParse(user.notificationsDisabled);
      const current = new Map((parsed.success ? parsed.data : []).map((d) => [d.category, d.reason]));
      for (const category of categories) {
        if (reason === "listunsubscribe" && current.has(category)) continue;
        current.set(category, reason);
      }
      const next = NOTIFICATION_CATEGORIES.flatMap((category) => {
        const why = current.get(category);
        return why ? [{ category, reason: why }] : [];
      });
      await updateUser(tx, userId, { notificationsDisabled: next });
      return true;
    });
  }

  /** The categories a member switched off, with their reasons (the stored list, checked). */
  disabledNotifications(user: Pick<UserRow, "notificationsDisabled">): DisabledNotification[] {
    const parsed = disabledNotificationsSchema.safeParse(user.notificationsDisabled);
    return parsed.success ? parsed.data : [];
  }

  /** Members the notifications module may write to (confirmed, real, with an address), paged by id. */
  notificationRecipients(options: Parameters<typeof notificationRecipients>[1]): Promise<NotificationRecipientRow[]> {
    return notificationRecipients(this.db, options);
  }

  /**
   * The account's part of the data export (issue #27): the account, its notification settings (the
   * consents), login sessions and browsers, and signup messages. No password hash, no token or its hash.
   */
  async exportFor({ userId }: ExportSubject): Promise<ExportPart> {
    const user = await findUser(this.db, userId);
    if (!user) return { json: {} };
    const [sessionRows, deviceRows, signupRows] = await Promise.all([
      sessionsOfUser(this.db, userId),
      devicesOfUser(this.db, userId),
      signupMessagesOfUser(this.db, userId),
    ]);
    const disabled = disabledNotificationsSchema.safeParse(user.notificationsDisabled);
    return {
      json: {
        account: {
          id: user.id,
          email: user.email,
          status: user.status,
          language: user.language,
          invisible: user.invisible,
          hide_presence: user.hidePresence,
          signup_date: isoOrNull(user.signupDate),
          deletion_requested_at: isoOrNull(user.deletionRequestedAt),
          notifications: this.notifications({
            notificationsDisabled: disabled.success ? disabled.data : [],
            promotionsConsent: user.promotionsConsentAt !== null,
          }),
          promotions_consent_at: isoOrNull(user.promotionsConsentAt),
        },
        logins: {
          sessions: sessionRows.map((row) => ({
            created_at: isoOrNull(row.createdAt),
            last_seen_at: isoOrNull(row.lastSeenAt),
            expires_at: isoOrNull(row.expiresAt),
          })),
          devices: deviceRows.map((row) => ({ first_login_at: isoOrNull(row.createdAt) })),
        },
        "signup-messages": signupRows.map((row) => ({
          to_profile_id: row.toProfileId,
          text: row.text,
          created_at: isoOrNull(row.createdAt),
          delivered_at: isoOrNull(row.deliveredAt),
        })),
      },
    };
  }

  private async mail(user: UserRow, kind: Parameters<typeof accountEmail>[0], link: string, siteName: string): Promise<void> {
    if (!user.email) return;
    const locale = isLocaleCode(user.language) ? user.language : "en";
    const profile = await this.deps.profiles.summaryForUser(user.id);
    const message = accountEmail(kind, { locale, site: siteName, name: profile?.name ?? "", link });
    await this.deps.mailer.send({ to: user.email, ...message });
  }
}
