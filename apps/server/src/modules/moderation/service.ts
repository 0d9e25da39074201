import type { ModerationReason } from "@app/contract";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { PhotoRow, PhotoService } from "../photos/service.ts";
import type { AboutInReview, ProfileService } from "../profiles/service.ts";
import type { AuditEntry } from "../staff/service.ts";
import type { ReviewedKind } from "./email.ts";

/** One thing waiting for review: a photo, or a profile's about text, with its member. */
export type QueueItem =
  | {
      kind: "photo";
      id: number;
      member: QueueMember;
      submittedAt: Date;
      /** Others see it meanwhile (the site reviews after). */
      live: boolean;
      isMain: boolean;
      private: boolean;
    }
  | {
      kind: "about";
      /** The profile's id. */
      id: number;
      member: QueueMember;
      submittedAt: Date;
      live: boolean;
      text: string;
      /** The last approved text: what a rejection reverts to. */
      approvedText: string;
    };

export interface QueueMember {
  userId: number;
  profileId: number;
  name: string;
}

/** An item a moderator decides on; `submittedAt` names the version of an about text they saw. */
export interface ItemRef {
  kind: ReviewedKind;
  id: number;
  submittedAt: Date;
}

export type Decision = { approve: true } | { approve: false; reason: ModerationReason };

/** The rejection notice to send a member (the job's payload). */
export interface RejectionNotice {
  userId: number;
  kind: ReviewedKind;
  reason: ModerationReason;
}

/**
 * Runs a change and its audit row in one transaction (StaffService.audited, bound to the acting staff
 * member): the decisions never change anything unrecorded.
 */
export type AuditedChange = <T>(entry: (result: T) => AuditEntry, change: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * The review of photos and about texts (issue #27): one queue of both, oldest first, and a moderator's
 * decisions. The photos and profiles modules own the rows and their rules; this module orders the queue,
 * records every decision in the staff audit log (in the decision's transaction) and sends the member the
 * reason of a rejection, by e-mail in their language.
 */
export class ModerationService {
  /** The rejection notice's job (jobs.ts defines it); enqueued in the decision's transaction. */
  rejectionJob: JobRef<RejectionNotice> | null = null;

  constructor(
    private readonly deps: {
      photos: Pick<PhotoService, "inReview" | "countInReview" | "decide" | "find">;
      profiles: Pick<ProfileService, "aboutInReview" | "countAboutInReview" | "decideAbout" | "membersOf" | "profileIdOfMember">;
      jobs: Pick<JobRunner, "enqueue">;
    },
  ) {}

  /** How many photos and about texts wait for review. */
  async waiting(): Promise<{ photos: number; about: number }> {
    const [photos, about] = await Promise.all([this.deps.photos.countInReview(), this.deps.profiles.countAboutInReview()]);
    return { photos, about };
  }

  /**
   * The oldest `limit` items waiting for review (photos and about texts together), oldest first; of one
   * member (user id) when asked.
   */
  async queue(limit: number, options: { userId?: number | undefined } = {}): Promise<QueueItem[]> {
    let profileId: number | undefined;
    if (options.userId !== undefined) {
      const found = await this.deps.profiles.profileIdOfMember(options.userId);
      if (found === null) return [];
      profileId = found;
    }
    const [photos, texts] = await Promise.all([
      this.deps.photos.inReview(limit, { profileId }),
      this.deps.profiles.aboutInReview(limit, { profileId }),
    ]);
    const members = await this.deps.profiles.membersOf([...new Set(photos.map((p) => p.profileId))]);
    const items: QueueItem[] = [];
    for (const photo of photos) {
      const member = members.get(photo.profileId);
      if (!member) continue;
      items.push({
        kind: "photo",
        id: photo.id,
        member: { ...member, profileId: photo.profileId },
        submittedAt: photo.createdAt,
        live: photo.status === "active",
        isMain: photo.isMain,
        private: photo.private,
      });
    }
    for (const text of texts) {
      items.push({
        kind: "about",
        id: text.profileId,
        member: { userId: text.userId, profileId: text.profileId, name: text.name },
        submittedAt: text.submittedAt,
        live: text.live,
        text: text.text,
        approvedText: text.approved,
      });
    }
    return items
      .sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || a.kind.localeCompare(b.kind) || a.id - b.id)
      .slice(0, limit);
  }

  /**
   * Decides on each item, each in its own audited transaction (one audit row per decision, shown in the
   * member's log). Items that no longer wait (decided by someone else, deleted, or an about text the
   * member changed since) are left out and listed as stale.
   */
  async decide(
    audited: AuditedChange,
    items: readonly ItemRef[],
    decision: Decision,
  ): Promise<{ decided: ItemRef[]; stale: ItemRef[] }> {
    const decided: ItemRef[] = [];
    const stale: ItemRef[] = [];
    for (const item of items) {
      try {
        await (item.kind === "photo" ? this.decidePhoto(audited, item.id, decision) : this.decideAbout(audited, item, decision));
        decided.push(item);
      } catch (err) {
        if (!(err instanceof AppError && err.code === "moderation_decided")) throw err;
        stale.push(item);
      }
    }
    return { decided, stale };
  }

  private async decidePhoto(audited: AuditedChange, photoId: number, decision: Decision): Promise<void> {
    const photo = await this.deps.photos.find(photoId);
    const member = photo ? (await this.deps.profiles.membersOf([photo.profileId])).get(photo.profileId) : undefined;
    if (!photo || !member) throw new AppError("moderation_decided");
    await audited<PhotoRow>(
      (decided) => ({
        action: decision.approve ? "photo.approve" : "photo.reject",
        objectType: "photo",
        objectId: photoId,
        memberId: member.userId,
        before: { status: photo.status, is_main: photo.isMain },
        after: { status: decided.status, is_main: decided.isMain, reason: decided.rejectionReason },
      }),
      async (tx) => {
        const decided = await this.deps.photos.decide(tx, photoId, decision);
        if (!decided) throw new AppError("moderation_decided");
        if (!decision.approve) await this.notify(tx, { userId: member.userId, kind: "photo", reason: decision.reason });
        return decided;
      },
    );
  }

  private async decideAbout(audited: AuditedChange, item: ItemRef, decision: Decision): Promise<void> {
    const member = (await this.deps.profiles.membersOf([item.id])).get(item.id);
    if (!member) throw new AppError("moderation_decided");
    await audited<AboutInReview>(
      (text) => ({
        action: decision.approve ? "about.approve" : "about.reject",
        objectType: "profile",
        objectId: item.id,
        memberId: member.userId,
        before: { about: text.text, approved: text.approved },
        after: decision.approve ? { about: text.text } : { about: text.approved, reason: decision.reason },
      }),
      async (tx) => {
        const text = await this.deps.profiles.decideAbout(tx, item.id, item.submittedAt, decision);
        if (!text) throw new AppError("moderation_decided");
        if (!decision.approve) await this.notify(tx, { userId: member.userId, kind: "about", reason: decision.reason });
        return text;
      },
    );
  }

  private async notify(tx: Tx, notice: RejectionNotice): Promise<void> {
    if (this.rejectionJob) await this.deps.jobs.enqueue(this.rejectionJob, notice, {}, tx);
  }
}
