import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The server's module boundaries are enforced by Biome (biome.json, the apps/server overrides;
 * decision 016). This test plants one file breaking each rule, runs `biome lint` on them and checks
 * that Biome reports each, so that a config change that silently turns a rule off fails here.
 */
const repo = resolve(import.meta.dirname, "../../..");
const src = resolve(import.meta.dirname);
const biome = join(repo, "node_modules/.bin/biome");
const planted: string[] = [];

function plant(path: string, source: string): string {
  const file = join(src, path);
  mkdirSync(dirname(file), { recursive: true });
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
  const run = spawnSync(biome, ["lint", "--reporter=json", "--max-diagnostics=none", ...paths], { cwd: repo, encoding: "utf8" });
  return (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

const errorsOf = (diagnostics: Diagnostic[], path: string) =>
  diagnostics.filter((d) => d.severity === "error" && d.location.path === path).map((d) => d.category);

afterEach(() => {
  for (const file of planted.splice(0)) rmSync(file, { force: true });
});

describe("server module boundaries (biome lint)", () => {
  it("reports planted violations of each rule, and lets the allowed imports pass", () => {
    const queriesOfOther = plant(
      "modules/blocks/lint-probe-queries.ts",
      'import { findUser } from "../accounts/queries.ts";\n\nexport const probe = findUser;\n',
    );
    const tablesOfOther = plant(
      "modules/blocks/lint-probe-tables.ts",
      'import { users } from "../accounts/schema.ts";\n\nexport const probe = users;\n',
    );
    const routesOfOther = plant(
      "modules/blocks/lint-probe-routes.ts",
      'import { accountRoutes } from "../accounts/routes.ts";\n\nexport const probe = accountRoutes;\n',
    );
    const schemaReachesQueries = plant(
      "modules/blocks/lint-probe/schema.ts",
      'import { findUser } from "../../accounts/queries.ts";\n\nexport const probe = findUser;\n',
    );
    const platformImportsModule = plant(
      "platform/lint-probe-module.ts",
      'import { AccountService } from "../modules/accounts/index.ts";\n\nexport const probe = AccountService;\n',
    );
    const platformImportsApp = plant(
      "platform/lint-probe-app.ts",
      'import { buildApp } from "../app.ts";\n\nexport const probe = buildApp;\n',
    );
    const cycleA = plant(
      "platform/lint-probe-cycle-a.ts",
      'import { b } from "./lint-probe-cycle-b.ts";\n\nexport const a = (): number => b() + 1;\n',
    );
    const cycleB = plant(
      "platform/lint-probe-cycle-b.ts",
      'import { a } from "./lint-probe-cycle-a.ts";\n\nexport const b = (): number => (a ? 1 : 0);\n',
    );
    const floating = plant(
      "modules/blocks/lint-probe-floating.ts",
      "async function later(): Promise<number> {\n  return 1;\n}\n\nexport function probe(): void {\n  later();\n}\n",
    );
    const allowed = plant(
      "modules/blocks/lint-probe-allowed.ts",
      'import { visibleUserCondition } from "../accounts/index.ts";\nimport type { PhotoService } from "../photos/service.ts";\nimport { AppError } from "../../platform/errors.ts";\n\nexport const probe = [visibleUserCondition, AppError] as const;\nexport type Probe = PhotoService;\n',
    );

    const diagnostics = lint([
      queriesOfOther,
      tablesOfOther,
      routesOfOther,
      schemaReachesQueries,
      platformImportsModule,
      platformImportsApp,
      cycleA,
      cycleB,
      floating,
      allowed,
    ]);
    for (const path of [
      queriesOfOther,
      tablesOfOther,
      routesOfOther,
      schemaReachesQueries,
      platformImportsModule,
      platformImportsApp,
    ]) {
      expect(errorsOf(diagnostics, path), path).toContain("lint/style/noRestrictedImports");
    }
    expect(errorsOf(diagnostics, cycleA)).toContain("lint/suspicious/noImportCycles");
    expect(errorsOf(diagnostics, cycleB)).toContain("lint/suspicious/noImportCycles");
    expect(errorsOf(diagnostics, floating)).toContain("lint/nursery/noFloatingPromises");
    expect(errorsOf(diagnostics, allowed)).toEqual([]);
  });
});
