// Without zod: the likes provider on every page needs it, the schemas only with the API (decision 025).

/** Spec §7: the client reloads the likes this long after showing an auto-like. */
export const AUTO_LIKE_RELOAD_MS = 500;
