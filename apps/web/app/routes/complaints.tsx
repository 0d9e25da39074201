import { parseIdParam } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { ComplaintForm } from "../features/complaints/complaint-form";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/complaints";

/** /complaints[?profile={id}] (issue #13): the complaint form, for members and visitors. */
export async function loader({ request }: Route.LoaderArgs) {
  return { profileId: parseIdParam(new URL(request.url).searchParams.get("profile") ?? undefined) };
}

export default function Complaints({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "complaints.title" });
  return (
    <section className="container py-5" style={{ maxWidth: 720 }}>
      <PageTitle title={title} />
      <h1 className="h2">{title}</h1>
      <p className="lead">
        <FormattedMessage id="complaints.intro" />
      </p>
      <ComplaintForm key={loaderData.profileId} profileId={loaderData.profileId} />
    </section>
  );
}
