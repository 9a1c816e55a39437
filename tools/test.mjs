/**
 * `npm test`: the unit tests (tests/**, vitest.config.ts) and then the browser tests
 * (tests/browser/**, vitest.browser.config.ts: the playground in headless Chromium), each with
 * vitest's JSON reporter. The last line is computed from those JSON results only:
 *
 *   N passed, N failed
 *
 * A test file that fails to load, or a run that writes no results, counts as a failure.
 * Exit code: 0 only when nothing failed and at least one test ran.
 *
 *   node tools/test.mjs            both suites
 *   node tools/test.mjs --unit     unit tests only
 *   node tools/test.mjs --browser  browser tests only
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(repo, "artifacts/test-results");
mkdirSync(outDir, { recursive: true });
const vitestBin = resolve(repo, "node_modules/vitest/vitest.mjs");

const only = process.argv.includes("--unit") ? "unit" : process.argv.includes("--browser") ? "browser" : null;
const suites = [
  { name: "unit", config: "vitest.config.ts" },
  { name: "browser", config: "vitest.browser.config.ts" },
].filter((s) => !only || s.name === only);

/** Counts from one vitest JSON report. */
export function countResults(report) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    for (const t of tests) {
      if (t.status === "passed") passed++;
      else if (t.status === "failed") {
        failed++;
        failures.push(`${file.name}: ${t.fullName ?? t.title}`);
      }
    }
    // A file that failed without a failed test (import error, failing hook) is one failure.
    if (file.status === "failed" && !tests.some((t) => t.status === "failed")) {
      failed++;
      failures.push(`${file.name}: ${(file.message ?? "file failed").split("\n")[0]}`);
    }
  }
  return { passed, failed, failures };
}

// Plain text in CI logs; colours on a terminal.
const childEnv = { ...process.env };
if (process.env.CI) {
  delete childEnv.FORCE_COLOR;
  childEnv.NO_COLOR = "1";
}

let passed = 0;
let failed = 0;
const failures = [];
for (const s of suites) {
  const out = resolve(outDir, `${s.name}.json`);
  rmSync(out, { force: true });
  console.log(`\n── ${s.name} tests (${s.config}) ──`);
  const r = spawnSync(
    process.execPath,
    [
      vitestBin,
      "run",
      "-c",
      s.config,
      "--passWithNoTests",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${out}`,
    ],
    { cwd: repo, stdio: ["ignore", "inherit", "inherit"], env: childEnv },
  );
  if (!existsSync(out)) {
    failed++;
    failures.push(`${s.name}: vitest wrote no results (exit ${r.status ?? r.signal})`);
    continue;
  }
  const c = countResults(JSON.parse(readFileSync(out, "utf8")));
  passed += c.passed;
  failed += c.failed;
  failures.push(...c.failures);
  if (r.status !== 0 && c.failed === 0) {
    // vitest failed for a reason its report does not count (e.g. an unhandled error).
    failed++;
    failures.push(`${s.name}: vitest exited ${r.status ?? r.signal} with no failed test in its report`);
  }
}

if (failures.length) {
  console.log("\nFailed:");
  for (const f of failures) console.log(`  ✗ ${f.replace(repo + "/", "")}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
