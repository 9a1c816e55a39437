/**
 * The Volt sampled estimate on the integer sheets (src/rules/volt/sheet-sampler.ts voltSampledDuel) and the
 * product method's cheap refusal over its pairs' budget (issue #10: the table's answer for a duel
 * beyond exact and bounded reach, fast and with the same meaning).
 */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import { duelForecast, type DuelForecast } from "../../src/rules";

const side = (
  name: string,
  o: {
    damage?: number;
    attack?: number;
    will?: number;
    tough?: number;
    pierce?: number;
    stun?: boolean;
    armor?: [number, number, number];
  } = {},
) => ({
  name,
  track: { config: { kind: "volt", willpower: o.will ?? 6, tough: o.tough ?? 0 } },
  weapon: { name: "Axe", attack: o.attack ?? 14, damage: o.damage ?? 25, pierce: o.pierce ?? 4, stun: o.stun ?? false },
  guard: 6,
  ...(o.armor ? { armor: { coverage: o.armor[0], protection: [o.armor[1], o.armor[2]] } } : {}),
});

/**
 * Everything but `states` (the sheets met, against the general path's track states) and
 * `enumerations` (the sheet sampler reads every penalty's attack up front, the general one as met).
 */
const answer = (f: DuelForecast) => ({ ...f, states: 0, enumerations: 0 });

describe("Volt sample on the integer sheets: the same duels as the general sampler, bit for bit", () => {
  const duels: Array<[string, Record<string, unknown>]> = [
    ["Leroy vs Leroy (beyond exact and bounded reach)", resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" })],
    ["Leroy vs Theodora", resolveSamples({ preset: "volt", a: "Leroy", b: "Theodora" })],
    [
      "Theodora vs Theodora, b opens",
      { ...resolveSamples({ preset: "volt", a: "Theodora", b: "Theodora" }), first: "b" },
    ],
    [
      "a stun weapon against armor (two wounds a hit)",
      {
        preset: "volt",
        a: side("A", { tough: -6, damage: 3, stun: true, attack: 15 }),
        b: side("B", { tough: -6, damage: 6, pierce: 5, armor: [14, 3, 9] }),
      },
    ],
    // Willpower 0: "x" rows at the top of the penalties (Volt: The Immediate Effects); Tough blacks out rows.
    [
      "Willpower 0 against Tough 2",
      { preset: "volt", a: side("A", { will: 0, damage: 12 }), b: side("B", { tough: 2, damage: 10 }) },
    ],
    [
      "'+' already marked, armor, b opens",
      {
        preset: "volt",
        first: "b",
        a: {
          ...side("A", { tough: -6, damage: 9, pierce: 7 }),
          track: {
            config: { kind: "volt", willpower: 6, tough: -6 },
            state: { marks: { "1": "stun", "3": "injuryOnStun" } },
          },
        },
        b: side("B", { tough: -5, damage: 8, pierce: 5, armor: [13, 2, 7] }),
      },
    ],
    // Attacks that stop at −4 (Willpower 12, Damage 3): duels that stall are checked as stalemates the same way.
    [
      "attacks that stop at −4",
      {
        preset: "volt",
        a: side("A", { will: 12, tough: -6, damage: 3, attack: 9 }),
        b: side("B", { will: 12, tough: -6, damage: 3, attack: 9 }),
      },
    ],
  ];
  for (const [name, duel] of duels)
    it(
      name,
      () => {
        for (const seed of [1, 7]) {
          const req = { ...duel, method: "sample", samples: 1000, seed, budgetMs: 60_000 };
          const sheets = duelForecast(req);
          const general = duelForecast(req, { voltSheetSampler: false });
          expect(answer(sheets)).toEqual(answer(general));
          expect([sheets.method, sheets.exact, sheets.errorBound]).toEqual(["sample", false, 1]);
          expect(sheets.states).toBeGreaterThan(0);
        }
      },
      120_000,
    );
  it("Theodora vs Theodora: the exact P(a out first) 0.3989124438618696 lies within the estimate's 99% interval", () => {
    const f = duelForecast({ ...resolveSamples({ preset: "volt", a: "Theodora", b: "Theodora" }), method: "sample" });
    expect(Math.abs(f.aOut - 0.3989124438618696)).toBeLessThanOrEqual(f.estimate!.halfWidth.aOut);
    expect(Math.abs(f.expectedExchanges! - 2.6120263296463375)).toBeLessThanOrEqual(
      f.estimate!.exchangesHalfWidth! + 5e-5,
    );
  }, 60_000);
});

describe("Volt product over its pairs' budget: refused before its tables are built, never below the budget", () => {
  // Pairs solved (states / 2): Fragile 6 axes 256; attacks that stop at −4 64 (its closed sheets are not counted).
  const cases: Array<[string, Record<string, unknown>, number]> = [
    [
      "Fragile 6, axes",
      { preset: "volt", a: side("A", { tough: -6, damage: 4 }), b: side("B", { tough: -6, damage: 5 }) },
      256,
    ],
    [
      "attacks that stop at −4 (one-sided sheets)",
      {
        preset: "volt",
        a: side("A", { will: 12, tough: -6, damage: 3, attack: 9 }),
        b: side("B", { will: 12, tough: -6, damage: 3, attack: 9 }),
      },
      64,
    ],
  ];
  for (const [name, duel, pairs] of cases)
    it(`at maxProductPairs equal to the pairs it answers exactly; at one fewer it is refused: ${name}`, () => {
      const f = duelForecast({ ...duel, method: "product" }, { maxProductPairs: pairs });
      expect([f.method, f.exact, f.states]).toEqual(["product", true, 2 * pairs]);
      expect(() => duelForecast({ ...duel, method: "product" }, { maxProductPairs: pairs - 1 })).toThrow(
        expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.ForecastBudget" }),
      );
    });
  it("Leroy vs Leroy: refused as 'at least' so many pairs, counted only until over the budget", () => {
    const huge = resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" });
    expect(() => duelForecast({ ...huge, method: "product" })).toThrow(
      expect.objectContaining({
        field: "maxStates",
        message: expect.stringMatching(/at least \d+ pairs of Volt sheets, at most 20000000/),
      }),
    );
  });
});
