/**
 * React Router reloads the page by itself in two places, outside the app's code: when a route module
 * fails to load (`loadRouteModule`: `window.location.reload()`, every time) and when lazy route
 * discovery meets a newer build (`window.location.href = errorReloadPath`). Spec §8 allows a reload
 * after a failed chunk at most once per 60 s, and the audit saw two within 10 s (issue #29). This build
 * step routes both through the app's one rule (`reloadForChunkError`, app/lib/chunk-reload.ts), which
 * the client entry installs as `window[ROUTER_RELOAD_HOOK]`: when the rule declines, the module loader
 * throws its error instead (the route's error page shows it) and the discovery fails as when its own
 * reload fails. Without the hook (it is installed before hydration) React Router's own reload stays.
 *
 * The build fails when a React Router upgrade changes the patched lines, so the rule cannot silently
 * stop applying.
 */
import type { Plugin } from "vite";

/** The global the client entry sets to the one reload rule: `(reload?: () => void) => boolean`. */
export const ROUTER_RELOAD_HOOK = "__reloadForChunkError";

const hook = `window.${ROUTER_RELOAD_HOOK}`;

const PATCHES: { file: RegExp; from: string; to: string }[] = [
  {
    file: /react-router\/dist\/(development|production)\/lib\/dom\/ssr\/routeModules\.js$/,
    from: "window.location.reload();\n\t\treturn new Promise(() => {});",
    to: `if (!(${hook} ? ${hook}() : (window.location.reload(), true))) throw error;\n\t\treturn new Promise(() => {});`,
  },
  {
    file: /react-router\/dist\/(development|production)\/lib\/dom\/ssr\/fog-of-war\.js$/,
    from: "window.location.href = errorReloadPath;",
    to: `if (!(${hook} ? ${hook}(() => { window.location.href = errorReloadPath; }) : (window.location.href = errorReloadPath, true))) throw new Error("reload declined");`,
  },
];

/** The module's code with React Router's reloads routed through the hook; null for other modules. */
export function patchRouterReloads(code: string, id: string): string | null {
  const path = id.split("?")[0]?.replaceAll("\\", "/") ?? "";
  const patch = PATCHES.find((p) => p.file.test(path));
  if (!patch) return null;
  if (!code.includes(patch.from)) {
    throw new Error(`router-reloads: React Router changed ${path}; route its reload through the one rule again`);
  }
  return code.replace(patch.from, patch.to);
}

/** The Vite plugin of the production build (the client's copy of React Router). */
export function routerReloadsThroughRule(): Plugin {
  return {
    name: "router-reloads-through-rule",
    apply: "build",
    transform(code, id) {
      if (this.environment.name !== "client") return null;
      const patched = patchRouterReloads(code, id);
      return patched === null ? null : { code: patched, map: null };
    },
  };
}
