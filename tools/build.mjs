#!/usr/bin/env node
/**
 * npm run build: an installable Foundry system in dist/ and dist/fudge-wounds.zip.
 *   1. vite library build of src/foundry/main.ts → dist/fudge-wounds.mjs (Foundry stays global),
 *      and of the forecast worker src/system/forecast-worker.ts → dist/fudge-forecast.mjs
 *   2. system.json, templates/, styles/, lang/en.json
 *   3. packs/src/<pack>/*.json → dist/packs/<pack> (LevelDB, @foundryvtt/foundryvtt-cli)
 *   4. dist/fudge-wounds.zip (tools/zip.mjs, no external zip needed)
 * Options: --no-zip, --no-packs, --skip-vite (static files only: used by hot reload),
 *          --out <dir> (default dist), --manifest <file> (the system.json to ship, default
 *          ./system.json: the release check passes one with the release's URLs filled in). A URL
 *          field that still holds a placeholder is left out of dist/system.json (a manual install).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { compileAll } from "./packs.mjs";
import { entriesOf, writeZip } from "./zip.mjs";
import { installableManifest } from "./release-manifest.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const argv = process.argv.slice(2);
const args = new Set(argv);
const DIST = argv.includes("--out") ? path.resolve(argv[argv.indexOf("--out") + 1]) : "dist";
const MANIFEST = argv.includes("--manifest") ? path.resolve(argv[argv.indexOf("--manifest") + 1]) : "system.json";
const manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
const t0 = Date.now();
const log = (m) => console.log(`[build ${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

/** lang/en.json, flat (a nested file is flattened to dotted keys; every value must be text). */
export function readLang(dir = "lang") {
  const file = path.join(dir, "en.json");
  const lang = flatten(JSON.parse(fs.readFileSync(file, "utf8")));
  const bad = Object.entries(lang)
    .filter(([, v]) => typeof v !== "string")
    .map(([k]) => k);
  if (bad.length) throw new Error(`${file}: these keys are not text: ${bad.slice(0, 5).join(", ")}`);
  return lang;
}

function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

/** The forecast worker's file, next to the bundle (src/system/forecast-queue.ts FORECAST_WORKER_FILE). */
export const FORECAST_WORKER_FILE = "fudge-forecast.mjs";

/** The forecast worker as its own self-contained ES module (a worker imports nothing of Foundry). */
export async function buildForecastWorker(outDir) {
  await build({
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "warn",
    build: {
      outDir,
      emptyOutDir: false,
      lib: {
        entry: path.join(root, "src/system/forecast-worker.ts"),
        formats: ["es"],
        fileName: () => FORECAST_WORKER_FILE,
      },
      // One file: a worker imports nothing.
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
}

function copyDir(from, to) {
  if (!fs.existsSync(from)) return 0;
  let n = 0;
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const s = path.join(from, e.name);
    const d = path.join(to, e.name);
    if (e.isDirectory()) n += copyDir(s, d);
    else if (e.isFile()) {
      fs.copyFileSync(s, d);
      n++;
    }
  }
  return n;
}

async function main() {
  if (!args.has("--skip-vite")) {
    fs.rmSync(DIST, { recursive: true, force: true });
    fs.mkdirSync(DIST, { recursive: true });
    await build({ configFile: path.join(root, "vite.config.ts"), build: { outDir: DIST } });
    log(`bundle dist/${manifest.esmodules[0]}`);
    await buildForecastWorker(DIST);
    log(`forecast worker dist/${FORECAST_WORKER_FILE}`);
  }
  // A placeholder URL (the committed manifest's OWNER/vVERSION) is left out: tools/release-manifest.mjs.
  fs.writeFileSync(path.join(DIST, "system.json"), JSON.stringify(installableManifest(manifest), null, 2) + "\n");
  for (const dir of ["templates", "styles", "assets"]) {
    fs.rmSync(path.join(DIST, dir), { recursive: true, force: true });
    const n = copyDir(dir, path.join(DIST, dir));
    if (n) log(`${dir}/: ${n} files`);
  }
  for (const f of ["README.md", "LICENSE", "NOTICE.md", "CHANGELOG.md"])
    if (fs.existsSync(f)) fs.copyFileSync(f, path.join(DIST, f));
  fs.mkdirSync(path.join(DIST, "lang"), { recursive: true });
  const lang = readLang();
  fs.writeFileSync(path.join(DIST, "lang", "en.json"), JSON.stringify(lang, null, 2) + "\n");
  log(`lang/en.json: ${Object.keys(lang).length} keys`);

  // Every file the manifest names must be there.
  const missing = [
    ...manifest.esmodules,
    ...manifest.styles.map((s) => (typeof s === "string" ? s : s.src)),
    ...manifest.languages.map((l) => l.path),
  ].filter((f) => !fs.existsSync(path.join(DIST, f)));
  if (missing.length) console.warn(`warning: system.json names files that are not in dist/: ${missing.join(", ")}`);

  if (!args.has("--no-packs")) {
    const packs = await compileAll("packs/src", path.join(DIST, "packs"));
    const declared = new Set(manifest.packs.map((p) => p.name));
    for (const p of Object.keys(packs))
      if (!declared.has(p)) throw new Error(`pack ${p} has sources but is not declared in system.json`);
    for (const p of declared)
      if (!packs[p]) throw new Error(`system.json declares pack ${p} but packs/src/${p} does not exist`);
    log(`packs: ${Object.keys(packs).join(", ")}`);
  }

  if (!args.has("--no-zip")) {
    const zipFile = path.join(DIST, `${manifest.id}.zip`);
    fs.rmSync(zipFile, { force: true });
    const entries = entriesOf(DIST).filter((e) => !e.name.endsWith(".zip") && !/(^|\/)LOCK$/.test(e.name));
    writeZip(zipFile, entries);
    log(`${zipFile}: ${entries.length} files, ${(fs.statSync(zipFile).size / 1024).toFixed(0)} KiB`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
