import type { User } from "@app/contract";
import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import {
  createRoutesStub,
  createStaticHandler,
  isRouteErrorResponse,
  RouterContextProvider,
  type StaticHandlerContext,
} from "react-router";
import { describe, expect, it } from "vitest";
import en from "../i18n/locales/en.json";
import pl from "../i18n/locales/pl.json";
import { servicesContext } from "../server-context";
import { ErrorPage } from "../ui/error-page";
import { fakeSsrServices } from "./fake-ssr-services";
import { pageMiddleware } from "./page-middleware";

/** The server's run of a page (what the SSR host does per request): its status, error, or redirect. */
async function serve(names: string[], loggedIn: boolean) {
  const handler = createStaticHandler([
    { id: "root", path: "/", children: [{ id: "page", path: "page", middleware: pageMiddleware(...names), loader: () => "ok" }] },
  ]);
  const context = new RouterContextProvider();
  context.set(servicesContext, fakeSsrServices({ currentUser: async () => (loggedIn ? ({ id: 7 } as User) : null) }));
  let rendered: StaticHandlerContext | null = null;
  // As the framework's server does: the middleware chain around the loaders, then the page's context.
  const response = await handler.query(new Request("http://site.test/page"), {
    requestContext: context,
    generateMiddlewareResponse: async (query) => {
      const result = await query(new Request("http://site.test/page"));
      if (result instanceof Response) return result;
      rendered = result;
      return new Response(null, { status: result.statusCode });
    },
  });
  if (!(response instanceof Response)) return response;
  return (rendered as StaticHandlerContext | null) ?? response;
}

describe("page middleware (spec §8)", () => {
  it("answers a page that names an unknown middleware with 500 'Unknown middleware' on the error page", async () => {
    const result = await serve(["member", "no-such-guard"], true);
    if (result instanceof Response) throw new Error(`expected the error page, got a ${result.status} response`);
    expect(result.statusCode).toBe(500);
    const error = Object.values(result.errors ?? {})[0];
    expect(isRouteErrorResponse(error) && error.status).toBe(500);

    for (const [locale, messages] of [
      ["en", en],
      ["pl", pl],
    ] as const) {
      const Stub = createRoutesStub([
        {
          path: "/",
          Component: () => (
            <IntlProvider locale={locale} messages={messages}>
              <ErrorPage error={error} />
            </IntlProvider>
          ),
        },
      ]);
      const { unmount } = render(<Stub />);
      expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(messages["error.unknown_middleware"]);
      expect(screen.getByText("500")).toBeVisible();
      unmount();
    }
    expect(en["error.unknown_middleware"]).toBe("Unknown middleware");
  });

  it("runs the known ones: a visitor on a members-only page goes to the login, a member gets the page", async () => {
    const visitor = await serve(["member"], false);
    expect(visitor instanceof Response && [visitor.status, visitor.headers.get("location")]).toEqual([302, "/login"]);
    const member = await serve(["member"], true);
    expect(member instanceof Response ? member.status : member.statusCode).toBe(200);
    const guest = await serve(["guest"], true);
    expect(guest instanceof Response && guest.headers.get("location")).toBe("/members");
  });
});
