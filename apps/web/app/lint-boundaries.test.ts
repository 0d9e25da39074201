import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The web's import rules are enforced by Biome (biome.json, the apps/web overrides). This test plants
 * one file breaking each rule, runs `biome lint` on it and checks that Biome reports it, so that a
 * config change that silently turns a rule off fails here. The files are removed afterwards.
 */
const repo = resolve(import.meta.dirname, "../../..");
const app = resolve(import.meta.dirname);
const biome = join(repo, "node_modules/.bin/biome");
const planted: string[] = [];

function plant(path: string, source: string): string {
  const file = join(app, path);
  writeFileSync(file, source);
  planted.push(file);
  return relative(repo, file);
}

interface Diagnostic {
  category: string;
  severity: string;
  location: { path: string | null };
}

function lint(paths: string[]): Diagnostic[] {
  const run = spawnSync(biome, ["lint", "--reporter=json", "--max-diagnostics=none", ...paths], {
    cwd: repo,
    encoding: "utf8",
  });
  const report: { diagnostics: Diagnostic[] } = JSON.parse(run.stdout);
  return report.diagnostics;
}

function errorsOf(diagnostics: Diagnostic[], path: string): string[] {
  return diagnostics.filter((d) => d.severity === "error" && d.location.path === path).map((d) => d.category);
}

afterEach(() => {
  for (const file of planted.splice(0)) rmSync(file, { force: true });
});

describe("web import rules (biome lint)", () => {
  it("reports planted violations of each rule", () => {
    const uiImportsFeature = plant(
      "ui/lint-probe-feature.ts",
      'import { getUser } from "../features/account/api";\n\nexport const probe = getUser;\n',
    );
    const libImportsRoute = plant(
      "lib/lint-probe-route.ts",
      'import Home from "../routes/home";\n\nexport const probe = Home;\n',
    );
    const libImportsRoot = plant("lib/lint-probe-root.ts", 'import { Layout } from "../root";\n\nexport const probe = Layout;\n');
    const featureImportsRoot = plant(
      "features/lint-probe-root.ts",
      'import { Layout } from "../root";\n\nexport const probe = Layout;\n',
    );
    const cycleA = plant(
      "lib/lint-probe-cycle-a.ts",
      'import { b } from "./lint-probe-cycle-b";\n\nexport const a = (): number => b() + 1;\n',
    );
    const cycleB = plant(
      "lib/lint-probe-cycle-b.ts",
      'import { a } from "./lint-probe-cycle-a";\n\nexport const b = (): number => (a ? 1 : 0);\n',
    );
    const floating = plant(
      "features/lint-probe-floating.ts",
      "async function later(): Promise<number> {\n  return 1;\n}\n\nexport function probe(): void {\n  later();\n}\n",
    );

    const diagnostics = lint([uiImportsFeature, libImportsRoute, libImportsRoot, featureImportsRoot, cycleA, cycleB, floating]);

    expect(errorsOf(diagnostics, uiImportsFeature)).toContain("lint/style/noRestrictedImports");
    expect(errorsOf(diagnostics, libImportsRoute)).toContain("lint/style/noRestrictedImports");
    expect(errorsOf(diagnostics, libImportsRoot)).toContain("lint/style/noRestrictedImports");
    expect(errorsOf(diagnostics, featureImportsRoot)).toContain("lint/style/noRestrictedImports");
    expect(errorsOf(diagnostics, cycleA)).toContain("lint/suspicious/noImportCycles");
    expect(errorsOf(diagnostics, cycleB)).toContain("lint/suspicious/noImportCycles");
    expect(errorsOf(diagnostics, floating)).toContain("lint/nursery/noFloatingPromises");
  });
});
