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

/** Marks a server-rendered alert that this browser may have dismissed: its value is the storage key. */
export const DISMISSAL_ATTRIBUTE = "data-dismissal";
/** Marks the button that dismisses the alert of that key, so that it works before hydration too. */
export const DISMISS_ATTRIBUTE = "data-dismiss";

/**
 * An inline script for the document's head: before the first paint, hides the server-rendered alerts
 * (marked `data-dismissal="<key>"`) that this browser dismissed, so that alerts can be rendered on the
 * server without showing a dismissed one, and without a layout shift when one is there at hydration.
 * Until the page is hydrated, a click on a `data-dismiss="<key>"` button dismisses that alert here
 * (remembered and hidden the same way): a page that loads the app on intent (decision 028) does not
 * load it for that. Once hydrated, the alert's own component does it.
 */
export function hideDismissedScript(keys: readonly string[]): string {
  return `(function(){function hide(k){var s=document.createElement("style");s.textContent='[${DISMISSAL_ATTRIBUTE}="'+k+'"]{display:none!important}';document.head.appendChild(s)}try{var k=${JSON.stringify(keys)};for(var i=0;i<k.length;i++){var v=localStorage.getItem(k[i]);if(v&&!isNaN(new Date(v).getTime()))hide(k[i])}}catch(e){}document.addEventListener("click",function(e){var b=e.target&&e.target.closest?e.target.closest("[${DISMISS_ATTRIBUTE}]"):null;if(!b||document.documentElement.hasAttribute("data-hydrated"))return;var k=b.getAttribute("${DISMISS_ATTRIBUTE}");try{localStorage.setItem(k,new Date().toISOString())}catch(e){}hide(k)},true)})()`;
}
