import { parseRequest, STAFF_SESSION_COOKIE, type StaffContext, type StaffEndpoint, staffMay } from "@app/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { jsonSchemaOf } from "../../platform/http/endpoint.ts";
import type { StaffActor, StaffService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The staff service, for the console's routes (installed once by `registerStaffContext`). */
    staffService: StaffService;
  }
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface StaffEndpointContext<E extends StaffEndpoint> {
  request: FastifyRequest;
  reply: FastifyReply;
  staff: StaffContext;
  params: Out<E["params"]>;
  query: Out<E["query"]>;
  body: Out<E["body"]>;
}

const resolved = new WeakMap<FastifyRequest, Promise<StaffContext | null>>();

export function registerStaffContext(app: FastifyInstance, staff: StaffService): void {
  app.decorate("staffService", staff);
}

/** The staff member of a request (its staff cookie; resolved once per request), or null. */
export function staffOf(request: FastifyRequest): Promise<StaffContext | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = request.server.staffService.resolve(request.cookies[STAFF_SESSION_COOKIE]);
    resolved.set(request, pending);
  }
  return pending;
}

/** Who does a write: the staff member and the client address, for the audit log. */
export const actorOf = (request: FastifyRequest, staff: StaffContext): StaffActor => ({ staff, address: request.ip });

/**
 * Registers one call of the staff API. Order: staff session (none, ended, or only a member's: 404, as if
 * the console were not there) → role (403 staff_forbidden) → params, query and body parsed by the
 * contract (422) → handler → the answer serialised through the response schema (a field it does not
 * name never leaves). Staff answers are never cached.
 */
export function handleStaff<const E extends StaffEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (context: StaffEndpointContext<E>) => Promise<z.input<E["response"]>>,
  options: { rateLimit?: { max: number; timeWindow: string } } = {},
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: { response: { 200: jsonSchemaOf(endpoint.response) } },
    config: { staffEndpoint: endpoint, ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}) },
    handler: async (request, reply) => {
      reply.header("cache-control", "no-store");
      const staff = await staffOf(request);
      if (!staff) throw new AppError("not_found");
      if (!staffMay(staff.role, endpoint)) throw new AppError("staff_forbidden");
      const params = endpoint.params ? parseRequest(endpoint.params, request.params ?? {}) : undefined;
      const query = endpoint.query ? parseRequest(endpoint.query, request.query ?? {}) : undefined;
      const body = endpoint.body ? parseRequest(endpoint.body, request.body ?? {}) : undefined;
      return handler({ request, reply, staff, params, query, body } as StaffEndpointContext<E>);
    },
  });
}

/** Spec-free, ours: the staff cookie is a session cookie for /staff only, HttpOnly and SameSite=Strict. */
export function setStaffCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(STAFF_SESSION_COOKIE, token, { path: "/staff", httpOnly: true, sameSite: "strict", secure });
}

export function clearStaffCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(STAFF_SESSION_COOKIE, { path: "/staff", httpOnly: true, sameSite: "strict", secure });
}
