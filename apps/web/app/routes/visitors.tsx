import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useIntl } from "react-intl";
import { redirect } from "react-router";
import { BADGES_KEY } from "../features/likes/keys";
import { VisitorsList } from "../features/visits/visitors-list";
import { pageMiddleware } from "../lib/page-middleware";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/visitors";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/**
 * /visitors (issue #29): who opened the member's profile, rendered on the server (GET /api/visitors.php
 * asked in process); visitors (logged out) go to the login. Opening it clears the "new visitors" badge
 * (the server marks them seen as it answers): the navigation's counts reload once the page shows.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const requested = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 10_000 ? requested : 1;
  const visitors = await context.get(servicesContext).visitors(page);
  if (!visitors) throw redirect("/login");
  return { visitors };
}

export const handle: RouteHandle = { backButton: true };

export default function Visitors({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.visitors" });
  const queryClient = useQueryClient();
  const visitors = loaderData.visitors;
  useEffect(() => {
    if (visitors) void queryClient.invalidateQueries({ queryKey: BADGES_KEY });
  }, [queryClient, visitors]);
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      <VisitorsList data={visitors} />
    </section>
  );
}
