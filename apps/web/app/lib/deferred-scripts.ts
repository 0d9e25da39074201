/**
 * The app's JavaScript starts loading once the server's HTML has been painted, not while it is parsed
 * (decision 027). React Router's <Scripts> writes a `modulepreload` link per chunk (React hoists them
 * into the head) and an inline module script that imports the entry; the browser fetches all of them
 * during parsing, so on a slow phone connection ~200 KB of JavaScript shares the bandwidth with the
 * stylesheet and the first photo, and holds back the first paint. The server renames both
 * (`deferScriptsInHtml`, entry.server.tsx) so the browser leaves them alone, and START_SCRIPTS, an
 * inline script after <Scripts>, turns them back into real ones in the frame after the first paint,
 * and asks for the page's messages at the same moment (lib/messages.ts: they are not in the HTML).
 * The page is readable at once; it becomes interactive about one round trip later than before.
 */
import { APP, LIMITS } from "@app/contract";
import { CHUNK_LOAD_ERROR, CHUNK_RELOAD_KEY } from "./chunk-reload";
import { SMARTPHONE_QUERY } from "./media";
import { MESSAGES_REL, STARTED_MESSAGES } from "./messages";
import { SERVICE_WORKER_OPTIONS } from "./service-worker";

export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";
export const DEFERRED_PRELOAD_REL = "x-deferred-modulepreload";

/** `<html data-start="intent">`: the page loads the app only when the visitor reaches for a control (decision 028). */
export const START_ATTRIBUTE = "data-start";
export const START_ON_INTENT = "intent";
/**
 * On a link that React handles itself (the signup link opens a modal on desktop): before hydration a
 * click on it waits for the app instead of following the link. `desktop`: only where the link is
 * not followed anyway (a smartphone-sized viewport, a modifier key).
 */
export const NEEDS_APP = "data-needs-app";
export const NEEDS_APP_ON_DESKTOP = "desktop";
/** Controls inside this attribute work before hydration without the app (the site-entry warning). */
export const WITHOUT_APP = "data-without-app";
/** The global that starts the app at once (browser tests, the bench). */
export const START_APP_GLOBAL = "__startApp";
/**
 * How many `modulepreload` links start() appends per task. Chromium compiles a preloaded module inside
 * appendChild when its bytes are already there, so ~70 links at once made one long task that blocked
 * input (decision 039, fourth step); the rest follow in later tasks, the entry's first.
 */
export const PRELOAD_BATCH = 8;

/**
 * Runs in the browser before hydration (rendered with the CSP nonce).
 *
 * - By default the app starts in the frame after the first paint; a page opened in a background tab
 *   gets no frames and starts at once.
 * - On `<html data-start="intent">` (a logged-out visitor's home page, pages, landers) it starts when
 *   the visitor reaches for a control: points at, touches or focuses a button, field, summary or a
 *   `data-needs-app` link, or presses a key. A visitor who reads and leaves downloads none of it.
 *   A click on such a control before hydration is held (`aria-busy`) and replayed on the same element
 *   once the page is hydrated (hydration keeps the server's elements). Plain links are followed. The
 *   service worker (decision 026) is registered once the page has loaded, as the app would have.
 * - When the app's scripts cannot be loaded (a page left open across a deploy that removed its files:
 *   the module script's static imports fire `error` on it, its `import()` of the entry rejects), the
 *   page reloads, at most once a minute (the rule of lib/chunk-reload.ts, same storage key).
 * - Until the page is hydrated it stops forms from being sent by the browser itself: the app's forms
 *   have no action of their own and would go out as a GET, a password in the URL; what was typed
 *   stays in the fields for when the page is ready.
 */
export function startScripts(smartphoneQuery: string, serviceWorkerPath: string | null): string {
  // Without the app, its effect does not register the worker (lib/service-worker.ts): the page does, once loaded.
  const worker = serviceWorkerPath
    ? `addEventListener("load",function(){if("serviceWorker" in navigator)navigator.serviceWorker.register(${JSON.stringify(serviceWorkerPath)},${JSON.stringify(SERVICE_WORKER_OPTIONS)}).catch(function(){})});`
    : "";
  const control = `button,input,select,textarea,summary,label,[role=button],[${NEEDS_APP}]`;
  const clickable = `button,summary,[role=button],[${NEEDS_APP}]`;
  return `(function(){var d=document,h=d.documentElement,started=false,held=null;
function hydrated(){return h.hasAttribute("data-hydrated")}
d.addEventListener("submit",function(e){if(!hydrated())e.preventDefault()},true);
function start(){if(started)return;started=true;var t=d.querySelector('link[rel="${MESSAGES_REL}"]');if(t)window.${STARTED_MESSAGES}=fetch(t.href,{credentials:"same-origin"}).then(function(r){if(!r.ok)throw new Error("HTTP "+r.status);return r.json()});var l=d.querySelectorAll('link[rel="${DEFERRED_PRELOAD_REL}"]'),i=0;(function batch(){for(var e=Math.min(i+${PRELOAD_BATCH},l.length);i<e;i++){var p=d.createElement("link");p.rel="modulepreload";p.href=l[i].href;p.setAttribute("nonce",l[i].nonce);d.head.appendChild(p)}if(i<l.length)setTimeout(batch,0)})();var s=d.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]');for(var j=0;j<s.length;j++){var m=d.createElement("script");m.type="module";m.async=true;m.setAttribute("nonce",s[j].nonce);m.textContent=s[j].textContent;m.addEventListener("error",stale);s[j].replaceWith(m)}}
addEventListener("unhandledrejection",function(e){var r=e.reason,t=r&&r.message||String(r);if(!hydrated()&&${CHUNK_LOAD_ERROR}.test(t))stale()});
function stale(){try{var n=Date.now();if(n-Number(sessionStorage.getItem("${CHUNK_RELOAD_KEY}")||0)<${LIMITS.chunkReloadIntervalMs})return;sessionStorage.setItem("${CHUNK_RELOAD_KEY}",String(n))}catch(e){return}location.reload()}
window.${START_APP_GLOBAL}=start;
if(h.getAttribute("${START_ATTRIBUTE}")!=="${START_ON_INTENT}"){if(d.visibilityState==="visible")requestAnimationFrame(function(){setTimeout(start,0)});else start();return}
${worker}
function reached(e,sel){var t=e.target,c=t&&t.closest?t.closest(sel):null;return c&&!c.closest("[${WITHOUT_APP}]")?c:null}
["pointerover","pointerdown","touchstart","focusin","keydown"].forEach(function(type){d.addEventListener(type,function(e){if(!started&&(type==="keydown"||reached(e,"${control}")))start()},{capture:true,passive:true})});
d.addEventListener("click",function(e){if(hydrated()||e.defaultPrevented)return;var c=reached(e,"${clickable}");if(!c)return;if(c.getAttribute("${NEEDS_APP}")==="${NEEDS_APP_ON_DESKTOP}"&&(e.metaKey||e.ctrlKey||e.shiftKey||matchMedia("${smartphoneQuery}").matches))return;e.preventDefault();e.stopImmediatePropagation();if(held)held.removeAttribute("aria-busy");held=c;c.setAttribute("aria-busy","true");start()},true);
new MutationObserver(function(r,o){if(!hydrated())return;o.disconnect();var c=held;held=null;if(c){c.removeAttribute("aria-busy");if(c.isConnected)c.click()}}).observe(h,{attributes:true,attributeFilter:["data-hydrated"]})})()`;
}

export const START_SCRIPTS = startScripts(SMARTPHONE_QUERY, import.meta.env.DEV ? null : APP.serviceWorkerPath);
