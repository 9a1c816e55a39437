/**
 * Finds and launches the headless Chromium used by the browser tests and the browser benchmark.
 *
 * Where the browser comes from, in order (never a browser downloaded by a test tool):
 *   1. CHROME_PATH (an executable path),
 *   2. the system browser: /usr/bin/chromium (Debian's `chromium` package), then other usual names,
 *   3. the npm package `@sparticuz/chromium`, if it happens to be installed.
 *
 * `node tools/chromium.mjs` prints the browser found (or exits 1 with a hint).
 */
import { existsSync, accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
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

const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns `{ executablePath, source, args }` or null when no browser is available.
 * `args` are extra launch arguments a source needs (none for system browsers).
 */
export async function findChromium(env = process.env) {
  if (env.CHROME_PATH) {
    if (isExecutable(env.CHROME_PATH)) return { executablePath: env.CHROME_PATH, source: "CHROME_PATH", args: [] };
    throw new Error(`CHROME_PATH=${env.CHROME_PATH} is not an executable file`);
  }
  for (const p of SYSTEM_PATHS) if (existsSync(p) && isExecutable(p)) return { executablePath: p, source: "system", args: [] };
  // Optional: @sparticuz/chromium (not a dependency; supported when present).
  try {
    const require = createRequire(import.meta.url);
    const resolved = require.resolve("@sparticuz/chromium");
    const mod = await import(pathToFileURL(resolved).href);
    const sc = mod.default ?? mod;
    const executablePath = await sc.executablePath();
    if (executablePath && isExecutable(executablePath)) return { executablePath, source: "@sparticuz/chromium", args: Array.isArray(sc.args) ? sc.args : [] };
  } catch {
    /* not installed */
  }
  return null;
}

/** Launches headless Chromium through playwright-core. Throws with a hint when none is found. */
export async function launchChromium(options = {}) {
  const found = await findChromium();
  if (!found)
    throw new Error(
      "No Chromium found. Set CHROME_PATH, or install Debian's browser: apt-get install -y chromium (the CI script .ci/run does this).",
    );
  const { chromium } = await import("playwright-core");
  const args = [...new Set([...CHROMIUM_ARGS, ...found.args])];
  const browser = await chromium.launch({ executablePath: found.executablePath, args, ...options });
  return { browser, ...found };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = await findChromium().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
  if (!found) {
    console.error("No Chromium found (CHROME_PATH, /usr/bin/chromium, @sparticuz/chromium).");
    process.exit(1);
  }
  if (process.argv.includes("--launch")) {
    const { browser } = await launchChromium();
    console.log(`${found.executablePath} (${found.source}) version ${browser.version()}`);
    await browser.close();
  } else console.log(`${found.executablePath} (${found.source})`);
}
