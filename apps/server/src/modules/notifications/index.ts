/** The notifications module's public face for other modules: the presence they may show or filter by. */
export { onlineNowCondition, type PresenceLabels } from "./presence-labels.ts";
