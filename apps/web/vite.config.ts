import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { purgeUnusedCss } from "./css-purge.ts";

export default defineConfig(({ command }) => ({
  plugins: [reactRouter()],
  css: {
    preprocessorOptions: {
      scss: { quietDeps: true, silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"] },
    },
    // Production builds ship only the Bootstrap rules the app uses (decision 014); development keeps all.
    postcss: { plugins: command === "build" ? [purgeUnusedCss(fileURLToPath(new URL(".", import.meta.url)))] : [] },
  },
  optimizeDeps: { include: ["react-bootstrap", "react-intl", "zod"] },
  ssr: { noExternal: ["@app/contract"] },
}));
