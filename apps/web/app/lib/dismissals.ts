/**
 * Spec §2: dismissed alerts are remembered in storage with a timestamp, one key per alert. Storage can
 * be unavailable (private mode, blocked); the alert then simply shows again.
 */
export function dismissedAt(key: string): Date | null {
  try {
    const value = window.localStorage.getItem(key);
    if (!value) return null;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  } catch {
    return null;
  }
}

export function rememberDismissal(key: string, now: Date = new Date()): void {
  try {
    window.localStorage.setItem(key, now.toISOString());
  } catch {
    // Not remembered: the alert comes back on the next page load.
  }
}
