/**
 * The sampled duel estimate (`method: "sample"`, src/rules/forecast/sampling.ts) and the `fallback:
 * "sample"` option of the duel forecast (issue #10: a duel no exact or bounded forecast reaches
 * within its budget — Volt Leroy vs Leroy — is estimated instead of refused, and says so).
 *
 * Agreement with the exact answers is checked at the estimate's own 99% interval, with the default
 * seed (no seed chosen to pass): each probability's exact value lies within estimate ± halfWidth.
 */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import {
  sampleDuels,
  SAMPLE_BUDGET,
  wilsonHalfWidth,
  type SampledDuel,
  duelForecast,
  type DuelForecast,
} from "../../src/rules";

/** Volt Leroy vs Theodora, exact by the product method (docs/rules-api/volt.md; tests/rules/volt-duel.test.ts). */
const VOLT_LEROY_THEODORA = { aOut: 0.1707285326460074, bOut: 0.8292714673539926, expectedExchanges: 6.3109 };

function withinInterval(
  est: DuelForecast,
  exact: { aOut: number; bOut: number; expectedExchanges: number | null },
  name: string,
): void {
  const e = est.estimate!;
  expect([est.method, est.exact, est.errorBound, e.duels, e.seed, e.confidence], name).toEqual([
    "sample",
    false,
    1,
    SAMPLE_BUDGET.defaultDuels,
    SAMPLE_BUDGET.defaultSeed,
    0.99,
  ]);
  expect(
    Math.abs(est.aOut - exact.aOut),
    `${name}: P(a out first) ${est.aOut} ± ${e.halfWidth.aOut}, exact ${exact.aOut}`,
  ).toBeLessThanOrEqual(e.halfWidth.aOut);
  expect(
    Math.abs(est.bOut - exact.bOut),
    `${name}: P(b out first) ${est.bOut} ± ${e.halfWidth.bOut}, exact ${exact.bOut}`,
  ).toBeLessThanOrEqual(e.halfWidth.bOut);
  expect(
    Math.abs(est.expectedExchanges! - exact.expectedExchanges!),
    `${name}: exchanges ${est.expectedExchanges} ± ${e.exchangesHalfWidth}, exact ${exact.expectedExchanges}`,
  ).toBeLessThanOrEqual(e.exchangesHalfWidth! + 5e-5);
  expect(e.counts.aOut + e.counts.bOut + e.counts.stalemate + e.counts.unfinished).toBe(e.duels);
  expect([est.aOut, est.bOut]).toEqual([e.counts.aOut / e.duels, e.counts.bOut / e.duels]);
}

describe("method sample: the estimate agrees with the exact forecast within its interval", () => {
  const miniatures = resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" });
  const kingVsKnave = resolveSamples({ preset: "miniatures", a: "King Kingsley", b: "Knavely Knave" });
  const cases: Array<[string, Record<string, unknown>]> = [
    [
      "Fudge Leroy vs Theodora (opposed: the loser of the roll is wounded)",
      resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" }),
    ],
    [
      "FATE Leroy vs Theodora (Clipped boxes that clear again)",
      resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" }),
    ],
    // Miniatures: Guts — the Knave with Guts −2 acting second fails often (checks, re-checks, may not attack, runs).
    [
      "Miniatures King Kingsley vs a shaky Knavely Knave, with Guts checks",
      { ...kingVsKnave, b: { ...(kingVsKnave.b as object), guts: -2 } },
    ],
    // Miniatures: Wounds — Near Death rolls on its turns, and a flying model's 4dF+5 crash.
    [
      "Miniatures Sir Knightly vs a flying Brutas the Brute, with Guts, Near Death rolls and the crash",
      { ...miniatures, b: { ...(miniatures.b as object), flying: true } },
    ],
  ];
  for (const [name, duel] of cases)
    it(
      name,
      () => {
        const exact = duelForecast({ ...duel, budgetMs: 60_000 });
        expect(exact.exact).toBe(true);
        withinInterval(duelForecast({ ...duel, method: "sample" }), exact, name);
      },
      60_000,
    );
  it("Volt Leroy vs Theodora: exact P(Leroy out first) = 0.1707285326460074", () => {
    const duel = resolveSamples({ preset: "volt", a: "Leroy", b: "Theodora" });
    withinInterval(duelForecast({ ...duel, method: "sample" }), VOLT_LEROY_THEODORA, "Volt Leroy vs Theodora");
  }, 60_000);
  it("a duel nobody can win is a stalemate (no end reachable), not a duel cut off at the cap", () => {
    // Plate beyond any Legendary roll: no blow ever lands (Miniatures: Combat — a hit needs total ≥ DDF).
    const plated = (c: unknown) => ({ ...(c as object), armor: 20, shield: 20 });
    const f = duelForecast({
      ...miniatures,
      a: plated(miniatures.a),
      b: plated(miniatures.b),
      method: "sample",
      samples: 200,
    });
    expect([
      f.aOut,
      f.bOut,
      f.stalemate,
      f.expectedExchanges,
      f.estimate!.counts.stalemate,
      f.estimate!.exchangesHalfWidth,
    ]).toEqual([0, 0, 1, null, 200, null]);
  });
  it("duels still running at maxExchanges are counted as unfinished, and leave the expected exchanges unknown", () => {
    const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
    const f = duelForecast({ ...duel, method: "sample", samples: 1000, maxExchanges: 1 });
    const c = f.estimate!.counts;
    expect(c.unfinished).toBeGreaterThan(500);
    expect(c.stalemate).toBe(0);
    expect(c.aOut + c.bOut + c.unfinished).toBe(1000);
    expect([f.stalemate, f.expectedExchanges, f.estimate!.maxExchanges]).toEqual([0, null, 1]);
    expect(f.aOut + f.bOut).toBeCloseTo(1 - c.unfinished / 1000, 12);
  });
});

describe("method sample: reproducible from its seed", () => {
  const duel = resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" });
  it("the same request and seed give the same answer; another seed another one", () => {
    const one = duelForecast({ ...duel, method: "sample", samples: 500, seed: 42 });
    expect(duelForecast({ ...duel, method: "sample", samples: 500, seed: 42 })).toEqual(one);
    const other = duelForecast({ ...duel, method: "sample", samples: 500, seed: 43 });
    expect(other.estimate!.counts).not.toEqual(one.estimate!.counts);
    expect([one.estimate!.seed, other.estimate!.seed]).toEqual([42, 43]);
    // The default seed is a fixed one: a request without a seed is reproducible too.
    expect(duelForecast({ ...duel, method: "sample", samples: 500 })).toEqual(
      duelForecast({ ...duel, method: "sample", samples: 500, seed: SAMPLE_BUDGET.defaultSeed }),
    );
  }, 60_000);
});

describe("method sample: the first estimate's time box (the forecast stages' sampleUntil)", () => {
  const duel = resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" });
  it("no duel starts past it once 100 are played: the answer is that of the first 100 duels, and says so", () => {
    const boxed = duelForecast({ ...duel, method: "sample", samples: 2_000 }, { sampleUntil: 0 });
    expect(boxed.estimate!.duels).toBe(SAMPLE_BUDGET.minDuels);
    expect(boxed).toEqual(duelForecast({ ...duel, method: "sample", samples: SAMPLE_BUDGET.minDuels }));
    // A box not yet reached changes nothing.
    expect(duelForecast({ ...duel, method: "sample", samples: 300 }, { sampleUntil: Date.now() + 600_000 })).toEqual(
      duelForecast({ ...duel, method: "sample", samples: 300 }),
    );
  }, 60_000);
});

describe("the sampler draws each turn from the turn's distribution, the chosen branch's outcomes included", () => {
  // A walk on 0…4 from 2: a branch of 0.6 splits into up 0.45 / down 0.15 (as a Guts check splits a
  // blow's outcome), a branch of 0.4 goes down. Up 0.45, down 0.55: P(reach 4) = 1 / (1 + (11/9)²).
  const walk: SampledDuel = {
    moves(a, _b, turn, visit, take) {
      if (!take || take(0.6)) {
        visit(a + 1, a + 1 === 4 ? 1 : 0, turn, 0.45);
        visit(a - 1, 0, turn, 0.15);
      }
      if (!take || take(0.4)) visit(a - 1, 0, turn, 0.4);
    },
    starts: [{ a: 2, b: 0, turn: "a", w: 1, spent: false }],
    outA: (a) => a === 0,
    outB: (b) => b === 1,
    alternating: false,
    checkTime: () => {},
  };
  it("a gambler's ruin with split branches: P(up first) within its interval of 1 / (1 + (11/9)²)", () => {
    const r = sampleDuels(walk, { samples: 100_000, seed: SAMPLE_BUDGET.defaultSeed, maxExchanges: 1000 });
    const exact = 1 / (1 + (11 / 9) ** 2);
    expect(Math.abs(r.bOut - exact), `sampled ${r.bOut}, exact ${exact}`).toBeLessThanOrEqual(
      r.estimate.halfWidth.bOut,
    );
    // Expected steps of the walk: (k − N·P(reach N)) / (q − p) with k = 2, N = 4.
    expect(Math.abs(r.expectedExchanges! - (2 - 4 * exact) / 0.1)).toBeLessThanOrEqual(r.estimate.exchangesHalfWidth!);
  });
  it("a duel that opens with checks starts from their outcomes, drawn by weight (Miniatures: Guts, a Terrifying charge)", () => {
    // From 1 the walk is up first with 1 / (1 + 11/9 + (11/9)²) (gambler's ruin, k = 1 of N = 4); from 3, 1 − (1 + 11/9 + (11/9)²)/(1 + … + (11/9)³).
    const r1 = 1 / (1 + 11 / 9 + (11 / 9) ** 2 + (11 / 9) ** 3);
    const up = (k: number): number => r1 * [0, 1, 1 + 11 / 9, 1 + 11 / 9 + (11 / 9) ** 2][k];
    const starts = [
      { a: 1, b: 0, turn: "a" as const, w: 0.3, spent: false },
      { a: 3, b: 0, turn: "a" as const, w: 0.7, spent: true },
    ];
    const r = sampleDuels(
      { ...walk, starts },
      { samples: 100_000, seed: SAMPLE_BUDGET.defaultSeed, maxExchanges: 1000 },
    );
    const exact = 0.3 * up(1) + 0.7 * up(3);
    expect(Math.abs(r.bOut - exact), `sampled ${r.bOut}, exact ${exact}`).toBeLessThanOrEqual(
      r.estimate.halfWidth.bOut,
    );
    // a start already decided counts at once, no turn played
    const decided = sampleDuels(
      { ...walk, starts: [{ a: 0, b: 0, turn: "a", w: 1, spent: false }] },
      { samples: 100, seed: 1, maxExchanges: 10 },
    );
    expect([decided.aOut, decided.bOut, decided.expectedExchanges]).toEqual([1, 0, 0]);
  });
  it("the Wilson interval: 0 of 100 at 95% reaches 1.96² / (100 + 1.96²); half of n is symmetric", () => {
    expect(wilsonHalfWidth(0, 100, 1.96)).toBeCloseTo(1.96 ** 2 / (100 + 1.96 ** 2), 12);
    expect(wilsonHalfWidth(100, 100, 1.96)).toBeCloseTo(1.96 ** 2 / (100 + 1.96 ** 2), 12);
    // Near ½ it is the normal interval's z·√(p(1−p)/n), slightly narrowed.
    expect(wilsonHalfWidth(10_000, 20_000, 2.5758293035489004)).toBeCloseTo(
      2.5758293035489004 * Math.sqrt(0.25 / 20_000),
      4,
    );
  });
});

describe("method sample: bad requests are refused with the field named", () => {
  const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
  const refused = (extra: Record<string, unknown>, field: string, key: string) =>
    expect(() => duelForecast({ ...duel, ...extra }), JSON.stringify(extra)).toThrow(
      expect.objectContaining({ field, key }),
    );
  it("samples, seed, maxExchanges and fallback", () => {
    refused({ method: "sample", samples: 0 }, "samples", "FUDGE.Error.OutOfRange");
    refused({ method: "sample", samples: 99 }, "samples", "FUDGE.Error.OutOfRange");
    refused({ method: "sample", samples: 1_000_001 }, "samples", "FUDGE.Error.OutOfRange");
    refused({ method: "sample", samples: 1.5 }, "samples", "FUDGE.Error.NotInteger");
    refused({ method: "sample", samples: "many" }, "samples", "FUDGE.Error.NotInteger");
    refused({ method: "sample", seed: -1 }, "seed", "FUDGE.Error.OutOfRange");
    refused({ method: "sample", seed: 2 ** 32 }, "seed", "FUDGE.Error.OutOfRange");
    refused({ method: "sample", seed: 0.5 }, "seed", "FUDGE.Error.NotInteger");
    refused({ method: "sample", seed: "abc" }, "seed", "FUDGE.Error.NotInteger");
    refused({ method: "sample", maxExchanges: 0 }, "maxExchanges", "FUDGE.Error.OutOfRange");
    refused({ fallback: "yes" }, "fallback", "FUDGE.Error.NotOneOf");
    refused({ fallback: true }, "fallback", "FUDGE.Error.NotOneOf");
    // The sampling fields are checked whatever the method: a bad seed is never silently ignored.
    refused({ seed: "abc" }, "seed", "FUDGE.Error.NotInteger");
    refused({ method: "sample", b: 7 }, "b", "FUDGE.Error.NotObject");
  });
  it("a sample over its time budget is refused at budgetMs, not cut short (the answer would depend on the machine)", () => {
    // A million short duels (about four exchanges each): seconds of work against a budget of 100 ms.
    const t0 = Date.now();
    expect(() => duelForecast({ ...duel, method: "sample", samples: 1_000_000, budgetMs: 100 })).toThrow(
      expect.objectContaining({ field: "budgetMs", key: "FUDGE.Error.ForecastBudget" }),
    );
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});

describe('fallback: "sample" — used for budget refusals only', () => {
  const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
  it("a duel the exact forecast answers is answered exactly, the fallback unused", () => {
    expect(duelForecast({ ...duel, fallback: "sample" })).toEqual(duelForecast(duel));
    expect(duelForecast({ ...duel, fallback: "none" })).toEqual(duelForecast(duel));
  });
  it("a refusal over maxStates is answered by the estimate, the same as asking for it", () => {
    const small = { ...duel, method: "chain", maxStates: 5 };
    expect(() => duelForecast(small)).toThrow(
      expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.TooManyStates" }),
    );
    const f = duelForecast({ ...small, fallback: "sample", samples: 2000, seed: 9 });
    expect(f).toEqual(duelForecast({ ...small, method: "sample", samples: 2000, seed: 9 }));
    expect([f.method, f.exact, f.errorBound]).toEqual(["sample", false, 1]);
  });
  it("bad input is refused, never estimated", () => {
    const t0 = Date.now();
    expect(() => duelForecast({ ...duel, b: 7, fallback: "sample" })).toThrow(expect.objectContaining({ field: "b" }));
    expect(() => duelForecast({ ...duel, method: "product", fallback: "sample" })).toThrow(
      expect.objectContaining({ field: "method", key: "FUDGE.Error.ForecastMethod" }),
    );
    expect(() => duelForecast({ ...duel, maxStates: 0, fallback: "sample" })).toThrow(
      expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.OutOfRange" }),
    );
    // A bad sampling field is refused before the forecast runs, not after it spent its budget.
    const huge = resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" });
    expect(() => duelForecast({ ...huge, fallback: "sample", samples: 0 })).toThrow(
      expect.objectContaining({ field: "samples" }),
    );
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
  it("Volt Leroy vs Leroy: refused by the exact and bounded methods, estimated with the fallback within the same budget", () => {
    const huge = resolveSamples({ preset: "volt", a: "Leroy", b: "Leroy" });
    expect(() => duelForecast({ ...huge, budgetMs: 2000 })).toThrow(
      expect.objectContaining({ key: expect.stringMatching(/^FUDGE\.Error\.(ForecastBudget|TooManyStates)$/) }),
    );
    const t0 = Date.now();
    const f = duelForecast({ ...huge, fallback: "sample", samples: 2000, budgetMs: 4000 });
    expect(Date.now() - t0).toBeLessThan(4000 + 1000);
    expect(f).toEqual(duelForecast({ ...huge, method: "sample", samples: 2000 }));
    expect(f.estimate!.counts.aOut).toBeGreaterThan(0);
    expect(f.estimate!.counts.bOut).toBeGreaterThan(0);
    // Too little budget left for the estimate: the budget's refusal, as without the fallback (5 ms:
    // the sheet sampler plays 20,000 duels in about 100–170 ms, so 300 ms is now enough).
    expect(() => duelForecast({ ...huge, fallback: "sample", budgetMs: 5 })).toThrow(
      expect.objectContaining({
        field: "budgetMs",
        key: "FUDGE.Error.ForecastBudget",
        params: expect.objectContaining({ what: "5 ms" }),
      }),
    );
  }, 30_000);
});
