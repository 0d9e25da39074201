import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  css: {
    preprocessorOptions: {
      scss: { quietDeps: true, silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"] },
    },
  },
  optimizeDeps: { include: ["react-bootstrap", "react-intl", "zod"] },
  ssr: { noExternal: ["@app/contract"] },
});
