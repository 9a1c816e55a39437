/**
 * What the Foundry layer registers matches system.json, src/system/data.ts and the lang files;
 * the rules core stays free of Foundry.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { ACTOR_TYPES, CHAT_TYPES, DOCUMENT_TYPES, ITEM_TYPES, QUERIES, SYSTEM_ID } from "../../src/system/registry";
import { ACTOR_DEFAULTS, ITEM_DEFAULTS, WORLD_RULE_SETTINGS, defaultAttackCardData } from "../../src/system/data";
import { WOUND_STATUS_EFFECTS } from "../../src/system/statuses";
import { HEAL_INPUTS } from "../../src/system/heal";
import { flattenLang } from "../../src/system/i18n";

const manifest = JSON.parse(fs.readFileSync("system.json", "utf8"));

function mergedLang(): Record<string, string> {
  const out: Record<string, string> = {};
  const files = ["lang/en.json"];
  for (const f of files) if (fs.existsSync(f)) Object.assign(out, flattenLang(JSON.parse(fs.readFileSync(f, "utf8"))));
  return out;
}

/** Fields whose keys are data, not schema: an actor's attribute levels by the world's attribute keys (fields.ts attributeLevels). */
const OPEN_RECORDS = new Set(["attributes"]);

function leafKeys(o: unknown, out = new Set<string>()): Set<string> {
  if (o && typeof o === "object" && !Array.isArray(o))
    for (const [k, v] of Object.entries(o)) {
      out.add(k);
      if (!OPEN_RECORDS.has(k)) leafKeys(v, out);
    }
  return out;
}

describe("system.json", () => {
  it("declares exactly the registered subtypes", () => {
    for (const [doc, types] of Object.entries(DOCUMENT_TYPES))
      expect(Object.keys(manifest.documentTypes[doc]).sort(), doc).toEqual([...types].sort());
  });

  it("the subtypes are those of src/system/data.ts", () => {
    expect([...ACTOR_TYPES].sort()).toEqual(Object.keys(ACTOR_DEFAULTS).sort());
    expect([...ITEM_TYPES].sort()).toEqual(Object.keys(ITEM_DEFAULTS).sort());
  });

  it("is a v13 and v14 system manifest with id, files, languages and hot reload", () => {
    expect(manifest.id).toBe(SYSTEM_ID);
    expect(manifest.title).toBe("Fudge Combat & Wounds");
    // Loads on v13; verified against the v14 build whose behaviour the host models (README "Foundry versions").
    expect(manifest.compatibility).toEqual({ minimum: "13", verified: "14.367" });
    expect(manifest.esmodules).toEqual(["fudge-wounds.mjs"]);
    for (const s of manifest.styles) expect(s.layer).toBeTypeOf("string");
    for (const s of manifest.styles) expect(fs.existsSync(s.src), s.src).toBe(true);
    expect(manifest.languages).toEqual([{ lang: "en", name: "English", path: "lang/en.json" }]);
    expect(manifest.flags.hotReload.paths).toEqual(expect.arrayContaining(["templates", "lang", "styles"]));
    expect(manifest.manifest).toMatch(/^https:\/\/.+system\.json$/);
    expect(manifest.download).toMatch(/^https:\/\/.+\.zip$/);
    for (const p of manifest.packs) {
      expect(p.path).toBe(`packs/${p.name}`);
      expect(p.system).toBe(SYSTEM_ID);
    }
  });

  it("every Actor and Item subtype has its TYPES label", () => {
    const lang = mergedLang();
    for (const [doc, types] of Object.entries(DOCUMENT_TYPES))
      for (const t of types) expect(lang[`TYPES.${doc}.${t}`], `TYPES.${doc}.${t}`).toBeTypeOf("string");
  });
});

describe("data models follow src/system/data.ts", () => {
  const files: Record<string, string> = {
    character: "character.ts",
    npc: "npc.ts",
    miniature: "miniature.ts",
    weapon: "weapon.ts",
    armor: "armor.ts",
    shield: "shield.ts",
    gift: "trait.ts",
    fault: "trait.ts",
    skill: "skill.ts",
  };
  const src = (f: string) =>
    fs.readFileSync(path.join("src/foundry/data", f), "utf8") +
    (f === "npc.ts" ? fs.readFileSync("src/foundry/data/character.ts", "utf8") : "");
  const defaults: Record<string, () => unknown> = { ...ACTOR_DEFAULTS, ...ITEM_DEFAULTS };
  for (const [type, file] of Object.entries(files)) {
    it(`${type}: every field of the default shape is in the schema (${file})`, () => {
      const text = src(file);
      const missing = [...leafKeys(defaults[type]())].filter((k) => !new RegExp(`\\b${k}:`).test(text));
      expect(missing).toEqual([]);
    });
  }
  it("attackCard: every field of the card and its targets is in the schema", () => {
    const text = fs.readFileSync("src/foundry/data/attack-card.ts", "utf8");
    const keys = [
      ...leafKeys(defaultAttackCardData()),
      "actorId",
      "tokenId",
      "name",
      "defend",
      "defendDice",
      "defendUserId",
      "request",
      "dice",
      "resolution",
      "applied",
      "userId",
      "at",
      "before",
      "after",
      "undone",
      "undoneBy",
      "steps",
      "ended",
    ];
    expect(keys.filter((k) => !new RegExp(`\\b${k}:`).test(text))).toEqual([]);
  });
});

describe("i18n of the Foundry layer", () => {
  const lang = mergedLang();
  const files = fs
    .readdirSync("src/foundry", { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));
  it("every literal FUDGE.* key in src/foundry exists", () => {
    const missing: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(path.join("src/foundry", f), "utf8");
      for (const m of text.matchAll(/["'`](FUDGE\.[A-Za-z0-9_.]+)["'`]/g))
        if (!(m[1] in lang)) missing.push(`${f}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });
  it("keys built at run time exist too", () => {
    const keys = [
      ...[...ACTOR_TYPES, ...ITEM_TYPES].map((t) => `FUDGE.Sheet.${t}`),
      ...WORLD_RULE_SETTINGS.map((k) => `FUDGE.Settings.${k}.Name`),
      ...["veryHurt", "dead", "nearDeath"].map((r) => `FUDGE.Miniatures.NearDeath.${r}`),
      ...[0, 1, 2, 3, 4].map((n) => `FUDGE.Miniatures.Guts.Effect${n}`),
      ...["modifier", "allOutAttack", "allOutDefense", "stun", "pullPunch", "cover", "helpless"].map(
        (k) => `FUDGE.Situation.${k}`,
      ),
      ...["scratch", "hurt", "veryHurt", "incapacitated"].map((k) => `FUDGE.Wound.${k}`),
      ...WOUND_STATUS_EFFECTS.map((e) => e.name),
      ...Object.values(HEAL_INPUTS).flatMap((specs) => specs.map((x) => `FUDGE.Heal.Input.${x.name}`)),
    ];
    expect(keys.filter((k) => !(k in lang))).toEqual([]);
  });
});

describe("boundaries", () => {
  it("src/rules uses no Foundry global", () => {
    let out = "";
    try {
      out = execFileSync("grep", ["-rlE", "\\b(game|CONFIG|Hooks|foundry|ui)\\.", "src/rules"], { encoding: "utf8" });
    } catch (e) {
      // grep exits 1 when nothing matches.
      if ((e as { status?: number }).status !== 1) throw e;
    }
    expect(out.trim()).toBe("");
  });

  it("the plain modules the adapter uses name no Foundry global either (tests import them)", () => {
    for (const f of [
      "src/system/registry.ts",
      "src/system/migrate.ts",
      "src/system/relay.ts",
      "src/system/statuses.ts",
      "src/system/settings-menu.ts",
      "src/system/combat.ts",
      "src/rules/miniatures/table.ts",
      "src/system/updates.ts",
      "src/system/heal.ts",
    ]) {
      const code = fs.readFileSync(path.join(f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code, f).not.toMatch(/\b(game|CONFIG|Hooks|foundry|ui|canvas)\./);
    }
  });

  it("every GM relay query is namespaced by the system id", () => {
    for (const q of Object.values(QUERIES)) expect(q.startsWith(`${SYSTEM_ID}.`)).toBe(true);
    expect([...CHAT_TYPES]).toEqual(["attackCard", "rollCard"]);
  });
});

describe("ranges agree with src/system's sheet editing", () => {
  it("every whole-number editable field takes its range from EDITABLE_FIELDS in the data models", async () => {
    const { EDITABLE_FIELDS } = await import("../../src/system/actions");
    const text = ["character.ts", "npc.ts", "miniature.ts"]
      .map((f) => fs.readFileSync(path.join("src/foundry/data", f), "utf8"))
      .join("\n");
    const missing = Object.entries(EDITABLE_FIELDS)
      .filter(([, spec]) => spec.type === "int")
      .map(([p]) => p)
      .filter((p) => !text.includes(`editableInt("${p}"`));
    expect(missing).toEqual([]);
  });
});
