import { useIntl } from "react-intl";
import { redirect } from "react-router";
import { VisitorsList } from "../features/visits/visitors-list";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/visitors";

/** /visitors (issue #29): who opened the member's profile; visitors (logged out) go to the login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!(await context.get(servicesContext).currentUser())) throw redirect("/login");
  const page = Number(new URL(request.url).searchParams.get("page"));
  return { page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

export const handle: RouteHandle = { backButton: true };

export default function Visitors({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.visitors" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      <VisitorsList page={loaderData.page} />
    </section>
  );
}
