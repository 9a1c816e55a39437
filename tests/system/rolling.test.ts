/** The one roll path (src/system/rolling.ts): the same faces whatever the host's roller. */
import { describe, expect, it } from "vitest";
import { seededRng } from "../../src/rules";
import { legendarySlot } from "../../src/rules/miniatures";
import { fudgeDiceSlot, plainDiceSlot } from "../../src/rules/fudge";
import { faceToUniform, rngRoller, rollSlot, traitRollSlot, type Roller } from "../../src/system/rolling";

/** A roller serving fixed faces, recording each formula rolled (as Foundry Rolls would be). */
function fixed(faces: number[]): { roller: Roller<string>; rolled: string[] } {
  const rolled: string[] = [];
  return {
    rolled,
    roller: async (formula) => {
      const n = Number(/^(\d+)/.exec(formula)?.[1] ?? 1);
      rolled.push(formula);
      return { formula, faces: faces.splice(0, n), roll: `${formula}#${rolled.length}` };
    },
  };
}

describe("rolling", () => {
  it("a face maps to the uniform the rules core turns back into it", () => {
    for (const f of [-1, 0, 1]) expect(Math.floor(faceToUniform(f, "F") * 3) - 1).toBe(f);
    for (let f = 1; f <= 20; f++) expect(1 + Math.floor(faceToUniform(f, 20) * 20)).toBe(f);
  });

  it("the Legendary reroll is its own roll: four + roll 4dF again (Miniatures: Legendary)", async () => {
    const { roller, rolled } = fixed([1, 1, 1, 1, 1, 0, -1, 0]);
    const r = await rollSlot(legendarySlot("attack", "x"), roller);
    expect(r.faces).toEqual([1, 1, 1, 1, 1, 0, -1, 0]);
    expect(rolled).toEqual(["4dF", "4dF"]);
    expect(r.rolls).toEqual(["4dF#1", "4dF#2"]);
    const once = fixed([1, 1, 0, 1]);
    expect((await rollSlot(legendarySlot("attack", "x"), once.roller)).faces).toEqual([1, 1, 0, 1]);
    expect(once.rolled).toEqual(["4dF"]);
  });

  it("the playground's dice give the same faces through the roll path as the slot's own roll", async () => {
    for (const slot of [fudgeDiceSlot("a", 4, "x"), plainDiceSlot("d", 3, 6, "x"), legendarySlot("l", "x")]) {
      for (let seed = 1; seed < 200; seed++) {
        const roller = rngRoller(seededRng(seed));
        expect((await rollSlot(slot, async (f) => roller(f))).faces, `${slot.id} ${seed}`).toEqual(
          slot.roll(seededRng(seed)),
        );
      }
    }
  });
});

describe("a trait roll's dice (traitRollSlot)", () => {
  it('in a Miniatures world a stat roll is the Legendary roll: four + roll 4dF again ("On an unmodified roll of +4, re-roll … and add")', async () => {
    const { roller, rolled } = fixed([1, 1, 1, 1, 0, 1, -1, 1]);
    const r = await rollSlot(traitRollSlot("dexterity", "miniatures"), roller);
    expect(r.faces).toEqual([1, 1, 1, 1, 0, 1, -1, 1]);
    expect(rolled).toEqual(["4dF", "4dF"]);
    // A character's trait in a Miniatures world too: every Miniatures roll is Legendary.
    expect(
      (await rollSlot(traitRollSlot("attributes.strength", "miniatures"), fixed([1, 1, 1, 1, 0, 0, 0, 0]).roller))
        .faces,
    ).toHaveLength(8);
  });

  it("elsewhere four + stay four dice (Fudge §3.2); a Volt trait rolls two d20 (Volt: Rolls)", async () => {
    for (const preset of ["fudge", "fate", "volt"]) {
      const { roller, rolled } = fixed([1, 1, 1, 1, 0, 0, 0, 0]);
      expect((await rollSlot(traitRollSlot("attributes.strength", preset), roller)).faces).toEqual([1, 1, 1, 1]);
      expect(rolled).toEqual(["4dF"]);
    }
    const volt = fixed([17, 3]);
    expect((await rollSlot(traitRollSlot("volt.willpower", "volt"), volt.roller)).faces).toEqual([17, 3]);
    expect(volt.rolled).toEqual(["2d20"]);
  });
});
