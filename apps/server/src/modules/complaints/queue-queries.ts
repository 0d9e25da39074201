import type { ComplaintStatus } from "@app/contract";
import { and, asc, count, desc, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import type { ComplaintRow } from "./queries.ts";
import type { ReportRow } from "./report-queries.ts";
import { complaintAnswers, complaints, reports } from "./schema.ts";

export type AnswerRow = typeof complaintAnswers.$inferSelect;
/** Which items a queue view shows: the ones still to handle (open and in progress), or one status. */
export type QueueStatus = ComplaintStatus | "active";

const statusIs = (column: typeof reports.status | typeof complaints.status, status: QueueStatus): SQL =>
  status === "active" ? ne(column, "closed") : eq(column, status);

/** Reports of a status: still to handle the oldest first (a queue), closed ones the newest first. */
export function listReports(db: DbOrTx, status: QueueStatus, limit: number): Promise<ReportRow[]> {
  const order = status === "closed" ? [desc(reports.closedAt), desc(reports.id)] : [asc(reports.createdAt), asc(reports.id)];
  return db
    .select()
    .from(reports)
    .where(statusIs(reports.status, status))
    .orderBy(...order)
    .limit(limit);
}

export function listComplaintsIn(db: DbOrTx, status: QueueStatus, limit: number): Promise<ComplaintRow[]> {
  const order =
    status === "closed" ? [desc(complaints.closedAt), desc(complaints.id)] : [asc(complaints.createdAt), asc(complaints.id)];
  return db
    .select()
    .from(complaints)
    .where(statusIs(complaints.status, status))
    .orderBy(...order)
    .limit(limit);
}

/** The report, locked for the caller's transaction (two staff acting at once act one after the other). */
export async function lockReport(tx: DbOrTx, id: number): Promise<ReportRow | undefined> {
  const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for("update").limit(1);
  return row;
}

export async function lockComplaint(tx: DbOrTx, id: number): Promise<ComplaintRow | undefined> {
  const [row] = await tx.select().from(complaints).where(eq(complaints.id, id)).for("update").limit(1);
  return row;
}

export async function updateReport(tx: DbOrTx, id: number, values: Partial<ReportRow>): Promise<ReportRow> {
  const [row] = await tx.update(reports).set(values).where(eq(reports.id, id)).returning();
  if (!row) throw new Error(`report ${id} vanished under its lock`);
  return row;
}

export async function updateComplaint(tx: DbOrTx, id: number, values: Partial<ComplaintRow>): Promise<ComplaintRow> {
  const [row] = await tx.update(complaints).set(values).where(eq(complaints.id, id)).returning();
  if (!row) throw new Error(`complaint ${id} vanished under its lock`);
  return row;
}

export async function insertAnswer(tx: DbOrTx, row: { complaintId: number; staffId: number; text: string }): Promise<AnswerRow> {
  const [inserted] = await tx.insert(complaintAnswers).values(row).returning();
  if (!inserted) throw new Error("answer insert returned nothing");
  return inserted;
}

export async function findAnswer(db: DbOrTx, id: number): Promise<AnswerRow | undefined> {
  const [row] = await db.select().from(complaintAnswers).where(eq(complaintAnswers.id, id)).limit(1);
  return row;
}

export function answersOf(db: DbOrTx, complaintIds: readonly number[]): Promise<AnswerRow[]> {
  if (complaintIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(complaintAnswers)
    .where(and(inArray(complaintAnswers.complaintId, [...complaintIds])))
    .orderBy(asc(complaintAnswers.createdAt), asc(complaintAnswers.id));
}

/** How many reports and complaints are still to handle (open or in progress): the console's overview. */
export async function activeCounts(db: DbOrTx): Promise<{ reports: number; complaints: number }> {
  const [[r], [c]] = await Promise.all([
    db.select({ n: count() }).from(reports).where(statusIs(reports.status, "active")),
    db.select({ n: count() }).from(complaints).where(statusIs(complaints.status, "active")),
  ]);
  return { reports: Number(r?.n ?? 0), complaints: Number(c?.n ?? 0) };
}
