import { FormattedMessage, useIntl } from "react-intl";
import { redirect } from "react-router";
import { SwipeGame } from "../features/likes/swipe-game";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/swipe-game";

/** /swipe-game (spec §2): members only; visitors go to the login. */
export async function loader({ context }: Route.LoaderArgs) {
  if (!(await context.get(servicesContext).currentUser())) throw redirect("/login");
  return null;
}

export default function SwipeGamePage() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.swipe_game" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 text-center">{title}</h1>
      <p className="text-body-secondary text-center mx-auto swipe-intro">
        <FormattedMessage id="swipe.intro" />
      </p>
      <SwipeGame />
    </section>
  );
}
