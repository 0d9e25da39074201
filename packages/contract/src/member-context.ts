import type { DisabledNotification, UserStatus } from "./accounts.ts";
import type { LocaleCode } from "./locales.ts";

/**
 * The logged-in member of one request, resolved once from the session cookie (server side only; it
 * never leaves the server as it is). Handlers and services take it instead of looking the member up
 * again; after a write that changes it, the request's copy is refreshed.
 */
export interface MemberContext {
  userId: number;
  profileId: number;
  status: UserStatus;
  email: string;
  /** Premium for life after any credit purchase (spec §1: paid_user). */
  paid: boolean;
  credits: number;
  /** The interface language saved on the account. */
  locale: LocaleCode;
  invisible: boolean;
  /** Issue #29: hides their online status and last activity, and so sees no one's. */
  hidePresence: boolean;
  signupDate: Date;
  notificationsDisabled: DisabledNotification[];
  /** Whether the member agreed to promotional e-mails (off until they switch the category on). */
  promotionsConsent: boolean;
  /**
   * The centre of the member's own city (for distances to others; null without a known city). Read with
   * the session, so a list needs no look-up of who asks; never sent to anyone as it is.
   */
  position: { lat: number; lon: number } | null;
}
