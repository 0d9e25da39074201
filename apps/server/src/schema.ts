/**
 * Every table of the server, modules' and the platform's, for drizzle-kit's migrations. It lives at the
 * app level: the platform knows no module (decision 016).
 */
export * from "./modules/accounts/schema.ts";
export * from "./modules/blocks/schema.ts";
export * from "./modules/chat/schema.ts";
export * from "./modules/complaints/schema.ts";
export * from "./modules/credits/schema.ts";
export * from "./modules/discounts/schema.ts";
export * from "./modules/likes/schema.ts";
export * from "./modules/notifications/schema.ts";
export * from "./modules/operators/schema.ts";
export * from "./modules/payments/providers/sandbox.schema.ts";
export * from "./modules/payments/schema.ts";
export * from "./modules/photos/schema.ts";
export * from "./modules/profiles/schema.ts";
export * from "./modules/push/schema.ts";
export * from "./modules/site/schema.ts";
export * from "./modules/staff/schema.ts";
export * from "./modules/support/schema.ts";
export * from "./modules/visits/schema.ts";
export * from "./platform/jobs.schema.ts";
export * from "./platform/mail-outbox.schema.ts";
export * from "./platform/member-events.schema.ts";
export * from "./platform/sms-outbox.schema.ts";
