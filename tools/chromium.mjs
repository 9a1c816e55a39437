/**
 * Finds and launches the headless Chromium used by the browser tests and the browser benchmark.
 *
 * The default is the PINNED browser: the npm devDependency `@sparticuz/chromium` (exact version in
 * package.json, so `npm install` brings it and every machine tests with the same Chromium). It
 * ships brotli-compressed for linux-x64; the first launch unpacks it once into
 * node_modules/.cache/fudge-chromium/<version>/ (offline, no download, no install script).
 *
 * Where the browser comes from, in order:
 *   1. CHROME_PATH — an explicit executable path always wins (an override for debugging or for
 *      a platform the pinned build does not cover). An empty CHROME_PATH counts as unset.
 *   2. the pinned @sparticuz/chromium (linux-x64 only).
 *   3. a system browser (/usr/bin/chromium, …) — only where the pinned build cannot run
 *      (macOS, arm64, …), and never when FUDGE_CHROMIUM=pinned.
 * FUDGE_CHROMIUM=pinned  use only the pinned browser (CI does; fails if it cannot run here).
 * FUDGE_CHROMIUM=system  prefer a system browser over the pinned one.
 *
 * The pinned package's own launch flags are NOT used: its `--single-process` and `--no-zygote`
 * (made for AWS Lambda) kill every second browser context. We launch with CHROMIUM_ARGS only.
 *
 *   node tools/chromium.mjs            prints the browser chosen and where it came from
 *   node tools/chromium.mjs --launch   also launches it and prints its version
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Launch flags of @sparticuz/chromium that break multi-context use outside Lambda. */
export const DROPPED_PINNED_ARGS = ["--single-process", "--no-zygote"];

export const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PINNED = "@sparticuz/chromium";

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The pinned package's directory and version, or null when it is not installed. */
function pinnedPackage() {
  try {
    const require = createRequire(path.join(repo, "package.json"));
    const entry = require.resolve(PINNED);
    // Its package.json is not exported: walk up from the entry point to it.
    for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const file = path.join(dir, "package.json");
      if (!fs.existsSync(file)) continue;
      const { name, version } = JSON.parse(fs.readFileSync(file, "utf8"));
      if (name === PINNED) return { dir, version, entry };
    }
    return null;
  } catch {
    return null;
  }
}

/** Whether the pinned build runs on this platform (it ships linux-x64 binaries only). */
export function pinnedSupported(platform = process.platform, arch = process.arch) {
  return platform === "linux" && arch === "x64";
}

/**
 * Unpacks the pinned browser into node_modules/.cache/fudge-chromium/<version>/ (once) and
 * returns the executable. The package unpacks into os.tmpdir(), and would reuse any
 * /tmp/chromium it finds (another version, another user's, half written): so it is pointed at a
 * private staging folder through TMPDIR and the result is renamed into place atomically, which
 * also keeps parallel test processes from seeing a half-unpacked browser.
 */
async function unpackPinned(pkg, cacheRoot = path.join(repo, "node_modules/.cache/fudge-chromium")) {
  const target = path.join(cacheRoot, pkg.version);
  const exe = path.join(target, "chromium");
  if (isExecutable(exe)) return exe;
  fs.mkdirSync(cacheRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cacheRoot, `.${pkg.version}-`));
  const savedTmp = process.env.TMPDIR;
  try {
    process.env.TMPDIR = staging;
    const mod = await import(pathToFileURL(pkg.entry).href);
    const sc = mod.default ?? mod;
    const unpacked = await sc.executablePath(path.join(pkg.dir, "bin"));
    if (path.dirname(unpacked) !== staging) throw new Error(`${PINNED} unpacked to ${unpacked}, outside ${staging}`);
    // The NSS/NSPR/expat libraries the browser links against, from the same package: a machine
    // without them (no system Chromium, a slim image) still runs it, and every machine runs the
    // same ones.
    const libs = path.join(pkg.dir, "bin", "al2023.tar.br");
    if (fs.existsSync(libs)) extractTarBr(libs, path.join(staging, "al2023"));
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  try {
    fs.renameSync(staging, target);
  } catch (e) {
    // Another process finished first: use its copy.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!isExecutable(exe)) throw e;
  }
  return exe;
}

/** Extracts the regular files of a brotli-compressed tar archive (the package's library layer). */
export function extractTarBr(file, dest) {
  const tar = zlib.brotliDecompressSync(fs.readFileSync(file));
  const text = (a, b) => tar.subarray(a, b).toString("utf8").replace(/\0.*$/s, "");
  for (let off = 0; off + 512 <= tar.length;) {
    const name = text(off, off + 100);
    if (!name) break;
    const size = parseInt(text(off + 124, off + 136).trim() || "0", 8);
    const type = text(off + 156, off + 157) || "0";
    const prefix = text(off + 345, off + 500);
    const rel = path.normalize(prefix ? `${prefix}/${name}` : name);
    if (path.isAbsolute(rel) || rel.startsWith("..")) throw new Error(`${file}: unsafe path ${rel}`);
    const body = off + 512;
    if (type === "0") {
      fs.mkdirSync(path.join(dest, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(dest, rel), tar.subarray(body, body + size), { mode: 0o755 });
    } else if (type === "5") fs.mkdirSync(path.join(dest, rel), { recursive: true });
    off = body + Math.ceil(size / 512) * 512;
  }
}

function findSystem() {
  for (const p of SYSTEM_PATHS) if (isExecutable(p)) return { executablePath: p, source: "system", args: [] };
  return null;
}

/**
 * Returns `{ executablePath, source, version?, args, env? }` or null when no browser is available.
 * `source` is "CHROME_PATH", "pinned" or "system"; `env` holds what the browser process needs
 * (the pinned build: LD_LIBRARY_PATH to its own libraries).
 */
export async function findChromium(env = process.env) {
  const env0 = env;
  if (env.CHROME_PATH) {
    if (isExecutable(env.CHROME_PATH)) return { executablePath: env.CHROME_PATH, source: "CHROME_PATH", args: [] };
    throw new Error(`CHROME_PATH=${env.CHROME_PATH} is not an executable file`);
  }
  const mode = env.FUDGE_CHROMIUM ?? "";
  if (mode && mode !== "pinned" && mode !== "system")
    throw new Error(`FUDGE_CHROMIUM=${mode}: expected "pinned" or "system"`);
  if (mode === "system") {
    const sys = findSystem();
    if (sys) return sys;
  }
  const pkg = pinnedPackage();
  if (pkg && pinnedSupported()) {
    const executablePath = await unpackPinned(pkg);
    const libDir = path.join(path.dirname(executablePath), "al2023", "lib");
    const env = fs.existsSync(libDir)
      ? { LD_LIBRARY_PATH: [libDir, env0.LD_LIBRARY_PATH].filter(Boolean).join(":") }
      : {};
    return { executablePath, source: "pinned", version: pkg.version, args: [], env };
  }
  if (mode === "pinned") {
    throw new Error(
      pkg
        ? `FUDGE_CHROMIUM=pinned: ${PINNED} ships linux-x64 only (this is ${process.platform}-${process.arch}); set CHROME_PATH`
        : `FUDGE_CHROMIUM=pinned: ${PINNED} is not installed; run npm install`,
    );
  }
  return findSystem();
}

/** Launches headless Chromium through playwright-core. Throws with a hint when none is found. */
export async function launchChromium(options = {}) {
  const found = await findChromium();
  if (!found)
    throw new Error(
      `No Chromium found: ${PINNED} (a devDependency) is missing or cannot run on ${process.platform}-${process.arch}. Run npm install, or set CHROME_PATH to a Chromium/Chrome executable.`,
    );
  const { chromium } = await import("playwright-core");
  const args = [...new Set([...CHROMIUM_ARGS, ...found.args])].filter((a) => !DROPPED_PINNED_ARGS.includes(a));
  const launchEnv = found.env ? { ...process.env, ...found.env } : undefined;
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    args,
    ...(launchEnv ? { env: launchEnv } : {}),
    ...options,
  });
  return { browser, ...found };
}

const describe = (f) => `${f.executablePath} (${f.source}${f.version ? ` ${PINNED}@${f.version}` : ""})`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const found = await findChromium();
    if (!found) {
      console.error(
        `No Chromium found (CHROME_PATH, ${PINNED}, ${SYSTEM_PATHS[0]}). Run npm install, or set CHROME_PATH.`,
      );
      process.exit(1);
    }
    if (process.argv.includes("--launch")) {
      const { browser } = await launchChromium();
      // Two contexts in a row: the pinned package's Lambda flags break exactly this.
      for (let i = 0; i < 2; i++) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        await page.setContent("<p>ok</p>");
        if ((await page.textContent("p")) !== "ok") throw new Error("the browser did not render a page");
        await ctx.close();
      }
      console.log(`${describe(found)} version ${browser.version()}`);
      await browser.close();
    } else console.log(describe(found));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
