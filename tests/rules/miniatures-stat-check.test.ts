/**
 * A Miniatures stat check (a datacard stat's roll, a character's trait in a Miniatures world): the
 * Miniatures dice ("On an unmodified roll of +4, re-roll, ignoring all [-] results, and add the new
 * results to the total") and a Guts failure by 1 ("1 Model is at a -1 to rolls (Rolls only, not
 * stats)") on Fudge §3.4's unopposed roll.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { statCheck, parseGutsState, initialGutsState, legendaryTotal, rollLegendary } from "../../src/rules/miniatures";
import { unopposedRoll } from "../../src/rules/fudge";
import { seededRng } from "../../src/rules";
import { caught } from "./errors";

const PLUS4 = [1, 1, 1, 1];
const failure = (effect: number) => ({
  reason: "newWoundLevel" as const,
  target: 1,
  sinceTurn: 1,
  bonus: 0,
  forfeitNext: 0,
  lastTurn: 1,
  effect: effect as 1,
});
const shaken = (...effects: number[]) => parseGutsState({ pending: effects.map(failure) }, "state");

describe('Miniatures stat check: "On an unmodified roll of +4, re-roll, ignoring all [-] results, and add the new results to the total"', () => {
  it("four + then + − 0 +: the − is ignored, the two + added: Dexterity +1 rolls 1 + 4 + 2 = +7, with the Legendary step", () => {
    const r = statCheck(1, [...PLUS4, 1, -1, 0, 1], 3, 0, { numbers: true });
    expect([r.rolled, r.diceTotal, r.success, r.margin, r.name]).toEqual([7, 6, true, 4, "+7"]);
    const keys = r.steps.map((s) => s.key);
    expect(keys).toEqual([
      "FUDGE.Step.Fudge.TraitNumber",
      "FUDGE.Step.Fudge.Dice",
      "FUDGE.Miniatures.Step.Legendary",
      "FUDGE.Step.Fudge.Success",
    ]);
    expect(r.steps[1]).toMatchObject({ value: 4, params: { faces: "+ + + +" } });
    expect(r.steps[2]).toMatchObject({ rule: "Miniatures: Ground rules", value: 2, params: { rerolls: 1 } });
  });

  it("open-ended: a re-roll of four + is rolled again (4 + 4 + 1 = 9)", () => {
    const r = statCheck(0, [...PLUS4, ...PLUS4, 0, 1, 0, -1], 0, 0, { numbers: true });
    expect(r.diceTotal).toBe(9);
    expect(r.steps.find((s) => s.key === "FUDGE.Miniatures.Step.Legendary")).toMatchObject({
      value: 5,
      params: { rerolls: 2 },
    });
  });

  it("four + without its re-roll is refused (nothing is lost: the roll is made again), as are extra dice after a roll below +4", () => {
    expect(caught(() => statCheck(0, PLUS4)).key).toBe("FUDGE.Error.Miniatures.LegendaryMissing");
    expect(caught(() => statCheck(0, [1, 1, 1, 0, 1, 1, 1, 1])).key).toBe("FUDGE.Error.Miniatures.LegendaryExtra");
    expect(caught(() => statCheck(0, [1, 0, 0])).field).toBe("dice");
    expect(caught(() => statCheck(0.5, [0, 0, 0, 0])).field).toBe("trait");
  });

  it("below +4 it is Fudge §3.4's unopposed roll, step for step (the same dice, modifier, target and names)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(-1, 0, 1), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -3, max: 0 }),
        fc.boolean(),
        (faces, stat, target, modifier, numbers) => {
          fc.pre(faces.some((f) => f !== 1));
          const { gutsPenalty, ...r } = statCheck(stat, faces, target, modifier, { numbers });
          expect(gutsPenalty).toBe(0);
          expect(r).toEqual(unopposedRoll(stat, faces, target, modifier, undefined, numbers));
        },
      ),
    );
  });

  it("every rolled Legendary roll is read to the total legendaryTotal gives it", () => {
    const rng = seededRng(7);
    for (let i = 0; i < 2000; i++) {
      const faces = rollLegendary(rng);
      expect(statCheck(0, faces, 0, 0).diceTotal).toBe(legendaryTotal(faces, "f").total);
    }
  });
});

describe('Miniatures stat check: a Guts failure by 1 — "1 Model is at a -1 to rolls (Rolls only, not stats)"', () => {
  it("is −1 to the check while a failure by 1 is in force, with the Shaken step; attackRolls leaves it; other failures do not", () => {
    const r = statCheck(1, [0, 0, 0, 0], 1, 0, { numbers: true, gutsState: shaken(1) });
    expect([r.rolled, r.success, r.gutsPenalty]).toEqual([0, false, -1]);
    expect(r.steps.find((s) => s.key === "FUDGE.Miniatures.Step.GutsRollPenalty")).toMatchObject({
      rule: "Miniatures: Guts",
      value: -1,
    });
    expect(
      statCheck(1, [0, 0, 0, 0], 1, 0, { gutsState: shaken(1), rules: { gutsRollPenalty: "attackRolls" } }),
    ).toMatchObject({ rolled: 1, success: true, gutsPenalty: 0 });
    for (const s of [shaken(2), shaken(4), initialGutsState(), undefined])
      expect(statCheck(1, [0, 0, 0, 0], 1, 0, { gutsState: s }).gutsPenalty).toBe(0);
    // Not cumulative: two failures by 1 are still −1; with the wound penalty as the modifier, both count.
    expect(statCheck(1, [0, 0, 0, 0], 0, -1, { gutsState: shaken(1, 1) })).toMatchObject({
      rolled: -1,
      gutsPenalty: -1,
    });
  });
});
