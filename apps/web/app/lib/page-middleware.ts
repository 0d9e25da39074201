import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { servicesContext } from "../server-context";
import { requireMember } from "./require-member";

type PageMiddleware = (args: { context: Readonly<RouterContextProvider> }) => Promise<void>;

/**
 * The page middleware a route may name (spec §8: "unknown middleware gives 500 'Unknown middleware'"):
 * the guards that run on the server before a page's loaders, for the document and for the data of a
 * client-side navigation alike. A name is a string, as the spec's pages name theirs.
 */
const PAGE_MIDDLEWARE: Record<string, PageMiddleware> = {
  /** Members only: a visitor is sent to the login (spec §2 redirects). */
  member: async ({ context }) => requireMember(context),
  /** Visitors only: a member is sent to the members' search, the post-login home (spec §2). */
  guest: async ({ context }) => {
    if (await context.get(servicesContext).currentUser()) throw redirect("/members");
  },
};

/** The error a page answers when it names a middleware there is none of: 500, shown as "Unknown middleware". */
export const UNKNOWN_MIDDLEWARE = "unknown_middleware";

/**
 * A route's `middleware` export from the names of its guards, in order: `export const middleware =
 * pageMiddleware("member")`. A name not in the registry answers the page with 500 "Unknown middleware"
 * (the error page shows the status and the message) rather than serving the page unguarded.
 */
export function pageMiddleware(...names: string[]): MiddlewareFunction[] {
  return names.map((name) => {
    const run = PAGE_MIDDLEWARE[name];
    return async ({ context }) => {
      if (!run) throw data({ error: UNKNOWN_MIDDLEWARE, middleware: name }, { status: 500 });
      await run({ context });
    };
  });
}
