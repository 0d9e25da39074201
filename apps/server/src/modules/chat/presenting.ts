import { type ChatMessage, GIFT_IDS, type Gift, type GiftId } from "@app/contract";
import type { MessageRow } from "./queries.ts";

/** Where a chat photo is served: checked per request (GET /media/chat-photos/<message id>.jpg). */
export const CHAT_PHOTO_PATH = "/media/chat-photos/";
/** Where the gift images are served (files of this module, cached long). */
export const GIFT_IMAGE_PATH = "/media/gifts/";

export const isGiftId = (id: string): id is GiftId => (GIFT_IDS as readonly string[]).includes(id);

/** A gift as the API shows it, but for its price (the site's gift_credits). */
export function giftOf(id: GiftId): Omit<Gift, "credits"> {
  return { id, image_url: `${GIFT_IMAGE_PATH}${id}.svg` };
}

/** A message's columns, but for its sequence number (what its events carry). */
export type UnsentMessage = Omit<MessageRow, "seq">;

/** A message as `viewer` (a profile id) sees it: theirs or the other's, with its client_id only for the sender. */
export function presentMessage(row: UnsentMessage, viewer: number): ChatMessage {
  const fromMe = Number(row.sender_id) === viewer;
  const photo =
    row.kind === "photo" && row.photo_width && row.photo_height
      ? { url: `${CHAT_PHOTO_PATH}${Number(row.id)}.jpg`, width: Number(row.photo_width), height: Number(row.photo_height) }
      : null;
  const gift = row.kind === "gift" && row.gift_id && isGiftId(row.gift_id) ? giftOf(row.gift_id) : null;
  return {
    id: Number(row.id),
    conversation_id: Number(row.conversation_id),
    profile_id: Number(row.sender_id),
    from_me: fromMe,
    kind: row.kind,
    text: row.text,
    photo,
    gift,
    gif: row.kind === "gif" ? row.gif : null,
    created_at: new Date(row.created_at).toISOString(),
    client_id: fromMe ? row.client_id : null,
  };
}

/** The `chat.message` event of a message as `viewer` sees it. */
export function messageEvent(row: UnsentMessage, viewer: number) {
  return { type: "chat.message", conversation_id: Number(row.conversation_id), message: presentMessage(row, viewer) } as const;
}
