import {
  DEVICE_COOKIE,
  ENDPOINTS,
  type MemberContext,
  SESSION_COOKIE,
  signupsEnabled,
  tokenSchema,
  type UserResponse,
} from "@app/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { getFromThisSite } from "../../platform/http/csrf.ts";
import { forgetMember, handle, refreshMember } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { hasTrafficSource } from "../../platform/http/visitor.ts";
import type { MemberEvents } from "../../platform/member-events.ts";
import type { SiteService } from "../site/service.ts";
import type { BanService } from "./bans.ts";
import { clearSessionCookie, isSecure, setDeviceCookie, setSessionCookie } from "./http.ts";
import type { AccountService, RequestContext } from "./service.ts";
import type { LoginMethod } from "./support.ts";

export interface AccountRoutesOptions {
  accounts: AccountService;
  bans: Pick<BanService, "notice">;
  site: SiteService;
  publicUrl: string | undefined;
  /** Origins besides the request's own that count as this site (PUBLIC_URL, ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  geoipCountry(request: FastifyRequest): string | null;
  /** The member's other tabs and devices hear of changes to the account (`user.changed`). */
  events: Pick<MemberEvents, "publish">;
}

/** Rate limits per client address (IPv6 per /64; spec: signup, login and reset are rate limited). */
const limits = {
  signup: { max: 10, timeWindow: "1 hour" },
  login: { max: 30, timeWindow: "15 minutes" },
  reset: { max: 5, timeWindow: "15 minutes" },
  mail: { max: 10, timeWindow: "1 hour" },
};

/** The account calls (see packages/contract/src/accounts.ts): thin handlers over AccountService. */
export async function accountRoutes(app: FastifyInstance, options: AccountRoutesOptions): Promise<void> {
  const { accounts, site } = options;
  const secure = (request: FastifyRequest) => isSecure(request, options.publicUrl);

  const context = async (request: FastifyRequest): Promise<RequestContext> => {
    const host = requestHost(request);
    const [{ site: row }, baseUrl] = await Promise.all([site.siteFor(host), site.originFor(host)]);
    return {
      locale: requestLocale(request),
      address: request.ip,
      // Issue #25: the site's configured origin, never the request's Host (a reset link to evil.example).
      baseUrl,
      siteName: row.name,
    };
  };
  const answer = async (member: MemberContext | null): Promise<UserResponse> => {
    if (!member) throw new AppError("authentication_required");
    return { user: await accounts.present(member) };
  };
  /** Tells the member's other tabs and devices to reload the account; a lost event is caught by polling. */
  const changed = async (request: FastifyRequest, member: MemberContext) => {
    await options.events
      .publish(member.userId, { type: "user.changed" })
      .catch((err: unknown) => request.log.error({ err }, "member event failed"));
    return refreshMember(request);
  };
  /** A new session for this request: the cookie, and the request's member from now on. */
  const startSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    token: string,
    method: LoginMethod,
  ) => {
    setSessionCookie(reply, token, secure(request));
    // Support sees each member's logins (issue #27); a failed record never fails the login.
    await accounts.support
      .recordLogin(userId, { method, address: request.ip, userAgent: request.headers["user-agent"] ?? "" })
      .catch((err: unknown) => request.log.error({ err }, "login record failed"));
    const member = await accounts.memberOfUser(userId);
    forgetMember(request);
    request.member = member;
    return member;
  };
  /** Ends the session the request presents (logout, or a login over an existing session). */
  const endPresentedSession = async (request: FastifyRequest, reply: FastifyReply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    clearSessionCookie(request, reply, secure(request));
  };

  // The user call (spec §7): GET polls, POST logs in, PUT saves the language.
  handle(app, ENDPOINTS.user, async ({ request, reply, member }) => {
    reply.header("cache-control", "no-store");
    // Issue #27: a session ended by a ban keeps its cookie (the ban's notice for /pages/ban) and says so.
    if (!member && (await options.bans.notice(request.cookies[SESSION_COOKIE]))) throw new AppError("account_banned");
    if (!member && request.cookies[SESSION_COOKIE]) clearSessionCookie(request, reply, secure(request));
    return member ? answer(member) : { user: null };
  });

  handle(
    app,
    ENDPOINTS.login,
    async ({ request, reply, body }) => {
      const session = await accounts.login(body.email, body.password, {
        ...(await context(request)),
        deviceToken: request.cookies[DEVICE_COOKIE],
      });
      if (session.banned) {
        // Issue #27: refused; the cookie now names the ban's notice, which /pages/ban shows.
        setSessionCookie(reply, session.token, secure(request));
        throw new AppError("account_banned");
      }
      // A login while presenting another session ends that one: one browser, one session.
      if (request.cookies[SESSION_COOKIE]) await accounts.logout(request.cookies[SESSION_COOKIE]);
      if (session.deviceToken) setDeviceCookie(reply, session.deviceToken, secure(request));
      return answer(await startSession(request, reply, session.user.id, session.token, "password"));
    },
    { rateLimit: limits.login },
  );

  handle(app, ENDPOINTS.language, async ({ request, member, body }) => {
    await accounts.setLanguage(member, body.language);
    return answer(await changed(request, member));
  });

  // Spec §7 logs out with a GET; a link on another site must not log a member out, so a GET from
  // another site is refused (Sec-Fetch-Site, Origin or Referer; decision 033). The site itself uses
  // POST, under the CSRF rule.
  handle(app, ENDPOINTS.logout, async ({ request, reply }) => {
    if (!getFromThisSite(request, options.allowedOrigins)) throw new AppError("bad_origin");
    await endPresentedSession(request, reply);
    reply.header("cache-control", "no-store");
    return { ok: true as const };
  });

  handle(app, ENDPOINTS.logoutPost, async ({ request, reply }) => {
    await endPresentedSession(request, reply);
    reply.header("cache-control", "no-store");
    return { ok: true as const };
  });

  handle(
    app,
    ENDPOINTS.signup,
    async ({ request, reply, body }) => {
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
      const { user, token } = await accounts.signup(body, {
        ...(await context(request)),
        signupsOpen: signupsEnabled(settings, hasTrafficSource(request)),
        signupCredits: settings.signup_credits,
        country,
      });
      if (request.cookies[SESSION_COOKIE]) await accounts.logout(request.cookies[SESSION_COOKIE]);
      return answer(await startSession(request, reply, user.id, token, "signup"));
    },
    { rateLimit: limits.signup },
  );

  // Activation: POST sends the mail again; GET is the e-mailed link.
  handle(
    app,
    ENDPOINTS.resendActivation,
    async ({ request, member }) => {
      await accounts.resendActivation(member, await context(request));
      return { ok: true as const };
    },
    { rateLimit: limits.mail },
  );

  handle(app, ENDPOINTS.activate, async ({ request, reply }) => {
    const query = ENDPOINTS.activate.query.safeParse(request.query);
    const token = query.success && tokenSchema.safeParse(query.data.token).success ? query.data.token : null;
    const user = token ? await accounts.activate(token, requestHost(request)) : null;
    return reply.redirect(user ? "/activate/done" : "/activate/error", 303);
  });

  handle(
    app,
    ENDPOINTS.resetPassword,
    async ({ request, body }) => {
      await accounts.requestPasswordReset(body.email, await context(request));
      return { ok: true as const };
    },
    { rateLimit: limits.reset },
  );

  handle(
    app,
    ENDPOINTS.resetPasswordDo,
    async ({ request, reply, body }) => {
      if (!tokenSchema.safeParse(body.token).success) throw new AppError("token_invalid");
      const { user, token } = await accounts.resetPassword(
        body.token,
        body.password,
        body.password_confirm,
        requestHost(request),
      );
      return answer(await startSession(request, reply, user.id, token, "reset_password"));
    },
    { rateLimit: limits.reset },
  );

  handle(
    app,
    ENDPOINTS.changePassword,
    async ({ request, member, body }) => {
      await accounts.changePassword(member, body, request.cookies[SESSION_COOKIE]);
      return { ok: true as const };
    },
    { rateLimit: limits.login },
  );

  handle(
    app,
    ENDPOINTS.mailChange,
    async ({ request, member, body }) => {
      await accounts.requestMailChange(member, body.new_email, body.password, await context(request));
      return { ok: true as const };
    },
    { rateLimit: limits.mail },
  );

  handle(app, ENDPOINTS.mailChangeDo, async ({ request, body }) => {
    if (!tokenSchema.safeParse(body.token).success) throw new AppError("token_invalid");
    const user = await accounts.confirmMailChange(body.token, requestHost(request));
    return answer(await accounts.memberOfUser(user.id));
  });

  handle(
    app,
    ENDPOINTS.deleteAccount,
    async ({ request, reply, member, body }) => {
      await accounts.requestDeletion(member, body.password, await context(request));
      clearSessionCookie(request, reply, secure(request));
      return { ok: true as const };
    },
    { rateLimit: limits.login },
  );

  // Reactivation: the e-mailed link opens /account-reactivate, whose button posts the token (a mail
  // scanner following the link must not undo a deletion).
  handle(
    app,
    ENDPOINTS.reactivate,
    async ({ body }) => {
      const user = tokenSchema.safeParse(body.token).success ? await accounts.reactivate(body.token) : null;
      if (!user) throw new AppError("token_invalid");
      return { ok: true as const };
    },
    { rateLimit: limits.reset },
  );

  handle(app, ENDPOINTS.invisible, async ({ request, member, body }) => {
    await accounts.setInvisible(member, body.invisible);
    return answer(await changed(request, member));
  });

  handle(app, ENDPOINTS.presencePrivacy, async ({ request, member, body }) => {
    await accounts.setHidePresence(member, body.hide_presence);
    return answer(await changed(request, member));
  });

  handle(app, ENDPOINTS.notifications, async ({ member }) => ({ notifications: accounts.notifications(member) }));

  handle(app, ENDPOINTS.saveNotifications, async ({ request, member, body }) => {
    await accounts.setNotifications(member, body.enabled);
    const updated = await changed(request, member);
    return { notifications: accounts.notifications(updated ?? member) };
  });
}
