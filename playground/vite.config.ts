/**
 * Vite config of the playground: a stand-in host that renders the system's own templates, CSS,
 * context builders and actions in a plain web page (not Foundry).
 * `npm start` serves it (tools/start.mjs); `vite build -c playground/vite.config.ts` writes dist-playground/.
 */
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");

export default defineConfig({
  root: here,
  base: "./",
  // Stand-ins for the few Foundry core icons the sample documents name (icons/svg/*.svg).
  publicDir: resolve(here, "public"),
  clearScreen: false,
  logLevel: "warn",
  server: { host: "127.0.0.1", fs: { allow: [repo] } },
  preview: { host: "127.0.0.1" },
  build: {
    outDir: resolve(repo, "dist-playground"),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
});
