/**
 * The system's start-up, measured against today's single-bundle layout in the same run (issue 34):
 *  - the start-up set's size (the bundle and every chunk it imports statically; tools/bundle-size.mjs),
 *    raw and gzipped, beside the old layout (the same sources as one bundle, doc comments kept,
 *    as the build made it before the split);
 *  - the start-up cost: in headless Chromium (tools/chromium.mjs), against a minimal stand-in for
 *    Foundry's globals (tools/startup-stub.mjs), the time to import the bundle (fetch, parse,
 *    evaluate, over local http) and to run its init, setup and ready hooks; the median of
 *    alternating rounds, each in a fresh browser context (nothing cached).
 * Prints the figures and each goal MET / NOT MET from them; `--json` prints them as JSON.
 *
 *   node tools/bench-startup.mjs [--rounds 9] [--json]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { launchChromium } from "./chromium.mjs";
import { bundleSizes } from "./bundle-size.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The goal (issue 34): the start-up set at most this many bytes gzipped. */
export const STARTUP_GZIP_GOAL = 150_000;

/** Builds the bundle as it ships (chunks) and as it was (one file, doc comments kept) into `root`/split and `root`/single. */
export async function buildLayouts(root) {
  const config = path.join(repo, "vite.config.ts");
  const one = async (name, output) => {
    const outDir = path.join(root, name);
    await build({
      configFile: config,
      logLevel: "error",
      build: { outDir, emptyOutDir: true, ...(output ? { rollupOptions: { output } } : {}) },
    });
    return outDir;
  };
  return {
    split: await one("split", null),
    single: await one("single", { codeSplitting: false, comments: true }),
  };
}

function serve(root) {
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory())
      return res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": /\.m?js$/.test(file) ? "text/javascript" : "text/html" })
      .end(fs.readFileSync(file));
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r(server)));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One start-up in a fresh context: import the bundle, then init, setup, ready. */
async function startOnce(browser, base, layout) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript({ path: path.join(repo, "tools/startup-stub.mjs") });
  await page.goto(`${base}${layout}/index.html`);
  const t = await page.evaluate(async (url) => {
    const t0 = performance.now();
    await import(url);
    const t1 = performance.now();
    Hooks.callAll("init");
    const t2 = performance.now();
    Hooks.callAll("i18nInit");
    Hooks.callAll("setup");
    Hooks.callAll("ready");
    const t3 = performance.now();
    // What the page fetched of the system (the start-up set; a lazy chunk would show here too).
    const files = performance
      .getEntriesByType("resource")
      .map((r) => r.name)
      .filter((n) => /\.m?js$/.test(n));
    return { importMs: t1 - t0, initMs: t2 - t1, setupReadyMs: t3 - t2, totalMs: t3 - t0, files: files.length };
  }, `${base}${layout}/fudge-wounds.mjs`);
  await context.close();
  return { ...t, errors };
}

export async function benchStartup({ rounds = 9 } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-startup-"));
  try {
    const dirs = await buildLayouts(root);
    for (const d of Object.values(dirs))
      fs.writeFileSync(path.join(d, "index.html"), "<!doctype html><title>start-up</title>");
    const sizes = { split: bundleSizes(dirs.split), single: bundleSizes(dirs.single) };
    const server = await serve(root);
    const base = `http://127.0.0.1:${server.address().port}/`;
    const { browser } = await launchChromium();
    const runs = { split: [], single: [] };
    try {
      await startOnce(browser, base, "split"); // warm-up: the browser's own first start
      for (let i = 0; i < rounds; i++)
        for (const layout of i % 2 ? ["single", "split"] : ["split", "single"])
          runs[layout].push(await startOnce(browser, base, layout));
    } finally {
      await browser.close();
      await new Promise((r) => server.close(r));
    }
    const sum = (xs) => ({
      importMs: median(xs.map((x) => x.importMs)),
      initMs: median(xs.map((x) => x.initMs)),
      setupReadyMs: median(xs.map((x) => x.setupReadyMs)),
      totalMs: median(xs.map((x) => x.totalMs)),
      files: xs[0].files,
      errors: [...new Set(xs.flatMap((x) => x.errors))],
    });
    return { rounds, sizes, split: sum(runs.split), single: sum(runs.single) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const verdict = (ok) => (ok ? "MET" : "NOT MET");

/**
 * What a world of each preset loads at start-up: the set and its own preset's pipeline chunk (loaded
 * from init), against the set with every preset's pipeline in it, as it was before they were chunks
 * (bundleSizes `everyPreset`: the four chunks gzipped with the start-up chunk).
 */
export function worldLines(split) {
  const worlds = Object.entries(split.worlds ?? {});
  if (!worlds.length)
    return ["  no preset chunks found (chunks/preset-<id>-….mjs): every pipeline is in the start-up set"];
  const every = split.everyPreset.gzip;
  return [
    `  a world's start-up with its own preset's pipeline (a chunk loaded from init), against ${kb(every)} gzipped with all four in the start-up set: ${worlds
      .map(([id, w]) => `${id} ${kb(w.gzip)} (−${kb(every - w.gzip)})`)
      .join(", ")}`,
  ];
}

/** The report's lines, goals judged from the run's own figures. */
export function startupLines(r) {
  const { split, single } = r.sizes;
  const lines = [
    `start-up set (the bundle and the chunks it imports at once): ${split.startup.length} files, ${kb(split.startupSize.raw)}, ${kb(split.startupSize.gzip)} gzipped; on demand ${split.lazy.length} chunks, ${kb(split.lazySize.raw)} (${kb(split.lazySize.gzip)} gzipped)`,
    `  the old layout in the same run (the same sources in one bundle, doc comments kept): ${kb(single.startupSize.raw)}, ${kb(single.startupSize.gzip)} gzipped`,
    ...worldLines(split),
    `start-up in Chromium against a minimal Foundry stand-in, median of ${r.rounds} fresh contexts each: import (fetch + parse + evaluate) ${r.split.importMs.toFixed(1)} ms, init ${r.split.initMs.toFixed(1)} ms, setup + ready ${r.split.setupReadyMs.toFixed(1)} ms = ${r.split.totalMs.toFixed(1)} ms (${r.split.files} files); the old layout ${r.single.importMs.toFixed(1)} + ${r.single.initMs.toFixed(1)} + ${r.single.setupReadyMs.toFixed(1)} = ${r.single.totalMs.toFixed(1)} ms (${r.single.files} file)`,
    `goals (issue 34), from the figures above:`,
    `  start-up set ≤ 150 kB gzipped (unminified, with source maps): ${kb(split.startupSize.gzip)} (old layout ${kb(single.startupSize.gzip)}) — ${verdict(split.startupSize.gzip <= STARTUP_GZIP_GOAL)}`,
    `  start-up cost below the old layout's: ${r.split.totalMs.toFixed(1)} ms against ${r.single.totalMs.toFixed(1)} ms — ${verdict(r.split.totalMs < r.single.totalMs)}`,
  ];
  const errors = [...r.split.errors, ...r.single.errors];
  if (errors.length) lines.push(`  page errors at start-up: ${errors.join(" | ")}`);
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--rounds");
  const r = await benchStartup({ rounds: i >= 0 ? Number(process.argv[i + 1]) : 9 });
  if (process.argv.includes("--json")) console.log(JSON.stringify(r));
  else for (const l of startupLines(r)) console.log(l);
  process.exit(r.split.errors.length || r.single.errors.length ? 1 : 0);
}
