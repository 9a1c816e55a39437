import { build } from "vite";
import { resolve } from "node:path";
const repo = "/work/wt/i10";
const entry = process.argv[2];
await build({ root: repo, configFile: false, logLevel: "error", build: { ssr: resolve(repo, entry), outDir: resolve(repo, "node_modules/.cache/_prof"), emptyOutDir: true, minify: false, rollupOptions: { output: { entryFileNames: "out.mjs" } } }, ssr: { noExternal: true, external: ["@dice-roller/rpg-dice-roller"] } });
