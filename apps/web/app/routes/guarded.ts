import type { MiddlewareFunction } from "react-router";

/**
 * For route tests: a route's page middleware (lib/page-middleware.ts: the members-only or visitors-only
 * guard), then its loader, as the server runs them for a document or a client navigation's data.
 */
export const guarded =
  <A, R>(middleware: MiddlewareFunction[], loader: (args: A) => Promise<R>) =>
  async (loaderArgs: A): Promise<R> => {
    for (const run of middleware) await run(loaderArgs as never, async () => undefined as never);
    return loader(loaderArgs);
  };
