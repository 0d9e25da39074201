import type { BadgesResponse } from "@app/contract";
import type { ChatService } from "../chat/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { VisitService } from "../visits/index.ts";

/**
 * The top navigation's counts (spec §2): new likes and unread messages, and the account menu's new
 * profile visitors (issue #29). Its own small module so that each count comes from the module that
 * owns it (likes, chat, visits).
 */
export class BadgeService {
  constructor(
    private readonly likes: Pick<LikeService, "newLikes">,
    private readonly chat: Pick<ChatService, "unreadMessages">,
    private readonly visits: Pick<VisitService, "newVisitors">,
  ) {}

  async of(profileId: number): Promise<BadgesResponse> {
    const [newLikes, unread, visitors] = await Promise.all([
      this.likes.newLikes(profileId),
      this.chat.unreadMessages(profileId),
      this.visits.newVisitors(profileId),
    ]);
    return { new_likes: newLikes, unread_messages: unread, new_visitors: visitors };
  }
}
