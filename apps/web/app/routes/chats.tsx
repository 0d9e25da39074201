import { parseIdParam } from "@app/contract";
import { useIntl } from "react-intl";
import { data } from "react-router";
import { ChatScreen } from "../features/chat/chat-screen";
import { Conversation } from "../features/chat/conversation";
import { TimeBonusBanner } from "../features/discounts/time-bonus-banner";
import { TimeBonusModal } from "../features/discounts/time-bonus-modal";
import { ReportMessageMenu } from "../features/reports/report-dialog";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/chats";

/**
 * /chats (the conversation list) and /chats/{id} (one conversation beside it; spec §2, chat layout).
 * The lists load in the browser (decision 013); visitors are asked to log in (spec §6). /chats is in
 * the members area (spec §2): the time-bonus banner sits above the screen, which then fills the rest
 * of the viewport, and the time-bonus popup may open.
 */
export function loader({ params }: Route.LoaderArgs) {
  if (params.id === undefined) return { id: null };
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  return { id };
}

/** A received message's menu: Report (issue #27). */
const reportMenu = (messageId: number, name: string) => <ReportMessageMenu messageId={messageId} name={name} />;

export default function Chats({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const { id } = loaderData;
  return (
    <div className="chat-page">
      <PageTitle title={intl.formatMessage({ id: "chat.title" })} />
      <TimeBonusBanner className="rounded-0 border-0 border-bottom mb-0 justify-content-center" />
      <ChatScreen activeId={id}>
        {id !== null ? <Conversation key={id} start={{ conversationId: id }} onBack="/chats" messageMenu={reportMenu} /> : null}
      </ChatScreen>
      <TimeBonusModal />
    </div>
  );
}
