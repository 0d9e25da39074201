/**
 * Query keys of the likes feature (decision 013). Everything under LIKES_KEY (every tab and page of the
 * overview) is invalidated together when a like event arrives; the badges have their own key. Apart
 * from api.ts so that the provider on every page can name them without loading the API (decision 025).
 */
export const LIKES_KEY = ["likes"] as const;
export const BADGES_KEY = ["badges"] as const;
