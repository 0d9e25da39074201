import { eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { users } from "./schema.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Ids of members others may see: not invisible, not pending deletion. A subquery for other modules. */
export function visibleUserIdsSql(db: Db) {
  return sql`${db
    .select({ id: users.id })
    .from(users)
    .where(sql`not ${users.invisible} and ${users.status} <> 'pending_deletion'`)}`;
}

export async function insertUser(db: Db, row: NewUser): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error("user insert returned nothing");
  return created;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}
