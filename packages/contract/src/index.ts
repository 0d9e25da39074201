export * from "./errors.ts";
export * from "./interests.ts";
export * from "./limits.ts";
export * from "./locales.ts";
export * from "./settings.ts";
export * from "./site.ts";
export type * from "./ssr.ts";
export * from "./ws.ts";
export * from "./accounts.ts";
