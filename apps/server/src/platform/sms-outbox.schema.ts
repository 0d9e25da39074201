import { pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** Text messages kept instead of sent when no SMS provider is configured (the development mailbox shows them). */
export const smsOutbox = pgTable("sms_outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  text: text("text").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
