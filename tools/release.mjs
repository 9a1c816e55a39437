#!/usr/bin/env node
/**
 * What a release publishes, built and checked the same way locally and in the release workflow.
 *
 *   npm run release:check [-- --repo owner/name] [--tag vX.Y.Z] [--out DIR]
 *
 * 1. Fills system.json for the release (tools/release-manifest.mjs): version from the tag,
 *    `url` = https://github.com/<repo>, `manifest` = …/releases/latest/download/system.json,
 *    `download` = …/releases/download/<tag>/<id>.zip. The repository's own system.json is not
 *    changed: the filled copy is passed to the build.
 * 2. Builds the package into DIR (default: a temporary folder; the workflow uses dist/).
 * 3. Checks what would be published: versions agree (tag, package.json, package-lock.json,
 *    system.json, a CHANGELOG.md entry), the URLs are well-formed https URLs of that repository
 *    with no placeholder left, and the zip holds exactly the files of DIR, byte for byte, with
 *    the filled system.json at its root and LICENSE, NOTICE.md and CHANGELOG.md in it.
 *
 * --repo defaults to $GITHUB_REPOSITORY, then to the GitHub repository of `git remote get-url
 * origin`; without either the URLs are checked for the stand-in "example/<id>" (and it says so).
 * --tag defaults to v<package.json version>. Exit 0 when everything holds, 1 otherwise.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PLACEHOLDER, fillManifest } from "./release-manifest.mjs";
import { entriesOf, unzipBuffer } from "./zip.mjs";
import { PRESET_IDS, clicksChunk, moduleGraph, presetChunks } from "./bundle-size.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (f) => JSON.parse(fs.readFileSync(path.join(root, f), "utf8"));

/** Files that must ship in every release zip. */
export const REQUIRED_FILES = ["system.json", "LICENSE", "NOTICE.md", "CHANGELOG.md"];
/** The forecast worker, started by URL beside the bundle (src/system/forecast-queue.ts FORECAST_WORKER_FILE). */
export const WORKER_FILE = "fudge-forecast.mjs";

/** owner/name of a GitHub remote URL (https or ssh), or null. */
export function githubRepoOf(remote) {
  const m = /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(String(remote ?? "").trim());
  return m ? `${m[1]}/${m[2]}` : null;
}

function isHttpsUrl(s) {
  try {
    const u = new URL(s);
    return u.protocol === "https:" && !!u.hostname && !/\s/.test(s);
  } catch {
    return false;
  }
}

/** Whether CHANGELOG.md has a `## [version]` entry. */
export function changelogHas(changelog, version) {
  return new RegExp(`^## \\[${version.replace(/[.+]/g, "\\$&")}\\]`, "m").test(changelog);
}

/**
 * The problems with a release (empty = publishable). Pure: every input is plain data.
 * `zip` and `dist` map file names to bytes.
 */
export function checkRelease({ repo, tag, filled, pkg, lock, changelog, zip, dist }) {
  const problems = [];
  const version = String(tag).replace(/^v/, "");
  const base = `https://github.com/${repo}`;
  // Versions agree.
  if (filled.version !== version) problems.push(`system.json version ${filled.version} is not the tag's ${version}`);
  if (pkg.version !== version) problems.push(`package.json version ${pkg.version} is not the tag's ${version}`);
  if (lock && lock.version !== pkg.version)
    problems.push(`package-lock.json version ${lock.version} is not package.json's ${pkg.version}`);
  if (lock?.packages?.[""] && lock.packages[""].version !== pkg.version)
    problems.push(`package-lock.json packages[""] version is not package.json's ${pkg.version}`);
  if (!changelogHas(changelog, version)) problems.push(`CHANGELOG.md has no "## [${version}]" entry`);
  if (!/^## \[Unreleased\]/m.test(changelog)) problems.push('CHANGELOG.md has no "## [Unreleased]" section');
  // URLs: well-formed, of this repository and tag, no placeholder.
  const expected = {
    url: base,
    manifest: `${base}/releases/latest/download/system.json`,
    download: `${base}/releases/download/${tag}/${filled.id}.zip`,
  };
  for (const [k, want] of Object.entries(expected)) {
    const v = filled[k];
    if (typeof v !== "string" || !isHttpsUrl(v))
      problems.push(`system.json ${k} is not an https URL: ${JSON.stringify(v)}`);
    else if (v !== want) problems.push(`system.json ${k} is ${v}, expected ${want}`);
    if (typeof v === "string" && PLACEHOLDER.test(v)) problems.push(`system.json ${k} still holds a placeholder: ${v}`);
  }
  if (!filled.compatibility?.minimum || !filled.compatibility?.verified)
    problems.push("system.json has no compatibility.minimum/verified");
  // The zip = dist, byte for byte (the zip itself and LevelDB LOCK files aside, as the build does).
  const distNames = [...dist.keys()].filter((n) => !n.endsWith(".zip") && !/(^|\/)LOCK$/.test(n)).sort();
  const zipNames = [...zip.keys()].sort();
  const missing = distNames.filter((n) => !zip.has(n));
  const extra = zipNames.filter((n) => !dist.has(n));
  if (missing.length)
    problems.push(`the zip lacks files of dist: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? " …" : ""}`);
  if (extra.length)
    problems.push(
      `the zip holds files that are not in dist: ${extra.slice(0, 5).join(", ")}${extra.length > 5 ? " …" : ""}`,
    );
  const differ = distNames.filter((n) => zip.has(n) && !zip.get(n).equals(dist.get(n)));
  if (differ.length) problems.push(`the zip's copy differs from dist: ${differ.slice(0, 5).join(", ")}`);
  for (const f of REQUIRED_FILES) if (!zip.has(f)) problems.push(`the zip has no ${f}`);
  const zipped = zip.get("system.json");
  if (zipped && JSON.stringify(JSON.parse(zipped.toString("utf8"))) !== JSON.stringify(filled))
    problems.push("the zip's system.json is not the filled manifest");
  // Everything the manifest names is in the zip.
  const named = [
    ...(filled.esmodules ?? []),
    ...(filled.styles ?? []).map((s) => (typeof s === "string" ? s : s.src)),
    ...(filled.languages ?? []).map((l) => l.path),
  ];
  for (const f of named) if (!zip.has(f)) problems.push(`system.json names ${f}, which is not in the zip`);
  // Every chunk the bundle loads, at start-up or on demand, and the forecast worker's own imports.
  const read = (n) => (zip.has(n) ? zip.get(n).toString("utf8") : null);
  if (!zip.has(WORKER_FILE)) problems.push(`the zip has no forecast worker ${WORKER_FILE}`);
  for (const entry of [...(filled.esmodules ?? []), WORKER_FILE].filter((f) => zip.has(f)))
    for (const m of moduleGraph(entry, read).missing)
      problems.push(`${m.from} imports ${m.name}, which is not in the zip`);
  // Each preset's attack pipeline is a chunk of its own, loaded on demand (src/rules/presets.ts).
  const bundle = filled.esmodules?.[0];
  if (bundle && zip.has(bundle)) {
    const lazy = moduleGraph(bundle, read).lazy;
    const found = presetChunks(lazy);
    for (const id of PRESET_IDS)
      if (!found[id])
        problems.push(`the bundle loads no pipeline chunk of preset ${id} (chunks/preset-${id}-….mjs) on demand`);
    // The flows of clicks and later events: one chunk, loaded by the first (src/system/flows/clicks.ts).
    if (!clicksChunk(lazy))
      problems.push("the bundle loads no chunk of the click flows (chunks/clicks-….mjs) on demand");
  }
  for (const p of filled.packs ?? [])
    if (!zip.has(`${p.path}/CURRENT`)) problems.push(`system.json names pack ${p.path}, which is not in the zip`);
  return problems;
}

function arg(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function originRepo() {
  try {
    return githubRepoOf(
      execFileSync("git", ["remote", "get-url", "origin"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
  } catch {
    return null;
  }
}

const filesOf = (dir) => new Map(entriesOf(dir).map((e) => [e.name, e.data]));

export async function main(argv = process.argv.slice(2)) {
  const pkg = readJson("package.json");
  const source = readJson("system.json");
  let repo = arg(argv, "--repo") ?? process.env.GITHUB_REPOSITORY ?? originRepo();
  const standIn = !repo;
  if (standIn) repo = `example/${source.id}`;
  const tag = arg(argv, "--tag") ?? `v${pkg.version}`;
  let filled;
  try {
    filled = fillManifest(source, repo, tag);
  } catch (e) {
    console.error(`release: ${e.message}`);
    return 1;
  }
  const out = path.resolve(arg(argv, "--out") ?? fs.mkdtempSync(path.join(os.tmpdir(), "fudge-release-")));
  const manifestFile = path.join(os.tmpdir(), `fudge-release-system-${process.pid}.json`);
  fs.writeFileSync(manifestFile, JSON.stringify(filled, null, 2) + "\n");
  console.log(
    `release ${tag} of ${repo}${standIn ? " (no GitHub remote or --repo: URLs checked for this stand-in)" : ""}: building into ${out}`,
  );
  const build = spawnSync(
    process.execPath,
    [path.join(root, "tools/build.mjs"), "--out", out, "--manifest", manifestFile],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" },
  );
  fs.rmSync(manifestFile, { force: true });
  if (build.status !== 0) {
    console.error(build.stdout);
    console.error(`release: the build failed (exit ${build.status})`);
    return 1;
  }
  const zipFile = path.join(out, `${filled.id}.zip`);
  const zip = fs.existsSync(zipFile) ? unzipBuffer(fs.readFileSync(zipFile)) : new Map();
  const lockFile = path.join(root, "package-lock.json");
  const problems = checkRelease({
    repo,
    tag,
    filled,
    pkg,
    lock: fs.existsSync(lockFile) ? JSON.parse(fs.readFileSync(lockFile, "utf8")) : null,
    changelog: fs.existsSync(path.join(root, "CHANGELOG.md"))
      ? fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8")
      : "",
    zip,
    dist: filesOf(out),
  });
  if (problems.length) {
    console.error(`release: ${problems.length} problem(s):`);
    for (const p of problems) console.error(`  ✗ ${p}`);
    return 1;
  }
  console.log("would publish:");
  console.log(`  ${path.join(out, "system.json")}   version ${filled.version}`);
  console.log(`  ${zipFile}   ${zip.size} files, ${(fs.statSync(zipFile).size / 1024).toFixed(0)} KiB`);
  console.log(`  manifest URL: ${filled.manifest}`);
  console.log(`  download URL: ${filled.download}`);
  const chunks = [...zip.keys()].filter((n) => n.startsWith("chunks/") && n.endsWith(".mjs"));
  console.log(`  ${chunks.length} chunks loaded on demand or shared, every import found in the zip`);
  const presets = presetChunks(chunks);
  console.log(`  each preset's attack pipeline on demand: ${PRESET_IDS.map((id) => presets[id]).join(", ")}`);
  console.log(`  the click flows on demand: ${clicksChunk(chunks)}`);
  console.log("release check passed: versions agree, URLs well-formed, zip = dist, every chunk in the zip");
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
