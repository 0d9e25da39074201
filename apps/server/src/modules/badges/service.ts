import type { BadgesResponse } from "@app/contract";
import type { ChatService } from "../chat/index.ts";
import type { LikeService } from "../likes/index.ts";

/**
 * The top navigation's counts (spec §2): new likes and unread messages. Its own small
 * module so that each count comes from the module that owns it (likes, chat).
 */
export class BadgeService {
  constructor(
    private readonly likes: Pick<LikeService, "newLikes">,
    private readonly chat: Pick<ChatService, "unreadMessages">,
  ) {}

  async of(profileId: number): Promise<BadgesResponse> {
    const [newLikes, unread] = await Promise.all([this.likes.newLikes(profileId), this.chat.unreadMessages(profileId)]);
    return { new_likes: newLikes, unread_messages: unread };
  }
}
