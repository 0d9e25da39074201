import { jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** E-mails kept instead of sent when no SMTP server is configured (the development mailbox shows them). */
export const mailOutbox = pgTable("mail_outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  headers: jsonb("headers").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
