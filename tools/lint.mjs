/**
 * npm run lint: the format check, ESLint (type-aware), the layer rules (dependency-cruiser) and
 * the Foundry-free type-check of src/rules and src/system, side by side (each is mostly one
 * core's work). Prints each check's output and time; exits 1 if any failed.
 */
import { spawn } from "node:child_process";

const CHECKS = [
  ["format", "prettier", ["--check", "--log-level", "warn", "**/*.{ts,mts,mjs,css}"]],
  // ESLint's type-aware pass is the slow one (one core): the shipped code, its tools and configs; tests are
  // formatted and layer-checked, not linted (with them the whole run passes a minute on two cores).
  ["eslint", "eslint", ["src", "playground", "tools", "bin", "*.mjs", "*.ts"]],
  ["layers", "depcruise", ["src", "playground", "tools", "tests", "bin", "--config", ".dependency-cruiser.cjs"]],
  ["pure types", "tsc", ["--noEmit", "-p", "tsconfig.pure.json"]],
];

function run([name, bin, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npx", ["--no-install", bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (e) => resolve({ name, ok: false, out: String(e), ms: Date.now() - started }));
    child.on("close", (code) => resolve({ name, ok: code === 0, out, ms: Date.now() - started }));
  });
}

const started = Date.now();
const results = await Promise.all(CHECKS.map(run));
for (const r of results) {
  console.log(`== ${r.name}: ${r.ok ? "ok" : "FAILED"} (${(r.ms / 1000).toFixed(1)} s)`);
  if (r.out.trim()) console.log(r.out.trimEnd());
}
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(
  `lint: ${failed.length ? `failed (${failed.join(", ")})` : "ok"} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(failed.length ? 1 : 0);
