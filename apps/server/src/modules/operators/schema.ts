import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { conversations } from "../chat/schema.ts";
import { profiles } from "../profiles/schema.ts";

/**
 * Who works on a conversation with a fictional profile (issue #27): one row per conversation, so two
 * operators claiming at once cannot both hold it (the primary key; OperatorService.claim takes an
 * expired lease over in the same statement). The lease ends at `expires_at` unless renewed.
 */
export const operatorClaims = pgTable("operator_claims", {
  conversationId: integer("conversation_id")
    .primaryKey()
    .references(() => conversations.id, { onDelete: "cascade" }),
  /** The staff account holding it (the staff module's id). */
  staffId: integer("staff_id").notNull(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** What operators keep about a member, per fictional profile (the pair), so that the persona stays consistent. */
export const operatorNotes = pgTable(
  "operator_notes",
  {
    personaId: integer("persona_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    memberId: integer("member_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** The staff account that wrote it last. */
    staffId: integer("staff_id").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.personaId, t.memberId] })],
);

/**
 * Each answer an operator sent as a fictional profile, with how long the member had waited for it
 * (null when the conversation was not waiting): the figures' source (time to first answer per operator
 * and per hour). Kept when the conversation goes: the figures are about the operators' work.
 */
export const operatorAnswers = pgTable(
  "operator_answers",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id").notNull(),
    messageId: integer("message_id").notNull(),
    personaId: integer("persona_id").notNull(),
    staffId: integer("staff_id").notNull(),
    /** The member's first unanswered message's time (conversations.waiting_since before the answer). */
    waitedSince: timestamp("waited_since", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_answers_first").on(t.answeredAt).where(sql`${t.waitedSince} is not null`)],
);
