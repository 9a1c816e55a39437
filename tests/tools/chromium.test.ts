/**
 * Where the tests' browser comes from (tools/chromium.mjs): the pinned devDependency by default,
 * CHROME_PATH as an explicit override, a system browser only when asked for or where the pinned
 * build cannot run; and never the pinned package's Lambda-only process flags.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CHROMIUM_ARGS,
  DROPPED_PINNED_ARGS,
  findChromium,
  pinnedSupported,
  SYSTEM_PATHS,
} from "../../tools/chromium.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const pinnedVersion = pkg.devDependencies["@sparticuz/chromium"];

describe("the tests' Chromium", () => {
  it("is pinned to one exact version in package.json", () => {
    expect(pinnedVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.runIf(pinnedSupported())("defaults to the pinned browser, even when a system browser exists", async () => {
    const found = await findChromium({});
    expect(found).toMatchObject({ source: "pinned", version: pinnedVersion });
    expect(found!.executablePath).toContain(`node_modules/.cache/fudge-chromium/${pinnedVersion}/chromium`);
    // Its own NSS/NSPR/expat libraries come first, so a machine without them runs it too.
    const libDir = found!.env!.LD_LIBRARY_PATH.split(":")[0];
    expect(libDir).toBe(join(dirname(found!.executablePath), "al2023", "lib"));
    for (const lib of ["libnss3.so", "libnspr4.so", "libexpat.so.1"])
      expect(existsSync(join(libDir, lib)), lib).toBe(true);
  });

  it.runIf(pinnedSupported())("treats an empty CHROME_PATH as unset", async () => {
    expect((await findChromium({ CHROME_PATH: "" }))?.source).toBe("pinned");
  });

  it("lets CHROME_PATH override everything, and refuses one that is not executable", async () => {
    expect(await findChromium({ CHROME_PATH: process.execPath, FUDGE_CHROMIUM: "pinned" })).toMatchObject({
      source: "CHROME_PATH",
      executablePath: process.execPath,
    });
    await expect(findChromium({ CHROME_PATH: "/nonexistent/chrome" })).rejects.toThrow(/not an executable/);
  });

  it("uses a system browser only when FUDGE_CHROMIUM=system asks for it", async () => {
    const system = SYSTEM_PATHS.find((p) => existsSync(p));
    const found = await findChromium({ FUDGE_CHROMIUM: "system" });
    if (system) expect(found).toMatchObject({ source: "system", executablePath: system });
    else expect(found?.source).toBe(pinnedSupported() ? "pinned" : undefined);
  });

  it("rejects an unknown FUDGE_CHROMIUM", async () => {
    await expect(findChromium({ FUDGE_CHROMIUM: "firefox" })).rejects.toThrow(/pinned.*system/);
  });

  it("launches without the pinned package's --single-process and --no-zygote", () => {
    expect(CHROMIUM_ARGS).toEqual(expect.arrayContaining(["--no-sandbox", "--disable-gpu"]));
    for (const a of DROPPED_PINNED_ARGS) expect(CHROMIUM_ARGS).not.toContain(a);
  });

  it("knows the pinned build runs on linux-x64 only", () => {
    expect(pinnedSupported("linux", "x64")).toBe(true);
    expect(pinnedSupported("darwin", "arm64")).toBe(false);
    expect(pinnedSupported("linux", "arm64")).toBe(false);
  });
});
