/** The profiles module's public face: its service and the SQL it lends other modules. */
export { activeProfileCondition, hiddenProfileIds } from "./queries.ts";
export { type Asker, ProfileService, type TeaserRow } from "./service.ts";
export { ProfileSupport, type SupportProfile } from "./support.ts";
