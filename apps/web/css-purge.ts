/**
 * Drops the Bootstrap rules the app never uses from the built stylesheet (PurgeCSS as a PostCSS step of
 * the production build; decision 014). A class survives when its name appears literally in the app's
 * sources, or when it matches the safelist below: the classes react-bootstrap composes at run time from
 * a prefix (`btn-${variant}`, `modal-dialog`, `carousel-item-next`, ...) and its transition states.
 * The component prefixes come from the names the app imports from "react-bootstrap", so a component
 * used for the first time brings its own CSS without touching this file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import purgeCSSPlugin from "@fullhuman/postcss-purgecss";

/** react-bootstrap components whose class prefix is not simply their name in kebab case. */
const PREFIXES: Record<string, string[]> = {
  Button: ["btn"],
  ButtonGroup: ["btn-group"],
  ButtonToolbar: ["btn-toolbar"],
  CloseButton: ["btn-close"],
  ToggleButton: ["btn", "btn-check"],
  ToggleButtonGroup: ["btn-group", "btn-check"],
  Form: ["form", "was-validated", "is-valid", "is-invalid", "valid-", "invalid-"],
  FloatingLabel: ["form-floating"],
  ProgressBar: ["progress"],
  Pagination: ["pagination", "page-"],
  Nav: ["nav"],
  NavDropdown: ["nav", "dropdown"],
  Navbar: ["navbar", "nav", "collapse", "collapsing"],
  // The navbar's parts as imported one by one (ui/top-nav.tsx, decision 025).
  NavbarContext: ["navbar", "nav"],
  NavbarToggle: ["navbar"],
  NavbarCollapse: ["navbar", "collapse", "collapsing"],
  // "tab" keeps tab-content and tab-pane (a prefix is followed by "-" or nothing; "tab-" kept neither).
  Tabs: ["nav", "tab"],
  Tab: ["nav", "tab"],
  Stack: ["vstack", "hstack"],
  Image: ["img-", "rounded", "figure"],
  OverlayTrigger: ["tooltip", "bs-tooltip", "popover", "bs-popover"],
  Tooltip: ["tooltip", "bs-tooltip"],
  Popover: ["popover", "bs-popover"],
  Col: ["col"],
  Row: ["row"],
};

const THEME_COLORS = "primary|secondary|success|danger|warning|info|light|dark";

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The names imported from "react-bootstrap" anywhere in the given sources, and the modules imported
 * one by one (`import NavbarCollapse from "react-bootstrap/NavbarCollapse"`).
 */
export function reactBootstrapImports(sources: string[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/from\s*["']react-bootstrap\/([A-Z]\w*)["']/g)) {
      if (match[1]) names.add(match[1]);
    }
    for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']react-bootstrap["']/g)) {
      for (const part of (match[1] ?? "").split(",")) {
        const name = part
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0];
        if (name && /^[A-Z]/.test(name) && !/Props$/.test(name)) names.add(name);
      }
    }
  }
  return names;
}

/** The class-name patterns to keep whatever the sources say, for these react-bootstrap components. */
export function safelistFor(components: Iterable<string>): RegExp[] {
  const prefixes = new Set<string>();
  for (const name of components) for (const prefix of PREFIXES[name] ?? [kebab(name)]) prefixes.add(prefix);
  return [
    // Component classes composed from a prefix: modal-dialog, dropdown-menu-end, carousel-item-next, ...
    ...[...prefixes].map((prefix) => new RegExp(`^${escapeRegExp(prefix)}(?:$|-)`)),
    // Variants passed as props (bg="danger", variant="outline-primary", text="white", border="info").
    new RegExp(`^(?:bg|text-bg|text|border)-(?:${THEME_COLORS}|white|body|muted)$`),
    // Transition and state classes that react-bootstrap and its transitions set.
    /^(?:fade|show|showing|hiding|collapse|collapsing|collapse-horizontal|active|disabled|modal-open|visually-hidden)$/,
  ];
}

/** The PostCSS plugin for the production build of apps/web (rooted at `webRoot`). */
export function purgeUnusedCss(webRoot: string) {
  const files = sourceFiles(path.join(webRoot, "app"));
  const components = reactBootstrapImports(files.map((file) => readFileSync(file, "utf8")));
  return purgeCSSPlugin({
    content: files,
    safelist: { standard: safelistFor(components) },
    // Attributes that react-bootstrap and Popper set at run time, and the input types of Reboot's rules.
    dynamicAttributes: ["data-bs-popper", "data-popper-placement", "type", "title"],
    // Keep every custom property: Bootstrap's components read them through var() chains PurgeCSS
    // cannot follow reliably, and they compress well.
    variables: false,
    keyframes: true,
    fontFace: true,
  });
}
