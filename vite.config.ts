/**
 * Library build of the Foundry entry point. Foundry provides `foundry`, `game`, `CONFIG`, `Hooks`,
 * `ui` and `Handlebars` as globals at run time, so nothing of Foundry is bundled: the bundle holds
 * only this system's code (src/foundry, src/system, src/rules). tools/build.mjs runs this and then
 * copies the static files and compiles the packs.
 */
import { defineConfig } from "vite";

/** The modules of the clicks chunk: src/system/flows/clicks.ts, the flows it exports and what only they use. */
const CLICKS =
  /src\/system\/(flows\/(clicks|attack|card|guts|heal|trait-roll|attack-fudge-point|experience|battle|hooks)|rederive|advancement|guts-dialog|opposed)\.ts$/;

export default defineConfig({
  publicDir: false,
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: false,
    target: "es2022",
    minify: false,
    sourcemap: true,
    reportCompressedSize: false,
    lib: {
      entry: "src/foundry/main.ts",
      formats: ["es"],
      fileName: () => "fudge-wounds.mjs",
    },
    rollupOptions: {
      // Anything that looks like a Foundry import stays out of the bundle.
      external: [/^foundry(\/|$)/, /^fvtt-types/],
      output: {
        // What loads on demand (dynamic imports: the forecast engine, the converter, the Quench
        // batches, the world migration, the settings menu, each preset's attack pipeline) is a
        // chunk beside the bundle (docs/foundry.md "What loads when"); release:check finds every
        // one in the zip. A preset's pipeline chunk is named for its preset (`preset-volt-…`).
        chunkFileNames: (chunk) => {
          const presets = chunk.moduleIds.flatMap((id) => /src\/rules\/(\w+)\/pipeline\.ts$/.exec(id)?.[1] ?? []);
          return presets.length === 1 ? `chunks/preset-${presets[0]}-[hash].mjs` : "chunks/[name]-[hash].mjs";
        },
        // Everything the bundle imports at once in one chunk (not one per set of sharers): the
        // start-up fetches two files, not ten.
        // The entry's own module stays in fudge-wounds.mjs.
        // The flows of a click or a later event (src/system/flows/clicks.ts) and what only they use: one
        // chunk, loaded by the first such click, whoever else (the writer, the Quench batches) shares it.
        codeSplitting: {
          groups: [
            { name: "startup", tags: ["$initial"], test: /^(?!.*src\/foundry\/main\.ts$)/ },
            { name: "clicks", test: CLICKS },
          ],
        },
        // Unminified, but without the doc comments (a third of the code's bytes): the source
        // maps keep the sources, comments and all. Legal and bundler annotations stay.
        comments: { jsdoc: false, legal: true, annotation: true },
      },
    },
  },
});
