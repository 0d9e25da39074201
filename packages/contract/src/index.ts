export * from "./accounts.ts";
export * from "./app.ts";
export * from "./blocks.ts";
export * from "./chats.ts";
export * from "./complaints.ts";
export * from "./discounts.ts";
export * from "./endpoints.ts";
export * from "./errors.ts";
export * from "./http.ts";
export * from "./interests.ts";
export * from "./likes.ts";
export * from "./limits.ts";
export * from "./locales.ts";
export type * from "./member-context.ts";
export * from "./members.ts";
export * from "./payments.ts";
export * from "./profiles.ts";
export * from "./settings.ts";
// Not re-exported by settings.ts: settings-rules.ts uses its Settings type, and the two would form an
// import cycle (issue #26).
export * from "./settings-rules.ts";
export * from "./site.ts";
export type * from "./ssr.ts";
export * from "./staff.ts";
export * from "./staff-endpoints.ts";
export * from "./staff-support.ts";
export * from "./ws.ts";
