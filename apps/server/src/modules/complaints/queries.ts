import type { ComplaintStatus } from "@app/contract";
import { and, asc, count, desc, eq, gt, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import { complaints } from "./schema.ts";

export type ComplaintRow = typeof complaints.$inferSelect;
export type NewComplaint = typeof complaints.$inferInsert;

export async function insertComplaint(db: DbOrTx, row: NewComplaint): Promise<ComplaintRow | undefined> {
  const [inserted] = await db.insert(complaints).values(row).onConflictDoNothing({ target: complaints.reference }).returning();
  return inserted;
}

export async function findComplaint(db: DbOrTx, id: number): Promise<ComplaintRow | undefined> {
  const [row] = await db.select().from(complaints).where(eq(complaints.id, id)).limit(1);
  return row;
}

/** Complaints since `since` by one member (userId) or, for visitors, to one address. */
export async function countRecent(db: DbOrTx, by: { userId: number } | { email: string }, since: Date): Promise<number> {
  const who = "userId" in by ? eq(complaints.userId, by.userId) : eq(complaints.email, by.email);
  const [row] = await db
    .select({ n: count() })
    .from(complaints)
    .where(and(who, gt(complaints.createdAt, since)));
  return row?.n ?? 0;
}

export function listComplaints(db: DbOrTx, filter: { status?: ComplaintStatus; limit: number }): Promise<ComplaintRow[]> {
  const where: SQL | undefined = filter.status ? eq(complaints.status, filter.status) : undefined;
  return db.select().from(complaints).where(where).orderBy(desc(complaints.createdAt), desc(complaints.id)).limit(filter.limit);
}

export async function updateStatus(db: DbOrTx, id: number, status: ComplaintStatus): Promise<boolean> {
  const updated = await db.update(complaints).set({ status }).where(eq(complaints.id, id)).returning({ id: complaints.id });
  return updated.length > 0;
}

/** The complaints a member filed, oldest first (the data export, issue #27). */
export function complaintsFiledBy(db: DbOrTx, userId: number): Promise<ComplaintRow[]> {
  return db.select().from(complaints).where(eq(complaints.userId, userId)).orderBy(asc(complaints.id));
}
