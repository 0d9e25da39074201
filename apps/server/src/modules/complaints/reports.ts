import { REPORT_TEXT_MAX, type ReportRequest } from "@app/contract";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { ReportedMessage } from "../chat/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import { countRecentReports, insertReport, type ReportRow } from "./report-queries.ts";

export type { ReportRow } from "./report-queries.ts";

/** Reports per member within an hour; the route also limits per client address. */
export const REPORTS_PER_HOUR = 10;

/** What a report keeps of a reported profile, as it stood then. */
export interface ReportedProfileContent {
  type: "profile";
  name: string;
  about: string;
  /** The main photo's full-size URL, null without one. */
  main_photo_url: string | null;
}
/** What a report keeps of a reported message. */
export interface ReportedMessageContent {
  type: "message";
  sender_name: string;
  kind: ReportedMessage["kind"];
  text: string;
  gift_id: string | null;
  gif_url: string | null;
  /** The chat photo's storage key (staff open it through the console). */
  photo_key: string | null;
  sent_at: string;
}
export type ReportContent = ReportedProfileContent | ReportedMessageContent;

export interface ReportDeps {
  profiles: Pick<ProfileService, "ownerOf" | "namesOf" | "detailsOf">;
  photos: Pick<PhotoService, "mainImages" | "urlOf">;
  /** Whether the reporter may see the profile (a block by its member hides it). */
  visibility: { canSee(viewerProfileId: number | null, profileId: number): Promise<boolean> };
  /** A message the reporter received and still sees (the chat module's). */
  received(me: number, messageId: number): Promise<ReportedMessage | null>;
}

/**
 * Members' reports of a profile or a message (issue #27), kept by the complaints module with what was
 * reported as it stood at that moment, for the one queue of reports and complaints. One open report per
 * reporter and object; staff move them open → in_progress → closed like complaints.
 */
export class ReportService {
  constructor(
    private readonly db: Db,
    private readonly deps: ReportDeps,
  ) {}

  async create(reporter: { userId: number; profileId: number }, input: ReportRequest): Promise<ReportRow> {
    const text = (input.text ?? "").trim();
    if (text.length > REPORT_TEXT_MAX) throw new AppError("report_text_too_long", {}, { text: "report_text_too_long" });
    const since = new Date(Date.now() - 60 * 60_000);
    if ((await countRecentReports(this.db, reporter.userId, since)) >= REPORTS_PER_HOUR) throw new AppError("rate_limited");

    const object =
      input.message_id !== undefined
        ? await this.message(reporter, input.message_id)
        : await this.profile(reporter, input.profile_id);
    const row = await insertReport(this.db, {
      reporterId: reporter.userId,
      objectType: object.content.type,
      objectId: object.id,
      profileId: object.profileId,
      userId: object.userId,
      reason: input.reason,
      text,
      content: object.content,
    });
    if (!row) throw new AppError("report_duplicate");
    return row;
  }

  private async profile(reporter: { profileId: number }, profileId: number | undefined) {
    if (profileId === undefined) throw new AppError("validation_failed", {}, { profile_id: "profile_not_found" });
    if (profileId === reporter.profileId) throw new AppError("report_about_self", {}, { profile_id: "report_about_self" });
    const userId = await this.deps.profiles.ownerOf(profileId);
    if (userId === null || !(await this.deps.visibility.canSee(reporter.profileId, profileId))) {
      throw new AppError("profile_not_found", {}, { profile_id: "profile_not_found" });
    }
    const [names, details, images] = await Promise.all([
      this.deps.profiles.namesOf([profileId]),
      this.deps.profiles.detailsOf([profileId]),
      this.deps.photos.mainImages([profileId]),
    ]);
    const main = images.get(profileId);
    const content: ReportedProfileContent = {
      type: "profile",
      name: names.get(profileId) ?? "",
      about: details.get(profileId)?.about ?? "",
      main_photo_url: main ? this.deps.photos.urlOf(main.filename) : null,
    };
    return { id: profileId, profileId, userId, content };
  }

  private async message(reporter: { profileId: number }, messageId: number) {
    const message = await this.deps.received(reporter.profileId, messageId);
    if (!message) throw new AppError("message_not_found", {}, { message_id: "message_not_found" });
    const sender = message.senderProfileId;
    const [userId, names] = await Promise.all([this.deps.profiles.ownerOf(sender), this.deps.profiles.namesOf([sender])]);
    const content: ReportedMessageContent = {
      type: "message",
      sender_name: names.get(sender) ?? "",
      kind: message.kind,
      text: message.text,
      gift_id: message.giftId,
      gif_url: message.gifUrl,
      photo_key: message.photoKey,
      sent_at: message.createdAt,
    };
    return { id: messageId, profileId: sender, userId, content };
  }
}
