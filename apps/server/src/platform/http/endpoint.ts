import { type Endpoint, type EndpointResponse, ID_MAX, type MemberContext, parseRequest } from "@app/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toJSONSchema, type z } from "zod";
import { AppError } from "../errors.ts";
import { isConnectionFailure } from "./errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The logged-in member of this request, or null. Set before the handler of every endpoint whose
     * contract says `auth: "member" | "optional"`; elsewhere read it with `memberOf(request)`.
     */
    member: MemberContext | null;
  }
  interface FastifyInstance {
    /** Resolves a session cookie to its member (installed once by `registerMemberContext`). */
    resolveMember(request: FastifyRequest): Promise<MemberContext | null>;
    /**
     * What identifies the session the request carries (the accounts module's session key), or null
     * without one. For a socket's frames: their member is the upgrade's (`memberOf`), and a frame that
     * writes for them has the module check in its transaction that this session still stands, rather
     * than reading it again in a round trip of its own (decision 020, "The session inside the send").
     */
    sessionKey(request: FastifyRequest): string | null;
    /**
     * Why a request that needs a member has none, when the accounts module knows better than "log in"
     * (a session ended by a ban: account_banned); null for the plain authentication_required.
     */
    memberRefusal(request: FastifyRequest): Promise<AppError | null>;
    /** Each registered endpoint's run (session, input, handler), for in-process calls (`answerOf`). */
    endpointRuns: Map<Endpoint, EndpointRun>;
  }
}

/** One endpoint's handler behind its session check and input parsing, on the given query and body; its answer unsent. */
type EndpointRun = (request: FastifyRequest, reply: FastifyReply, rawQuery: unknown, rawBody: unknown) => Promise<unknown>;

/** How many times a GET endpoint runs again after its database connection was cut (see handle()). */
const READ_RETRIES = 2;

const resolved = new WeakMap<FastifyRequest, Promise<MemberContext | null>>();

/**
 * Installs the one way a request finds its member. `resolve` reads the session cookie (the accounts
 * module owns sessions); it runs at most once per request, whoever asks first.
 */
export function registerMemberContext(
  app: FastifyInstance,
  resolve: (request: FastifyRequest) => Promise<MemberContext | null>,
  sessionKey: (request: FastifyRequest) => string | null,
  refusal: (request: FastifyRequest) => Promise<AppError | null> = async () => null,
): void {
  app.decorateRequest("member", null);
  app.decorate("resolveMember", resolve);
  app.decorate("memberRefusal", refusal);
  // A socket's request sends many frames: its key (a hash of the cookie) is worked out once.
  const keys = new WeakMap<FastifyRequest, string | null>();
  app.decorate("sessionKey", (request: FastifyRequest) => {
    let key = keys.get(request);
    if (key === undefined) {
      key = sessionKey(request);
      keys.set(request, key);
    }
    return key;
  });
}

/** The member of a request (resolved once and cached for the request), or null for a visitor. */
export function memberOf(request: FastifyRequest): Promise<MemberContext | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = request.server.resolveMember(request).then((member) => {
      request.member = member;
      return member;
    });
    resolved.set(request, pending);
  }
  return pending;
}

/**
 * Forgets the request's member, after a write that changed it (a new session, a debit, a new
 * language) or ended it, so the next `memberOf` reads it again.
 */
export function refreshMember(request: FastifyRequest): Promise<MemberContext | null> {
  resolved.delete(request);
  request.member = null;
  return memberOf(request);
}

/** Forgets the request's member without reading it again (logout, deletion). */
export function forgetMember(request: FastifyRequest): void {
  resolved.set(request, Promise.resolve(null));
  request.member = null;
}

type Query<E extends Endpoint> = E["query"] extends z.ZodType ? z.output<E["query"]> : undefined;
type Body<E extends Endpoint> = E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;

export interface EndpointContext<E extends Endpoint> {
  request: FastifyRequest;
  reply: FastifyReply;
  member: E["auth"] extends "member" ? MemberContext : MemberContext | null;
  query: Query<E>;
  body: Body<E>;
}

type Answer<E extends Endpoint> = E["response"] extends z.ZodType ? z.input<E["response"]> : FastifyReply;

const PRESERIALIZED = Symbol("preserialized");

/**
 * An answer already written by its route's serializer (the contract's response schema), kept to be sent
 * again as it is: for answers that many requests share (the site's settings), serialising once is most
 * of their cost. Only `preserialize` makes one, so what leaves is still only what the contract names.
 */
export interface Preserialized {
  readonly [PRESERIALIZED]: string;
}

/** Serialises `answer` through the response schema of the reply's route (see `Preserialized`). */
export function preserialize<E extends Endpoint>(_endpoint: E, reply: FastifyReply, answer: Answer<E>): Preserialized {
  return { [PRESERIALIZED]: String(reply.serialize(answer)) };
}

export interface EndpointOptions {
  rateLimit?: { max: number; timeWindow: string };
}

const jsonSchemas = new WeakMap<z.ZodType, object>();

/**
 * The JSON Schema of a response schema (zod's own conversion, cached), which Fastify compiles into a
 * serializer (fast-json-stringify) that writes only the properties the schema names: a raw row or a
 * password hash cannot leave by accident, and it costs less than JSON.stringify (bench:http).
 */
export function jsonSchemaOf(schema: z.ZodType): object {
  let json = jsonSchemas.get(schema);
  if (!json) {
    const { $schema: _draft, ...rest } = toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    json = rest;
    jsonSchemas.set(schema, json);
  }
  return json;
}

/**
 * Registers the handler of one contract endpoint. Order: session (403 authentication_required where
 * the contract wants a member) → query and body parsed by the contract's schemas (422) → handler →
 * answer serialised through the response schema, which drops every field the contract does not name.
 */
export function handle<const E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (context: EndpointContext<E>) => Promise<Answer<E> | Preserialized>,
  options: EndpointOptions = {},
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...routeConstraintsOf(endpoint),
    ...(typeof endpoint.response === "string" ? {} : { schema: { response: { 200: jsonSchemaOf(endpoint.response) } } }),
    config: { endpoint, ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}) },
    handler: async (request, reply) => {
      if (endpoint.method !== "GET") return sent(reply, await run(request, reply, request.query, request.body));
      // A read whose database connection was cut under it (a PostgreSQL restart or failover, its
      // connections terminated) runs again on another: reads must not fail for it (issue #25). A GET
      // changes nothing, so running it again is safe. Twice more at most, a moment apart (the pool may
      // hand out another of the cut connections before it has noticed); still failing, it answers 503.
      for (let attempt = 0; ; attempt++) {
        try {
          return sent(reply, await run(request, reply, request.query, request.body));
        } catch (error) {
          if (attempt >= READ_RETRIES || !isConnectionFailure(error)) throw error;
          resolved.delete(request);
          await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
        }
      }
    },
  });

  app.endpointRuns?.set(endpoint, run);

  async function run(request: FastifyRequest, reply: FastifyReply, rawQuery: unknown, rawBody: unknown) {
    const member = endpoint.auth === "none" ? null : await memberOf(request);
    if (endpoint.auth === "member" && !member) {
      throw (await request.server.memberRefusal(request)) ?? new AppError("authentication_required");
    }
    const query = endpoint.query ? parseRequest(endpoint.query, rawQuery ?? {}) : undefined;
    const body = endpoint.body && endpoint.body !== "multipart" ? parseRequest(endpoint.body, rawBody ?? {}) : undefined;
    return handler({ request, reply, member, query, body } as EndpointContext<E>);
  }
}

const isPreserialized = (answer: unknown): answer is Preserialized =>
  answer !== null && typeof answer === "object" && PRESERIALIZED in answer;

/** A route's answer as Fastify sends it: a preserialized one as its text (Fastify serialises only objects). */
function sent(reply: FastifyReply, answer: unknown) {
  return isPreserialized(answer) ? reply.type("application/json; charset=utf-8").send(answer[PRESERIALIZED]) : answer;
}

/** The name of the route constraint that matches an endpoint's `when` (see queryConstraint). */
const QUERY_CONSTRAINT = "query";

type When = Readonly<Record<string, string>>;
type ConstraintStrategy = Parameters<FastifyInstance["addConstraintStrategy"]>[0];
type Stored = ReturnType<ReturnType<ConstraintStrategy["storage"]>["get"]>;

/**
 * The router's constraints of an endpoint's route: `{ query: when }` for an endpoint that answers only
 * requests whose query string has those values (`hasRoute` needs them to find that route too).
 */
export function routeConstraintsOf(endpoint: Endpoint): { constraints?: { [QUERY_CONSTRAINT]: When } } {
  return endpoint.when ? { constraints: { [QUERY_CONSTRAINT]: endpoint.when } } : {};
}

const matchesWhen = (when: When, query: URLSearchParams) =>
  Object.entries(when).every(([key, value]) => query.get(key) === value);

/**
 * A Fastify custom constraint (find-my-way's strategies) on the query string, for the contract's `when`:
 * spec §7 gives two calls one method and path (POST /api/user.php logs in, POST /api/user.php?push=1
 * stores a push subscription), so the router picks the route by the query, before any hook or body
 * parser runs: a request whose query has every value of a route's `when` goes to that route rather
 * than to the one without (give two routes of one path `when`s that never both match), any other
 * request to the route without one. The request's value is its parsed query
 * (undefined without one, so the usual request costs nothing); a route's value is its `when` record. The
 * store answers both: a record (the router building its table) by equality, a query by matching.
 */
const queryConstraint: ConstraintStrategy = {
  name: QUERY_CONSTRAINT,
  storage() {
    // What the router keeps per value is in fact a bitmask of its handlers (find-my-way's handler-storage).
    const entries: { when: When; handlers: Stored }[] = [];
    const same = (a: When, b: When) =>
      Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);
    return {
      get(value: unknown): Stored {
        if (value instanceof URLSearchParams) {
          // A request: the masks of every route whose `when` its query matches, together.
          let mask = 0;
          for (const entry of entries) if (matchesWhen(entry.when, value)) mask |= entry.handlers as unknown as number;
          return (mask || null) as unknown as Stored;
        }
        return entries.find((entry) => same(entry.when, value as When))?.handlers ?? null;
      },
      set(when: unknown, handlers: Stored): void {
        const found = entries.find((entry) => same(entry.when, when as When));
        if (found) found.handlers = handlers;
        else entries.push({ when: when as When, handlers });
      },
    };
  },
  deriveConstraint(request: { url?: string }): unknown {
    const url = request.url ?? "";
    const start = url.indexOf("?");
    return start === -1 ? undefined : new URLSearchParams(url.slice(start + 1));
  },
  validate(value: unknown): void {
    if (!value || typeof value !== "object" || !Object.values(value).every((v) => typeof v === "string")) {
      throw new Error("the query constraint is a record of strings (an endpoint's `when`)");
    }
  },
  mustMatchWhenDerived: false,
};

/**
 * Every JSON route under /api/ must come from the endpoint table with its response schema (serialised
 * through it, see jsonSchemaOf): registering one without stops the server at start. Also installs the
 * router's query constraint for the endpoints with a `when`.
 */
export function registerEndpointRules(app: FastifyInstance): void {
  app.addConstraintStrategy(queryConstraint);
  app.decorate("endpointRuns", new Map<Endpoint, EndpointRun>());
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url === "/api/*") return;
    const endpoint = (route.config as { endpoint?: Endpoint } | undefined)?.endpoint;
    const hasSchema = !!(route.schema?.response as Record<string, unknown> | undefined)?.[200];
    if (!endpoint || (typeof endpoint.response !== "string" && !hasSchema)) {
      throw new Error(`${route.method} ${route.url} is not an endpoint of the contract with a response schema`);
    }
  });
}

type ReadEndpoint = Endpoint & { method: "GET"; response: z.ZodType };

/**
 * What a GET endpoint answers for this request, asked in process (the server-rendered pages' data, ssr-services.ts):
 * the route's own handler on the request's member, with `query` parsed by the contract as the route
 * parses it, and the answer parsed by the response schema, which drops every field the contract does not
 * name as the route's serializer does. It fails as the route does (AppError). The headers and cookies
 * the handler sets belong to an API answer, not to the page: they go to a stand-in reply and are dropped.
 */
export async function answerOf<const E extends ReadEndpoint>(
  request: FastifyRequest,
  endpoint: E,
  query?: E["query"] extends z.ZodType ? z.input<E["query"]> : never,
): Promise<z.output<E["response"]>> {
  const run = request.server.endpointRuns.get(endpoint);
  if (!run) throw new Error(`${endpoint.method} ${endpoint.path} has no handler registered`);
  const answer = await run(request, standInReply(request), query, undefined);
  const plain: unknown = isPreserialized(answer) ? JSON.parse(answer[PRESERIALIZED]) : answer;
  return endpoint.response.parse(plain) as z.output<E["response"]>;
}

/** A reply that takes what a handler sets on it (headers, cookies, status) and keeps none of it. */
function standInReply(request: FastifyRequest): FastifyReply {
  const reply = {
    request,
    header: () => reply,
    headers: () => reply,
    type: () => reply,
    code: () => reply,
    status: () => reply,
    setCookie: () => reply,
    clearCookie: () => reply,
    serialize: (payload: unknown) => JSON.stringify(payload),
  };
  return reply as unknown as FastifyReply;
}

/** Whether a number can be an id of our integer columns (for ids that do not come through a schema). */
export const isId = (value: number) => Number.isInteger(value) && value > 0 && value <= ID_MAX;

export type { EndpointResponse };
