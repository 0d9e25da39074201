import { desc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { likes } from "./schema.ts";

export interface SupportLike {
  /** The other profile: the liked one for a sent like, the liker for a received one. */
  profileId: number;
  createdAt: Date;
  matchedAt: Date | null;
}

/** The likes module's part of support (issue #27): a member's latest likes, both ways. */
export class LikeSupport {
  constructor(private readonly db: Db) {}

  async of(profileId: number, limit: number): Promise<{ sent: SupportLike[]; received: SupportLike[] }> {
    const [sent, received] = await Promise.all([
      this.db
        .select({ profileId: likes.likedId, createdAt: likes.createdAt, matchedAt: likes.matchedAt })
        .from(likes)
        .where(eq(likes.likerId, profileId))
        .orderBy(desc(likes.createdAt))
        .limit(limit),
      this.db
        .select({ profileId: likes.likerId, createdAt: likes.createdAt, matchedAt: likes.matchedAt })
        .from(likes)
        .where(eq(likes.likedId, profileId))
        .orderBy(desc(likes.createdAt))
        .limit(limit),
    ]);
    return { sent, received };
  }
}
