/**
 * npm run bench: bundles tools/bench.ts the way the system ships (vite, no dev-only transforms),
 * then runs it, so the figures are those of production code.
 */
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(repo, "node_modules/.cache/fudge-bench");
await build({
  root: repo,
  configFile: false,
  logLevel: "error",
  build: {
    ssr: resolve(repo, "tools/bench.ts"),
    outDir,
    emptyOutDir: true,
    minify: false,
    rollupOptions: { output: { entryFileNames: "bench.mjs" } },
  },
  ssr: { noExternal: true, external: ["@dice-roller/rpg-dice-roller"] },
});
const r = spawnSync(process.execPath, [resolve(outDir, "bench.mjs"), ...process.argv.slice(2)], {
  stdio: "inherit",
  cwd: repo,
});
process.exit(r.status ?? 1);
