import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { companies, sites } from "./schema.ts";

export type SiteRow = typeof sites.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
export type NewSite = typeof sites.$inferInsert;
export type NewCompany = typeof companies.$inferInsert;

/** Every site with its company (a handful of rows: one per brand domain). */
export async function allSites(db: Db): Promise<{ site: SiteRow; company: CompanyRow }[]> {
  return db.select({ site: sites, company: companies }).from(sites).innerJoin(companies, eq(companies.id, sites.companyId));
}

export async function countSites(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sites);
  return row?.n ?? 0;
}

export async function insertSiteWithCompany(db: Db, company: NewCompany, site: Omit<NewSite, "companyId">): Promise<SiteRow> {
  return db.transaction(async (tx) => {
    const [createdCompany] = await tx.insert(companies).values(company).returning();
    if (!createdCompany) throw new Error("company insert returned nothing");
    const [created] = await tx
      .insert(sites)
      .values({ ...site, companyId: createdCompany.id })
      .returning();
    if (!created) throw new Error("site insert returned nothing");
    return created;
  });
}

/** One site, locked for the rest of the transaction (an edit from the staff console reads then writes it). */
export async function lockSite(tx: DbOrTx, id: number): Promise<SiteRow | undefined> {
  const [row] = await tx.select().from(sites).where(eq(sites.id, id)).for("update").limit(1);
  return row;
}

export async function updateSite(tx: DbOrTx, id: number, values: Partial<NewSite>): Promise<void> {
  await tx.update(sites).set(values).where(eq(sites.id, id));
}

/** Every site, the default first (the staff console's settings page). */
export function sitesInOrder(db: DbOrTx): Promise<SiteRow[]> {
  return db.select().from(sites).orderBy(desc(sites.isDefault), asc(sites.id));
}
