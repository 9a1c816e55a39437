import { describe, expect, it } from "vitest";
import { newTrack } from "../../src/rules";
import {
  boxTrackConfig,
  defaultFudgeOptions,
  defensiveFactor,
  factorBonus,
  offensiveFactor,
  parseCombatant,
  parseFudgeOptions,
  readMinMidMax,
  relativeDegreeBonus,
  shieldValue,
  unopposedRoll,
  willpowerEasedPenalty,
  DEFAULT_MIN_MID_MAX_TABLE,
  type FudgeCombatant,
  sortedDiceOutcomes,
} from "../../src/rules/fudge";
import { caught } from "./errors";

const track = () => newTrack(boxTrackConfig("standard"));

function fighter(over: Record<string, unknown> = {}): FudgeCombatant {
  return parseCombatant(
    { name: "X", skill: 0, weapon: { kind: "muscle", size: "none" }, track: track(), ...over },
    "c",
  );
}

// Fudge §4.55 worked example (seed 000).
const leroy = () =>
  fighter({
    name: "Leroy",
    strength: 1,
    damageCapacity: 1,
    weapon: { name: "Broadsword", kind: "muscle", size: "large", sharp: true },
    armor: { value: 3 },
  });
const theodora = () =>
  fighter({
    name: "Theodora",
    strength: 3,
    damageCapacity: 0,
    weapon: { name: "Poleaxe", kind: "muscle", size: "twoHanded", sharp: true },
    armor: { value: 2 },
  });

const opts = defaultFudgeOptions();

describe("fudge damage factors (Fudge §4.54–4.55)", () => {
  it("Leroy vs Theodora: ODF 4 / DDF 4 and ODF 7 / DDF 2", () => {
    const l = leroy();
    const t = theodora();
    expect(offensiveFactor(l, opts).total).toBe(4);
    expect(defensiveFactor(l, t.weapon, opts).total).toBe(4);
    expect(offensiveFactor(t, opts).total).toBe(7);
    expect(defensiveFactor(t, l.weapon, opts).total).toBe(2);
    // Total damage factors: Leroy → Theodora 4 − 2 = +2; Theodora → Leroy 7 − 4 = +3.
    expect(offensiveFactor(l, opts).total - defensiveFactor(t, l.weapon, opts).total).toBe(2);
    expect(offensiveFactor(t, opts).total - defensiveFactor(l, t.weapon, opts).total).toBe(3);
  });

  it("steps name every factor with its rule", () => {
    const r = offensiveFactor(leroy(), opts);
    expect(r.steps.map((s) => [s.key, s.value])).toEqual([
      ["FUDGE.Step.Fudge.Strength", 1],
      ["FUDGE.Step.Fudge.StrengthScale", 0],
      ["FUDGE.Step.Fudge.WeaponSize", 2],
      ["FUDGE.Step.Fudge.Sharp", 1],
      ["FUDGE.Step.Fudge.Odf", 4],
    ]);
    expect(r.steps.every((s) => s.rule === "Fudge §4.54")).toBe(true);
  });

  it("weapon sizes: none −1, martial art / small 0, medium +1, large +2, two-handed +3; sharp +1", () => {
    const sizes: [string, boolean, number][] = [
      ["none", false, -1],
      ["martialArt", false, 0],
      ["small", true, 1], // knife +1
      ["medium", true, 2], // shortsword +2
      ["large", true, 3], // broadsword +3
      ["twoHanded", true, 4], // greatsword +4
    ];
    for (const [size, sharp, want] of sizes)
      expect(offensiveFactor(fighter({ weapon: { kind: "muscle", size, sharp } }), opts).total).toBe(want);
  });

  it("less lethal: −1 on the weapon type, never on sharpness", () => {
    const ll = { ...opts, lessLethal: true };
    expect(offensiveFactor(leroy(), ll).total).toBe(3); // 1 + 0 + (2 − 1) + 1
    expect(offensiveFactor(fighter({ weapon: { kind: "muscle", size: "none" } }), ll).total).toBe(-2);
    // Fixed weapons have no muscle-powered weapon type.
    expect(offensiveFactor(fighter({ weapon: { kind: "fixed", strength: 3 } }), ll).total).toBe(3);
  });

  it("fixed weapons use their own Strength; Scale counts only when scaled to the attacker", () => {
    const giant = { strength: 3, strengthScale: 10 };
    expect(offensiveFactor(fighter({ ...giant, weapon: { kind: "fixed", strength: 2 } }), opts).total).toBe(2);
    expect(
      offensiveFactor(fighter({ ...giant, weapon: { kind: "fixed", strength: 2, scaledToAttacker: true } }), opts)
        .total,
    ).toBe(12);
    // A muscle-powered weapon takes Strength and Strength Scale.
    expect(offensiveFactor(fighter({ ...giant, weapon: { kind: "muscle", size: "large" } }), opts).total).toBe(15);
  });

  it("heavy blunt weapons: large mace +2 vs plate +4 → the armor counts +2", () => {
    const mace = fighter({ weapon: { kind: "muscle", size: "large", heavyBlunt: true } }).weapon;
    const knight = fighter({ armor: { value: 4 } });
    const d = defensiveFactor(knight, mace, opts);
    expect(d.total).toBe(2);
    expect(d.steps.find((s) => s.key === "FUDGE.Step.Fudge.HeavyBlunt")?.value).toBe(2);
    // Halved, rounded down, magic included: 3 + 2 = 5 → 2.
    expect(defensiveFactor(fighter({ armor: { value: 3, magic: 2 } }), mace, opts).total).toBe(2);
    expect(defensiveFactor(fighter({ armor: { value: 3, magic: 2 } }), fighter().weapon, opts).total).toBe(5);
  });

  it("mass scale, tough hide and scale-piercing on a good hit", () => {
    const dragon = fighter({ massScale: 6, toughHide: 2, damageCapacity: 1 });
    const lance = (p: string) => fighter({ weapon: { kind: "muscle", size: "large", scalePiercing: p } }).weapon;
    expect(defensiveFactor(dragon, lance("none"), opts, { goodHit: true }).total).toBe(9);
    expect(defensiveFactor(dragon, lance("halve"), opts, { goodHit: true }).total).toBe(6);
    expect(defensiveFactor(dragon, lance("ignore"), opts, { goodHit: true }).total).toBe(3);
    // Not on a graze (RD 1): the full Scale counts.
    expect(defensiveFactor(dragon, lance("ignore"), opts, { goodHit: false }).total).toBe(9);
    // A negative Scale is never "pierced".
    expect(defensiveFactor(fighter({ massScale: -2 }), lance("ignore"), opts, { goodHit: true }).total).toBe(-2);
  });

  it("Damage Capacity counts only with the factor variant (Fudge §4.52)", () => {
    const tough = fighter({ damageCapacity: 2 });
    const w = fighter().weapon;
    expect(defensiveFactor(tough, w, opts).total).toBe(2);
    for (const v of ["roll", "gift", "willpower", "track"] as const)
      expect(defensiveFactor(tough, w, { ...opts, dcVariant: v }).total).toBe(0);
  });
});

describe("shields (Fudge §4.31)", () => {
  it("small +1 melee only, medium +1 melee and ranged, large +2 in all combat", () => {
    expect([
      shieldValue("none", false),
      shieldValue("small", false),
      shieldValue("medium", false),
      shieldValue("large", false),
    ]).toEqual([0, 1, 1, 2]);
    expect([
      shieldValue("none", true),
      shieldValue("small", true),
      shieldValue("medium", true),
      shieldValue("large", true),
    ]).toEqual([0, 0, 1, 2]);
  });
});

describe("Min-Mid-Max bonuses (Fudge §4.63)", () => {
  it("factor bonus: <0 −1 (−5 or worse −2 when chosen), 0–2 0, 3–5 +1, 6+ +2", () => {
    expect([-6, -5, -4, -1, 0, 2, 3, 5, 6, 9].map((f) => factorBonus(f, false))).toEqual([
      -1, -1, -1, -1, 0, 0, 1, 1, 2, 2,
    ]);
    expect([-6, -5, -4].map((f) => factorBonus(f, true))).toEqual([-2, -2, -1]);
  });
  it("RD bonus: 2–3 0, 4–5 +1, 6+ +2", () => {
    expect([2, 3, 4, 5, 6, 8].map(relativeDegreeBonus)).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it("default reading table: min−1, min, mid, max, max+1, max+2", () => {
    const dice = [5, 2, 4]; // sorted 2, 4, 5
    const read = (factor: number, rd: number) => readMinMidMax(dice, factor, rd, DEFAULT_MIN_MID_MAX_TABLE, true).value;
    expect(read(-6, 2)).toBe(1); // bonus −2: min − 1
    expect(read(-6, 6)).toBe(4); // bonus 0: mid
    expect(read(-1, 2)).toBe(2); // −1: min
    expect(read(0, 2)).toBe(4); // 0: mid
    expect(read(3, 2)).toBe(5); // +1: max
    expect(read(6, 2)).toBe(6); // +2: max + 1
    expect(read(6, 4)).toBe(7); // +3: max + 2
    expect(read(6, 6)).toBe(7); // +4: still max + 2
  });
  it("3d6 outcome classes by sorted dice sum to 1 (56 classes)", () => {
    const o = sortedDiceOutcomes(3, 6);
    expect(o.length).toBe(56);
    expect(o.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(o.find((x) => x.dice.join() === "1,2,3")?.p).toBeCloseTo(6 / 216, 12);
  });
});

describe("unopposed roll (Fudge §3.4)", () => {
  it("meets or beats the Difficulty Level (default Fair)", () => {
    const r = unopposedRoll(1, [1, 0, -1, -1]);
    expect(r).toMatchObject({ rolled: 0, diceTotal: -1, success: true, margin: 0, name: "Fair" });
    expect(unopposedRoll(1, [0, 0, 0, 0], 2)).toMatchObject({ rolled: 1, success: false, margin: -1, name: "Good" });
  });
  it("applies a wound penalty and names results beyond the ladder", () => {
    expect(unopposedRoll(3, [1, 1, 1, 1], 0, -1)).toMatchObject({ rolled: 6, name: "Legendary +2" });
    expect(unopposedRoll(-3, [-1, -1, 0, 0], 0, -1).name).toBe("Terrible \u22123");
  });
  it("rejects bad dice", () => {
    expect(caught(() => unopposedRoll(0, [1, 2, 0, 0])).field).toBe("dice[1]");
    expect(caught(() => unopposedRoll(0, [1, 0, 0])).field).toBe("dice");
    expect(caught(() => unopposedRoll(0.5, [1, 0, 0, 0])).field).toBe("trait");
  });
});

describe("options", () => {
  it("default when omitted", () => {
    expect(parseFudgeOptions(undefined)).toEqual(defaultFudgeOptions());
    expect(parseFudgeOptions({})).toEqual(defaultFudgeOptions());
    const d = defaultFudgeOptions();
    expect(d.graze.table).toEqual([
      { min: 0, level: "scratch" },
      { min: 5, level: "hurt" },
    ]);
    expect(d).toMatchObject({
      lessLethal: false,
      doubleRd: false,
      damageRoll: "none",
      woundMode: "factors",
      dcVariant: "factor",
      dcAdjust: "level",
    });
  });

  it("a parse's default tables are its own lists of shared, frozen rows; defaultFudgeOptions() stays fresh", () => {
    const a = parseFudgeOptions(undefined);
    const b = parseFudgeOptions({ doubleRd: true });
    expect(a.graze.table).not.toBe(b.graze.table);
    expect(() => {
      a.minMidMax.table[0].add = 5;
    }).toThrow();
    a.graze.table.pop();
    expect(b.graze.table).toHaveLength(2);
    const d = defaultFudgeOptions();
    d.graze.table[0].min = 1;
    expect(parseFudgeOptions({}).graze.table[0].min).toBe(0);
  });
  it("keeps given values", () => {
    const o = parseFudgeOptions({
      doubleRd: true,
      damageRoll: "evenOdd",
      graze: {
        table: [
          { min: -2, level: null },
          { min: 1, level: "hurt" },
        ],
      },
    });
    expect(o.doubleRd).toBe(true);
    expect(o.damageRoll).toBe("evenOdd");
    expect(o.graze.table[1]).toEqual({ min: 1, level: "hurt" });
    expect(o.graze.scaleRaise).toBe("one");
  });
  it("a table passed from JavaScript with a hole (JSON has none) is refused at the missing row, not a TypeError", () => {
    const holed = (row: object): object[] => {
      const rows: object[] = [];
      rows[1] = row;
      return rows;
    };
    for (const options of [
      { graze: { table: holed({ min: 1, level: "hurt" }) } },
      { minMidMax: { table: holed({ min: 1, die: "mid" }) } },
    ]) {
      const e = caught(() => parseFudgeOptions(options));
      expect([e.field, e.key]).toEqual([`options.${Object.keys(options)[0]}.table[0]`, "FUDGE.Error.ListHole"]);
    }
  });
  it.each([
    [{ lessLethal: 1 }, "options.lessLethal"],
    [{ doubleRd: "yes" }, "options.doubleRd"],
    [{ graze: 3 }, "options.graze"],
    [{ graze: { table: [] } }, "options.graze.table"],
    [{ graze: { table: [{ min: 0.5, level: "scratch" }] } }, "options.graze.table[0].min"],
    [{ graze: { table: [{ min: 0, level: 4 }] } }, "options.graze.table[0].level"],
    [
      {
        graze: {
          table: [
            { min: 3, level: "scratch" },
            { min: 3, level: "hurt" },
          ],
        },
      },
      "options.graze.table[1].min",
    ],
    [{ graze: { scaleRaise: "double" } }, "options.graze.scaleRaise"],
    [{ graze: { cap: 1 } }, "options.graze.cap"],
    [{ damageRoll: "2dF" }, "options.damageRoll"],
    [{ grazeDamageRoll: null }, "options.grazeDamageRoll"],
    [{ woundMode: "random" }, "options.woundMode"],
    [{ minMidMax: { severeNegative: "no" } }, "options.minMidMax.severeNegative"],
    [{ minMidMax: { table: [{ min: 0, die: "median", add: 0 }] } }, "options.minMidMax.table[0].die"],
    [{ minMidMax: { table: [{ min: 0, die: "mid", add: 1.5 }] } }, "options.minMidMax.table[0].add"],
    [{ gmSituationalRoll: 0 }, "options.gmSituationalRoll"],
    [{ dcVariant: "armor" }, "options.dcVariant"],
    [{ dcAdjust: "box" }, "options.dcAdjust"],
    [{ ladder: { rungs: [] } }, "options.ladder.rungs"],
    [{ lethal: true }, "options.lethal"],
    ["world", "options"],
  ])("rejects %j naming %s", (input, field) => {
    expect(caught(() => parseFudgeOptions(input)).field).toBe(field);
  });
});

describe('Fudge §4.51: "a Willpower roll against a GM-set Difficulty Level to reduce or cancel a penalty" before a trait roll', () => {
  it("meets the Difficulty: one less; beats it by 2: none; below it: unchanged; never a bonus", () => {
    expect(willpowerEasedPenalty(0, [0, 0, 0, 0], 0, -2).penalty).toBe(-1);
    expect(willpowerEasedPenalty(0, [1, 1, 0, 0], 0, -2).penalty).toBe(0);
    expect(willpowerEasedPenalty(0, [-1, 0, 0, 0], 0, -2).penalty).toBe(-2);
    expect(willpowerEasedPenalty(3, [1, 1, 1, 1], 0, -1)).toMatchObject({
      penalty: 0,
      step: { key: "FUDGE.Step.Fudge.TraitWillpower", rule: "Fudge §4.51", value: 1 },
    });
    expect(() => willpowerEasedPenalty(0, [0, 0, 0], 0, -1)).toThrow();
  });
});
