import {
  deleteAccountRequestSchema,
  invisibleRequestSchema,
  languageRequestSchema,
  loginRequestSchema,
  mailChangeRequestSchema,
  type NotificationsResponse,
  notificationsRequestSchema,
  passwordChangeRequestSchema,
  resetPasswordDoRequestSchema,
  resetPasswordRequestSchema,
  SESSION_COOKIE,
  signupRequestSchema,
  signupsEnabled,
  tokenRequestSchema,
  tokenSchema,
  type UserResponse,
} from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/http/errors.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { SiteService } from "../site/service.ts";
import { clearSessionCookie, currentUser, isSecure, requireUser, setSessionCookie } from "./http.ts";
import type { AccountService, RequestContext } from "./service.ts";

export interface AccountRoutesOptions {
  accounts: AccountService;
  site: SiteService;
  publicUrl: string | undefined;
  geoipCountry(request: FastifyRequest): string | null;
  hasTrafficSource(request: FastifyRequest): boolean;
}

/** Rate limits per client address (spec: signup, login and reset are rate limited). */
const limits = {
  signup: { max: 10, timeWindow: "1 hour" },
  login: { max: 30, timeWindow: "15 minutes" },
  reset: { max: 5, timeWindow: "15 minutes" },
  mail: { max: 10, timeWindow: "1 hour" },
};

const tokenQuery = z.object({ token: z.string().max(200) });

/** The account calls (see packages/contract/src/accounts.ts): thin handlers over AccountService. */
export async function accountRoutes(app: FastifyInstance, options: AccountRoutesOptions): Promise<void> {
  const { accounts, site } = options;

  const context = async (request: FastifyRequest): Promise<RequestContext> => {
    const host = requestHost(request);
    const { site: row } = await site.siteFor(host);
    return {
      locale: requestLocale(request),
      address: request.ip,
      baseUrl: options.publicUrl?.replace(/\/$/, "") ?? `${request.protocol}://${request.host}`,
      siteName: row.name,
    };
  };
  const answer = async (user: Parameters<AccountService["present"]>[0]): Promise<UserResponse> => ({
    user: await accounts.present(user),
  });

  // The user call (spec §7): GET polls, POST logs in, PUT saves the language.
  app.get("/api/user.php", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const user = await currentUser(request, accounts);
    if (!user && request.cookies[SESSION_COOKIE]) clearSessionCookie(request, reply, isSecure(request, options.publicUrl));
    return user ? answer(user) : { user: null };
  });

  app.post("/api/user.php", { config: { rateLimit: limits.login } }, async (request, reply) => {
    const input = parseInput(loginRequestSchema, request.body);
    const { user, token } = await accounts.login(input.email, input.password, await context(request));
    setSessionCookie(request, reply, token, isSecure(request, options.publicUrl));
    return answer(user);
  });

  app.put("/api/user.php", async (request) => {
    const user = await requireUser(request, accounts);
    const { language } = parseInput(languageRequestSchema, request.body);
    return answer(await accounts.setLanguage(user, language));
  });

  app.get("/api/logout.php", async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    clearSessionCookie(request, reply, isSecure(request, options.publicUrl));
    reply.header("cache-control", "no-store");
    return { ok: true };
  });

  app.post("/api/signup.php", { config: { rateLimit: limits.signup } }, async (request, reply) => {
    const input = parseInput(signupRequestSchema, request.body);
    const host = requestHost(request);
    const { overrides } = await site.siteFor(host);
    const settings = await site.settings({
      host,
      locale: requestLocale(request),
      geoipCountry: options.geoipCountry(request),
      selectedCountry: null,
    });
    const country =
      settings.geoip_selected_country && overrides.countries.includes(settings.geoip_selected_country)
        ? settings.geoip_selected_country
        : (overrides.countries[0] ?? "NL");
    const { user, token } = await accounts.signup(input, {
      ...(await context(request)),
      signupsOpen: signupsEnabled(settings, options.hasTrafficSource(request)),
      signupCredits: settings.signup_credits,
      country,
    });
    setSessionCookie(request, reply, token, isSecure(request, options.publicUrl));
    return answer(user);
  });

  // Activation: POST sends the mail again; GET is the e-mailed link.
  app.post("/api/activation.php", { config: { rateLimit: limits.mail } }, async (request) => {
    const user = await requireUser(request, accounts);
    await accounts.sendActivation(user, await context(request));
    return { ok: true };
  });

  app.get("/api/activation.php", async (request, reply) => {
    const query = tokenQuery.safeParse(request.query);
    const token = query.success && tokenSchema.safeParse(query.data.token).success ? query.data.token : null;
    const user = token ? await accounts.activate(token) : null;
    return reply.redirect(user ? "/activate/done" : "/activate/error", 303);
  });

  app.post("/api/reset-password.php", { config: { rateLimit: limits.reset } }, async (request) => {
    const { email } = parseInput(resetPasswordRequestSchema, request.body);
    await accounts.requestPasswordReset(email, await context(request));
    return { ok: true };
  });

  app.post("/api/reset-password-do.php", { config: { rateLimit: limits.reset } }, async (request, reply) => {
    const input = parseInput(resetPasswordDoRequestSchema, request.body);
    if (!tokenSchema.safeParse(input.token).success) throw new AppError("token_invalid");
    const { user, token } = await accounts.resetPassword(input.token, input.password, input.password_confirm);
    setSessionCookie(request, reply, token, isSecure(request, options.publicUrl));
    return answer(user);
  });

  app.post("/api/password.php", { config: { rateLimit: limits.login } }, async (request) => {
    const user = await requireUser(request, accounts);
    const input = parseInput(passwordChangeRequestSchema, request.body);
    await accounts.changePassword(user, input, request.cookies[SESSION_COOKIE]);
    return { ok: true };
  });

  app.post("/api/mail-change.php", { config: { rateLimit: limits.mail } }, async (request) => {
    const user = await requireUser(request, accounts);
    const input = parseInput(mailChangeRequestSchema, request.body);
    await accounts.requestMailChange(user, input.new_email, input.password, await context(request));
    return { ok: true };
  });

  app.post("/api/mail-change-do.php", async (request) => {
    const { token } = parseInput(tokenRequestSchema, request.body);
    if (!tokenSchema.safeParse(token).success) throw new AppError("token_invalid");
    return answer(await accounts.confirmMailChange(token));
  });

  app.post("/api/delete-account.php", { config: { rateLimit: limits.login } }, async (request, reply) => {
    const user = await requireUser(request, accounts);
    const { password } = parseInput(deleteAccountRequestSchema, request.body);
    await accounts.requestDeletion(user, password, await context(request));
    clearSessionCookie(request, reply, isSecure(request, options.publicUrl));
    return { ok: true };
  });

  // Reactivation: the e-mailed link opens /account-reactivate, whose button posts the token (a mail
  // scanner following the link must not undo a deletion).
  app.post("/api/reactivate.php", { config: { rateLimit: limits.reset } }, async (request) => {
    const { token } = parseInput(tokenRequestSchema, request.body);
    const user = tokenSchema.safeParse(token).success ? await accounts.reactivate(token) : null;
    if (!user) throw new AppError("token_invalid");
    return { ok: true };
  });

  app.put("/api/invisible.php", async (request) => {
    const user = await requireUser(request, accounts);
    const { invisible } = parseInput(invisibleRequestSchema, request.body);
    return answer(await accounts.setInvisible(user, invisible));
  });

  app.get("/api/notifications.php", async (request): Promise<NotificationsResponse> => {
    const user = await requireUser(request, accounts);
    return { notifications: accounts.notifications(user) };
  });

  app.put("/api/notifications.php", async (request): Promise<NotificationsResponse> => {
    const user = await requireUser(request, accounts);
    const { enabled } = parseInput(notificationsRequestSchema, request.body);
    return { notifications: accounts.notifications(await accounts.setNotifications(user, enabled)) };
  });
}
