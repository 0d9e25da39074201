import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { APP, LOCALE_CODES, LOCALE_COOKIE, type LocaleCode, PUSH_WORKER_VERSION } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { webRoot } from "../../platform/http/ssr.ts";
import { t } from "../../platform/i18n.ts";
import type { SiteService } from "../site/service.ts";

export interface AppRoutesOptions {
  site: SiteService;
}

/** The web app manifest of the installable app (decision 026), for one site and language. */
export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  dir: "ltr";
  start_url: string;
  scope: string;
  display: "standalone";
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** A launcher shows about 12 characters under an icon: a longer site name keeps its first word. */
export function shortName(name: string): string {
  if (name.length <= 12) return name;
  const first = name.split(/\s+/)[0] ?? name;
  return first.length <= 12 ? first : first.slice(0, 12);
}

export function manifestFor(site: { name: string; description: string }, locale: LocaleCode): WebAppManifest {
  return {
    id: "/",
    name: site.name,
    short_name: shortName(site.name),
    description: site.description,
    lang: locale,
    dir: "ltr",
    start_url: APP.startUrl,
    scope: "/",
    display: "standalone",
    theme_color: APP.themeColor,
    background_color: APP.backgroundColor,
    icons: APP.icons.map((icon) => ({ ...icon })),
  };
}

const OFFLINE_KEYS = { title: "app.offline_title", text: "app.offline_text", retry: "app.retry" } as const;
type OfflineStrings = Record<keyof typeof OFFLINE_KEYS, string>;

function offlineStrings(locale: LocaleCode): OfflineStrings {
  return { title: t(locale, OFFLINE_KEYS.title), text: t(locale, OFFLINE_KEYS.text), retry: t(locale, OFFLINE_KEYS.retry) };
}

/**
 * The offline page's one script: switches the page to the language of the locale cookie as it is when
 * the page is shown (the worker cached it earlier, perhaps before a language change), and retries.
 */
const OFFLINE_SCRIPT = `(function(){var m=document.cookie.match(/(?:^|;\\s*)${LOCALE_COOKIE.name}=([a-z]{2})(?:;|$)/);var all=JSON.parse(document.getElementById("offline-strings").textContent);var s=m&&all[m[1]];if(s){document.documentElement.lang=m[1];document.title=s.title;document.getElementById("offline-title").textContent=s.title;document.getElementById("offline-text").textContent=s.text;document.getElementById("offline-retry").textContent=s.retry;}document.getElementById("offline-retry").addEventListener("click",function(){location.reload();});})();`;
const OFFLINE_SCRIPT_HASH = createHash("sha256").update(OFFLINE_SCRIPT).digest("base64");
export const OFFLINE_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${OFFLINE_SCRIPT_HASH}'`,
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Every language's strings, for the page's script; `<` escaped so that no text can close the script element. */
function allOfflineStrings(): string {
  const all = Object.fromEntries(LOCALE_CODES.map((code) => [code, offlineStrings(code)]));
  return JSON.stringify(all).replace(/</g, "\\u003c");
}

/** The offline page: self-contained (inline style, the heart as inline SVG), in `locale`, all languages inside. */
export function offlinePage(locale: LocaleCode): string {
  const s = offlineStrings(locale);
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${APP.themeColor}">
<meta name="robots" content="noindex">
<title>${escapeHtml(s.title)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:${APP.backgroundColor};color:#212529;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans","Liberation Sans",Arial,sans-serif;line-height:1.5}
main{max-width:28rem;padding:2rem 1.5rem;text-align:center}
h1{font-size:1.75rem;margin:1rem 0 .5rem}
p{margin:0 0 1.5rem}
button{font:inherit;font-weight:600;color:#fff;background:${APP.themeColor};border:0;border-radius:.6rem;padding:.6rem 1.5rem;cursor:pointer}
button:focus-visible{outline:3px solid #212529;outline-offset:2px}
</style>
</head>
<body>
<main>
<svg aria-hidden="true" width="72" height="72" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${APP.themeColor}"/><path d="M32 50 14 33a10 10 0 0 1 18-12 10 10 0 0 1 18 12Z" fill="#fff"/></svg>
<h1 id="offline-title">${escapeHtml(s.title)}</h1>
<p id="offline-text">${escapeHtml(s.text)}</p>
<button type="button" id="offline-retry">${escapeHtml(s.retry)}</button>
</main>
<script type="application/json" id="offline-strings">${allOfflineStrings()}</script>
<script>${OFFLINE_SCRIPT}</script>
</body>
</html>
`;
}

const workerSource = readFileSync(new URL("./sw.js", import.meta.url), "utf8");

/**
 * The worker's version: changes with its code, the offline page's texts and the web build, so that a
 * deployment installs a new worker (and a new offline page) in every browser that has the old one.
 */
export function workerVersion(): string {
  const hash = createHash("sha256").update(workerSource).update(allOfflineStrings()).update(OFFLINE_SCRIPT);
  const build = `${webRoot}build/server/index.js`;
  if (existsSync(build)) hash.update(readFileSync(build));
  return hash.digest("hex").slice(0, 16);
}

export function workerScript(version: string): string {
  const constants = `const VERSION = ${JSON.stringify(version)}, OFFLINE_URL = ${JSON.stringify(APP.offlinePath)}, ICON = ${JSON.stringify(APP.icons[0].src)}, PUSH_VERSION = ${PUSH_WORKER_VERSION};\n`;
  return constants + workerSource;
}

/**
 * The installable app (issue #13, decision 026): the manifest (per site, in the visitor's language), the
 * service worker and the offline page it precaches. The icons are static files of the web build.
 */
export async function appRoutes(app: FastifyInstance, { site }: AppRoutesOptions): Promise<void> {
  const script = workerScript(workerVersion());

  app.get(APP.manifestPath, async (request, reply) => {
    const locale = requestLocale(request);
    const settings = await site.settingsFor(requestHost(request), locale);
    reply
      .type("application/manifest+json; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("vary", "accept-language, cookie");
    return JSON.stringify(manifestFor(settings, locale));
  });

  app.get(APP.serviceWorkerPath, async (_request, reply) => {
    reply
      .type("text/javascript; charset=utf-8")
      // Always asked again: a browser learns of a new version on its next check.
      .header("cache-control", "no-cache, max-age=0")
      .header("service-worker-allowed", "/")
      // The worker's own policy: it may fetch this origin (navigations) and nothing else.
      .header("content-security-policy", "default-src 'self'; frame-ancestors 'none'");
    return script;
  });

  app.get(APP.offlinePath, async (request, reply) => {
    reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("vary", "accept-language, cookie")
      .header("content-security-policy", OFFLINE_CSP);
    return offlinePage(requestLocale(request));
  });
}
