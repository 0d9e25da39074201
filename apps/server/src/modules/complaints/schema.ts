import { COMPLAINT_STATUSES, COMPLAINT_SUBJECTS, REPORT_OBJECT_TYPES, REPORT_REASONS } from "@app/contract";
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** The staff account handling it (the staff module's id; no foreign key across modules). */
    assignedTo: integer("assigned_to"),
    /** How it was closed, in staff's words (issue #27). */
    resolution: text("resolution"),
    closedAt: timestamp("closed_at", { withTimezone: true }),
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

/**
 * Staff's answers to a complaint (issue #27), e-mailed to the complainant in their language through
 * a durable job; `staff_id` is the staff module's account.
 */
export const complaintAnswers = pgTable(
  "complaint_answers",
  {
    id: serial("id").primaryKey(),
    complaintId: integer("complaint_id")
      .notNull()
      .references(() => complaints.id, { onDelete: "cascade" }),
    staffId: integer("staff_id").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("complaint_answers_complaint").on(t.complaintId, t.createdAt)],
);

/**
 * A member's report of a profile or a message (issue #27), with what was reported as it stood then
 * (`content`: the message's text and photo, or the profile's about text and main photo), so that staff
 * judge what the reporter saw even after it changed or went. `profile_id` is the member reported (the
 * message's sender); `object_id` the profile's or the message's id. One open report per reporter and
 * object (the partial unique index). Statuses as complaints': open → in_progress → closed.
 */
export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    reporterId: integer("reporter_id").references(() => users.id, { onDelete: "set null" }),
    objectType: text("object_type").notNull(),
    objectId: integer("object_id").notNull(),
    profileId: integer("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    /** The reported member's account, kept to ban them (a profile may go first). */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    text: text("text").notNull().default(""),
    content: jsonb("content").notNull(),
    status: text("status").notNull().default("open"),
    assignedTo: integer("assigned_to"),
    resolution: text("resolution"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("reports_open_once").on(t.reporterId, t.objectType, t.objectId).where(sql`${t.status} <> 'closed'`),
    index("reports_status_created_idx").on(t.status, t.createdAt),
    index("reports_reporter_created_idx").on(t.reporterId, t.createdAt),
    check("reports_object_type_check", sql`${t.objectType} in (${inList(REPORT_OBJECT_TYPES)})`),
    check("reports_reason_check", sql`${t.reason} in (${inList(REPORT_REASONS)})`),
    check("reports_status_check", sql`${t.status} in (${inList(COMPLAINT_STATUSES)})`),
  ],
);
