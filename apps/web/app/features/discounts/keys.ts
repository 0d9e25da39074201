/**
 * Query keys of the discounts feature (decision 013). Everything is the member's own and is dropped
 * on logout (`DISCOUNTS_KEY`); the time bonus and the welcome discount are loaded once per member and
 * tick down in the browser from the moment they arrived.
 */
export const DISCOUNTS_KEY = ["discounts"] as const;
