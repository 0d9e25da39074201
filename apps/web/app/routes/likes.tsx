import { likeTypeSchema } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { data, Link } from "react-router";
import { LikesOverview } from "../features/likes/likes-overview";
import { useBadgeCounts } from "../lib/badges";
import { pageMiddleware } from "../lib/page-middleware";
import type { RouteHandle } from "../lib/route-handle";
import { CountBadge } from "../ui/count-badge";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/likes";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/**
 * /likes and /likes/{type} (spec §2; /likes is the received tab): the likes overview of the members
 * area. An unknown type is a 404; visitors go to the login.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const type = likeTypeSchema.safeParse(params.type ?? "received");
  if (!type.success) throw data(null, { status: 404 });
  const page = Number(new URL(request.url).searchParams.get("page"));
  return { type: type.data, page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

/** Spec §2: the back button shows on likes-type (/likes itself re-exports this module without it). */
export const handle: RouteHandle = { backButton: true };

export default function Likes({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.likes" });
  const { newVisitors } = useBadgeCounts();
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h2 mb-0">{title}</h1>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/visitors" className="btn btn-outline-primary">
            <FormattedMessage id="nav.visitors" />
            <CountBadge count={newVisitors} label={intl.formatMessage({ id: "nav.visitors_badge" }, { count: newVisitors })} />
          </Link>
          <Link to="/swipe-game" className="btn btn-outline-primary">
            <FormattedMessage id="likes.swipe_cta" />
          </Link>
        </div>
      </div>
      <LikesOverview type={loaderData.type} page={loaderData.page} />
    </section>
  );
}
