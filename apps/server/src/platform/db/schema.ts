/** Every module's tables, for Drizzle's typed queries and drizzle-kit's migrations. */
export * from "../../modules/accounts/schema.ts";
export * from "../../modules/blocks/schema.ts";
export * from "../../modules/credits/schema.ts";
export * from "../../modules/photos/schema.ts";
export * from "../../modules/profiles/schema.ts";
export * from "../../modules/site/schema.ts";
export * from "../jobs.schema.ts";
export * from "../mail-outbox.schema.ts";
export * from "../member-events.schema.ts";
