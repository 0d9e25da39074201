import { and, asc, count, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import { reports } from "./schema.ts";

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

/** Inserts a report; undefined when the reporter has an open one of this object (reports_open_once). */
export async function insertReport(db: DbOrTx, row: NewReport): Promise<ReportRow | undefined> {
  const [inserted] = await db.insert(reports).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findReport(db: DbOrTx, id: number): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
  return row;
}

/** Reports by one member since `since` (the per-member limit). */
export async function countRecentReports(db: DbOrTx, reporterId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), gt(reports.createdAt, since)));
  return row?.n ?? 0;
}

/** The reports a member filed, oldest first (their data export). */
export function reportsFiledBy(db: DbOrTx, userId: number): Promise<ReportRow[]> {
  return db.select().from(reports).where(eq(reports.reporterId, userId)).orderBy(asc(reports.id));
}
