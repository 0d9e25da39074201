import { CHAT_RETENTION_DAYS } from "@app/contract";
import { sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../../platform/db/index.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import type { AfterCommit } from "../blocks/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import { deleteMessagesBefore, deletePairConversation, lockPair, pairPhotoKeys, profilePhotoKeys } from "./queries.ts";

const DAY_MS = 24 * 3_600_000;

/** The retention window (spec §8, decision 020): messages created after its cutoff are visible. */
export class RetentionWindow {
  /** The time the window goes by (tests move it). */
  clock: () => Date = () => new Date();

  cutoff(): Date {
    return new Date(this.clock().getTime() - CHAT_RETENTION_DAYS * DAY_MS);
  }
}

/**
 * What leaves the chat and when: messages past the retention window (a daily job), a blocked pair's
 * conversation (spec §6, in the block's transaction), an erased member's photo files.
 */
export class ChatRetention {
  constructor(
    private readonly db: Db,
    private readonly window: RetentionWindow,
    private readonly profiles: Pick<ProfileService, "userIdOf" | "profileIdOf">,
    private readonly photos: Pick<PhotoService, "deleteChatPhotos">,
    private readonly events: Pick<MemberEvents, "record" | "deliver">,
    /** Told of a conversation that went (the typing cache forgets its recipients). */
    private readonly onConversationDeleted: (conversationId: number) => void,
  ) {}

  /**
   * Deletes the messages past the retention window (the daily job "chat.purge-expired"), in batches so
   * that no statement holds many rows at once; answers how many went. The queries already hide them:
   * this keeps the promise of spec §8 in the database too, not only on the screen.
   */
  async purgeExpired(batch = 5_000): Promise<number> {
    const cutoff = this.window.cutoff();
    let total = 0;
    for (;;) {
      const { deleted, photoKeys } = await deleteMessagesBefore(this.db, cutoff, batch);
      await this.photos.deleteChatPhotos(photoKeys);
      total += deleted;
      if (deleted < batch) return total;
    }
  }

  /**
   * The accounts module's erase hook: the photo files of the member's conversations (sent and
   * received: the conversations go with the profile), before the rows go.
   */
  readonly onErase = async (userId: number): Promise<void> => {
    await this.photos.deleteChatPhotos(await profilePhotoKeys(this.db, this.profiles.profileIdOf(sql`${userId}::int`)));
  };

  /** The block hook (spec §6: chats are deleted): the pair's conversation goes, in the block's transaction. */
  readonly onBlock = async (tx: Tx, blocker: number, blocked: number): Promise<AfterCommit | undefined> => {
    // The pair's lock, which chat_send_v1 takes too: a send either committed before (its message goes
    // now) or waits and then finds the block.
    await lockPair(tx, blocker, blocked);
    const photoKeys = await pairPhotoKeys(tx, blocker, blocked);
    const deleted = await deletePairConversation(tx, blocker, blocked, this.window.cutoff());
    if (!deleted) return undefined;
    this.onConversationDeleted(deleted.id);
    const pending: PendingDelivery[] = [];
    for (const profileId of [blocker, blocked]) {
      if (!deleted.unread.has(profileId)) continue;
      const [row] = await rowsOf<{ user_id: number | null }>(
        tx,
        sql`select ${this.profiles.userIdOf(sql`${profileId}::int`)} as "user_id"`,
      );
      if (row?.user_id == null) continue;
      const userId = Number(row.user_id);
      pending.push(await this.events.record(tx, userId, { type: "chat.deleted", conversation_id: deleted.id }));
      if ((deleted.unread.get(profileId) ?? 0) > 0)
        pending.push(await this.events.record(tx, userId, { type: "badges.changed" }));
    }
    return async () => {
      await this.events.deliver(...pending);
      // The files after the commit: a rolled-back block must not leave messages without their photos.
      await this.photos.deleteChatPhotos(photoKeys);
    };
  };
}
