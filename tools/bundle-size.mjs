/**
 * What the system's bundle loads, read from the built files: the start-up set (the bundle and every
 * chunk it imports statically, transitively) and the chunks loaded on demand (dynamic imports), with
 * their sizes raw and gzipped; and what a world of each preset loads at start-up (the set and its
 * preset's pipeline chunk, `chunks/preset-<id>-….mjs`, src/rules/presets.ts). Used by `npm run
 * bench` (the start-up goal) and `npm run release:check` (every chunk in the zip, one per preset, and
 * the click flows' chunk).
 *
 *   node tools/bundle-size.mjs [dist]              prints the start-up set and the lazy chunks
 *   node tools/bundle-size.mjs [dist] --modules    and each source file's share of the start-up set
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

/** The chunk of the click flows among `names` (vite.config.ts: `chunks/clicks-<hash>.mjs`, src/system/flows/clicks.ts), or undefined. */
export function clicksChunk(names) {
  const found = names.filter((n) => /^chunks\/clicks-[\w-]+\.mjs$/.test(n));
  return found.length === 1 ? found[0] : undefined;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One source map segment's numbers (base64 VLQ). */
function vlq(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const d = B64.indexOf(ch);
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = shift = 0;
    }
  }
  return out;
}

/**
 * Each source file's code in the built `files` (read with their `.map`): the generated text its
 * mappings cover, by source path ("(unmapped)": whitespace and glue). Used to see what makes a chunk big.
 */
export function sourceShares(dir, files) {
  const text = {};
  const add = (name, t) => (text[name] = (text[name] ?? "") + t);
  for (const f of files) {
    const lines = fs.readFileSync(path.join(dir, f), "utf8").split("\n");
    const map = JSON.parse(fs.readFileSync(path.join(dir, `${f}.map`), "utf8"));
    let src = 0;
    map.mappings.split(";").forEach((line, i) => {
      const code = lines[i] ?? "";
      if (i < lines.length - 1) add("(unmapped)", "\n");
      let col = 0;
      const segs = line ? line.split(",").map(vlq) : [];
      if (!segs.length) return void add("(unmapped)", code);
      const points = segs.map((g) => [(col += g[0]), g.length > 1 ? (src += g[1]) : null]);
      add("(unmapped)", code.slice(0, points[0][0]));
      points.forEach(([c, s], k) => add(s === null ? "(unmapped)" : map.sources[s], code.slice(c, points[k + 1]?.[0])));
    });
    add("(unmapped)", lines.slice(map.mappings.split(";").length).join("\n"));
  }
  return Object.entries(text)
    .map(([source, t]) => ({
      source: source.slice(Math.max(0, source.indexOf("src/"))),
      raw: Buffer.byteLength(t),
      gzip: gz(Buffer.from(t)),
    }))
    .sort((a, b) => b.raw - a.raw);
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
  const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "dist";
  const r = bundleSizes(dir);
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(`start-up: ${r.startup.length} files, ${kb(r.startupSize.raw)} (${kb(r.startupSize.gzip)} gzipped)`);
  for (const n of r.startup) console.log(`  ${n}`);
  console.log(`on demand: ${r.lazy.length} files, ${kb(r.lazySize.raw)} (${kb(r.lazySize.gzip)} gzipped)`);
  for (const n of r.lazy) console.log(`  ${n}`);
  for (const [id, w] of Object.entries(r.worlds))
    console.log(`a ${id} world at start-up: ${w.files} files, ${kb(w.raw)} (${kb(w.gzip)} gzipped), with ${w.chunk}`);
  if (process.argv.includes("--modules")) {
    console.log("the start-up set by source file (raw; gzipped alone, so the sum exceeds the set's):");
    for (const m of sourceShares(dir, r.startup))
      console.log(`  ${kb(m.raw).padStart(9)} ${kb(m.gzip).padStart(9)}  ${m.source}`);
  }
  if (r.missing.length) {
    console.log(`missing: ${r.missing.map((m) => `${m.name} (imported by ${m.from})`).join(", ")}`);
    process.exit(1);
  }
}
