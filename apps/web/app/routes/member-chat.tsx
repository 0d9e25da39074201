import { parseIdParam } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { data, redirect } from "react-router";
import { chatsQuery } from "../features/chat/api";
import { ChatScreen } from "../features/chat/chat-screen";
import { Conversation, type ConversationStart } from "../features/chat/conversation";
import { ReportMessageMenu } from "../features/reports/report-dialog";
import { useMember } from "../lib/member";
import { servicesContext } from "../server-context";
import { Loading } from "../ui/load-state";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/member-chat";

/**
 * /members/{id}/chat (spec §2): the conversation with that member, or an empty one to start (the first
 * message makes it). A member who does not exist or may not be seen is a 404; one's own profile leads to
 * the list.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(servicesContext);
  const [answer, user] = await Promise.all([services.member(id), services.currentUser()]);
  if (!answer || "blocked_by" in answer) throw data(null, { status: 404 });
  if (user?.profile.id === id) throw redirect("/chats");
  const { name, fictional, main_image } = answer.profile;
  return { profile: { id, name, fictional, main_image: main_image ? { thumb_url: main_image.thumb_url } : null } };
}

/** A received message's menu: Report (issue #27). */
const reportMenu = (messageId: number, name: string) => <ReportMessageMenu messageId={messageId} name={name} />;

export default function MemberChat({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const { profile } = loaderData;
  const { user } = useMember();
  const chats = useQuery({ ...chatsQuery, enabled: user !== null });
  const existing = chats.data?.chats.find((entry) => entry.profile.id === profile.id);
  // Decided once, when the list first answers: the first message later adds the conversation to the
  // list, and the open conversation (with messages still queued) must not start over then.
  const start = useRef<ConversationStart | null>(null);
  if (!start.current && (chats.data || chats.isError)) {
    start.current = existing ? { conversationId: existing.conversation.id } : { profile };
  }
  return (
    <>
      <PageTitle title={intl.formatMessage({ id: "chat.title_with" }, { name: profile.name })} />
      <ChatScreen activeId={existing?.conversation.id ?? null}>
        {!start.current ? (
          <div className="p-3">
            <Loading>
              <FormattedMessage id="chat.loading" />
            </Loading>
          </div>
        ) : (
          <Conversation key={profile.id} start={start.current} onBack="/chats" messageMenu={reportMenu} />
        )}
      </ChatScreen>
    </>
  );
}
