import { afterEach, describe, expect, it } from "vitest";
import { biomeProbe } from "../../../scripts/biome-probe.ts";

/**
 * The server's module boundaries are enforced by Biome (biome.json, the apps/server overrides;
 * decision 016). This test plants one file breaking each rule, runs `biome lint` on them and checks
 * that Biome reports each, so that a config change that silently turns a rule off fails here.
 */
const probe = biomeProbe(import.meta.dirname);
const plant = probe.plant;

afterEach(() => probe.cleanup());

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
    // Issue #29: the demo seed acts through the services too.
    const seedReadsTables = plant(
      "seed/lint-probe-tables.ts",
      'import { profiles } from "../modules/profiles/schema.ts";\n\nexport const probe = profiles;\n',
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
    // Issue #26: a cycle of type-only imports is a cycle too (noImportCycles with ignoreTypes off).
    const typeCycleA = plant(
      "platform/lint-probe-type-cycle-a.ts",
      'import type { B } from "./lint-probe-type-cycle-b.ts";\n\nexport interface A {\n  b: B | null;\n}\n',
    );
    const typeCycleB = plant(
      "platform/lint-probe-type-cycle-b.ts",
      'import type { A } from "./lint-probe-type-cycle-a.ts";\n\nexport interface B {\n  a: A | null;\n}\n',
    );
    const floating = plant(
      "modules/blocks/lint-probe-floating.ts",
      "async function later(): Promise<number> {\n  return 1;\n}\n\nexport function probe(): void {\n  later();\n}\n",
    );
    const allowed = plant(
      "modules/blocks/lint-probe-allowed.ts",
      'import { visibleUserCondition } from "../accounts/index.ts";\nimport type { PhotoService } from "../photos/service.ts";\nimport { AppError } from "../../platform/errors.ts";\n\nexport const probe = [visibleUserCondition, AppError] as const;\nexport type Probe = PhotoService;\n',
    );

    probe.lint();
    for (const path of [
      queriesOfOther,
      tablesOfOther,
      routesOfOther,
      seedReadsTables,
      schemaReachesQueries,
      platformImportsModule,
      platformImportsApp,
    ]) {
      expect(probe.errorsOf(path), path).toContain("lint/style/noRestrictedImports");
    }
    expect(probe.errorsOf(cycleA)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(cycleB)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(typeCycleA)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(typeCycleB)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(floating)).toContain("lint/nursery/noFloatingPromises");
    expect(probe.errorsOf(allowed)).toEqual([]);
  });
});
