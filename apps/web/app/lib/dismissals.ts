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

/**
 * An inline script for the document's head: before the first paint, hides the server-rendered alerts
 * (marked `data-dismissal="<key>"`) that this browser dismissed, so that alerts can be rendered on the
 * server without showing a dismissed one, and without a layout shift when one is there at hydration.
 */
export function hideDismissedScript(keys: readonly string[]): string {
  return `(function(){try{var k=${JSON.stringify(keys)},c="";for(var i=0;i<k.length;i++){var v=localStorage.getItem(k[i]);if(v&&!isNaN(new Date(v).getTime()))c+='[data-dismissal="'+k[i]+'"]{display:none!important}'}if(c){var s=document.createElement("style");s.textContent=c;document.head.appendChild(s)}}catch(e){}})()`;
}
