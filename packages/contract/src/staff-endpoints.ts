import type { StaffEndpoint } from "./staff.ts";
import { STAFF_AUTH_ENDPOINTS } from "./staff.ts";
import { STAFF_SUPPORT_ENDPOINTS } from "./staff-support.ts";

/**
 * Every call of the staff API, for the role sweep (each endpoint with each role, a member session and
 * none) and for the console's client. Each area of the console adds its table here.
 */
export const ALL_STAFF_ENDPOINTS: Record<string, StaffEndpoint> = {
  ...STAFF_AUTH_ENDPOINTS,
  ...STAFF_SUPPORT_ENDPOINTS,
};
