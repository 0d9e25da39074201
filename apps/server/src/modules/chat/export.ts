import { type ExportFile, type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db } from "../../platform/db/index.ts";
import type { PhotoService } from "../photos/service.ts";
import { conversationsOfProfile, messagesOfProfile } from "./queries.ts";

/** PostgreSQL answers timestamps of raw statements as Date (node-postgres) or string (PGlite's text mode). */
const isoOf = (value: Date | string | null): string | null =>
  value === null ? null : typeof value === "string" ? new Date(value).toISOString() : isoOrNull(value);

/**
 * The chat's part of the data export (issue #27): the member's conversations with every message the
 * site holds of them (both sides, as the member was shown them; also those they deleted from their list
 * and those past the retention window not yet purged) and the chat photos of those conversations.
 */
export class ChatExport {
  constructor(
    private readonly db: Db,
    private readonly photos: Pick<PhotoService, "chatPhoto">,
  ) {}

  async exportFor({ profileId }: ExportSubject): Promise<ExportPart> {
    if (profileId === null) return { json: {} };
    const [conversations, messages] = await Promise.all([
      conversationsOfProfile(this.db, profileId),
      messagesOfProfile(this.db, profileId),
    ]);
    const files: ExportFile[] = [];
    const byConversation = new Map<number, unknown[]>();
    for (const message of messages) {
      let photo: string | null = null;
      if (message.photo_key) {
        const bytes = await this.photos.chatPhoto(message.photo_key);
        if (bytes) {
          photo = `chat-photos/${message.conversation_id}-${message.seq}.jpg`;
          files.push({ path: photo, bytes });
        }
      }
      const list = byConversation.get(message.conversation_id) ?? [];
      list.push({
        seq: message.seq,
        from_me: message.sender_id === profileId,
        kind: message.kind,
        text: message.text,
        gift: message.gift_id,
        gif: message.gif ? { title: message.gif.title } : null,
        photo,
        sent_at: isoOf(message.created_at),
      });
      byConversation.set(message.conversation_id, list);
    }
    return {
      json: {
        conversations: conversations.map((conversation) => ({
          id: conversation.id,
          with_profile_id: conversation.other_id,
          with_fictional_profile: conversation.fictional,
          started_at: isoOf(conversation.created_at),
          last_message_at: isoOf(conversation.updated_at),
          read_up_to: conversation.read_seq,
          deleted_from_my_list_up_to: conversation.deleted_seq,
          messages: byConversation.get(conversation.id) ?? [],
        })),
      },
      files,
    };
  }
}
