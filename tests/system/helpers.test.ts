/** The system's Handlebars helpers, the dictionary i18n, and the stylesheet's conventions. */
import { describe, expect, test } from "vitest";
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerHelpers, HELPER_NAMES } from "../../src/system/handlebars";
import { dictionaryI18n, flattenLang, fill } from "../../src/system/i18n";
import { levelView } from "../../src/system/view";
import { standardLadder } from "../../src/rules/ladder";
import { ROOT } from "./fixtures";

const dict = {
  "FUDGE.A": "Alpha",
  "FUDGE.Box": "{level}, box {n}",
  "FUDGE.Level.hurt": "Hurt",
  "FUDGE.Ladder.superb": "Superbe",
  "FUDGE.Ladder.great": "Grand",
};

function env(opts = { localize: true }) {
  const hb = Handlebars.create();
  const missing: string[] = [];
  registerHelpers(hb, dictionaryI18n(dict, (k) => missing.push(k)), opts);
  return { hb, missing, r: (src: string, ctx: unknown = {}) => hb.compile(src)(ctx) };
}

describe("helpers", () => {
  test("registers every named helper; localize only when asked", () => {
    const a = env();
    for (const h of HELPER_NAMES) expect(a.hb.helpers[h], h).toBeTypeOf("function");
    expect(a.hb.helpers.localize).toBeTypeOf("function");
    const b = env({ localize: false });
    expect(b.hb.helpers.localize).toBeUndefined();
  });

  test("localize / fudgeFormat / fudgeText", () => {
    const { r, missing } = env();
    expect(r('{{localize "FUDGE.A"}}')).toBe("Alpha");
    expect(r('{{localize "FUDGE.Box" level="X" n=2}}')).toBe("X, box 2");
    expect(r("{{fudgeFormat k p}}", { k: "FUDGE.Box", p: { level: "FUDGE.Level.hurt", n: 1 } })).toBe("Hurt, box 1");
    expect(r("{{fudgeText t}}", { t: "FUDGE.A" })).toBe("Alpha");
    expect(r("{{fudgeText t}}", { t: "Physical" })).toBe("Physical");
    expect(r('{{localize "FUDGE.Nope"}}')).toBe("FUDGE.Nope");
    expect(missing).toEqual(["FUDGE.Nope"]);
  });

  test("escaping: helper output with markup is escaped", () => {
    const { r } = env();
    const bad = "<img src=x onerror=alert(1)>";
    expect(r("{{fudgeText t}}", { t: bad })).not.toContain("<img");
    expect(r("{{fudgeFormat k p}}", { k: "FUDGE.Box", p: { level: bad, n: 1 } })).not.toContain("<img");
  });

  test("signed, ladder, ladderName, fudgeLevel", () => {
    const { r } = env();
    expect(r("{{signed 2}} {{signed 0}} {{signed -1}}")).toBe("+2 0 \u22121");
    expect(r("{{ladder 2}}")).toBe("Great (+2)");
    expect(r("{{ladderName 6}}")).toBe("Legendary +2");
    expect(r("{{ladder x}}", { x: "nope" })).toBe("");
    expect(r("{{fudgeLevel l}}", { l: levelView(5, standardLadder({}, false)) })).toBe("Superbe +2 (+5)");
    expect(r("{{fudgeLevel l}}", { l: levelView(2, standardLadder()) })).toBe("Grand (+2)");
  });

  test("comparison helpers", () => {
    const { r } = env();
    expect(r('{{#if (eq a "x")}}y{{else}}n{{/if}}', { a: "x" })).toBe("y");
    expect(r("{{#if (ne a null)}}y{{else}}n{{/if}}", { a: null })).toBe("n");
    expect(r("{{#if (and a b)}}y{{else}}n{{/if}}", { a: 1, b: 0 })).toBe("n");
    expect(r("{{#if (or a b)}}y{{else}}n{{/if}}", { a: 1, b: 0 })).toBe("y");
    expect(r("{{#if (not a)}}y{{else}}n{{/if}}", { a: 0 })).toBe("y");
    expect(r("{{#if (gt a 1)}}y{{else}}n{{/if}}{{#if (lt a 1)}}y{{else}}n{{/if}}", { a: 2 })).toBe("yn");
  });
});

describe("i18n", () => {
  test("fill leaves unknown placeholders and localizes key-valued params", () => {
    expect(fill("{a} {b}", { a: 1 }, (k) => k)).toBe("1 {b}");
    expect(fill("{a}", { a: "FUDGE.X" }, () => "x")).toBe("x");
  });
  test("flattenLang accepts nested and flat files", () => {
    expect(flattenLang({ FUDGE: { A: "a", B: { C: "c" } }, "FUDGE.D": "d" })).toEqual({ "FUDGE.A": "a", "FUDGE.B.C": "c", "FUDGE.D": "d" });
  });
  test("lang/en.json is flat, sorted JSON of strings with balanced placeholders", () => {
    const raw = readFileSync(join(ROOT, "lang", "en.json"), "utf8");
    const lang = JSON.parse(raw) as Record<string, unknown>;
    for (const [k, v] of Object.entries(lang)) {
      expect(k).toMatch(/^(FUDGE|TYPES)\./);
      expect(typeof v).toBe("string");
      expect(((v as string).match(/\{/g) ?? []).length).toBe(((v as string).match(/\}/g) ?? []).length);
    }
  });
});

describe("stylesheet", () => {
  const css = readFileSync(join(ROOT, "styles", "fudge-wounds.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  test("all rules sit in the system layer", () => {
    const trimmed = css.trim();
    expect(trimmed.startsWith("@layer system {")).toBe(true);
    expect(trimmed.endsWith("}")).toBe(true);
    let depth = 0;
    for (const ch of trimmed) {
      if (ch === "{") depth++;
      if (ch === "}") depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });
  test("light and dark themes, Foundry variables with fallbacks, wound box states", () => {
    expect(css).toContain(".theme-dark .fudge-wounds");
    expect(css).toContain(".theme-light .fudge-wounds");
    expect(css).toMatch(/var\(--color-text-primary, #[0-9a-f]+\)/);
    for (const c of [".fudge-box.marked", ".fudge-box.overflow", ".fudge-box.stun", ".fudge-box.blacked", ".fudge-overflow-tag", ".fudge-penalty.active"]) expect(css).toContain(c);
    expect(css).toMatch(/@media \(max-width: 480px\)/);
  });
});
