import type { BadgesResponse } from "@app/contract";
import type { LikeService } from "../likes/index.ts";

/**
 * The top navigation's counts (spec §2): new likes, and unread messages once chat exists. Its own small
 * module so that each count comes from the module that owns it: chat adds its unread count here.
 */
export class BadgeService {
  constructor(private readonly likes: Pick<LikeService, "newLikes">) {}

  async of(profileId: number): Promise<BadgesResponse> {
    // Unread messages: 0 until the chat module lands (its own issue) and lends its count here.
    return { new_likes: await this.likes.newLikes(profileId), unread_messages: 0 };
  }
}
