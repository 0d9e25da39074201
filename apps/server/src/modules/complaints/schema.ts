import { COMPLAINT_STATUSES, COMPLAINT_SUBJECTS } from "@app/contract";
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { inList } from "../../platform/db/check.ts";
import { users } from "../accounts/schema.ts";
import { profiles } from "../profiles/schema.ts";

/**
 * A complaint (issue #13) from a member or a visitor, for staff to handle. It outlives the accounts it
 * names: the complainant's and the concerned member's ids become null when they are erased, the text
 * and the address the confirmation went to stay.
 */
export const complaints = pgTable(
  "complaints",
  {
    id: serial("id").primaryKey(),
    /** What the complainant is told to quote (C-XXXX-XXXX, contract complaints.ts). */
    reference: text("reference").notNull(),
    /** The complaining member; null for a visitor (or once the account is erased). */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Where the confirmation went: the member's account address, or the one a visitor gave. */
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    /** The member concerned, if any. */
    profileId: integer("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    /** The complainant's language: the confirmation's, and staff's answer's. */
    locale: text("locale").notNull(),
    status: text("status").notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("complaints_reference_key").on(t.reference),
    index("complaints_status_created_idx").on(t.status, t.createdAt),
    index("complaints_user_created_idx").on(t.userId, t.createdAt),
    index("complaints_email_created_idx").on(t.email, t.createdAt),
    check("complaints_subject_check", sql`${t.subject} in (${inList(COMPLAINT_SUBJECTS)})`),
    check("complaints_status_check", sql`${t.status} in (${inList(COMPLAINT_STATUSES)})`),
  ],
);
