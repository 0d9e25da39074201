import type { StaffEndpoint } from "./staff.ts";
import { STAFF_AUTH_ENDPOINTS } from "./staff.ts";
import { STAFF_DATA_REQUESTS_ENDPOINTS } from "./staff-data-requests.ts";
import { STAFF_DISCOUNTS_ENDPOINTS } from "./staff-discounts.ts";
import { STAFF_INBOX_ENDPOINTS } from "./staff-inbox.ts";
import { STAFF_MODERATION_ENDPOINTS } from "./staff-moderation.ts";
import { STAFF_REPORTS_ENDPOINTS } from "./staff-reports.ts";
import { STAFF_SETTINGS_ENDPOINTS } from "./staff-settings.ts";
import { STAFF_SUPPORT_ENDPOINTS } from "./staff-support.ts";

/**
 * Every call of the staff API, for the role sweep (each endpoint with each role, a member session and
 * none) and for the console's client. Each area of the console adds its table here.
 */
export const ALL_STAFF_ENDPOINTS: Record<string, StaffEndpoint> = {
  ...STAFF_AUTH_ENDPOINTS,
  ...STAFF_SETTINGS_ENDPOINTS,
  ...STAFF_DISCOUNTS_ENDPOINTS,
  ...STAFF_DATA_REQUESTS_ENDPOINTS,
  ...STAFF_REPORTS_ENDPOINTS,
  ...STAFF_MODERATION_ENDPOINTS,
  ...STAFF_INBOX_ENDPOINTS,
  ...STAFF_SUPPORT_ENDPOINTS,
};
