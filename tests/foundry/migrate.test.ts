import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ladderNumber, migrateActorSystem, migrateItemSystem, needsMigration, planWorldMigration } from "../../src/foundry/migrate-pure";
import { ACTOR_DEFAULTS, ITEM_DEFAULTS, type ActorType, type ItemType } from "../../src/system/data";

describe("migrateActorSystem", () => {
  it("moves 0.0.x top-level attributes under attributes, as numbers", () => {
    const old = { strength: "Good", damageCapacity: "+1", willpower: -1, scale: 2, fudgePoints: "3", wounds: { marks: {} }, trackPreset: "normal", biography: "<p>x</p>" };
    const m = migrateActorSystem("character", old) as Record<string, any>;
    expect(m.attributes).toEqual({ strength: 1, damageCapacity: 1, willpower: -1 });
    expect(m.scale).toEqual({ strength: 2, mass: 2 });
    expect(m.fudgePoints).toBe(3);
    expect(m.woundTrack).toEqual({ state: { marks: {} }, preset: "standard" });
    expect(m.notes).toBe("<p>x</p>");
    for (const k of ["strength", "damageCapacity", "willpower", "wounds", "trackPreset", "biography"]) expect(m).not.toHaveProperty(k);
  });

  it("keeps a value already in the new place (the new shape wins)", () => {
    const m = migrateActorSystem("npc", { strength: 3, attributes: { strength: 1 } }) as Record<string, any>;
    expect(m.attributes.strength).toBe(1);
  });

  it("npc pawn flag stored as text becomes a boolean", () => {
    expect((migrateActorSystem("npc", { pawn: "true" }) as any).pawn).toBe(true);
  });

  it("miniatures: str/dex/move, wounds and a boolean Terrifying", () => {
    const m = migrateActorSystem("miniature", { str: 2, dex: 1, move: 6, wounds: null, terrifying: true }) as Record<string, any>;
    expect(m).toMatchObject({ strength: 2, dexterity: 1, movement: 6, woundTrack: { state: null }, terrifying: 1 });
    expect(m).not.toHaveProperty("str");
  });

  it("does not mutate its input", () => {
    const old = { strength: 2, woundTrack: { preset: "normal" } };
    const copy = structuredClone(old);
    migrateActorSystem("character", old);
    expect(old).toEqual(copy);
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
    const m = migrateItemSystem("weapon", { size: "Two-Handed", twoHanded: true, power: "gun", range: 20, damage: 3, scalePiercing: true }) as Record<string, any>;
    expect(m).toMatchObject({ size: "twoHanded", hands: 2, power: "fixed", ranged: true, miniaturesDamage: 3, scalePiercing: "halve" });
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
        fc.record({ size: fc.constantFrom("unarmed", "martial", "light", "medium", "Two-Handed"), twoHanded: fc.boolean(), power: fc.constantFrom("gun", "beam", "muscle"), range: fc.integer({ min: 0, max: 50 }), damage: fc.integer({ min: -2, max: 5 }) }),
        (old) => {
          const once = migrateItemSystem("weapon", old);
          expect(migrateItemSystem("weapon", once)).toEqual(once);
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

  it("plans updates only for documents whose stored data is older", () => {
    const updates = planWorldMigration([
      { uuid: "Actor.a", documentName: "Actor", type: "character", system: { strength: 2 } },
      { uuid: "Actor.b", documentName: "Actor", type: "character", system: ACTOR_DEFAULTS.character() },
      { uuid: "Actor.a.Item.w", documentName: "Item", type: "weapon", system: { power: "gun" } },
      { uuid: "Item.s", documentName: "Item", type: "skill", system: { level: 1, description: "" } },
    ]);
    expect(updates.map((u) => u.uuid)).toEqual(["Actor.a", "Actor.a.Item.w"]);
    expect(updates[0].system).toEqual({ attributes: { strength: 2 } });
    expect(updates[1].system).toEqual({ power: "fixed" });
  });
});

describe("cinematic track: 4/2/2/1/1 → 4/2/1/1/1 (Fudge §4.57, issue #10)", () => {
  it("a second Very Hurt mark overflows to Incapacitated, keeping its real level", () => {
    const stored = { woundTrack: { preset: "cinematic", state: { marks: { scratch: [null, null, null, null], hurt: [null, null], veryHurt: [{ level: "veryHurt" }, { level: "hurt" }], incapacitated: [null], nearDeath: [null] } } } };
    const m = migrateActorSystem("character", stored) as Record<string, any>;
    expect(m.woundTrack.state.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(m.woundTrack.state.marks.incapacitated).toEqual([{ level: "hurt" }]);
    expect(stored.woundTrack.state.marks.veryHurt).toHaveLength(2); // input untouched
  });
  it("an empty second Very Hurt box is simply dropped; a standard track is untouched", () => {
    const stored = { woundTrack: { preset: "cinematic", state: { marks: { veryHurt: [{ level: "veryHurt" }, null] } } } };
    const m = migrateActorSystem("character", stored) as Record<string, any>;
    expect(m.woundTrack.state.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    const std = { woundTrack: { preset: "standard", state: { marks: { veryHurt: [{ level: "veryHurt" }] } } } };
    expect(migrateActorSystem("character", std)).toEqual(std);
  });
});
