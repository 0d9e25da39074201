import { ANSWER_MAX, ANSWER_MIN, type ComplaintStatus, RESOLUTION_MAX } from "@app/contract";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import { type ComplaintRow, findComplaint } from "./queries.ts";
import {
  type AnswerRow,
  activeCounts,
  answersOf,
  insertAnswer,
  listComplaintsIn,
  listReports,
  lockComplaint,
  lockReport,
  type QueueStatus,
  updateComplaint,
  updateReport,
} from "./queue-queries.ts";
import { findReport } from "./report-queries.ts";
import type { ReportContent, ReportRow } from "./reports.ts";

export type { QueueStatus } from "./queue-queries.ts";

/** What the queue holds: members' reports (moderators) and complaints (support). */
export type QueueKind = "report" | "complaint";

/** The state of an item before and after a change, for the audit log, and the member it concerns. */
export interface QueueChange<T> {
  before: T;
  after: T;
  /** A report's reported member, a complaint's complaining member (null: a visitor, or erased). */
  memberId: number | null;
}

/** An item's handling: the fields a change moves (what the audit log records). */
export interface Handling {
  status: ComplaintStatus;
  assigned_to: number | null;
  resolution: string | null;
}
const handlingOf = (row: { status: string; assignedTo: number | null; resolution: string | null }): Handling => ({
  status: row.status as ComplaintStatus,
  assigned_to: row.assignedTo,
  resolution: row.resolution,
});

export interface QueueReport {
  kind: "report";
  row: ReportRow;
  content: ReportContent;
}
export interface QueueComplaint {
  kind: "complaint";
  row: ComplaintRow;
  answers: AnswerRow[];
}
export type QueueItem = QueueReport | QueueComplaint;

/**
 * The one staff queue of reports and complaints (issue #27): both move open → in_progress → closed;
 * a staff member assigns one to themself, answers a complaint by e-mail in the complainant's language,
 * and closes either with a resolution. Every change takes the caller's transaction (staff's `audited`
 * one) and locks its row, and returns the handling before and after for the audit log.
 */
export class ModerationQueue {
  /** Sends one staff answer to its complainant (defined by the app in jobs.ts). */
  answerJob: JobRef<{ answerId: number }> | null = null;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobRunner,
  ) {}

  /** The items of `kinds` in `status`, reports and complaints interleaved by age (still to handle: oldest first). */
  async list(filter: { kinds: readonly QueueKind[]; status: QueueStatus; limit?: number }): Promise<QueueItem[]> {
    const limit = filter.limit ?? 200;
    const [reportRows, complaintRows] = await Promise.all([
      filter.kinds.includes("report") ? listReports(this.db, filter.status, limit) : [],
      filter.kinds.includes("complaint") ? listComplaintsIn(this.db, filter.status, limit) : [],
    ]);
    const answers = await answersOf(
      this.db,
      complaintRows.map((c) => c.id),
    );
    const items: QueueItem[] = [
      ...reportRows.map((row): QueueItem => ({ kind: "report", row, content: row.content as ReportContent })),
      ...complaintRows.map(
        (row): QueueItem => ({ kind: "complaint", row, answers: answers.filter((a) => a.complaintId === row.id) }),
      ),
    ];
    const newestFirst = filter.status === "closed";
    const when = (item: QueueItem) => (newestFirst ? (item.row.closedAt ?? item.row.createdAt) : item.row.createdAt).getTime();
    items.sort((a, b) => (newestFirst ? when(b) - when(a) : when(a) - when(b)));
    return items.slice(0, limit);
  }

  /** Reports and complaints still to handle (the console's overview). */
  activeCounts(): Promise<{ reports: number; complaints: number }> {
    return activeCounts(this.db);
  }

  /** One item as the queue shows it (after a change), or null. */
  async item(kind: QueueKind, id: number): Promise<QueueItem | null> {
    if (kind === "report") {
      const row = await findReport(this.db, id);
      return row ? { kind, row, content: row.content as ReportContent } : null;
    }
    const row = await findComplaint(this.db, id);
    return row ? { kind, row, answers: await answersOf(this.db, [id]) } : null;
  }

  /** Assigns an item to `staffId` (taking it over from whoever had it); an open one moves to in_progress. */
  async assign(tx: Tx, kind: QueueKind, id: number, staffId: number): Promise<QueueChange<Handling>> {
    const row = await this.lock(tx, kind, id);
    const values = { assignedTo: staffId, status: "in_progress" as const };
    const after = kind === "report" ? await updateReport(tx, id, values) : await updateComplaint(tx, id, values);
    return { before: handlingOf(row), after: handlingOf(after), memberId: row.userId };
  }

  /** Closes an item with staff's resolution; it keeps its assignee, or gets `staffId` when it had none. */
  async close(tx: Tx, kind: QueueKind, id: number, staffId: number, resolution: string): Promise<QueueChange<Handling>> {
    const row = await this.lock(tx, kind, id);
    const values = {
      status: "closed" as const,
      resolution: resolution.trim().slice(0, RESOLUTION_MAX),
      closedAt: new Date(),
      assignedTo: row.assignedTo ?? staffId,
    };
    const after = kind === "report" ? await updateReport(tx, id, values) : await updateComplaint(tx, id, values);
    return { before: handlingOf(row), after: handlingOf(after), memberId: row.userId };
  }

  /** A report still to handle (for a ban from it: the member it names), locked in `tx`. */
  async openReport(tx: Tx, id: number): Promise<ReportRow> {
    return (await this.lock(tx, "report", id)) as ReportRow;
  }

  /**
   * Answers a complaint: the answer is stored and its e-mail enqueued in `tx` (sent in the complainant's
   * language once the transaction commits, retried while the mail server is away); an open complaint
   * moves to in_progress, assigned to `staffId` when it had nobody.
   */
  async answer(
    tx: Tx,
    complaintId: number,
    staffId: number,
    input: { text: string },
  ): Promise<{ answer: AnswerRow } & QueueChange<Handling>> {
    const text = input.text.trim();
    if (text.length < ANSWER_MIN) throw new AppError("answer_too_short", {}, { text: "answer_too_short" });
    if (text.length > ANSWER_MAX) throw new AppError("answer_too_long", {}, { text: "answer_too_long" });
    const row = (await this.lock(tx, "complaint", complaintId)) as ComplaintRow;
    const answer = await insertAnswer(tx, { complaintId, staffId, text });
    if (this.answerJob)
      await this.jobs.enqueue(this.answerJob, { answerId: answer.id }, { key: `complaint-answer:${answer.id}` }, tx);
    const after = await updateComplaint(tx, complaintId, { status: "in_progress", assignedTo: row.assignedTo ?? staffId });
    return { answer, before: handlingOf(row), after: handlingOf(after), memberId: row.userId };
  }

  /** The row of an item still to handle, locked; not_found, or report_closed / complaint_closed. */
  private async lock(tx: Tx, kind: QueueKind, id: number): Promise<ReportRow | ComplaintRow> {
    const row = kind === "report" ? await lockReport(tx, id) : await lockComplaint(tx, id);
    if (!row) throw new AppError("not_found");
    if (row.status === "closed") throw new AppError(kind === "report" ? "report_closed" : "complaint_closed");
    return row;
  }
}
