// The account rules without zod: the members search form reads them on its first screen (issue #29).

/** Spec §5/§9 and the accounts issue: the account rules every side shares. */
export const ACCOUNT_RULES = {
  minAge: 18,
  maxAge: 99,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 40,
  signupMessageMax: 1000,
  /** Wrong passwords from one address for one account before that address is locked out. */
  loginFailuresBeforeLock: 5,
  loginLockMinutes: 15,
  /**
   * Wrong passwords for one account from all addresses (within loginLockMinutes) after which every
   * further attempt from a browser the owner has not logged in with waits 2^(n - this) seconds after
   * the last failure, up to loginThrottleMaxSeconds: guessing slows to a crawl, the owner's own browser
   * is never held up (ASVS 6.3.1, OWASP device cookies).
   */
  loginFailuresBeforeThrottle: 10,
  loginThrottleMaxSeconds: 300,
  activationTokenHours: 72,
  resetTokenHours: 2,
  mailChangeTokenHours: 24,
  reactivationDays: 14,
} as const;
