import { LOCALE_COOKIE, parseRequest, STAFF_AUTH_ENDPOINTS, STAFF_SESSION_COOKIE } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { jsonSchemaOf } from "../../platform/http/endpoint.ts";
import { actorOf, clearStaffCookie, handleStaff, setStaffCookie, staffOf } from "./http.ts";
import type { StaffService } from "./service.ts";

export interface StaffRoutesOptions {
  staff: StaffService;
  publicUrl: string | undefined;
}

/** Staff logins per client address (IPv6 per /64), besides the per-account lock in StaffService.login. */
const LOGIN_LIMIT = { max: 20, timeWindow: "15 minutes" };

/** The console's own calls: login, logout, the session, staff accounts (admin) and the audit log. */
export async function staffRoutes(app: FastifyInstance, options: StaffRoutesOptions): Promise<void> {
  const { staff } = options;
  const secure = (request: FastifyRequest) => request.protocol === "https" || !!options.publicUrl?.startsWith("https:");
  const endpoints = STAFF_AUTH_ENDPOINTS;

  // The one staff call without a session.
  app.route({
    method: endpoints.login.method,
    url: endpoints.login.path,
    schema: { response: { 200: jsonSchemaOf(endpoints.login.response) } },
    config: { staffEndpoint: endpoints.login, rateLimit: LOGIN_LIMIT },
    handler: async (request, reply) => {
      reply.header("cache-control", "no-store");
      const body = parseRequest(endpoints.login.body, request.body ?? {});
      const session = await staff.login(body.email, body.password, body.code, request.ip);
      await staff.logout(request.cookies[STAFF_SESSION_COOKIE]);
      setStaffCookie(reply, session.token, secure(request));
      // The console speaks the staff member's language (the site's locale cookie, as a member's choice would).
      reply.setCookie(LOCALE_COOKIE.name, session.staff.language, {
        path: "/",
        sameSite: LOCALE_COOKIE.sameSite,
        maxAge: LOCALE_COOKIE.maxAgeSeconds,
      });
      return { staff: session.staff };
    },
  });

  app.route({
    method: endpoints.logout.method,
    url: endpoints.logout.path,
    schema: { response: { 200: jsonSchemaOf(endpoints.logout.response) } },
    config: { staffEndpoint: endpoints.logout },
    handler: async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (!(await staffOf(request))) throw new AppError("not_found");
      await staff.logout(request.cookies[STAFF_SESSION_COOKIE]);
      clearStaffCookie(reply, secure(request));
      return { ok: true as const };
    },
  });

  handleStaff(app, endpoints.me, async ({ staff: me }) => ({ staff: me }));

  handleStaff(app, endpoints.staffList, async () => ({ accounts: await staff.list() }));

  handleStaff(app, endpoints.staffCreate, async ({ request, staff: me, body }) =>
    staff.audited(
      actorOf(request, me),
      (enrolment) => ({
        action: "staff.create",
        objectType: "staff",
        objectId: enrolment.account.id,
        after: enrolment.account,
      }),
      (tx) => staff.create(body, tx),
    ),
  );

  handleStaff(app, endpoints.staffUpdate, async ({ request, staff: me, params, body }) => {
    // An admin cannot lock themself out (the last way in to the console would go with it).
    if (params.id === me.id && (body.active === false || (body.role && body.role !== "admin"))) {
      throw new AppError("staff_forbidden");
    }
    const { after } = await staff.audited(
      actorOf(request, me),
      (change: Awaited<ReturnType<StaffService["update"]>>) => ({
        action: "staff.update",
        objectType: "staff",
        objectId: params.id,
        before: change.before,
        after: change.after,
      }),
      (tx) => staff.update(tx, params.id, body),
    );
    return { account: after };
  });

  handleStaff(app, endpoints.audit, async ({ staff: me, query }) => {
    // Support and moderators read a member's log; the whole log and a staff account's are the admin's.
    if (me.role !== "admin" && query.member_id === undefined) throw new AppError("staff_forbidden");
    return staff.auditFor({ memberId: query.member_id, staffId: query.staff_id }, { limit: query.limit, before: query.before });
  });
}
