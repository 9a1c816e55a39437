/**
 * `npm run release:check` (tools/release.mjs): builds the release with the filled manifest and
 * refuses anything the workflow should not publish — versions that disagree, URLs that are not
 * this repository's (or still hold placeholders), a zip that is not exactly dist.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changelogHas, checkRelease, githubRepoOf } from "../../tools/release.mjs";
// @ts-expect-error plain .mjs tool without types
import { PRESET_IDS, bundleSizes, clicksChunk, sourceShares } from "../../tools/bundle-size.mjs";
import { PRESETS } from "../../src/rules";
// @ts-expect-error plain .mjs tool without types
import { entriesOf, unzipBuffer } from "../../tools/zip.mjs";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const changelog = fs.readFileSync("CHANGELOG.md", "utf8");
const tag = `v${pkg.version}`;
const repo = "acme/fudge-wounds";
let out: string;
let run: { status: number | null; stdout: string; stderr: string };

/** A fresh copy of the inputs of checkRelease for the built release. */
function inputs() {
  const dist = new Map<string, Buffer>(entriesOf(out).map((e: { name: string; data: Buffer }) => [e.name, e.data]));
  const zip: Map<string, Buffer> = unzipBuffer(fs.readFileSync(path.join(out, "fudge-wounds.zip")));
  const filled = JSON.parse(fs.readFileSync(path.join(out, "system.json"), "utf8"));
  return { repo, tag, filled, pkg: { ...pkg }, lock: structuredClone(lock), changelog, zip, dist };
}

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-release-test-"));
  run = spawnSync(process.execPath, ["tools/release.mjs", "--repo", repo, "--tag", tag, "--out", out], {
    encoding: "utf8",
  });
}, 180_000);
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe("npm run release:check", () => {
  it("builds and passes for this repository's version", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`manifest URL: https://github.com/${repo}/releases/latest/download/system.json`);
    expect(run.stdout).toContain(`download URL: https://github.com/${repo}/releases/download/${tag}/fudge-wounds.zip`);
    expect(checkRelease(inputs())).toEqual([]);
  });

  it("ships LICENSE, NOTICE.md and CHANGELOG.md, and the filled system.json with no placeholder", () => {
    const { zip } = inputs();
    for (const f of ["LICENSE", "NOTICE.md", "CHANGELOG.md"]) expect(zip.has(f), f).toBe(true);
    const shipped = JSON.parse(zip.get("system.json")!.toString("utf8"));
    for (const k of ["url", "manifest", "download"]) expect(shipped[k], k).not.toMatch(/OWNER|REPO|VERSION/);
    expect(shipped.url).toBe(`https://github.com/${repo}`);
  });

  it("refuses a zip without a chunk the bundle imports, on demand or at start-up, or without the forecast worker", () => {
    const lazy: string[] = bundleSizes(out).lazy;
    const shared: string[] = bundleSizes(out).startup.filter((n: string) => n.startsWith("chunks/"));
    expect(lazy.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0);
    for (const gone of [lazy[0], shared[0], "fudge-forecast.mjs"]) {
      const a = inputs();
      // Gone from both: the zip still equals dist, and only the import graph sees it.
      a.zip.delete(gone);
      a.dist.delete(gone);
      expect(checkRelease(a).join("\n"), gone).toMatch(
        gone === "fudge-forecast.mjs"
          ? /no forecast worker fudge-forecast\.mjs/
          : new RegExp(`imports ${gone}, which is not in the zip`),
      );
    }
  });

  it("loads on demand, not at start-up: the forecast engine, the converter, the Quench batches, the world migration, the settings menu", () => {
    const { startup, lazy } = bundleSizes(out);
    const text = (names: string[]) => names.map((n: string) => fs.readFileSync(path.join(out, n), "utf8")).join("\n");
    const [atStart, onDemand] = [text(startup), text(lazy)];
    for (const marker of [
      "function duelForecast(",
      "function importFudgeRpgBatch(",
      "function registerQuenchBatches(",
      "async function migrateWorld(",
      "class RulesMenu extends",
    ]) {
      expect(atStart, marker).not.toContain(marker);
      expect(onDemand, marker).toContain(marker);
    }
  });

  it("loads each preset's attack pipeline on demand, a chunk of its own named for its preset; release:check lists them and refuses a zip without one", () => {
    expect(PRESET_IDS).toEqual([...PRESETS]);
    const { startup, lazy, worlds } = bundleSizes(out);
    const text = (names: string[]) => names.map((n: string) => fs.readFileSync(path.join(out, n), "utf8")).join("\n");
    const markers: Record<string, string> = {
      fudge: "function fudgePairedOutcomes(",
      miniatures: "function defenceless(",
      fate: "function checkFateAttacker(",
      volt: "function parseVoltRequest(",
    };
    for (const id of PRESET_IDS) {
      const chunk = lazy.find((n: string) => n.startsWith(`chunks/preset-${id}-`));
      expect(chunk, id).toBeDefined();
      expect(text(startup), id).not.toContain(markers[id]);
      expect(text([chunk]), id).toContain(markers[id]);
      // A world of this preset starts with the start-up set and its own preset's chunk, no other's.
      expect(worlds[id].chunk).toBe(chunk);
      expect(worlds[id].gzip).toBeGreaterThan(bundleSizes(out).startupSize.gzip);
      expect(run.stdout).toContain(chunk);
    }
    expect(run.stdout).toMatch(/each preset's attack pipeline on demand: chunks\/preset-fudge-/);
    const a = inputs();
    const volt = lazy.find((n: string) => n.startsWith("chunks/preset-volt-"));
    a.zip.delete(volt);
    a.dist.delete(volt);
    expect(checkRelease(a).join("\n")).toMatch(/the bundle loads no pipeline chunk of preset volt/);
  });

  it("loads the flows of clicks and later events on demand, one chunk (chunks/clicks-…); release:check lists it and refuses a zip without it", () => {
    const { startup, lazy } = bundleSizes(out);
    const text = (names: string[]) => names.map((n: string) => fs.readFileSync(path.join(out, n), "utf8")).join("\n");
    const chunk = clicksChunk(lazy);
    expect(chunk).toBeDefined();
    // Experience, Fudge Point spends, opposed rolls, healing, Guts, the GM's re-derivation of a card target.
    for (const marker of [
      "async function awardExperienceToActors(",
      "function raiseDialogContext(",
      "async function spendAttackFudgePoint(",
      "async function performOpposed(",
      "async function healQuietly(",
      "async function gutsCheck(",
      "function rederiveTarget(",
    ]) {
      expect(text(startup), marker).not.toContain(marker);
      expect(text([chunk]), marker).toContain(marker);
    }
    expect(run.stdout).toContain(`the click flows on demand: ${chunk}`);
    const a = inputs();
    a.zip.delete(chunk);
    a.dist.delete(chunk);
    expect(checkRelease(a).join("\n")).toMatch(/the bundle loads no chunk of the click flows/);
  });

  it("tells each source file's share of the start-up set from the source maps: the shares add up to the set", () => {
    const { startup, startupSize } = bundleSizes(out);
    const shares: { source: string; raw: number }[] = sourceShares(out, startup);
    expect(shares.reduce((n, m) => n + m.raw, 0)).toBe(startupSize.raw);
    const sources = shares.map((m) => m.source);
    expect(sources).toContain("src/system/sheet.ts");
    for (const moved of [
      "src/system/flows/experience.ts",
      "src/system/advancement.ts",
      "src/system/rederive.ts",
      "src/system/guts-dialog.ts",
    ])
      expect(sources).not.toContain(moved);
  });

  it("leaves the repository's own system.json unchanged", () => {
    expect(fs.readFileSync("system.json", "utf8")).toContain('"version": "0.1.0"');
  });

  it("refuses versions that disagree", () => {
    const a = inputs();
    a.pkg.version = "9.9.9";
    expect(checkRelease(a).join("\n")).toMatch(/package\.json version 9\.9\.9 is not the tag's/);
    const b = inputs();
    b.changelog = "# Changelog\n\n## [Unreleased]\n";
    expect(checkRelease(b).join("\n")).toMatch(/CHANGELOG\.md has no "## \[0\.1\.0\]" entry/);
    const c = inputs();
    c.lock.version = "0.0.9";
    expect(checkRelease(c).join("\n")).toMatch(/package-lock\.json version/);
    expect(checkRelease({ ...inputs(), tag: "v0.2.0" }).join("\n")).toMatch(
      /system\.json version 0\.1\.0 is not the tag's 0\.2\.0/,
    );
  });

  it("refuses URLs that are malformed, of another repository, or placeholders", () => {
    const a = inputs();
    a.filled.manifest = "https://github.com/OWNER/fudge-wounds/releases/latest/download/system.json";
    expect(checkRelease(a).join("\n")).toMatch(/placeholder/);
    const b = inputs();
    b.filled.download = "not a url";
    expect(checkRelease(b).join("\n")).toMatch(/download is not an https URL/);
    expect(checkRelease({ ...inputs(), repo: "someone-else/fudge-wounds" }).join("\n")).toMatch(
      /url is https:\/\/github\.com\/acme/,
    );
  });

  it("refuses a zip that is not exactly dist", () => {
    const a = inputs();
    a.dist.set("extra.txt", Buffer.from("x"));
    expect(checkRelease(a).join("\n")).toMatch(/lacks files of dist: extra\.txt/);
    const b = inputs();
    b.zip.delete("NOTICE.md");
    b.dist.delete("NOTICE.md");
    expect(checkRelease(b).join("\n")).toMatch(/the zip has no NOTICE\.md/);
    const c = inputs();
    c.zip.set("fudge-wounds.mjs", Buffer.from("changed"));
    expect(checkRelease(c).join("\n")).toMatch(/differs from dist: fudge-wounds\.mjs/);
  });

  it("reads the repository from a GitHub remote and finds changelog entries", () => {
    expect(githubRepoOf("git@github.com:acme/fudge-wounds.git")).toBe("acme/fudge-wounds");
    expect(githubRepoOf("https://github.com/acme/fudge-wounds")).toBe("acme/fudge-wounds");
    expect(githubRepoOf("/work/main")).toBeNull();
    expect(changelogHas(changelog, pkg.version)).toBe(true);
    expect(changelogHas(changelog, "10.1.0")).toBe(false);
  });

  it("the workflow tests, then builds and checks with this tool, and uploads exactly what it checked", () => {
    const wf = fs.readFileSync(".github/workflows/release.yml", "utf8");
    expect(wf).toMatch(/run: npm test/);
    expect(wf).toContain(
      'node tools/release.mjs --repo "${{ github.repository }}" --tag "${{ github.event.release.tag_name }}" --out dist',
    );
    expect(wf).toContain(
      'gh release upload "${{ github.event.release.tag_name }}" dist/system.json dist/fudge-wounds.zip',
    );
    expect(wf.indexOf("run: npm test")).toBeLessThan(wf.indexOf("run: node tools/release.mjs"));
    expect(wf).not.toMatch(/OWNER|release-manifest\.mjs/);
    expect(pkg.scripts["release:check"]).toBe("node tools/release.mjs");
  });
});
