/** The dice options of Fudge §3.21–3.22: exact distributions against brute-force enumeration; ladder variants. */
import { describe, expect, it } from "vitest";
import {
  DICE_OPTION_IDS,
  FOUR_DF_WEIGHTS,
  describeLevel,
  diceDistribution,
  opposedDistribution,
  parseDiceOption,
  readDiceOption,
  rollDiceOption,
  seededRng,
  standardLadder,
  unopposedChance,
  fudge,
  type DiceBand,
} from "../../src/rules";
import { caught } from "./errors";

/** Every raw throw of `count` dice of `sides` (faces from `lowest`), enumerated one by one. */
function* throwsOf(count: number, sides: number, lowest: number): Generator<number[]> {
  const faces = new Array<number>(count).fill(lowest);
  for (;;) {
    yield [...faces];
    let i = 0;
    while (i < count && faces[i] === lowest + sides - 1) faces[i++] = lowest;
    if (i === count) return;
    faces[i]++;
  }
}

const SHAPES: Record<string, [number, number, number]> = {
  "4dF": [4, 3, -1],
  "4d6F": [4, 6, 1],
  "d6-d6": [2, 6, 1],
  "3d6": [3, 6, 1],
  "d%": [1, 100, 1],
};

/** One throw read by the text's own rule, written out here independently of the library. */
function readBrute(id: string, t: number[], table?: DiceBand[]): number | "reroll" {
  if (id === "4dF") return t[0] + t[1] + t[2] + t[3];
  if (id === "4d6F") return t.filter((f) => f >= 5).length - t.filter((f) => f <= 2).length;
  if (id === "d6-d6") return t[0] - t[1];
  const sum = t.reduce((s, f) => s + f, 0);
  return table!.find((b) => b.from <= sum && sum <= b.to)!.result;
}

/** Brute force: every throw, counted by its result. */
function bruteForce(
  id: string,
  table?: DiceBand[],
): { counts: Map<number, number>; rerolls: number; outcomes: number } {
  const counts = new Map<number, number>();
  let rerolls = 0;
  let outcomes = 0;
  for (const t of throwsOf(...SHAPES[id])) {
    outcomes++;
    const r = readBrute(id, t, table);
    if (r === "reroll") rerolls++;
    else counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  return { counts, rerolls, outcomes };
}

describe("exact distributions (Fudge §3.2) against enumeration of every throw", () => {
  for (const id of DICE_OPTION_IDS) {
    it(`${id}`, () => {
      const option = parseDiceOption(id);
      const d = diceDistribution(id);
      const b = bruteForce(id, option.table);
      expect(d.outcomes).toBe(b.outcomes);
      expect(d.rerolled).toBe(b.rerolls);
      expect(d.total).toBe(b.outcomes - b.rerolls);
      expect(new Map(d.results.map((r) => [r.result, r.weight]))).toEqual(b.counts);
      expect(d.results.reduce((s, r) => s + r.p, 0)).toBeCloseTo(1, 14);
      // Reading each recorded throw gives the text's result.
      for (const t of throwsOf(...SHAPES[id])) {
        const want = readBrute(id, t, option.table);
        expect(readDiceOption(option, t)).toBe(want === "reroll" ? null : want);
      }
    });
  }
  it("a GM's own table is enumerated the same way", () => {
    const table: DiceBand[] = [
      { from: 3, to: 8, result: -1 },
      { from: 9, to: 12, result: 0 },
      { from: 13, to: 17, result: 1 },
      { from: 18, to: 18, result: "reroll" },
    ];
    const d = diceDistribution({ id: "3d6", table });
    const b = bruteForce("3d6", table);
    expect(new Map(d.results.map((r) => [r.result, r.weight]))).toEqual(b.counts);
    expect(d.rerolled).toBe(1);
    expect(d.total).toBe(215);
  });
});

describe("the text's numbers", () => {
  it("4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81 (§3.21), unchanged from dice.ts", () => {
    const d = diceDistribution("4dF");
    expect(d.results.map((r) => r.weight)).toEqual([...FOUR_DF_WEIGHTS]);
    expect(d.total).toBe(81);
  });
  it("§3.23 Success Rates: the chance of rolling at least each result on 4dF", () => {
    // Fair trait (0) against a difficulty of +4 … −4: 1.2%, 6.2%, 18.5%, 38.3%, 61.7%, 81.5%, 93.8%, 98.8%, 100%.
    const table = [1.2, 6.2, 18.5, 38.3, 61.7, 81.5, 93.8, 98.8, 100];
    [4, 3, 2, 1, 0, -1, -2, -3, -4].forEach((target, i) =>
      expect(Math.round(unopposedChance("4dF", 0, target) * 1000) / 10).toBe(table[i]),
    );
  });
  it("ordinary d6 read 1–2 −, 3–4 blank, 5–6 + are Fudge dice (§3.21): the same distribution", () => {
    expect(diceDistribution("4d6F").results.map((r) => r.p)).toEqual(diceDistribution("4dF").results.map((r) => r.p));
  });
  it("d6−d6 runs −5…+5, 6 of 36 at 0", () => {
    const d = diceDistribution("d6-d6");
    expect(d.results.map((r) => r.result)).toEqual([-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5]);
    expect(d.results.map((r) => r.weight)).toEqual([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    expect(readDiceOption("d6-d6", [6, 1])).toBe(5);
    expect(describeLevel(3 + 5).label).toBe("Legendary +4"); // a Superb trait rolling +5
  });
  it("the default d% table rerolls 82–00 and so gives 4dF's odds exactly", () => {
    const d = diceDistribution("d%");
    expect(d.results.map((r) => r.weight)).toEqual([...FOUR_DF_WEIGHTS]);
    expect(d.rerolled).toBe(19);
    expect(readDiceOption("d%", [90])).toBeNull();
    expect(readDiceOption("d%", [81])).toBe(4);
  });
  it("the default 3d6 table is symmetric, −4…+4", () => {
    const w = diceDistribution("3d6").results.map((r) => r.weight);
    expect(w).toEqual([...w].reverse());
    expect(w).toEqual([4, 6, 25, 46, 54, 46, 25, 6, 4]);
  });
});

describe("odds under a dice option", () => {
  it("opposed: 4dF relative degree is the 81×81 convolution", () => {
    const o = opposedDistribution("4dF", 1, 0);
    let brute = 0;
    for (let x = 0; x < 9; x++)
      for (let y = 0; y < 9; y++) if (1 + x - 4 - (y - 4) >= 1) brute += FOUR_DF_WEIGHTS[x] * FOUR_DF_WEIGHTS[y];
    const p = o.filter((e) => e.degree >= 1).reduce((s, e) => s + e.p, 0);
    expect(p).toBeCloseTo(brute / 6561, 15);
    expect(o.reduce((s, e) => s + e.p, 0)).toBeCloseTo(1, 14);
  });
  it("d6−d6 makes extremes likelier than 4dF", () => {
    expect(unopposedChance("d6-d6", 0, 4)).toBeCloseTo(3 / 36, 15);
    expect(unopposedChance("d6-d6", 0, 4)).toBeGreaterThan(unopposedChance("4dF", 0, 4));
  });
  it("rolls until a result stands, keeping every throw", () => {
    const rng = seededRng(3);
    for (let i = 0; i < 200; i++) {
      const r = rollDiceOption("d%", rng);
      expect(r.throws.slice(0, -1).every((t) => t[0] >= 82)).toBe(true);
      expect(readDiceOption("d%", r.throws[r.throws.length - 1])).toBe(r.result);
    }
  });
});

describe("bad input", () => {
  it("names the field", () => {
    expect(caught(() => parseDiceOption("2d10")).field).toBe("dice.id");
    expect(caught(() => parseDiceOption({ id: "4dF", table: [] })).key).toBe("FUDGE.Error.Dice.NoTable");
    expect(
      caught(() =>
        parseDiceOption({
          id: "3d6",
          table: [
            { from: 3, to: 10, result: 0 },
            { from: 12, to: 18, result: 1 },
          ],
        }),
      ).field,
    ).toBe("dice.table[1].from");
    expect(caught(() => parseDiceOption({ id: "3d6", table: [{ from: 3, to: 17, result: 0 }] })).key).toBe(
      "FUDGE.Error.Dice.TableGap",
    );
    expect(caught(() => parseDiceOption({ id: "d%", table: [{ from: 1, to: 100, result: "reroll" }] })).key).toBe(
      "FUDGE.Error.Dice.AllReroll",
    );
    expect(caught(() => readDiceOption("d6-d6", [0, 3])).field).toBe("dice[0]");
    expect(caught(() => readDiceOption("4dF", [1, 1, 1])).key).toBe("FUDGE.Error.BadLength");
  });
});

describe("ladder variants", () => {
  it("Legendary on or off (the world setting), unchanged", () => {
    expect(standardLadder({}, false).rungs.map((r) => r.id)).not.toContain("legendary");
    expect(describeLevel(5, standardLadder({}, false)).label).toBe("Superb +2");
  });
  it("an extended lower end adds Abysmal (−4); below it is named from it", () => {
    const l = standardLadder({}, true, true);
    expect(l.rungs.map((r) => r.value)).toEqual([4, 3, 2, 1, 0, -1, -2, -3, -4]);
    expect(describeLevel(-4, l).label).toBe("Abysmal");
    expect(describeLevel(-5, l).label).toBe("Abysmal −1");
    expect(describeLevel(-4).label).toBe("Terrible −1"); // the standard ladder as before
    expect(standardLadder({ abysmal: "Abyssal" }, false, true).rungs.at(-1)).toEqual({
      id: "abysmal",
      value: -4,
      name: "Abyssal",
    });
  });
});

describe("an Unopposed roll with the world's dice (Fudge §3.4 with §3.21–3.22)", () => {
  it("with 4dF it is unopposedRoll, for each of the 81 throws", () => {
    for (const t of throwsOf(4, 3, -1))
      for (const difficulty of [-1, 0, 2])
        expect(fudge.unopposedRollWithDice("4dF", 1, [t], difficulty, -1)).toEqual(
          fudge.unopposedRoll(1, t, difficulty, -1),
        );
  });
  it("d6−d6: a Good climber (+1) rolling 5 and 1 gets Legendary +1 against Great", () => {
    const r = fudge.unopposedRollWithDice("d6-d6", 1, [[5, 1]], 2);
    expect(r).toMatchObject({ diceTotal: 4, rolled: 5, success: true, margin: 3, name: "Legendary +1" });
    expect(r.steps[1]).toMatchObject({
      key: "FUDGE.Step.Fudge.DiceOption",
      rule: "Fudge §3.22",
      params: { dice: "d6-d6", faces: "5 1" },
    });
  });
  it("d%: a throw in the reroll band is thrown again; the last throw stands", () => {
    const r = fudge.unopposedRollWithDice("d%", 0, [[95], [40]]);
    expect(r.diceTotal).toBe(0);
    expect(r.steps[1].params).toMatchObject({ faces: "95 / 40" });
    expect(caught(() => fudge.unopposedRollWithDice("d%", 0, [[95]])).key).toBe("FUDGE.Error.Dice.Unfinished");
    expect(caught(() => fudge.unopposedRollWithDice("d%", 0, [[40], [40]])).field).toBe("throws[0]");
    expect(caught(() => fudge.unopposedRollWithDice("3d6", 0, [[1, 2]])).field).toBe("throws[0]");
  });
  it("the exact chance agrees with the rolls it enumerates", () => {
    for (const id of DICE_OPTION_IDS) {
      const option = parseDiceOption(id);
      let wins = 0;
      let counted = 0;
      for (const t of throwsOf(...SHAPES[id])) {
        if (readDiceOption(option, t) === null) continue;
        counted++;
        if (fudge.unopposedRollWithDice(option, 0, [t], 1).success) wins++;
      }
      expect(unopposedChance(id, 0, 1)).toBeCloseTo(wins / counted, 14);
    }
  });
});
