import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * A staff member's recorded reason to read one member's conversations (issue #27: conversations only
 * with a recorded reason). The reason is also in the audit log; this row opens the conversations to
 * that staff member until it expires. The staff account is the staff module's (no foreign key across).
 */
export const supportConversationAccess = pgTable(
  "support_conversation_access",
  {
    id: serial("id").primaryKey(),
    staffId: integer("staff_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("support_conversation_access_lookup").on(t.staffId, t.userId, t.expiresAt)],
);
