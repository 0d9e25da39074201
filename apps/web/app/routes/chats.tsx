import { parseIdParam } from "@app/contract";
import { useIntl } from "react-intl";
import { data } from "react-router";
import { ChatScreen } from "../features/chat/chat-screen";
import { Conversation } from "../features/chat/conversation";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/chats";

/**
 * /chats (the conversation list) and /chats/{id} (one conversation beside it; spec §2, chat layout).
 * The lists load in the browser (decision 013); visitors are asked to log in (spec §6).
 */
export function loader({ params }: Route.LoaderArgs) {
  if (params.id === undefined) return { id: null };
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  return { id };
}

export default function Chats({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const { id } = loaderData;
  return (
    <>
      <PageTitle title={intl.formatMessage({ id: "chat.title" })} />
      <ChatScreen activeId={id}>
        {id !== null ? <Conversation key={id} start={{ conversationId: id }} onBack="/chats" /> : null}
      </ChatScreen>
    </>
  );
}
