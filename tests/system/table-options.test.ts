/**
 * World options the rules core handles but the table dropped (audit): edited thresholds under the
 * Damage-Capacity-as-track variant, the DC track's healing buttons, and the Willpower roll against
 * a wound penalty on sheet trait rolls. Each test fails on the code before the fix.
 */
import { describe, expect, test } from "vitest";
import {
  defend,
  healWounds,
  rollTrait,
  startAttack,
  traitWillpowerNeeded,
  updatedState,
  type RollCardData,
} from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { characterSheetContext } from "../../src/system/sheet";
import { checkRollCard } from "../../src/system/integrity";
import { rollCardContext } from "../../src/system/card";
import { healingRequest } from "../../src/system/heal";
import { applyWound } from "../../src/rules";
import { keyOf } from "../rules/errors";
import type { ActorDoc, WorldRules } from "../../src/system/data";
import { GM, knight, leroy, rulesFor, theodora } from "./fixtures";

const withState = <T extends ActorDoc>(a: T, state: unknown): T =>
  ({ ...a, system: { ...a.system, woundTrack: { ...(a.system as { woundTrack: object }).woundTrack, state } } }) as T;
const wounded = <T extends ActorDoc>(a: T, rules: WorldRules, level: string): T =>
  withState(a, applyWound(trackFor(a, rules), { level }).track.state);

function fudge(patch: { dcVariant?: "factor" | "track"; track?: Partial<WorldRules["fudgeTrack"]> } = {}): WorldRules {
  const rules = rulesFor("fudge");
  if (patch.dcVariant) rules.fudge = { ...rules.fudge, dcVariant: patch.dcVariant };
  rules.fudgeTrack = { ...rules.fudgeTrack, ...(patch.track ?? {}) };
  return rules;
}

describe('RULES §2.2 "The damage number is looked up in the threshold table … Both editable" — under the DC-track variant too', () => {
  // Scratch 1, Hurt 2–3, Very Hurt 4–5, Incapacitated 6–7, Near Death 8+ (a world's edit).
  const thresholds = [
    { key: "scratch", min: 1 },
    { key: "hurt", min: 2 },
    { key: "veryHurt", min: 4 },
    { key: "incapacitated", min: 6 },
    { key: "nearDeath", min: 8 },
  ];

  test("the same blow with edited thresholds gives the same wound under the factor and the DC-track variants", () => {
    // Leroy → Theodora (seed 000): total damage factor +2 (Theodora's DC Fair adds nothing either way); RD 2 → damage number 4.
    const wound = (dcVariant: "factor" | "track") => {
      const rules = fudge({ dcVariant, track: { thresholds } });
      const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 0, 0] }, rules, GM);
      const r = defend(card, theodora(), [0, 0, 0, 0], GM).system.targets[0].resolution as unknown as {
        numbers: { damageNumber: number };
        woundKey: string;
      };
      return [r.numbers.damageNumber, r.woundKey];
    };
    expect(wound("factor")).toEqual([4, "veryHurt"]);
    expect(wound("track")).toEqual([4, "veryHurt"]); // was Hurt: the DC track kept the default 1/3/5/7/9
  });

  test("the DC track takes the world's mins; a level the world leaves out keeps the default", () => {
    const cfg = (rules: WorldRules) =>
      (trackFor(leroy(), rules).config as unknown as { thresholds: number[] }).thresholds;
    expect(cfg(fudge({ dcVariant: "track", track: { thresholds } }))).toEqual([1, 2, 4, 6, 8]);
    expect(cfg(fudge({ dcVariant: "track", track: { thresholds: [{ key: "hurt", min: 2 }] } }))).toEqual([
      1, 2, 5, 7, 9,
    ]);
    expect(cfg(fudge({ dcVariant: "track" }))).toEqual([1, 3, 5, 7, 9]);
  });
});

describe("RULES §2.4 (4) DC as the wound record heals (§2.5): the sheet offers the box track's healing", () => {
  const opts = { editable: true, owner: true };
  const dc = fudge({ dcVariant: "track" });

  test("Clear Scratches, Healing roll and Natural healing, as on a box track", () => {
    const heal = (rules: WorldRules) => characterSheetContext(leroy(), rules, opts).healing.map((b) => b.data.heal);
    expect(heal(dc)).toEqual(heal(fudge()));
    expect(heal(dc)).toEqual(["scratches", "roll", "natural"]);
    expect(characterSheetContext(leroy(), dc, { editable: false, owner: false }).healing).toEqual([]);
  });

  test("each button's request heals the DC track, and never above its starting value", () => {
    // Leroy's DC Good +1; two hits → Mediocre −1 (Hurt).
    let l = wounded(leroy(), dc, "hurt");
    l = wounded(l, dc, "hurt");
    expect((trackFor(l, dc).state as { dc: number }).dc).toBe(-1);
    const dice = { fudge: [1, 0, 0, 0], d20: [1, 1] as [number, number] };
    const after = (type: string, inputs: Record<string, number>) => {
      const r = healWounds(l, healingRequest(type, l, inputs, dice, dc), dc, GM);
      return (trackFor(withState(l, updatedState(r.update)), dc).state as { dc: number }).dc;
    };
    expect(after("roll", { skill: 0 })).toBe(0); // Good (0 + 1): one level
    expect(after("roll", { skill: 3 })).toBe(1); // Superb +1 would be four levels: stops at the start, Good +1
    expect(after("natural", { weeks: 1 })).toBe(0);
    expect(after("natural", { weeks: 5 })).toBe(1);
  });
});

describe('RULES §1 "Wound penalties apply to every roll" and §2.3 "Optional Willpower roll against a GM-set Difficulty Level to reduce or cancel a penalty": sheet trait rolls', () => {
  const rules = fudge({ track: { willpowerVsPenalty: true, willpowerDifficulty: 0 } });
  // Leroy Very Hurt (−2); his Willpower Fair (0).
  const hurt = () => wounded(leroy(), rules, "veryHurt");

  test("a wounded character rolls Willpower first: meet the Difficulty → one less, beat it by 2 → none, miss it → the full penalty", () => {
    const roll = (will: number[]) =>
      rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], rules, { user: GM, willpowerDice: will });
    expect(roll([0, 0, 0, 0])).toMatchObject({ penalty: -1, result: 0, willpowerDice: [0, 0, 0, 0] }); // Fair vs Fair
    expect(roll([1, 1, 0, 0])).toMatchObject({ penalty: 0, result: 1 }); // Great vs Fair
    expect(roll([-1, 0, 0, 0])).toMatchObject({ penalty: -2, result: -1 }); // Mediocre vs Fair
    const card = roll([1, 0, 0, 0]);
    expect(card.steps[0]).toMatchObject({
      key: "FUDGE.Step.Fudge.TraitWillpower",
      rule: "Fudge §4.51",
      value: 1,
      params: { level: "Fair", faces: "+ 0 0 0", rolled: "Good", difficulty: "Fair", from: "−2", penalty: "−1" },
    });
    // The modifier the player adds is not a wound penalty: Willpower does not ease it.
    expect(
      rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], rules, {
        user: GM,
        modifier: -1,
        willpowerDice: [1, 1, 0, 0],
      }).penalty,
    ).toBe(-1);
    // Skills too.
    expect(
      rollTrait(hurt(), "skill:leroySword", [0, 0, 0, 0], rules, { user: GM, willpowerDice: [1, 1, 0, 0] }).penalty,
    ).toBe(0);
  });

  test("the Willpower dice are required when the roll is made, and only then", () => {
    expect(traitWillpowerNeeded(hurt(), "attributes.strength", rules)).toBe(true);
    expect(keyOf(() => rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], rules, { user: GM }))).toBe(
      "FUDGE.Error.WillpowerRollMissing",
    );
    expect(() =>
      rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], rules, { user: GM, willpowerDice: [0, 0, 2, 0] }),
    ).toThrow();
    // Unhurt, the option off, or another preset: no Willpower roll, the card as before.
    expect(traitWillpowerNeeded(leroy(), "attributes.strength", rules)).toBe(false);
    expect(
      rollTrait(leroy(), "attributes.strength", [0, 0, 0, 0], rules, { willpowerDice: [1, 1, 1, 1] }),
    ).not.toHaveProperty("willpowerDice");
    const off = fudge();
    expect(traitWillpowerNeeded(hurt(), "attributes.strength", off)).toBe(false);
    expect(rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], off)).toMatchObject({ penalty: -2 });
    const mini = rulesFor("miniatures", { fudgeTrack: rules.fudgeTrack });
    const k = wounded(knight(), mini, "hurt");
    expect(traitWillpowerNeeded(k, "strength", mini)).toBe(false);
    // Miniatures' stat check (the Legendary roll) is untouched: four + roll again.
    expect(rollTrait(k, "strength", [1, 1, 1, 1, 1, 0, 0, 0], mini)).toMatchObject({ penalty: -1, result: 5 });
  });

  test("the roll card keeps its checked shape: willpowerDice is four Fudge dice when present", () => {
    const card = rollTrait(hurt(), "attributes.strength", [0, 0, 0, 0], rules, {
      user: GM,
      willpowerDice: [1, 1, 0, 0],
    });
    expect(checkRollCard(structuredClone(card))).toEqual(card);
    const forged = (willpowerDice: unknown) =>
      keyOf(() => checkRollCard({ ...card, willpowerDice } as unknown as RollCardData));
    expect(forged([1, 1, 0])).toBe("FUDGE.Error.Card.RollMalformed");
    expect(forged([1, 1, 0, 3])).toBe("FUDGE.Error.Card.RollMalformed");
    expect(forged("++00")).toBe("FUDGE.Error.Card.RollMalformed");
    const view = rollCardContext(card, rules);
    expect(view.error).toBeNull();
    expect(view.steps.map((s) => s.key)).toContain("FUDGE.Step.Fudge.TraitWillpower");
    expect(view.penaltyText).toBe("0");
  });
});
