import { type MemberEventOf, nameValues } from "@app/contract";
import { useQueryClient } from "@tanstack/react-query";
import { FormattedMessage } from "react-intl";
import { Link, useLocation } from "react-router";
import { useServerEvent } from "../../lib/server-events";
import { useToast } from "../../ui/toasts";

/** The addresses that show conversation `conversationId` with the member `profileId`. */
export function showsConversation(pathname: string, conversationId: number, profileId: number): boolean {
  const path = pathname.replace(/\/+$/, "");
  return path === `/chats/${conversationId}` || path === `/members/${profileId}/chat`;
}

/**
 * Issue #28: while the member is looking, the server sends no push or e-mail for a new message; the
 * page shows a toast "New message from {name}" with a link to the conversation instead, unless that
 * conversation is on screen. The name comes from the chat list (loaded with the first toast).
 */
export function MessageToasts() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();

  const announce = async (event: MemberEventOf<"chat.message">) => {
    const { chatsQuery } = await import("./api");
    let name: string | null = null;
    try {
      const list = await queryClient.fetchQuery({ ...chatsQuery, staleTime: 5_000 });
      name = list.chats.find((entry) => entry.conversation.id === event.conversation_id)?.profile.name ?? null;
    } catch {
      // Without the list the toast names nobody.
    }
    toast({
      variant: "info",
      body: (
        <>
          {name === null ? (
            <FormattedMessage id="live.message" />
          ) : (
            <FormattedMessage id="live.message_from" values={nameValues(name)} />
          )}{" "}
          <Link to={`/chats/${event.conversation_id}`} className="link-dark fw-semibold">
            <FormattedMessage id="live.open_chat" />
          </Link>
        </>
      ),
    });
  };

  useServerEvent("chat.message", (event) => {
    if (event.message.from_me || document.visibilityState !== "visible") return;
    if (showsConversation(pathname, event.conversation_id, event.message.profile_id)) return;
    void announce(event);
  });
  return null;
}
