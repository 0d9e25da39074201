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
import { MESSAGES_REL, STARTED_MESSAGES } from "./messages";

export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";
export const DEFERRED_PRELOAD_REL = "x-deferred-modulepreload";

/**
 * Runs in the browser before hydration (rendered with the CSP nonce). A page opened in a background
 * tab gets no frames: it starts at once. Until the page is hydrated it also stops forms from being
 * sent by the browser itself: the app's forms have no action of their own and would go out as a GET,
 * a password in the URL; what was typed stays in the fields for when the page is ready.
 */
export const START_SCRIPTS = `(function(){document.addEventListener("submit",function(e){if(!document.documentElement.hasAttribute("data-hydrated"))e.preventDefault()},true);function start(){var t=document.querySelector('link[rel="${MESSAGES_REL}"]');if(t)window.${STARTED_MESSAGES}=fetch(t.href,{credentials:"same-origin"}).then(function(r){if(!r.ok)throw new Error("HTTP "+r.status);return r.json()});var l=document.querySelectorAll('link[rel="${DEFERRED_PRELOAD_REL}"]');for(var i=0;i<l.length;i++){var p=document.createElement("link");p.rel="modulepreload";p.href=l[i].href;p.setAttribute("nonce",l[i].nonce);document.head.appendChild(p)}var s=document.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]');for(var j=0;j<s.length;j++){var m=document.createElement("script");m.type="module";m.async=true;m.setAttribute("nonce",s[j].nonce);m.textContent=s[j].textContent;s[j].replaceWith(m)}}if(document.visibilityState==="visible")requestAnimationFrame(function(){setTimeout(start,0)});else start()})()`;
