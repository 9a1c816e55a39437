/**
 * What the system's bundle loads, read from the built files: the start-up set (the bundle and every
 * chunk it imports statically, transitively) and the chunks loaded on demand (dynamic imports), with
 * their sizes raw and gzipped; and what a world of each preset loads at start-up (the set and its
 * preset's pipeline chunk, `chunks/preset-<id>-….mjs`, src/rules/presets.ts). Used by `npm run
 * bench` (the start-up goal) and `npm run release:check` (every chunk in the zip, one per preset).
 *
 *   node tools/bundle-size.mjs [dist]      prints the start-up set and the lazy chunks
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const STATIC = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The relative module specifiers of an ES module's code: imported statically, and by `import("…")`. */
export function moduleImports(code) {
  const found = (re) => [...code.matchAll(re)].map((m) => m[1]);
  return { static: [...new Set(found(STATIC))], dynamic: [...new Set(found(DYNAMIC))] };
}

/**
 * Walks the module graph from `entry` (a path relative to the package root) through `read(name)`
 * (the file's text, or null when it is missing). Returns the start-up set, the lazy modules (reached
 * only through a dynamic import) and the imports that name a file that is not there.
 */
export function moduleGraph(entry, read) {
  const startup = new Set();
  const lazy = new Set();
  const missing = [];
  const visit = (name, how, from) => {
    if (startup.has(name) || (how === "lazy" && lazy.has(name))) return;
    const code = read(name);
    if (code === null) return void missing.push({ name, from });
    if (how === "startup") {
      startup.add(name);
      lazy.delete(name);
    } else lazy.add(name);
    const { static: s, dynamic: d } = moduleImports(code);
    const at = (spec) => path.posix.normalize(path.posix.join(path.posix.dirname(name), spec));
    for (const spec of s) visit(at(spec), how, name);
    for (const spec of d) visit(at(spec), "lazy", name);
  };
  visit(entry, "startup", null);
  for (const name of startup) lazy.delete(name);
  return { startup: [...startup], lazy: [...lazy], missing };
}

const gz = (buf) => zlib.gzipSync(buf).length;

/** The presets whose attack pipelines are chunks of their own (src/rules/pipeline.ts PRESETS; a test keeps them equal). */
export const PRESET_IDS = ["fudge", "miniatures", "fate", "volt"];

/** The pipeline chunk of each preset among `names` (vite.config.ts names it `chunks/preset-<id>-<hash>.mjs`). */
export function presetChunks(names) {
  const out = {};
  for (const id of PRESET_IDS) {
    const found = names.filter((n) => new RegExp(`^chunks/preset-${id}-[\\w-]+\\.mjs$`).test(n));
    if (found.length === 1) out[id] = found[0];
  }
  return out;
}

/** The start-up set and the lazy chunks of the bundle `entry` in `dir`, with their sizes. */
export function bundleSizes(dir, entry = "fudge-wounds.mjs") {
  const read = (name) => {
    const f = path.join(dir, name);
    return fs.existsSync(f) ? fs.readFileSync(f, "utf8") : null;
  };
  const g = moduleGraph(entry, read);
  const size = (names) =>
    names.reduce(
      (t, n) => {
        const b = fs.readFileSync(path.join(dir, n));
        return { raw: t.raw + b.length, gzip: t.gzip + gz(b) };
      },
      { raw: 0, gzip: 0 },
    );
  // A world of one preset starts with the start-up set and its preset's chunk (with what that
  // chunk imports that is not in the set already).
  const worlds = {};
  const extras = new Set();
  for (const [id, chunk] of Object.entries(presetChunks(g.lazy))) {
    const own = moduleGraph(chunk, read).startup.filter((n) => !g.startup.includes(n));
    for (const n of own) extras.add(n);
    worlds[id] = { chunk, files: g.startup.length + own.length, ...size([...g.startup, ...own]) };
  }
  // The start-up set as it would be with every preset's pipeline in it: the entry, and its start-up
  // chunks and every preset chunk gzipped together (as one start-up chunk holding them all).
  const bytes = (n) => fs.readFileSync(path.join(dir, n));
  const chunks = Buffer.concat([...g.startup.filter((n) => n !== entry), ...extras].map(bytes));
  const everyPreset = { gzip: gz(bytes(entry)) + gz(chunks) };
  return { ...g, startupSize: size(g.startup), lazySize: size(g.lazy), worlds, everyPreset };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? "dist";
  const r = bundleSizes(dir);
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(`start-up: ${r.startup.length} files, ${kb(r.startupSize.raw)} (${kb(r.startupSize.gzip)} gzipped)`);
  for (const n of r.startup) console.log(`  ${n}`);
  console.log(`on demand: ${r.lazy.length} files, ${kb(r.lazySize.raw)} (${kb(r.lazySize.gzip)} gzipped)`);
  for (const n of r.lazy) console.log(`  ${n}`);
  for (const [id, w] of Object.entries(r.worlds))
    console.log(`a ${id} world at start-up: ${w.files} files, ${kb(w.raw)} (${kb(w.gzip)} gzipped), with ${w.chunk}`);
  if (r.missing.length) {
    console.log(`missing: ${r.missing.map((m) => `${m.name} (imported by ${m.from})`).join(", ")}`);
    process.exit(1);
  }
}
