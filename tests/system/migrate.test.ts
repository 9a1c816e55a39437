import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ladderNumber,
  migrateActorSystem,
  migrateItemSystem,
  needsMigration,
  repairSystem,
  systemChanges,
  woundLogStateChanges,
  killRecordStateChanges,
} from "../../src/system/migrate";
import { trackFor } from "../../src/system/combatant";
import { leroy, rulesFor } from "./fixtures";

const leroyLike = () => leroy();
import { ACTOR_DEFAULTS, ITEM_DEFAULTS, type ActorType, type ItemType } from "../../src/system/data";

describe("migrateActorSystem", () => {
  it("moves 0.0.x top-level attributes under attributes, as numbers", () => {
    const old = {
      strength: "Good",
      damageCapacity: "+1",
      willpower: -1,
      scale: 2,
      fudgePoints: "3",
      wounds: { marks: {} },
      trackPreset: "normal",
      biography: "<p>x</p>",
    };
    const m = migrateActorSystem("character", old) as Record<string, any>;
    expect(m.attributes).toEqual({ strength: 1, damageCapacity: 1, willpower: -1 });
    expect(m.scale).toEqual({ strength: 2, mass: 2 });
    expect(m.fudgePoints).toBe(3);
    expect(m.woundTrack).toEqual({ state: { marks: {} }, preset: "standard" });
    expect(m.notes).toBe("<p>x</p>");
    for (const k of ["strength", "damageCapacity", "willpower", "wounds", "trackPreset", "biography"])
      expect(m).not.toHaveProperty(k);
  });

  it("keeps a value already in the new place (the new shape wins)", () => {
    const m = migrateActorSystem("npc", { strength: 3, attributes: { strength: 1 } }) as Record<string, any>;
    expect(m.attributes.strength).toBe(1);
  });

  it("npc pawn flag stored as text becomes a boolean", () => {
    expect((migrateActorSystem("npc", { pawn: "true" }) as any).pawn).toBe(true);
  });

  it("miniatures: str/dex/move, wounds and a boolean Terrifying", () => {
    const m = migrateActorSystem("miniature", { str: 2, dex: 1, move: 6, wounds: null, terrifying: true }) as Record<
      string,
      any
    >;
    expect(m).toMatchObject({ strength: 2, dexterity: 1, movement: 6, woundTrack: { state: null }, terrifying: 1 });
    expect(m).not.toHaveProperty("str");
  });

  it("changes its input in place (Foundry keeps `source` and ignores migrateData's return value)", () => {
    const old: Record<string, unknown> = { strength: 2, woundTrack: { preset: "normal" } };
    const r = migrateActorSystem("character", old);
    expect(r).toBe(old);
    expect(old).toEqual({ attributes: { strength: 2 }, woundTrack: { preset: "standard" } });
  });

  it("0.1.0: HTML notes stay HTML (notes are rich text again); the stored token bar value goes", () => {
    const old = { notes: "<p>Tall &amp; <em>loud</em></p><p>Owes Leroy 3 gp</p>", openBoxes: { value: 3, max: 9 } };
    expect(migrateActorSystem("character", old)).toEqual({
      notes: "<p>Tall &amp; <em>loud</em></p><p>Owes Leroy 3 gp</p>",
    });
    expect(migrateItemSystem("weapon", { description: "<p>Heavy<br>and long</p>" })).toEqual({
      description: "<p>Heavy<br>and long</p>",
    });
  });

  it("version 3: plain-text notes and descriptions become escaped HTML, paragraphs and line breaks kept; twice changes nothing", () => {
    const text = "Owes Leroy 3 gp & a favour\nFears <rats>\n\nSecond paragraph: a < b, c > d";
    const html =
      "<p>Owes Leroy 3 gp &amp; a favour<br>Fears &lt;rats&gt;</p><p>Second paragraph: a &lt; b, c &gt; d</p>";
    for (const type of ["character", "npc", "miniature"] as const) {
      const m = migrateActorSystem(type, { notes: text }) as Record<string, unknown>;
      expect(m.notes, type).toBe(html);
      expect((migrateActorSystem(type, structuredClone(m)) as Record<string, unknown>).notes, `${type} twice`).toBe(
        html,
      );
    }
    for (const type of ["weapon", "armor", "shield", "gift", "fault", "skill"] as const) {
      expect(migrateItemSystem(type, { description: "a < b and c > d" }), type).toEqual({
        description: "<p>a &lt; b and c &gt; d</p>",
      });
      expect(migrateItemSystem(type, { description: "" }), `${type} empty`).toEqual({ description: "" });
    }
    expect(systemChanges("Actor", "character", { ...ACTOR_DEFAULTS.character(), notes: "x" }).changes).toEqual({
      notes: "<p>x</p>",
    });
    expect(
      systemChanges("Actor", "character", { ...ACTOR_DEFAULTS.character(), notes: "<p>x</p>" }).changes,
    ).toBeNull();
  });

  it("leaves out-of-range values for the schema to reject (no silent clamping)", () => {
    expect((migrateActorSystem("character", { strength: 99 }) as any).attributes.strength).toBe(99);
  });

  it("current data is unchanged (every type's defaults)", () => {
    for (const type of Object.keys(ACTOR_DEFAULTS) as ActorType[]) {
      const d = ACTOR_DEFAULTS[type]();
      expect(migrateActorSystem(type, d), type).toEqual(d);
    }
  });
});

describe("migrateItemSystem", () => {
  it("weapon: old size names, twoHanded flag, gun power, range → ranged, boolean scale-piercing", () => {
    const m = migrateItemSystem("weapon", {
      size: "Two-Handed",
      twoHanded: true,
      power: "gun",
      range: 20,
      damage: 3,
      scalePiercing: true,
    }) as Record<string, any>;
    expect(m).toMatchObject({
      size: "twoHanded",
      hands: 2,
      power: "fixed",
      ranged: true,
      miniaturesDamage: 3,
      scalePiercing: "halve",
    });
    expect(m).not.toHaveProperty("twoHanded");
    expect(m).not.toHaveProperty("damage");
  });

  it("armor: armor/bonus → value/magic; shield: buckler → small; skill: value → level by ladder name", () => {
    expect(migrateItemSystem("armor", { armor: 3, bonus: 1 })).toEqual({ value: 3, magic: 1 });
    expect(migrateItemSystem("shield", { size: "buckler" })).toEqual({ size: "small" });
    expect(migrateItemSystem("skill", { value: "Great" })).toEqual({ level: 2 });
    expect(migrateItemSystem("skill", { level: "\u22122" })).toEqual({ level: -2 });
    expect(migrateItemSystem("gift", { effect: "" })).toEqual({ effect: "none" });
  });

  it("an unknown ladder word is left as is for the schema to reject", () => {
    expect(ladderNumber("Awesome")).toBe("Awesome");
    expect(ladderNumber("Superb")).toBe(3);
  });

  it("current data is unchanged, and migrating twice changes nothing more", () => {
    for (const type of Object.keys(ITEM_DEFAULTS) as ItemType[]) {
      const d = ITEM_DEFAULTS[type]();
      expect(migrateItemSystem(type, d), type).toEqual(d);
    }
    fc.assert(
      fc.property(
        fc.record({
          size: fc.constantFrom("unarmed", "martial", "light", "medium", "Two-Handed"),
          twoHanded: fc.boolean(),
          power: fc.constantFrom("gun", "beam", "muscle"),
          range: fc.integer({ min: 0, max: 50 }),
          damage: fc.integer({ min: -2, max: 5 }),
        }),
        (old) => {
          const once = structuredClone(migrateItemSystem("weapon", old));
          expect(migrateItemSystem("weapon", structuredClone(once))).toEqual(once);
        },
      ),
    );
  });
});

describe("world migration", () => {
  it("needsMigration: by stored version", () => {
    expect(needsMigration(0, 2)).toBe(true);
    expect(needsMigration(undefined, 2)).toBe(true);
    expect(needsMigration("1.5", 2)).toBe(true);
    expect(needsMigration(2, 2)).toBe(false);
    expect(needsMigration(3, 2)).toBe(false);
  });

  it("systemChanges: only the fields that change, with deletions; null when current", () => {
    expect(systemChanges("Actor", "character", { strength: 2, notes: "<p>x</p>" }).changes).toEqual({
      attributes: { strength: 2 },
      "-=strength": null,
    });
    expect(systemChanges("Actor", "character", ACTOR_DEFAULTS.character()).changes).toBeNull();
    expect(systemChanges("Item", "weapon", { ...ITEM_DEFAULTS.weapon(), power: "gun" }).changes).toEqual({
      power: "fixed",
    });
    const stored = { power: "gun" };
    systemChanges("Item", "weapon", stored);
    expect(stored).toEqual({ power: "gun" });
  });

  it("repair: a value outside its list or a number that is not one takes the default; the rest stays", () => {
    const sys = {
      ...ACTOR_DEFAULTS.character(),
      fudgePoints: Number.NaN,
      woundTrack: { ...ACTOR_DEFAULTS.character().woundTrack, preset: "heroicish" },
      notes: "<p>keep</p>",
    };
    const r = systemChanges("Actor", "character", sys, { repair: true });
    expect(r.reset.sort()).toEqual(["fudgePoints", "woundTrack.preset"]);
    expect(r.changes).toEqual({
      fudgePoints: ACTOR_DEFAULTS.character().fudgePoints,
      woundTrack: { preset: "standard" },
    });
    expect(repairSystem("Item", "weapon", { size: "huge", statBasis: "strength" })).toEqual(["size"]);
  });
});

describe("cinematic track: 4/2/2/1/1 → 4/2/1/1/1 (Fudge §4.57, issue #10)", () => {
  it("a second Very Hurt mark overflows to Incapacitated, keeping its real level", () => {
    const stored = {
      woundTrack: {
        preset: "cinematic",
        state: {
          marks: {
            scratch: [null, null, null, null],
            hurt: [null, null],
            veryHurt: [{ level: "veryHurt" }, { level: "hurt" }],
            incapacitated: [null],
            nearDeath: [null],
          },
        },
      },
    };
    const m = migrateActorSystem("character", stored) as Record<string, any>;
    expect(m.woundTrack.state.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(m.woundTrack.state.marks.incapacitated).toEqual([{ level: "hurt" }]);
    expect(m).toBe(stored); // in place, as v13 keeps the source it passed to migrateData
  });
  it("an empty second Very Hurt box is simply dropped; a standard track is untouched", () => {
    const stored = {
      woundTrack: { preset: "cinematic", state: { marks: { veryHurt: [{ level: "veryHurt" }, null] } } },
    };
    const m = migrateActorSystem("character", stored) as Record<string, any>;
    expect(m.woundTrack.state.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    const std = { woundTrack: { preset: "standard", state: { marks: { veryHurt: [{ level: "veryHurt" }] } } } };
    expect(migrateActorSystem("character", std)).toEqual(std);
  });
});

describe("version 7: the wound log's track states take the track's current shape (issue 28)", () => {
  const old = (vh: unknown[]) => ({
    marks: {
      scratch: [null, null, null, null],
      hurt: [null, null],
      veryHurt: vh,
      incapacitated: [null],
      nearDeath: [null],
    },
  });
  const flags = (before: unknown, after: unknown) => ({
    "fudge-wounds": {
      woundLog: {
        card000000000001: { by: "u", at: 1, before, after, fudgePointSpent: false, undone: false, undoneBy: "" },
      },
    },
  });

  it("a cinematic record written on the 4/2/2/1/1 track is refitted like the track: a second Very Hurt overflows", () => {
    const system = { woundTrack: { preset: "cinematic", state: null } };
    const before = old([{ level: "veryHurt" }, null]);
    const after = old([{ level: "veryHurt" }, { level: "hurt" }]);
    const changes = woundLogStateChanges(system, flags(before, after)) as Record<string, any>;
    const rec = changes.woundLog.card000000000001;
    expect(rec.before.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(rec.after.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(rec.after.marks.incapacitated).toEqual([{ level: "hurt" }]);
    // The refitted states read on the actor's track (trackFor would throw on a second Very Hurt box).
    const doc = { ...leroyLike(), system: { woundTrack: { preset: "cinematic", state: rec.after } } };
    expect(() => trackFor(doc as never, rulesFor("fudge"))).not.toThrow();
    const stale = { ...leroyLike(), system: { woundTrack: { preset: "cinematic", state: after } } };
    expect(() => trackFor(stale as never, rulesFor("fudge"))).toThrow();
  });

  it("nothing to change: a current record, a standard track, no log", () => {
    const cur = old([{ level: "veryHurt" }]);
    expect(woundLogStateChanges({ woundTrack: { preset: "cinematic" } }, flags(cur, cur))).toBeNull();
    const std = old([{ level: "veryHurt" }, { level: "hurt" }]);
    expect(woundLogStateChanges({ woundTrack: { preset: "standard" } }, flags(std, std))).toBeNull();
    expect(woundLogStateChanges({ woundTrack: { preset: "cinematic" } }, {})).toBeNull();
  });

  it("the GM's kill record (killedFrom) is refitted the same way, its other fields kept", () => {
    const rec = { before: old([{ level: "veryHurt" }, { level: "hurt" }]), after: { dead: true }, by: "g", at: 5 };
    const next = killRecordStateChanges({ woundTrack: { preset: "cinematic" } }, rec) as Record<string, any>;
    expect(next.before.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(next.before.marks.incapacitated).toEqual([{ level: "hurt" }]);
    expect(next).toMatchObject({ by: "g", at: 5, after: { dead: true } });
    expect(killRecordStateChanges({ woundTrack: { preset: "cinematic" } }, next)).toBeNull();
  });
});
