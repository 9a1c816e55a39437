/**
 * Every i18n key written literally anywhere in src/ or templates/ has English text, and the
 * language file survives Foundry's loading: Foundry expands dotted keys into nested objects, so
 * no key may also be the prefix of another key (one of the two would be lost).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(n) ? [p] : [];
  });
}

function lang(): Record<string, string> {
  return JSON.parse(readFileSync("lang/en.json", "utf8"));
}

describe("lang/en.json", () => {
  const en = lang();
  it("has text for every key written in the code and templates", () => {
    const missing: string[] = [];
    for (const f of [...files("src", /\.ts$/), ...files("templates", /\.hbs$/)]) {
      const text = readFileSync(f, "utf8");
      // A complete key: FUDGE. or TYPES. then segments; keys built at run time end in "." or "${".
      for (const m of text.matchAll(/["'`]((?:FUDGE|TYPES)\.[A-Za-z0-9_.]+[A-Za-z0-9_])["'`]/g)) {
        if (!(m[1] in en)) missing.push(`${f}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
  it("holds only text, no key that is the prefix of another", () => {
    const keys = Object.keys(en).sort();
    for (const [k, v] of Object.entries(en)) expect(typeof v, k).toBe("string");
    const clashes = keys.filter((k, i) => keys[i + 1]?.startsWith(`${k}.`));
    expect(clashes).toEqual([]);
  });
});
