import { randomInt } from "node:crypto";
import {
  COMPLAINT_DESCRIPTION_MAX,
  COMPLAINT_DESCRIPTION_MIN,
  type ComplaintRequest,
  type ComplaintStatus,
  emailSchema,
  type LocaleCode,
} from "@app/contract";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { ProfileService } from "../profiles/service.ts";
import {
  type ComplaintRow,
  complaintsFiledBy,
  countRecent,
  findComplaint,
  insertComplaint,
  listComplaints,
  updateStatus,
} from "./queries.ts";

export type { ComplaintRow } from "./queries.ts";

/** Complaints per member (or, from visitors, per e-mail address) within an hour; the route also counts per client address. */
export const COMPLAINTS_PER_HOUR = 5;

/** Reference characters: no 0/O, 1/I/L look-alikes. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function newReference(): string {
  const part = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `C-${part()}-${part()}`;
}

/** Who complains: a member (their account's address and language) or a visitor. */
export type Complainant = { userId: number; email: string; locale: LocaleCode } | { userId: null; locale: LocaleCode };

/**
 * Complaints (issue #13): validates and stores one, and enqueues its confirmation in the same
 * transaction (a durable job: the complaint is stored whatever the mail server does, and the mail is
 * retried until it goes out). Staff list complaints and move them through open → in_progress → closed.
 */
export class ComplaintService {
  /** Sends the confirmation of a stored complaint (defined by the app in jobs.ts). */
  confirmationJob: JobRef<{ complaintId: number }> | null = null;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobRunner,
    private readonly profiles: Pick<ProfileService, "ownerOf">,
  ) {}

  /**
   * The complaints' part of the data export (issue #27): those the member filed, with what they wrote
   * and where each stands. A complaint about them is the complainant's, and stays with staff.
   */
  async exportFor({ userId }: ExportSubject): Promise<ExportPart> {
    const rows = await complaintsFiledBy(this.db, userId);
    return {
      json: {
        complaints: rows.map((row) => ({
          reference: row.reference,
          subject: row.subject,
          description: row.description,
          about_profile_id: row.profileId,
          email: row.email,
          status: row.status,
          created_at: isoOrNull(row.createdAt),
        })),
      },
    };
  }

  async create(who: Complainant, input: ComplaintRequest): Promise<ComplaintRow> {
    const fields: Record<string, string> = {};
    const description = input.description.trim();
    if (description.length < COMPLAINT_DESCRIPTION_MIN) fields.description = "description_too_short";
    else if (description.length > COMPLAINT_DESCRIPTION_MAX) fields.description = "description_too_long";
    let email: string;
    if (who.userId !== null) email = who.email;
    else {
      const given = input.email?.trim() ?? "";
      const parsed = emailSchema.safeParse(given);
      email = parsed.success ? parsed.data : "";
      if (!given) fields.email = "email_required";
      else if (!parsed.success) fields.email = "invalid_email";
    }
    const profileId = input.profile_id ?? null;
    if (profileId !== null) {
      const owner = await this.profiles.ownerOf(profileId);
      if (owner === null) fields.profile_id = "profile_not_found";
      // A complaint is about someone else (issue #25 hole 7: one about oneself was accepted).
      else if (owner === who.userId) fields.profile_id = "complaint_about_self";
    }
    if (Object.keys(fields).length) throw new AppError("validation_failed", {}, fields);

    const since = new Date(Date.now() - 60 * 60_000);
    const recent = await countRecent(this.db, who.userId !== null ? { userId: who.userId } : { email }, since);
    if (recent >= COMPLAINTS_PER_HOUR) throw new AppError("rate_limited");

    for (;;) {
      const row = await this.db.transaction(async (tx) => {
        const inserted = await insertComplaint(tx, {
          reference: newReference(),
          userId: who.userId,
          email,
          subject: input.subject,
          description,
          profileId,
          locale: who.locale,
        });
        if (inserted && this.confirmationJob) {
          await this.jobs.enqueue(this.confirmationJob, { complaintId: inserted.id }, { key: `complaint:${inserted.id}` }, tx);
        }
        return inserted;
      });
      // A taken reference (one in 31^8) draws another.
      if (row) return row;
    }
  }

  find(id: number): Promise<ComplaintRow | undefined> {
    return findComplaint(this.db, id);
  }

  /** The newest complaints first, optionally of one status (staff's queue). */
  list(filter: { status?: ComplaintStatus; limit?: number } = {}): Promise<ComplaintRow[]> {
    return listComplaints(this.db, { ...(filter.status ? { status: filter.status } : {}), limit: filter.limit ?? 100 });
  }

  /** Moves a complaint to `status`; false when there is no such complaint. */
  setStatus(id: number, status: ComplaintStatus): Promise<boolean> {
    return updateStatus(this.db, id, status);
  }
}
