/**
 * npm run build: an installable dist/ (into a temporary directory here) and a zip that holds
 * the same files. The zip writer is checked by reading the archive back (and with `unzip -t`
 * where that tool exists).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
// @ts-expect-error plain .mjs tool without types
import { entriesOf, unzipBuffer, zipBuffer } from "../../tools/zip.mjs";

describe("zip writer", () => {
  it("round-trips stored and deflated entries with UTF-8 names", () => {
    const entries = [
      { name: "a.txt", data: Buffer.from("x") },
      { name: "dir/b.json", data: Buffer.from(JSON.stringify({ k: "v".repeat(5000) })) },
      { name: "ü/Near Death.hbs", data: Buffer.from("{{#if x}}y{{/if}}") },
      { name: "empty", data: Buffer.alloc(0) },
    ];
    const back: Map<string, Buffer> = unzipBuffer(zipBuffer(entries));
    expect([...back.keys()]).toEqual(entries.map((e) => e.name));
    for (const e of entries) expect(back.get(e.name)!.equals(e.data)).toBe(true);
  });

  it("is deterministic and compresses", () => {
    const entries = [{ name: "big.txt", data: Buffer.from("fudge ".repeat(10000)) }];
    const a: Buffer = zipBuffer(entries);
    expect(a.equals(zipBuffer(entries))).toBe(true);
    expect(a.length).toBeLessThan(2000);
  });

  it("a corrupted archive is detected", () => {
    const z: Buffer = zipBuffer([{ name: "a.txt", data: Buffer.from("hello hello hello hello") }]);
    const bad = Buffer.from(z);
    bad[40] ^= 0xff;
    expect(() => unzipBuffer(bad)).toThrow();
  });
});

describe("npm run build", () => {
  let out: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-build-"));
    execFileSync(process.execPath, ["tools/build.mjs", "--out", out], { stdio: "pipe" });
  }, 120_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("dist holds everything system.json names", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "system.json"), "utf8"));
    const files = [
      ...manifest.esmodules,
      ...manifest.styles.map((s: { src: string }) => s.src),
      ...manifest.languages.map((l: { path: string }) => l.path),
    ];
    for (const f of files) expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    for (const p of manifest.packs) expect(fs.existsSync(path.join(out, p.path, "CURRENT")), p.path).toBe(true);
  });

  it("the bundle is an ES module that bundles no Foundry and no test code", () => {
    const js = fs.readFileSync(path.join(out, "fudge-wounds.mjs"), "utf8");
    expect(js).toMatch(/Hooks\.once\("init"/);
    expect(js).not.toMatch(/^import .* from ["']foundry/m);
    expect(js).not.toMatch(/vitest|fvtt-types/);
  });

  it("the forecast worker is its own module next to the bundle: no imports, no Foundry, every preset registered", () => {
    const js = fs.readFileSync(path.join(out, "fudge-forecast.mjs"), "utf8");
    expect(js).not.toMatch(/^\s*import\b/m);
    expect(js).not.toMatch(/\b(Hooks|game|CONFIG|ui)\.\w/);
    expect(js).toMatch(/onmessage/);
    // src/rules/presets lists the four presets, each loading its pipeline (Fudge, Miniatures, FATE,
    // Volt): in the worker, one file, from within it (no chunk to fetch, no `import(`).
    const start = js.indexOf("var PRESET_MODULES = ");
    expect(start).toBeGreaterThan(0);
    const registry = js.slice(start, js.indexOf("]);", start));
    expect(registry.match(/\bload: .*m\.(fudge|miniatures|fate|volt)Pipeline\b/g) ?? []).toHaveLength(4);
    expect(js).not.toMatch(/\bimport\(/);
    // The bundle starts it from a URL beside itself: the start-up chunk names the file, the bundle gives its own URL.
    const bundle = fs.readFileSync(path.join(out, "fudge-wounds.mjs"), "utf8");
    expect(bundle).toMatch(/setWorkerBase\(import\.meta\.url\)/);
    const startup = fs.readdirSync(path.join(out, "chunks")).filter((f) => /^startup-.*\.mjs$/.test(f));
    expect(startup).toHaveLength(1);
    expect(fs.readFileSync(path.join(out, "chunks", startup[0]), "utf8")).toContain('"fudge-forecast.mjs"');
    expect(unzipBuffer(fs.readFileSync(path.join(out, "fudge-wounds.zip"))).has("fudge-forecast.mjs")).toBe(true);
  });

  it("a hand-built dist/system.json (and the zip's) carries no placeholder URL: no url, manifest or download", () => {
    const text = fs.readFileSync(path.join(out, "system.json"), "utf8");
    expect(text).not.toMatch(/github\.com\/OWNER|vVERSION/);
    const manifest = JSON.parse(text);
    for (const k of ["url", "manifest", "download"]) expect(manifest, k).not.toHaveProperty(k);
    // Everything else ships as committed.
    const committed = JSON.parse(fs.readFileSync("system.json", "utf8"));
    expect(manifest).toEqual({ ...committed, url: undefined, manifest: undefined, download: undefined });
    const zipped = unzipBuffer(fs.readFileSync(path.join(out, "fudge-wounds.zip"))).get("system.json")!;
    expect(zipped.toString("utf8")).toBe(text);
  });

  it("dist/lang/en.json holds every key of lang/en.json", () => {
    const lang = JSON.parse(fs.readFileSync(path.join(out, "lang/en.json"), "utf8"));
    const source = JSON.parse(fs.readFileSync("lang/en.json", "utf8"));
    expect(lang).toEqual(source);
  });

  it("every template is copied", () => {
    const src = entriesOf("templates").map((e: { name: string }) => e.name);
    const dst = entriesOf(path.join(out, "templates")).map((e: { name: string }) => e.name);
    expect(dst).toEqual(src);
  });

  it("the zip holds exactly the files of dist (system.json at its root)", () => {
    const zip: Map<string, Buffer> = unzipBuffer(fs.readFileSync(path.join(out, "fudge-wounds.zip")));
    const files = entriesOf(out).filter(
      (e: { name: string }) => !e.name.endsWith(".zip") && !/(^|\/)LOCK$/.test(e.name),
    );
    expect([...zip.keys()].sort()).toEqual(files.map((e: { name: string }) => e.name).sort());
    expect(zip.get("system.json")!.equals(fs.readFileSync(path.join(out, "system.json")))).toBe(true);
    const unzip = spawnSync("unzip", ["-tq", path.join(out, "fudge-wounds.zip")], { encoding: "utf8" });
    if (!unzip.error) expect(unzip.status, unzip.stdout + unzip.stderr).toBe(0);
  });
});

describe("release manifest", () => {
  it("fills version, manifest and download from the repository and tag", async () => {
    // @ts-expect-error plain .mjs tool without types
    const { fillManifest } = await import("../../tools/release-manifest.mjs");
    const m = fillManifest(JSON.parse(fs.readFileSync("system.json", "utf8")), "someone/fudge-wounds", "v1.2.3");
    expect(m.version).toBe("1.2.3");
    expect(m.manifest).toBe("https://github.com/someone/fudge-wounds/releases/latest/download/system.json");
    expect(m.download).toBe("https://github.com/someone/fudge-wounds/releases/download/v1.2.3/fudge-wounds.zip");
    expect(() => fillManifest(m, "someone/fudge-wounds", "latest")).toThrow(/not a version/);
    expect(() => fillManifest(m, "bad repo", "v1.0.0")).toThrow(/repository/);
  });

  it("a release's filled manifest ships as it is; a placeholder URL is left out of a manual build", async () => {
    // @ts-expect-error plain .mjs tool without types
    const { fillManifest, installableManifest } = await import("../../tools/release-manifest.mjs");
    const committed = JSON.parse(fs.readFileSync("system.json", "utf8"));
    const filled = fillManifest(committed, "someone/fudge-wounds", "v1.2.3");
    expect(installableManifest(filled)).toEqual(filled);
    expect(Object.keys(installableManifest(filled))).toEqual(Object.keys(filled));
    const manual = installableManifest({
      ...filled,
      download: "https://github.com/OWNER/x/releases/download/vVERSION/x.zip",
    });
    expect(manual).not.toHaveProperty("download");
    expect(manual.manifest).toBe(filled.manifest);
  });
});
