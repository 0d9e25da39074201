import type { StaffRole } from "@app/contract";

export interface StaffNavItem {
  to: string;
  /** A message id of the locale files. */
  label: string;
  /** Who sees it (admin always does). */
  roles: readonly StaffRole[];
}

/** The console's sidebar, in this order; each area of the console adds its page. */
export const STAFF_NAV: StaffNavItem[] = [
  { to: "/staff", label: "staff.nav.home", roles: ["admin", "moderator", "operator", "support"] },
  { to: "/staff/inbox", label: "staff.nav.inbox", roles: ["operator"] },
  { to: "/staff/members", label: "staff.nav.members", roles: ["support"] },
  { to: "/staff/accounts", label: "staff.nav.accounts", roles: ["admin"] },
  { to: "/staff/audit", label: "staff.nav.audit", roles: ["admin"] },
  { to: "/staff/discounts", label: "staff.nav.discounts", roles: ["support"] },
  { to: "/staff/data-requests", label: "staff.nav.data_requests", roles: ["support"] },
  { to: "/staff/settings", label: "staff.nav.settings", roles: ["admin"] },
  { to: "/staff/moderation", label: "staff.nav.moderation", roles: ["moderator"] },
];

export const navFor = (role: StaffRole) => STAFF_NAV.filter((item) => role === "admin" || item.roles.includes(role));
