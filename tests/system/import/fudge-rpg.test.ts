/**
 * The fudge-rpg converter (src/system/import-fudge-rpg.ts) on exports shaped exactly like
 * lupestro's fudge-rpg data models (tests/fixtures/fudge-rpg/: written for this project):
 * every field maps or lands in the notes and the report; a malformed or partial export is a
 * clear, localized error; and the result is a working character here (sheet, attack, wound track).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caught } from "../../rules/errors";
import { ROOT, rulesFor, theodora, loadLang } from "../fixtures";
import {
  convertFudgeRpgActor,
  htmlToText,
  importErrorText,
  parseFudgeRpgExport,
  reportText,
  skillFor,
  trackShapeFor,
  weaponShapeForOdf,
  type FudgeRpgConversion,
} from "../../../src/system/import-fudge-rpg";
import { importedAward } from "../../../src/system/advancement";
import { trackFor, attackRequest } from "../../../src/system/combatant";
import { characterSheetContext } from "../../../src/system/sheet";
import { CUSTOM_FIELDS, EDITABLE_FIELDS, toggleWoundBox } from "../../../src/system/actions";
import { resolveAttack, trackStatus } from "../../../src/rules";
import type { ActorDoc, ItemDoc } from "../../../src/system/data";
import { boxTrackConfig } from "../../../src/rules/fudge";

const FIXTURES = join(ROOT, "tests/fixtures/fudge-rpg");
const text = (f: string) => readFileSync(join(FIXTURES, f), "utf8");
const load = (f: string) => parseFudgeRpgExport(text(f), f);
let n = 0;
const newId = () => `imp${String(++n).padStart(13, "0")}`;
const convert = (f: string, preset: "fudge" | "fate" | "volt" | "miniatures" = "fudge") =>
  convertFudgeRpgActor(load(f), { rules: rulesFor(preset), newId });
const asDoc = (c: FudgeRpgConversion): ActorDoc<"character"> =>
  ({ ...c.actor, _id: "imported0000001" }) as ActorDoc<"character">;
const itemsOf = (c: FudgeRpgConversion, type: string) => c.actor.items.filter((i) => i.type === type) as ItemDoc[];
const keys = (c: FudgeRpgConversion) => c.report.map((l) => l.key.replace("FUDGE.Import.Report.", ""));

describe("fudge-rpg import: a full character (Brannoc)", () => {
  const c = convert("brannoc.json");
  const s = c.actor.system;

  it("keeps the name, image, Fudge Points and marks where it came from", () => {
    expect(c.actor).toMatchObject({
      name: "Brannoc the Bold",
      type: "character",
      img: "icons/svg/mystery-man.svg",
      prototypeToken: { name: "Brannoc the Bold", actorLink: true },
    });
    expect(s.fudgePoints).toBe(4);
    expect(c.actor.flags).toEqual({
      "fudge-wounds": { importedFrom: { system: "fudge-rpg", id: "", systemVersion: "1.6.0" } },
    });
  });

  it("maps the muscle-weapon attribute to Strength, the damage-capacity one to Damage Capacity, Willpower by name", () => {
    expect(s.attributes).toEqual({ strength: 2, damageCapacity: 1, willpower: 1, mass: 0 });
    expect(s.notes).toContain(
      "Attributes (Fantasy Fudge Attributes): Reasoning: Mediocre (−1), Perception: Fair (0), Agility: Good (+1)",
    );
    expect(c.report).toContainEqual({
      key: "FUDGE.Import.Report.Attributes",
      params: { names: "Reasoning, Perception, Agility" },
      kept: true,
    });
  });

  it("imports skills with levels and groups, gifts and faults with their notes as (sanitised) HTML", () => {
    expect(itemsOf(c, "skill").map((i) => [i.name, (i.system as { level: number }).level])).toEqual([
      ["Sword", 2],
      ["Riding", 0],
    ]);
    expect(itemsOf(c, "skill")[0].system).toMatchObject({
      description: "<p>Swords of all kinds.</p><p>Groups: Melee Weapons</p>",
    });
    const gifts = itemsOf(c, "gift");
    expect(gifts.map((g) => g.name)).toEqual(["Tough Hide", "Quick Reflexes"]);
    // Fudge §4.51: Tough Hide is a rules effect here; Quick Reflexes stays a described gift.
    expect(gifts[0].system).toEqual({
      effect: "toughHide",
      value: 1,
      description: "<p>Thick skin: +1 to defensive damage.</p>",
    });
    expect(gifts[1].system).toMatchObject({ effect: "none", description: "<p>+1 to initiative.</p>" });
    expect(itemsOf(c, "fault")[0]).toMatchObject({
      name: "Greedy",
      system: { effect: "none", description: "<p>Can't resist a shiny coin &mdash; ever.</p>" },
    });
  });

  it("gives the Miniatures sample gifts and faults their rule by name (Mercenary, Skilled backstabber, Terrifying appearance …)", () => {
    const src = JSON.parse(text("brannoc.json")) as { items: Array<{ name: string }> };
    src.items[3].name = "Terrifying Appearance";
    src.items[4].name = "Skilled backstabber";
    src.items[5].name = " Mercenary ";
    const m = convertFudgeRpgActor(parseFudgeRpgExport(JSON.stringify(src), "brannoc.json"), {
      rules: rulesFor("miniatures"),
      newId,
    });
    const effects = [...itemsOf(m, "gift"), ...itemsOf(m, "fault")].map((i) => [
      i.name.trim(),
      (i.system as { effect: string; value: number }).effect,
      (i.system as { value: number }).value,
    ]);
    expect(effects).toEqual([
      ["Terrifying Appearance", "terrifying", 1],
      ["Skilled backstabber", "backstabber", 0],
      ["Mercenary", "mercenary", 0],
    ]);
  });

  it("recognises a weapon by its damage factor, armour and a shield by their defence factor; other gear goes to the notes", () => {
    const [sword] = itemsOf(c, "weapon");
    // Fudge §4.54: ODF +3 = large (+2), sharp (+1); its skill found by name.
    expect(sword).toMatchObject({
      name: "Broadsword",
      system: { size: "large", sharp: true, skill: "Sword", equipped: true, description: "<p>Notched but sharp.</p>" },
    });
    expect(itemsOf(c, "armor")[0]).toMatchObject({ name: "Chain Shirt", system: { value: 2, equipped: true } });
    expect(itemsOf(c, "shield")[0]).toMatchObject({ name: "Medium Shield", system: { size: "medium" } });
    expect(s.notes).toContain("Equipment: Rope (50 ft) ×2");
    expect(c.report).toContainEqual({
      key: "FUDGE.Import.Report.Equipment",
      params: { names: "Rope (50 ft) ×2" },
      kept: true,
    });
  });

  it("turns the wound counts into marked boxes of a matching track (3/2/1/1/1 is custom here)", () => {
    expect(s.woundTrack.preset).toBe("custom");
    expect(s.woundTrack.customLevels!.map((l) => [l.key, l.boxes, l.penalty])).toEqual([
      ["scratch", 3, 0],
      ["hurt", 2, -1],
      ["veryHurt", 1, -2],
      ["incapacitated", 1, -2],
      ["nearDeath", 1, -2],
    ]);
    expect(s.woundTrack.state).toEqual({
      marks: {
        scratch: [{ level: "scratch" }, { level: "scratch" }, null],
        hurt: [{ level: "hurt" }, null],
        veryHurt: [null],
        incapacitated: [null],
        nearDeath: [null],
      },
      stun: null,
      dead: false,
    });
    // The rules core reads it: Hurt, −1 (Fudge §4.51).
    const status = trackStatus(trackFor(asDoc(c), rulesFor("fudge")));
    expect(status.penalty).toBe(-1);
  });

  it("keeps their notes first, then everything unmapped under a heading", () => {
    expect(
      s.notes.startsWith(
        "<p>A caravan guard from the <strong>Salt Road</strong>.</p><p>Owes Mirela 3 silver &amp; a favour.</p>",
      ),
    ).toBe(true);
    expect(s.notes).toContain("<h3>— Imported from Fudge RPG —</h3><ul><li>");
    expect(s.notes).not.toContain("Experience points");
    expect(s.notes).toContain("Unspent build points: skilllevels 2");
  });

  it("maps their unspent EP to an award for the GM to record (Fudge §5.2), an empty log; past the most a character holds, the rest in the notes", () => {
    // The actor's own data holds no EP: only the GM's record awards them (experience.ts).
    expect(s.experience).toEqual({ next: 0, log: [] });
    expect(c.award).toBe(7);
    expect(keys(c)).toContain("Experience");
    const big = JSON.parse(text("brannoc.json"));
    big.system.ep = 100_005;
    const b = convertFudgeRpgActor(parseFudgeRpgExport(JSON.stringify(big), "big.json"), {
      rules: rulesFor("fudge"),
      newId,
    });
    expect(b.award).toBe(100_000);
    expect(b.actor.system.notes).toContain("Experience points beyond 100000: 5");
    expect(b.report.find((l) => l.key.endsWith("ExperienceOver"))).toMatchObject({ kept: true });
    // With the importing GM's award recorded, the sheet reads 7 EP; without it, none.
    const gm = { id: "gm", isGM: true };
    const recorded = { ...asDoc(c), gmRecords: importedAward(c.award, gm, "2026-01-01T00:00:00.000Z") };
    const view = characterSheetContext(recorded, rulesFor("fudge"), { editable: true, owner: true } as never);
    expect(view.experience).toMatchObject({ ep: 7, rows: [{ type: "award", epText: "+7" }] });
    expect(characterSheetContext(asDoc(c), rulesFor("fudge"), { owner: true } as never).experience).toMatchObject({
      ep: 0,
    });
    expect(() => importedAward(7, { id: "p", isGM: false }, "t")).toThrow(/only a GM/);
  });

  it("lists every unmapped thing in the report as kept in the notes", () => {
    expect(c.report.filter((l) => l.kept).map((l) => l.key.replace("FUDGE.Import.Report.", ""))).toEqual([
      "Attributes",
      "Equipment",
      "Unspent",
    ]);
  });

  it("is a working character: its sheet builds, it attacks, its wound boxes toggle", () => {
    const actor = asDoc(c);
    const ctx = characterSheetContext(actor, rulesFor("fudge"), {
      editable: true,
      user: { id: "gm", isGM: true },
    } as never);
    expect(ctx).toBeTruthy();
    const sword = itemsOf(c, "weapon")[0] as ItemDoc<"weapon">;
    const req = attackRequest(actor, sword, theodora(), rulesFor("fudge"));
    const res = resolveAttack(req, { attack: [1, 1, 0, 0], defense: [0, 0, 0, 0] });
    expect(res).toBeTruthy();
    const update = toggleWoundBox(actor, "scratch:2", rulesFor("fudge"));
    expect(JSON.stringify(update)).toContain("scratch");
  });
});

describe("fudge-rpg import: a Mass attribute", () => {
  it('Fudge §4.54 "If the defender has Mass other than Fair … it should also be figured in": an attribute named Mass becomes the Mass attribute', () => {
    const raw = JSON.parse(
      text("brannoc.json")
        .replace('{"name": "Agility", "level": 1}', '{"name": "Mass", "level": 1}')
        .replace('"name": "Agility"', '"name": "Mass"'),
    );
    const c = convertFudgeRpgActor(parseFudgeRpgExport(JSON.stringify(raw), "brannoc.json"), {
      rules: rulesFor("fudge"),
      newId,
    });
    expect(c.actor.system.attributes).toEqual({ strength: 2, damageCapacity: 1, willpower: 1, mass: 1 });
    expect(c.actor.system.notes).not.toContain("Mass: Good");
  });
});

describe("fudge-rpg import: legacy and unusual exports", () => {
  it("reads a legacy 'major' actor with bare wound counts (their migrateData), custom attribute names and unknown items", () => {
    const c = convert("legacy-major.json");
    const s = c.actor.system;
    expect(s.attributes).toEqual({ strength: 1, damageCapacity: -1, willpower: 0, mass: 0 });
    // Bare counts take fudge-rpg's default maxima 3/2/1/1/1; 4 Scratches overflow into Hurt (Fudge §4.57).
    expect(s.woundTrack.state).toMatchObject({
      marks: {
        scratch: [{ level: "scratch" }, { level: "scratch" }, { level: "scratch" }],
        hurt: [{ level: "hurt" }, { level: "scratch" }],
      },
    });
    expect(keys(c)).toEqual(
      expect.arrayContaining(["DefaultMaxima", "Overflow", "TraitLadder", "UnknownItem", "Effects", "Image"]),
    );
    expect(s.notes).toContain("Spellbook (spell): Three cantrips.");
    expect(s.notes).toContain("Active effects (not imported): Blessed");
    expect(s.notes).toContain('<li>Trait ladder "Fudge Ladder": Superb 3, Fair 0, Terrible -3</li>');
    // An image inside the other system's folder would not exist here.
    expect(c.actor.img).toBeUndefined();
  });

  it("maps an epic-shaped track to the epic preset, caps an oversized weapon and keeps wounds with no box left in the notes", () => {
    const c = convert("heavy-wounds.json");
    const s = c.actor.system;
    // 4/2/3/1/1 is epic with two more Very Hurt boxes (epic: 4 / 2 + h / 1 + v / 1 / 1, Fudge §4.57 cinematic 4/2/1/1/1)
    expect(s.woundTrack).toMatchObject({ preset: "epic", epicExtraHurt: 0, epicExtraVeryHurt: 2 });
    expect(trackShapeFor([4, 3, 3, 1, 1])).toMatchObject({ preset: "epic", epicExtraHurt: 1, epicExtraVeryHurt: 2 });
    expect(trackShapeFor([4, 2, 1, 1, 1])).toMatchObject({ preset: "cinematic" });
    expect(trackShapeFor([4, 2, 2, 1, 1])).toMatchObject({ preset: "epic", epicExtraHurt: 0, epicExtraVeryHurt: 1 });
    // every preset shape maps back to exactly its own boxes; anything else is a custom track
    for (const shape of [
      [3, 1, 1, 1, 1],
      [4, 2, 1, 1, 1],
      [4, 2, 2, 1, 1],
      [4, 4, 3, 1, 1],
      [4, 3, 4, 1, 1],
      [4, 2, 2, 2, 1],
    ]) {
      const t = trackShapeFor(shape);
      const config =
        t.preset === "custom"
          ? null
          : boxTrackConfig(t.preset, { epicExtraHurt: t.epicExtraHurt, epicExtraVeryHurt: t.epicExtraVeryHurt });
      expect(config ? config.levels.map((l) => l.boxes) : t.customLevels!.map((l) => l.boxes), shape.join("/")).toEqual(
        shape,
      );
    }
    // 4/2/3 boxes: each level's own wounds first; the 5th Scratch finds Hurt full and is marked in
    // Very Hurt as a Scratch (Fudge §4.57).
    const state = s.woundTrack.state as { marks: Record<string, ({ level: string } | null)[]> };
    const placed = Object.values(state.marks).flat().filter(Boolean).length;
    expect(placed).toBe(8);
    expect(state.marks.veryHurt).toEqual([{ level: "veryHurt" }, { level: "scratch" }, null]);
    expect(c.actor.items[0]).toMatchObject({ type: "weapon", system: { size: "twoHanded", sharp: true } });
    expect(keys(c)).toEqual(expect.arrayContaining(["WeaponCapped", "WeaponDdf", "WeaponNoSkill", "FivePoint"]));
    // No attribute set at all: each attribute says it stayed at Fair.
    expect(c.report.filter((l) => l.key.endsWith("AttributeDefault")).map((l) => l.params.target)).toEqual([
      "FUDGE.Attribute.strength",
      "FUDGE.Attribute.damageCapacity",
      "FUDGE.Attribute.willpower",
    ]);
    expect(s.notes).toContain("Five-point skill groups: Athletic (2)");
  });

  it("reads a pre-v10 export, where `data` stands for `system`", () => {
    const src = JSON.parse(text("brannoc.json"));
    src.data = src.system;
    delete src.system;
    for (const item of src.items) {
      item.data = item.system;
      delete item.system;
    }
    const c = convertFudgeRpgActor(src, { rules: rulesFor("fudge"), newId: () => "fixedid000000000" });
    const d = convertFudgeRpgActor(JSON.parse(text("brannoc.json")), {
      rules: rulesFor("fudge"),
      newId: () => "fixedid000000000",
    });
    expect(c).toEqual(d);
  });

  it("writes the wounds into the notes when the world has no wound boxes (FATE, Volt)", () => {
    for (const preset of ["fate", "volt"] as const) {
      const c = convert("brannoc.json", preset);
      expect(c.actor.system.woundTrack.state).toBeNull();
      expect(c.actor.system.notes).toContain("Wounds in fudge-rpg: scratch 2, hurt 1");
      expect(c.report).toContainEqual({
        key: "FUDGE.Import.Report.WoundsNotBoxTrack",
        params: { wounds: "scratch 2, hurt 1" },
        kept: true,
      });
      expect(() => trackFor(asDoc(c), rulesFor(preset))).not.toThrow();
    }
  });

  it("caps a level's boxes at the custom track's limit and keeps the wounds that no longer fit in the notes", () => {
    const src = JSON.parse(text("brannoc.json"));
    src.system.wounds.scratch = { value: 12, max: 15 };
    src.system.wounds.hurt = { value: 0, max: 1 };
    src.system.wounds.veryhurt = { value: 0, max: 0 };
    src.system.wounds.incapacitated = { value: 0, max: 0 };
    src.system.wounds.neardeath = { value: 0, max: 0 };
    const c = convertFudgeRpgActor(src, { rules: rulesFor("fudge"), newId });
    expect(c.actor.system.woundTrack.customLevels![0].boxes).toBe(10);
    expect(c.report).toContainEqual({
      key: "FUDGE.Import.Report.TooManyBoxes",
      params: { level: "FUDGE.Wound.scratch", boxes: 15, max: 10 },
      kept: true,
    });
    // 10 Scratch boxes, then Hurt and the defaults 1/1/1 take the other two.
    const marks = (c.actor.system.woundTrack.state as { marks: Record<string, unknown[]> }).marks;
    expect(Object.values(marks).flat().filter(Boolean)).toHaveLength(12);
  });

  it("keeps wounds that find no open box (a full track) in the notes", () => {
    const src = JSON.parse(text("brannoc.json"));
    src.system.wounds.neardeath = { value: 3, max: 1 };
    const c = convertFudgeRpgActor(src, { rules: rulesFor("fudge"), newId });
    expect(c.actor.system.notes).toContain("Wounds with no box left: neardeath, neardeath");
    expect(c.report.some((l) => l.key.endsWith("WoundsUnplaced") && l.kept)).toBe(true);
  });
});

describe("fudge-rpg import: malformed and partial exports", () => {
  const cases: [string, string, string][] = [
    ["malformed-truncated.json", "FUDGE.Import.Error.NotJson", ""],
    ["partial-no-wounds.json", "FUDGE.Import.Error.Missing", "system.wounds"],
    ["malformed-bad-level.json", "FUDGE.Import.Error.NotInteger", "system.wounds.scratch.value"],
    ["other-system.json", "FUDGE.Import.Error.WrongSystem", "_stats.systemId"],
  ];
  for (const [file, key, field] of cases)
    it(`${file}: ${key}`, () => {
      const e = caught(() => convertFudgeRpgActor(load(file), { rules: rulesFor("fudge"), newId }));
      expect(e.key).toBe(key);
      expect(e.field).toBe(field);
    });

  it("refuses a list, an item without a type, a non-character and a missing name", () => {
    const good = () => JSON.parse(text("brannoc.json"));
    expect(caught(() => convertFudgeRpgActor([good()])).key).toBe("FUDGE.Import.Error.NotOneActor");
    const noType = good();
    delete noType.items[1].type;
    expect(caught(() => convertFudgeRpgActor(noType)).field).toBe("items.1.type");
    expect(caught(() => convertFudgeRpgActor({ ...good(), type: "npc" })).key).toBe("FUDGE.Import.Error.WrongType");
    expect(caught(() => convertFudgeRpgActor({ ...good(), name: "  " })).key).toBe("FUDGE.Import.Error.Missing");
    expect(caught(() => convertFudgeRpgActor({ ...good(), items: {} })).key).toBe("FUDGE.Import.Error.NotList");
    const negative = good();
    negative.system.wounds.hurt.value = -1;
    expect(caught(() => convertFudgeRpgActor(negative)).key).toBe("FUDGE.Import.Error.Negative");
  });

  it("words each error as a sentence naming the file, the part of the export and what to do", () => {
    const en = loadLang();
    const say = (e: ReturnType<typeof caught>, file = "x.json") => importErrorText(e as never, file, (k) => en[k] ?? k);
    const good = () => JSON.parse(text("brannoc.json"));
    const noName = good();
    delete noName.items[1].name;
    const negative = good();
    negative.system.wounds.hurt.max = -1;
    const texts = [
      say(
        caught(() => parseFudgeRpgExport(text("malformed-truncated.json"), "malformed-truncated.json")),
        "malformed-truncated.json",
      ),
      say(caught(() => convertFudgeRpgActor(load("partial-no-wounds.json")))),
      say(caught(() => convertFudgeRpgActor(load("malformed-bad-level.json")))),
      say(caught(() => convertFudgeRpgActor(load("other-system.json")))),
      say(caught(() => convertFudgeRpgActor(noName))),
      say(caught(() => convertFudgeRpgActor(negative))),
      say(caught(() => convertFudgeRpgActor([good()]))),
      say(caught(() => convertFudgeRpgActor({ ...good(), items: {} }))),
    ];
    expect(texts[0]).toMatch(/^malformed-truncated\.json is not a JSON export \(.+\)\. Choose the \.json file/);
    expect(texts[1]).toBe(
      "In x.json, the wound track is missing. Export the whole actor again from its Fudge RPG world (right-click → Export Data) and import that file.",
    );
    expect(texts[2]).toBe(
      "In x.json, the number of marked scratch wounds must be a whole number, not lots. Correct it in the Fudge RPG world, export the actor again and import that file.",
    );
    expect(texts[4]).toMatch(/^In x\.json, the name of item 2 is missing\./);
    expect(texts[5]).toMatch(/^In x\.json, the wound level "hurt" is below zero\./);
    expect(texts[6]).toMatch(/^x\.json holds a list of documents\. Export each actor on its own/);
    expect(texts[7]).toMatch(/^In x\.json, the item list must be a list\./);
    for (const t of texts) {
      expect(t).not.toMatch(/\{\w+\}|FUDGE\.|system\.|items\.\d/);
      expect(t).toMatch(/\.$/);
    }
  });

  it("never changes its input", () => {
    const src = JSON.parse(text("brannoc.json"));
    const before = JSON.stringify(src);
    convertFudgeRpgActor(src);
    expect(JSON.stringify(src)).toBe(before);
  });
});

describe("fudge-rpg import: the result fits this system's data", () => {
  const get = (o: unknown, path: string) =>
    path.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
  for (const f of ["brannoc.json", "legacy-major.json", "heavy-wounds.json"])
    it(`${f}: every sheet field is within the range the sheet and the data model accept`, () => {
      const s = convert(f).actor.system;
      for (const [path, spec] of Object.entries(EDITABLE_FIELDS)) {
        const v = get(s, path);
        if (v === undefined || spec.type !== "int") continue;
        expect(v as number, path).toBeGreaterThanOrEqual(spec.min);
        expect(v as number, path).toBeLessThanOrEqual(spec.max);
      }
      for (const level of s.woundTrack.customLevels ?? [])
        for (const k of ["boxes", "penalty", "threshold"] as const) {
          const spec = CUSTOM_FIELDS[k] as { min: number; max: number };
          expect(level[k], k).toBeGreaterThanOrEqual(spec.min);
          expect(level[k], k).toBeLessThanOrEqual(spec.max);
        }
    });
});

describe("fudge-rpg import: pieces", () => {
  it("keeps their HTML, sanitised: no script, no event handlers, no javascript: links; our own lines escaped", () => {
    const raw = JSON.parse(readFileSync(join(FIXTURES, "brannoc.json"), "utf8"));
    raw.system.notes =
      '<p onclick="x()">Hi<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">link</a></p>';
    raw.items.find((i: { type: string }) => i.type === "gift").system.description =
      "<b>Bold</b> <iframe src=//evil></iframe>plain & text";
    const c = convertFudgeRpgActor(raw);
    expect(c.actor.system.notes.startsWith('<p>Hi<img src="x"><a>link</a></p>')).toBe(true);
    expect(itemsOf(c, "gift")[0].system).toMatchObject({ description: "<b>Bold</b> plain &amp; text" });
    const all = JSON.stringify(c.actor);
    for (const bad of ["<script", "onerror", "onclick", "javascript:", "<iframe"]) expect(all).not.toContain(bad);
  });
  it("reads HTML as text", () => {
    expect(htmlToText("<p>One &amp; two</p><ul><li>a</li><li>b&#39;s</li></ul><script>x()</script>")).toBe(
      "One & two\n\n• a\n• b's",
    );
  });
  it("maps damage factors to Fudge §4.54 weapon sizes", () => {
    expect([0, 1, 2, 3, 4, 7].map((o) => weaponShapeForOdf(o).factor)).toEqual([0, 1, 2, 3, 4, 4]);
  });
  it("finds a weapon's skill by name", () => {
    expect(skillFor("Broadsword", ["Riding", "Sword"])).toBe("Sword");
    expect(skillFor("Heavy Mace", ["Club/Mace"])).toBe("Club/Mace");
    expect(skillFor("Longbow", ["Sword"])).toBeNull();
  });
  it("has English text for every report line and error key it can produce", () => {
    const en = loadLang();
    const lines = ["brannoc.json", "legacy-major.json", "heavy-wounds.json"].flatMap((f) =>
      convert(f).report.concat(convert(f, "fate").report),
    );
    for (const l of lines) {
      expect(en[l.key], l.key).toBeTypeOf("string");
      const textOut = reportText(l, (k) => en[k] ?? k);
      expect(textOut, l.key).not.toMatch(/\{\w+\}|FUDGE\./);
    }
    for (const k of [
      "NotJson",
      "Missing",
      "NotInteger",
      "WrongSystem",
      "NotOneActor",
      "WrongType",
      "NotList",
      "Negative",
      "NotObject",
      "NotText",
      "TooLarge",
    ])
      expect(en[`FUDGE.Import.Error.${k}`], k).toBeTypeOf("string");
  });
});

describe("attribute sets onto the world's attributes (Fudge §1.31)", () => {
  it("a Five-Point world takes Brannoc's six attributes by name; Health plays Damage Capacity", async () => {
    const { ATTRIBUTE_SET_PRESETS } = await import("../../../src/system/attributes");
    const { defaultWorldRules } = await import("../../../src/system/data");
    const rules = { ...defaultWorldRules(), attributeSet: ATTRIBUTE_SET_PRESETS.fivePoint() };
    const c = convertFudgeRpgActor(load("brannoc.json"), { rules, newId: () => "x".repeat(16) });
    expect(c.actor.system.attributes).toMatchObject({
      reasoning: -1,
      perception: 0,
      willpower: 1,
      strength: 2,
      agility: 1,
      health: 1,
    });
    // Nothing left over for the notes: every attribute found its place.
    expect(c.report.some((l) => l.key === "FUDGE.Import.Report.Attributes")).toBe(false);
  });

  it("the default world keeps Strength, Willpower and Health → Damage Capacity; the rest go to the notes", () => {
    const c = convertFudgeRpgActor(load("brannoc.json"), { newId: () => "x".repeat(16) });
    expect(c.actor.system.attributes).toMatchObject({ strength: 2, willpower: 1, damageCapacity: 1 });
    expect(c.report.find((l) => l.key === "FUDGE.Import.Report.Attributes")?.params.names).toBe(
      "Reasoning, Perception, Agility",
    );
  });
});
