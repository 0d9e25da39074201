import { FormattedMessage, useIntl } from "react-intl";
import { SwipeGame } from "../features/likes/swipe-game";
import { pageMiddleware } from "../lib/page-middleware";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/swipe-game";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/**
 * /swipe-game (spec §2): members only; visitors go to the login. The first candidates come with the
 * page (issue #29: a spinner after the page had loaded), unless the day's limit is reached: that
 * message names the reset time in the browser's own time zone, which the server does not know.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const game = await services.swipeCandidates();
  return { game: game && game.status.limit === null ? game : null };
}

export default function SwipeGamePage({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.swipe_game" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 text-center">{title}</h1>
      <p className="text-body-secondary text-center mx-auto swipe-intro">
        <FormattedMessage id="swipe.intro" />
      </p>
      <SwipeGame initial={loaderData.game} />
    </section>
  );
}
