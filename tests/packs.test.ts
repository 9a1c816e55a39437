/**
 * Compendium packs: every JSON source compiles into its LevelDB pack and nothing else is there;
 * every source fits the data shapes of src/system/data.ts; the sample characters and the
 * Miniatures datacards give the numbers printed in the seeds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error tools are plain .mjs without types
import { compileAll, expectedKeys, packNames, readPack, readSources } from "../tools/packs.mjs";
// @ts-expect-error tools are plain .mjs without types
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import {
  ACTOR_DEFAULTS,
  ITEM_DEFAULTS,
  SHIELD_SIZES,
  STAT_BASES,
  TRACK_PRESETS,
  TRAIT_EFFECTS,
  WEAPON_SIZES,
  defaultWorldRules,
  type ActorDoc,
  type ActorType,
  type ItemDoc,
  type ItemType,
} from "../src/system/data";
import { fudgeCombatant, miniatureDatacard } from "../src/system/combatant";
import { parseCombatant, totalDamageFactor, offensiveFactor, defensiveFactor } from "../src/rules/fudge";
import { datacard, parseDatacard } from "../src/rules/miniatures";

type Src = { file: string; doc: Record<string, any> };
const manifest = JSON.parse(fs.readFileSync("system.json", "utf8"));
let tmp: string;
let compiled: Record<string, string>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-packs-"));
  compiled = await compileAll("packs/src", tmp);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Same primitive shape as the default: same keys, same types (null in the default admits anything). */
function shapeErrors(value: unknown, def: unknown, at: string, out: string[] = []): string[] {
  if (def === null || def === undefined) return out;
  if (Array.isArray(def)) {
    if (!Array.isArray(value)) out.push(`${at}: expected a list`);
    return out;
  }
  if (typeof def === "object") {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      out.push(`${at}: expected an object`);
      return out;
    }
    const v = value as Record<string, unknown>;
    for (const k of Object.keys(def as object)) {
      if (!(k in v)) out.push(`${at}.${k}: missing`);
      else shapeErrors(v[k], (def as Record<string, unknown>)[k], `${at}.${k}`, out);
    }
    for (const k of Object.keys(v))
      if (!(k in (def as object)) && k !== "customLevels") out.push(`${at}.${k}: not in src/system/data.ts`);
    return out;
  }
  if (typeof value !== typeof def) out.push(`${at}: expected ${typeof def}, got ${JSON.stringify(value)}`);
  return out;
}

function itemErrors(it: Record<string, any>, at: string): string[] {
  const type = it.type as ItemType;
  if (!(type in ITEM_DEFAULTS)) return [`${at}.type: unknown item type ${type}`];
  const errs = shapeErrors(it.system, ITEM_DEFAULTS[type](), `${at}.system`);
  const s = it.system;
  if (type === "weapon") {
    if (!WEAPON_SIZES.includes(s.size)) errs.push(`${at}.system.size: ${s.size}`);
    if (!STAT_BASES.includes(s.statBasis)) errs.push(`${at}.system.statBasis: ${s.statBasis}`);
    if (![1, 2].includes(s.hands)) errs.push(`${at}.system.hands: ${s.hands}`);
    if (!["muscle", "fixed"].includes(s.power)) errs.push(`${at}.system.power: ${s.power}`);
    if (s.ranged !== s.range > 0)
      errs.push(`${at}.system.range: a ranged weapon needs a range and a melee weapon none`);
  }
  if (type === "shield" && !SHIELD_SIZES.includes(s.size)) errs.push(`${at}.system.size: ${s.size}`);
  if ((type === "gift" || type === "fault") && !TRAIT_EFFECTS.includes(s.effect))
    errs.push(`${at}.system.effect: ${s.effect}`);
  if (type === "armor" && (s.value < 0 || s.magic < 0)) errs.push(`${at}.system.value: negative armor`);
  return errs;
}

function actorErrors(a: Record<string, any>, at: string): string[] {
  const type = a.type as ActorType;
  if (!(type in ACTOR_DEFAULTS)) return [`${at}.type: unknown actor type ${type}`];
  const errs = shapeErrors(a.system, ACTOR_DEFAULTS[type](), `${at}.system`);
  if (type !== "miniature" && !TRACK_PRESETS.includes(a.system.woundTrack.preset))
    errs.push(`${at}.system.woundTrack.preset`);
  (a.items ?? []).forEach((it: Record<string, any>, i: number) => errs.push(...itemErrors(it, `${at}.items[${i}]`)));
  return errs;
}

const allSources = (): Src[] => packNames().flatMap((p: string) => readSources(p));
const byName = (pack: string, name: string) =>
  readSources(pack).find((s: Src) => s.doc.name === name)!.doc as unknown as ActorDoc;

describe("pack sources", () => {
  it("every pack in packs/src is declared in system.json and vice versa", () => {
    expect(packNames().sort()).toEqual(manifest.packs.map((p: { name: string }) => p.name).sort());
  });

  it("every source has a 16-character _id and a _key that matches its collection and id", () => {
    const collection: Record<string, string> = { Item: "items", Actor: "actors", JournalEntry: "journal" };
    for (const pack of manifest.packs) {
      for (const { file, doc } of readSources(pack.name) as Src[]) {
        expect(doc._id, file).toMatch(/^[A-Za-z0-9]{16}$/);
        expect(doc._key, file).toBe(`!${collection[pack.type]}!${doc._id}`);
        for (const child of [...(doc.items ?? []), ...(doc.pages ?? [])]) {
          expect(child._id, file).toMatch(/^[A-Za-z0-9]{16}$/);
          const sub = doc.items ? "actors.items" : "journal.pages";
          expect(child._key, `${file} ${child.name}`).toBe(`!${sub}!${doc._id}.${child._id}`);
        }
      }
    }
  });

  it("ids are unique across all packs", () => {
    const ids = allSources().flatMap(({ doc }) => [
      doc._id,
      ...(doc.items ?? []).map((i: { _id: string }) => i._id),
      ...(doc.pages ?? []).map((p: { _id: string }) => p._id),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("every item and actor source fits the shapes of src/system/data.ts", () => {
    const errs: string[] = [];
    for (const { file, doc } of allSources()) {
      if (doc.type && doc.type in ITEM_DEFAULTS) errs.push(...itemErrors(doc, file));
      else if (doc.type && doc.type in ACTOR_DEFAULTS) errs.push(...actorErrors(doc, file));
      else if (!doc.pages) errs.push(`${file}: neither item, actor nor journal`);
    }
    expect(errs).toEqual([]);
  });

  it("the shape check catches a wrong field", () => {
    const knife = readSources("weapons").find((s: Src) => s.doc.name === "Knife")!.doc;
    expect(itemErrors({ ...knife, system: { ...knife.system, sharp: "yes" } }, "knife")).toEqual([
      'knife.system.sharp: expected boolean, got "yes"',
    ]);
    expect(itemErrors({ ...knife, system: { ...knife.system, size: "huge" } }, "knife")).toEqual([
      "knife.system.size: huge",
    ]);
  });

  it("the weapons pack holds every §4.54 class and the named examples", () => {
    const weapons = readSources("weapons").map((s: Src) => s.doc);
    expect(new Set(weapons.map((w: any) => w.system.size))).toEqual(new Set(WEAPON_SIZES));
    for (const n of [
      "Knife",
      "Shortsword",
      "Broadsword",
      "Greatsword",
      "Large Club",
      "Mace",
      "Flail",
      "Poleaxe",
      "Polearm",
      "Spear",
      "Bow",
      "Crossbow",
      "Sling",
      "Light Pistol",
      "Heavy Pistol",
    ])
      expect(weapons.map((w: any) => w.name)).toContain(n);
    expect(weapons.some((w: any) => w.system.power === "fixed")).toBe(true);
    expect(
      weapons
        .filter((w: any) => w.system.heavyBlunt)
        .map((w: any) => w.name)
        .sort(),
    ).toEqual(["Flail", "Mace"]);
  });
});

describe("compiled packs", () => {
  it("each compiled pack holds exactly the documents of its sources", async () => {
    for (const pack of packNames()) {
      const entries: Map<string, any> = await readPack(compiled[pack]);
      const sources = readSources(pack) as Src[];
      const expected = sources.flatMap(({ doc }) => expectedKeys(doc));
      expect([...entries.keys()].sort(), pack).toEqual([...expected].sort());
      for (const { doc } of sources) {
        const stored = entries.get(doc._key);
        expect(stored.name).toBe(doc.name);
        if (doc.system) expect(stored.system).toEqual(doc.system);
        for (const child of doc.items ?? []) expect(entries.get(child._key).system).toEqual(child.system);
        for (const page of doc.pages ?? []) expect(entries.get(page._key).text).toEqual(page.text);
      }
    }
  });

  it("a source without _key is refused (the CLI alone would skip it silently)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-nokey-"));
    try {
      fs.mkdirSync(path.join(dir, "src", "weapons"), { recursive: true });
      for (const { file, doc } of readSources("weapons") as Src[]) {
        const d = doc.name === "Knife" ? { ...doc, _key: undefined } : doc;
        fs.writeFileSync(path.join(dir, "src", "weapons", path.basename(file)), JSON.stringify(d));
      }
      // The raw CLI: one document fewer, no error.
      await compilePack(path.join(dir, "src", "weapons"), path.join(dir, "raw"));
      const raw: Map<string, any> = await readPack(path.join(dir, "raw"));
      expect(raw.size).toBe(readSources("weapons").length - 1);
      // Our build refuses it, naming the file.
      await expect(compileAll(path.join(dir, "src"), path.join(dir, "out"))).rejects.toThrow(
        /knife\.json: missing or malformed _key/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sample characters (Fudge §4.55)", () => {
  const rules = defaultWorldRules();
  const combatant = (name: string) => {
    const a = byName("characters", name) as ActorDoc<"character">;
    const weapon = a.items.find((i) => i.type === "weapon") as ItemDoc<"weapon">;
    return parseCombatant(fudgeCombatant(a, weapon, rules), name);
  };

  it("Leroy: ODF +4, DDF +4; Theodora: ODF +7, DDF +2", () => {
    const leroy = combatant("Leroy");
    const theodora = combatant("Theodora");
    expect(offensiveFactor(leroy, rules.fudge).total).toBe(4);
    expect(defensiveFactor(leroy, theodora.weapon, rules.fudge).total).toBe(4);
    expect(offensiveFactor(theodora, rules.fudge).total).toBe(7);
    expect(defensiveFactor(theodora, leroy.weapon, rules.fudge).total).toBe(2);
  });

  it("Leroy → Theodora +2, Theodora → Leroy +3", () => {
    const leroy = combatant("Leroy");
    const theodora = combatant("Theodora");
    expect(totalDamageFactor(leroy, theodora, rules.fudge).total).toBe(2);
    expect(totalDamageFactor(theodora, leroy, rules.fudge).total).toBe(3);
  });
});

describe("Miniatures datacards (seed 004)", () => {
  const rules = { ...defaultWorldRules(), preset: "miniatures" as const };
  const printed: Record<string, [number | null, number | null, number, number]> = {
    "King Kingsley": [7, null, 1, 0],
    "Sir Knightly": [4, null, 3, 2],
    "Yanni the Yeoman": [0, 3, 4, 1],
    "Knavely Knave": [7, null, 1, 0],
    "Brutas the Brute": [4, null, 3, 2],
  };
  for (const [name, [modf, rodf, ddf, hddf]] of Object.entries(printed)) {
    it(`${name}: MODF ${modf ?? "N/A"}, RODF ${rodf ?? "N/A"}, DDF ${ddf}, HDDF ${hddf}`, () => {
      const d = datacard(parseDatacard(miniatureDatacard(byName("miniatures", name), rules), name));
      expect([d.modf, d.rodf, d.ddf, d.hddf]).toEqual([modf, rodf, ddf, hddf]);
    });
  }

  it("each datacard has one gift and one fault (Miniatures: Gifts/Faults)", () => {
    for (const name of Object.keys(printed)) {
      const a = byName("miniatures", name);
      expect(a.items.filter((i) => i.type === "gift")).toHaveLength(1);
      expect(a.items.filter((i) => i.type === "fault")).toHaveLength(1);
    }
  });
});
