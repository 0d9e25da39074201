import { parseIdParam } from "@app/contract";
import { useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { ModerationQueue } from "../../features/staff/moderation/queue";
import { PageTitle } from "../../ui/page-title";

/** /staff/moderation (moderators; admins): the review queue of photos and about texts, or one member's (?member=). */
export default function StaffModeration() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.moderation.title" });
  const [params] = useSearchParams();
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <ModerationQueue member={parseIdParam(params.get("member") ?? undefined) ?? undefined} />
    </section>
  );
}
