/** The system's Handlebars helpers, the dictionary i18n, and the stylesheet's conventions. */
import { describe, expect, test } from "vitest";
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerHelpers, HELPER_NAMES } from "../../src/system/handlebars";
import { dictionaryI18n, flattenLang, fill } from "../../src/system/i18n";
import { registerFoundryCoreHelpers } from "../../playground/foundry-core-helpers";
import { levelView } from "../../src/system/view";
import { standardLadder } from "../../src/rules";
import { ROOT } from "./fixtures";

const dict = {
  "FUDGE.A": "Alpha",
  "FUDGE.Box": "{level}, box {n}",
  "FUDGE.Level.hurt": "Hurt",
  "FUDGE.Ladder.superb": "Superbe",
  "FUDGE.Ladder.great": "Grand",
};

function env(core = true) {
  const hb = Handlebars.create();
  const missing: string[] = [];
  const i18n = dictionaryI18n(dict, (k) => missing.push(k));
  if (core) registerFoundryCoreHelpers(hb, i18n);
  registerHelpers(hb, i18n);
  return { hb, missing, r: (src: string, ctx: unknown = {}) => hb.compile(src)(ctx) };
}

describe("helpers", () => {
  test("registers every named helper, all fudge-prefixed; never a core helper's name", () => {
    const b = env(false);
    for (const h of HELPER_NAMES) expect(b.hb.helpers[h], h).toBeTypeOf("function");
    const own = Object.keys(b.hb.helpers).filter((h) => !Object.keys(Handlebars.create().helpers).includes(h));
    expect(own.sort()).toEqual([...HELPER_NAMES].sort());
    for (const h of own) expect(h).toMatch(/^fudge[A-Z]/);
    for (const core of ["eq", "ne", "lt", "gt", "lte", "gte", "not", "and", "or", "localize", "selectOptions"])
      expect(b.hb.helpers[core], core).toBeUndefined();
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

  test("fudgeSigned, fudgeLadder, fudgeLadderName, fudgeLevel", () => {
    const { r } = env();
    expect(r("{{fudgeSigned 2}} {{fudgeSigned 0}} {{fudgeSigned -1}}")).toBe("+2 0 \u22121");
    expect(r("{{fudgeLadder 2}}")).toBe("Great (+2)");
    expect(r("{{fudgeLadderName 6}}")).toBe("Legendary +2");
    expect(r("{{fudgeLadder x}}", { x: "nope" })).toBe("");
    expect(r("{{fudgeLevel l}}", { l: levelView(5, standardLadder({}, false)) })).toBe("Superbe +2 (+5)");
    expect(r("{{fudgeLevel l}}", { l: levelView(2, standardLadder()) })).toBe("Grand (+2)");
  });

  test("comparison helpers: the core stand-ins keep core's strict semantics", () => {
    const { r } = env();
    expect(r('{{#if (eq a "x")}}y{{else}}n{{/if}}', { a: "x" })).toBe("y");
    expect(r("{{#if (ne a null)}}y{{else}}n{{/if}}", { a: null })).toBe("n");
    expect(r("{{#if (and a b)}}y{{else}}n{{/if}}", { a: 1, b: 0 })).toBe("n");
    expect(r("{{#if (or a b)}}y{{else}}n{{/if}}", { a: 1, b: 0 })).toBe("y");
    expect(r("{{#if (not a)}}y{{else}}n{{/if}}", { a: 0 })).toBe("y");
    expect(r("{{#if (gt a 1)}}y{{else}}n{{/if}}{{#if (lt a 1)}}y{{else}}n{{/if}}", { a: 2 })).toBe("yn");
    expect(r("{{#if (eq a 1)}}y{{else}}n{{/if}}", { a: "1" })).toBe("n");
  });
});

describe("i18n", () => {
  test("fill leaves unknown placeholders and localizes key-valued params", () => {
    expect(fill("{a} {b}", { a: 1 }, (k) => k)).toBe("1 {b}");
    expect(fill("{a}", { a: "FUDGE.X" }, () => "x")).toBe("x");
  });
  test("flattenLang accepts nested and flat files", () => {
    expect(flattenLang({ FUDGE: { A: "a", B: { C: "c" } }, "FUDGE.D": "d" })).toEqual({
      "FUDGE.A": "a",
      "FUDGE.B.C": "c",
      "FUDGE.D": "d",
    });
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
    for (const c of [
      ".fudge-box.marked",
      ".fudge-box.overflow",
      ".fudge-box.stun",
      ".fudge-box.blacked",
      ".fudge-overflow-tag",
      ".fudge-penalty.active",
    ])
      expect(css).toContain(c);
    expect(css).toMatch(/@media \(max-width: 480px\)/);
  });
});
