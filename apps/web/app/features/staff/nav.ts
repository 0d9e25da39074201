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
  // The daily queues first: answers, reviews, reports and complaints.
  { to: "/staff/inbox", label: "staff.nav.inbox", roles: ["operator"] },
  { to: "/staff/moderation", label: "staff.nav.moderation", roles: ["moderator"] },
  { to: "/staff/reports", label: "staff.nav.reports", roles: ["moderator", "support"] },
  // Members and money.
  { to: "/staff/members", label: "staff.nav.members", roles: ["support"] },
  { to: "/staff/data-requests", label: "staff.nav.data_requests", roles: ["support"] },
  { to: "/staff/discounts", label: "staff.nav.discounts", roles: ["support"] },
  // The site itself.
  { to: "/staff/settings", label: "staff.nav.settings", roles: ["admin"] },
  { to: "/staff/accounts", label: "staff.nav.accounts", roles: ["admin"] },
  { to: "/staff/audit", label: "staff.nav.audit", roles: ["admin"] },
];

export const navFor = (role: StaffRole) => STAFF_NAV.filter((item) => role === "admin" || item.roles.includes(role));
