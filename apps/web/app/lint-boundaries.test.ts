import { afterEach, describe, expect, it } from "vitest";
import { biomeProbe } from "../../../scripts/biome-probe.ts";

/**
 * The web's import rules are enforced by Biome (biome.json, the apps/web overrides). This test plants
 * one file breaking each rule, runs `biome lint` on it and checks that Biome reports it, so that a
 * config change that silently turns a rule off fails here. The files are removed afterwards.
 */
const probe = biomeProbe(import.meta.dirname);
const plant = probe.plant;

afterEach(() => probe.cleanup());

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
    // Issue #26: another feature by a relative path, from a feature's top level and from a subfolder.
    const featureImportsSibling = plant(
      "features/complaints/lint-probe-sibling.ts",
      'import { CHATS_KEY } from "../chat/api";\n\nexport const probe = CHATS_KEY;\n',
    );
    const featureImportsSiblingIndex = plant(
      "features/complaints/lint-probe-sibling-index.ts",
      'import { GifButton } from "../chat/pickers";\n\nexport const probe = GifButton;\n',
    );
    const subfolderImportsSibling = plant(
      "features/chat/pickers/lint-probe-sibling.ts",
      'import { ComplaintForm } from "../../complaints/complaint-form";\n\nexport const probe = ComplaintForm;\n',
    );
    // What a feature may import: its own files (also from a subfolder) and shared code.
    const featureImportsOwnAndShared = plant(
      "features/chat/pickers/lint-probe-allowed.ts",
      'import { ApiCallError } from "../../../lib/api";\nimport { CHATS_KEY } from "../api";\nimport { GifButton } from "./gif-button";\n\nexport const probe = [ApiCallError, CHATS_KEY, GifButton] as const;\n',
    );
    const cycleA = plant(
      "lib/lint-probe-cycle-a.ts",
      'import { b } from "./lint-probe-cycle-b";\n\nexport const a = (): number => b() + 1;\n',
    );
    const cycleB = plant(
      "lib/lint-probe-cycle-b.ts",
      'import { a } from "./lint-probe-cycle-a";\n\nexport const b = (): number => (a ? 1 : 0);\n',
    );
    // Issue #26: a cycle of type-only imports is a cycle too (noImportCycles with ignoreTypes off).
    const typeCycleA = plant(
      "lib/lint-probe-type-cycle-a.ts",
      'import type { B } from "./lint-probe-type-cycle-b";\n\nexport interface A {\n  b: B | null;\n}\n',
    );
    const typeCycleB = plant(
      "lib/lint-probe-type-cycle-b.ts",
      'import type { A } from "./lint-probe-type-cycle-a";\n\nexport interface B {\n  a: A | null;\n}\n',
    );
    const floating = plant(
      "features/lint-probe-floating.ts",
      "async function later(): Promise<number> {\n  return 1;\n}\n\nexport function probe(): void {\n  later();\n}\n",
    );

    probe.lint();

    expect(probe.errorsOf(uiImportsFeature)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(libImportsRoute)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(libImportsRoot)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(featureImportsRoot)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(featureImportsSibling)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(featureImportsSiblingIndex)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(subfolderImportsSibling)).toContain("lint/style/noRestrictedImports");
    expect(probe.errorsOf(featureImportsOwnAndShared)).toEqual([]);
    expect(probe.errorsOf(cycleA)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(cycleB)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(typeCycleA)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(typeCycleB)).toContain("lint/suspicious/noImportCycles");
    expect(probe.errorsOf(floating)).toContain("lint/nursery/noFloatingPromises");
  });
});
