import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * For the tests that prove the lint rules bite (apps/server/src and apps/web/app lint-boundaries
 * tests): plants files under `base`, runs `biome lint` on them and reads which rules Biome reported.
 */
const repo = resolve(import.meta.dirname, "..");
const biome = join(repo, "node_modules/.bin/biome");

interface Diagnostic {
  category: string;
  severity: string;
  location: { path: string | null };
}

export function biomeProbe(base: string) {
  const planted: string[] = [];
  let diagnostics: Diagnostic[] = [];
  return {
    /** Writes a file (path relative to `base`) and returns its path as Biome reports it. */
    plant(path: string, source: string): string {
      const file = join(base, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, source);
      planted.push(file);
      return relative(repo, file);
    },
    /** Lints the planted files. */
    lint(): void {
      const run = spawnSync(
        biome,
        ["lint", "--reporter=json", "--max-diagnostics=none", ...planted.map((f) => relative(repo, f))],
        {
          cwd: repo,
          encoding: "utf8",
        },
      );
      diagnostics = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    },
    /** The rules (categories) Biome reported as errors for one planted file. */
    errorsOf(path: string): string[] {
      return diagnostics.filter((d) => d.severity === "error" && d.location.path === path).map((d) => d.category);
    },
    /** Removes every planted file. */
    cleanup(): void {
      for (const file of planted.splice(0)) rmSync(file, { force: true });
    },
  };
}
