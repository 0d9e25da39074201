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
  { to: "/staff/members", label: "staff.nav.members", roles: ["support"] },
  { to: "/staff/accounts", label: "staff.nav.accounts", roles: ["admin"] },
  { to: "/staff/audit", label: "staff.nav.audit", roles: ["admin"] },
];

export const navFor = (role: StaffRole) => STAFF_NAV.filter((item) => role === "admin" || item.roles.includes(role));
