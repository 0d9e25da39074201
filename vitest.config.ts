import { defineConfig } from "vitest/config";

/** One run, four projects: the shared contract, the server (real database), the web app (jsdom) and the benchmarks' pure helpers. */
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "contract", include: ["packages/contract/src/**/*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          globalSetup: ["apps/server/src/test/global-setup.ts"],
        },
      },
      {
        test: {
          name: "web",
          include: ["apps/web/app/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["apps/web/app/test-setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: { name: "bench", include: ["bench/**/*.test.ts"], environment: "node" },
      },
    ],
  },
});
