/**
 * The Miniatures duel forecast's chain: states with the same future share one node (duelForecast's
 * standIn), and the chain's typed-array storage (Chain). Both must leave every answer as it was:
 * the golden file holds the answers of the chain before either change (commit 2bddffb), every
 * ordered pairing of the five sample miniatures, with Guts checks and the Terrifying charge (the
 * defaults), without the charge, without Guts checks, and with `first: "b"` — under the Guts rule
 * of then, a failure by 1 lowering attack rolls only ("attackRolls") — and, under today's default
 * (the −1 on every roll, "allRolls"), the answers of the chain with its nodes unmerged.
 *
 * Tolerance 1e-12, not bit equality: merged nodes are numbered in another order, so the solve adds
 * the same terms in another order (the largest difference seen is 1.1e-16, in 4 of 320 numbers).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import { duelForecast, FORECAST_BUDGET, type DuelForecast, trackStatus, type Track } from "../../src/rules";
import { gutsSettled } from "../../src/rules/miniatures";
import { boxTrackConfig } from "../../src/rules/fudge";
import golden from "./miniatures-duels.golden.json";

type Answer = { aOut: number; bOut: number; stalemate: number; expectedExchanges: number | null; states: number };
const VARIANTS = {
  default: {},
  nocharge: { terrifyingCharge: false },
  noguts: { gutsChecks: false },
  firstb: { first: "b" },
} as const;
const MINIS = ["Brutas the Brute", "King Kingsley", "Knavely Knave", "Sir Knightly", "Yanni the Yeoman"];

function sameAnswer(f: DuelForecast, g: Answer, what: string): void {
  expect([f.method, f.exact, f.errorBound], what).toEqual(["chain", true, 0]);
  for (const k of ["aOut", "bOut", "stalemate"] as const)
    expect(Math.abs(f[k] - g[k]), `${what} ${k}`).toBeLessThanOrEqual(1e-12);
  expect(Math.abs(f.expectedExchanges! - g.expectedExchanges!), `${what} exchanges`).toBeLessThanOrEqual(1e-12);
}

/** first "b" changes the duels against Brutas (who charges, or is charged); the others are checked in the default order. */
const pairsOf = (variant: string): string[][] =>
  MINIS.flatMap((a) =>
    MINIS.filter((b) => b !== a && (variant !== "firstb" || a === MINIS[0] || b === MINIS[0])).map((b) => [a, b]),
  );

describe("the Miniatures duel chain under the old Guts rule (−1 on attack rolls only): every sample pairing exact at the default settings, the same answers as before", () => {
  // The golden answers predate the −1 on every roll (Miniatures: Guts, "1 Model is at a -1 to
  // rolls"): "attackRolls" must reproduce them exactly. The default variant with Guts checks
  // stands for the others (the allRolls block below runs them all); without Guts checks the rule changes nothing.
  const old = { options: { gutsRollPenalty: "attackRolls" } };
  for (const [variant, extra] of [
    ["default", VARIANTS.default],
    ["noguts", VARIANTS.noguts],
  ] as const) {
    const pairs = pairsOf(variant);
    it(`${variant}: ${pairs.length} ordered pairings`, () => {
      for (const [a, b] of pairs) {
        const what = `${a} vs ${b} (${variant}, attackRolls)`;
        const g = (golden as unknown as Record<string, Record<string, Answer>>)[variant][`${a} vs ${b}`];
        // The default request: no method, no maxStates (the table's own request), within a generous time budget on a loaded machine.
        const f = duelForecast(
          { ...resolveSamples({ preset: "miniatures", a, b }), ...extra, ...old },
          { budgetMs: 60_000 },
        );
        sameAnswer(f, g, what);
        // Merging only ever lowers the count (without Guts checks there are no minds to merge).
        if (variant === "noguts") expect(f.states, what).toBe(g.states);
        else expect(f.states, what).toBeLessThan(g.states);
        expect(f.states, what).toBeLessThanOrEqual(FORECAST_BUDGET.chainStates);
      }
      // Without Guts checks the rule changes nothing: the default rule's answers are these too.
      if (variant === "noguts")
        sameAnswer(
          duelForecast({ ...resolveSamples({ preset: "miniatures", a: MINIS[0], b: MINIS[4] }), ...extra }),
          (golden as unknown as Record<string, Record<string, Answer>>).noguts[`${MINIS[0]} vs ${MINIS[4]}`],
          "noguts, allRolls",
        );
    }, 600_000);
  }
});

/**
 * Yanni the Yeoman and Brutas the Brute, with the Terrifying charge: under the −1 on every roll
 * their chain needs 407,783 and 441,605 merged nodes, over the default cap (FORECAST_BUDGET.chainStates
 * 400,000); the table's request follows them forward, within its stated bound.
 */
const OVER_CAP = new Set([
  "Yanni the Yeoman vs Brutas the Brute (default)",
  "Brutas the Brute vs Yanni the Yeoman (default)",
  "Yanni the Yeoman vs Brutas the Brute (firstb)",
  "Brutas the Brute vs Yanni the Yeoman (firstb)",
]);

describe("the Miniatures duel chain under the default Guts rule (−1 on every roll): the sample pairings agree with the unmerged chain", () => {
  for (const [variant, extra] of [
    ["default", VARIANTS.default],
    ["nocharge", VARIANTS.nocharge],
    ["firstb", VARIANTS.firstb],
  ] as const) {
    const pairs = pairsOf(variant);
    it(`${variant}: ${pairs.length} ordered pairings`, () => {
      for (const [a, b] of pairs) {
        const what = `${a} vs ${b} (${variant})`;
        const g = (golden as unknown as Record<string, Record<string, Record<string, Answer>>>).allRolls[variant][
          `${a} vs ${b}`
        ];
        const f = duelForecast({ ...resolveSamples({ preset: "miniatures", a, b }), ...extra }, { budgetMs: 60_000 });
        if (OVER_CAP.has(what)) {
          expect([f.method, f.exact], what).toEqual(["forward", false]);
          expect(f.errorBound, what).toBeLessThanOrEqual(FORECAST_BUDGET.tolerance);
          // The forward method only leaves probability out: the exact answer lies within [its answer, its answer + bound].
          for (const k of ["aOut", "bOut"] as const) {
            expect(g[k], `${what} ${k}`).toBeGreaterThanOrEqual(f[k] - 1e-12);
            expect(g[k], `${what} ${k}`).toBeLessThanOrEqual(f[k] + f.errorBound + 1e-12);
          }
          continue;
        }
        sameAnswer(f, g, what);
        expect(f.states, what).toBeLessThan(g.states);
        expect(f.states, what).toBeLessThanOrEqual(FORECAST_BUDGET.chainStates);
      }
    }, 600_000);
  }
});

describe("nodes with the same future: merged and unmerged chains agree", () => {
  const config = boxTrackConfig("miniatures");
  const m = (level: string) => ({ level });
  const track = (scratch: number, hurt: boolean, veryHurt: boolean): Track =>
    ({
      config,
      state: {
        marks: {
          scratch: [scratch > 0 ? m("scratch") : null, scratch > 1 ? m("scratch") : null],
          hurt: [hurt ? m("hurt") : null],
          veryHurt: [veryHurt ? m("veryHurt") : null],
          nearDeath: [null],
          dead: [null],
        },
      },
    }) as unknown as Track;
  const failure = fc.record({
    reason: fc.constantFrom("newWoundLevel", "twoWoundLevels", "terrifying"),
    target: fc.integer({ min: -2, max: 3 }),
    sinceTurn: fc.constant(0),
    bonus: fc.integer({ min: 0, max: 2 }),
    forfeitNext: fc.integer({ min: 0, max: 1 }),
    effect: fc.integer({ min: 1, max: 4 }),
  });
  const model = fc.record({
    scratch: fc.integer({ min: 0, max: 2 }),
    hurt: fc.boolean(),
    veryHurt: fc.boolean(),
    pending: fc.array(failure, { maxLength: 2 }),
  });
  it("from any starting wounds and failed checks in force (both sides, either side first, with and without the charge)", () => {
    fc.assert(
      fc.property(
        model,
        model,
        fc.constantFrom("a", "b"),
        fc.boolean(),
        fc.constantFrom(
          ["King Kingsley", "Knavely Knave"],
          ["Brutas the Brute", "King Kingsley"],
          ["Sir Knightly", "Brutas the Brute"],
        ),
        (ma, mb, first, charge, [a, b]) => {
          const d = resolveSamples({ preset: "miniatures", a, b }) as Record<string, Record<string, unknown>>;
          const side = (c: Record<string, unknown>, m: typeof ma) => ({
            ...c,
            track: track(m.scratch, m.hurt, m.veryHurt),
            gutsState: { pending: m.pending },
          });
          const req = {
            ...d,
            a: side(d.a, ma),
            b: side(d.b, mb),
            first,
            terrifyingCharge: charge,
            method: "chain",
            maxStates: 1_000_000,
          };
          const merged = duelForecast(req, { budgetMs: 60_000 });
          const plain = duelForecast(req, { budgetMs: 60_000, mergeMinds: false });
          for (const k of ["aOut", "bOut", "stalemate"] as const)
            expect(Math.abs(merged[k] - plain[k])).toBeLessThanOrEqual(1e-12);
          if (plain.expectedExchanges === null) expect(merged.expectedExchanges).toBeNull();
          else expect(Math.abs(merged.expectedExchanges! - plain.expectedExchanges)).toBeLessThanOrEqual(1e-9);
          expect(merged.states).toBeLessThanOrEqual(plain.states);
        },
      ),
      { numRuns: 12, seed: 10 },
    );
  }, 600_000);
  it("with the sample cards' gifts and faults given their rules (Mercenary, Steadfast, Chivalrous, Self-interest, Poor melee)", () => {
    const rules: Record<string, { gift?: object; fault?: object }> = {
      "Brutas the Brute": { fault: { name: "Mercenary", rule: "mercenary" } },
      "Yanni the Yeoman": {
        gift: { name: "Steadfast", rule: "steadfast" },
        fault: { name: "Poor melee combatant", rule: "poorMelee" },
      },
      "Sir Knightly": { fault: { name: "Chivalrous", rule: "chivalrous" } },
      "Knavely Knave": { fault: { name: "Self-interest", rule: "selfInterest" } },
    };
    for (const [a, b] of [
      ["Brutas the Brute", "Yanni the Yeoman"],
      ["Sir Knightly", "Brutas the Brute"],
      ["Yanni the Yeoman", "Knavely Knave"],
    ]) {
      const d = resolveSamples({ preset: "miniatures", a, b }) as Record<string, Record<string, unknown>>;
      for (const first of ["a", "b"]) {
        const req = {
          ...d,
          a: { ...d.a, ...rules[a] },
          b: { ...d.b, ...rules[b] },
          first,
          method: "chain",
          maxStates: 1_000_000,
        };
        const merged = duelForecast(req, { budgetMs: 60_000 });
        const plain = duelForecast(req, { budgetMs: 60_000, mergeMinds: false });
        for (const k of ["aOut", "bOut", "stalemate"] as const)
          expect(Math.abs(merged[k] - plain[k]), `${a} vs ${b} ${first} ${k}`).toBeLessThanOrEqual(1e-12);
        expect(merged.states, `${a} vs ${b} ${first}`).toBeLessThanOrEqual(plain.states);
      }
    }
  }, 600_000);
  it("a Mercenary with a failure in force (its re-check may end the duel at its turn's start): merged and unmerged agree", () => {
    // The case that found a fled Mercenary still striking on its way out (Sir Knightly first, Brutas re-checking).
    const d = resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }) as Record<
      string,
      Record<string, unknown>
    >;
    const brutas = {
      ...d.b,
      fault: { name: "Mercenary", rule: "mercenary" },
      gutsState: { pending: [{ reason: "newWoundLevel", target: 0, sinceTurn: 0, effect: 1 }] },
    };
    const knightly = { ...d.a, fault: { name: "Chivalrous", rule: "chivalrous" } };
    for (const first of ["a", "b"])
      for (const terrifyingCharge of [false, true]) {
        const req = { ...d, a: knightly, b: brutas, first, terrifyingCharge, method: "chain", maxStates: 1_000_000 };
        const merged = duelForecast(req, { budgetMs: 60_000 });
        const plain = duelForecast(req, { budgetMs: 60_000, mergeMinds: false });
        for (const k of ["aOut", "bOut", "stalemate"] as const)
          expect(Math.abs(merged[k] - plain[k]), `${first} ${terrifyingCharge} ${k}`).toBeLessThanOrEqual(1e-12);
      }
  }, 600_000);
  it("the bounded forward method follows the merged nodes to the same answers, within its bound", () => {
    const d = resolveSamples({ preset: "miniatures", a: "King Kingsley", b: "Brutas the Brute" });
    const exact = duelForecast({ ...d, method: "chain" }, { budgetMs: 60_000 });
    for (const mergeMinds of [true, false]) {
      const f = duelForecast({ ...d, method: "forward" }, { budgetMs: 60_000, mergeMinds });
      expect(f.errorBound).toBeLessThanOrEqual(1e-4);
      for (const k of ["aOut", "bOut"] as const) {
        expect(exact[k]).toBeGreaterThanOrEqual(f[k] - 1e-12);
        expect(exact[k]).toBeLessThanOrEqual(f[k] + f.errorBound + 1e-12);
      }
    }
  }, 120_000);
  it("gutsSettled: only a model at the worst level it can still act at (Very Hurt) is settled", () => {
    for (const [t, settled] of [
      [track(0, false, false), false],
      [track(2, false, false), false],
      [track(1, true, false), false],
      [track(0, false, true), true],
      [track(2, true, true), true],
    ] as const)
      expect(gutsSettled(t, trackStatus(t))).toBe(settled);
    const nearDeath = {
      config,
      state: {
        marks: { scratch: [null, null], hurt: [null], veryHurt: [null], nearDeath: [m("nearDeath")], dead: [null] },
      },
    } as unknown as Track;
    expect(gutsSettled(nearDeath, trackStatus(nearDeath))).toBe(false);
  });
});

describe("the chain's budget of states", () => {
  const d = resolveSamples({ preset: "miniatures", a: "Brutas the Brute", b: "King Kingsley" });
  it("the default is FORECAST_BUDGET.chainStates; a request's own maxStates still caps the chain, refused cleanly", () => {
    // Brutas vs the King needs 313,124 nodes: exact by default, refused under an explicit 200,000.
    // (Brutas vs Yanni, 230,460 nodes when a Guts failure by 1 lowered attack rolls only, is over the default cap since the −1 is on every roll.)
    const f = duelForecast(d, { budgetMs: 60_000 });
    expect([f.method, f.exact, f.states]).toEqual(["chain", true, 313_124]);
    expect(() => duelForecast({ ...d, method: "chain", maxStates: 200_000 }, { budgetMs: 60_000 })).toThrow(
      expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.TooManyStates" }),
    );
    // without a method, a Miniatures chain over its states is followed forward with its bound (as before)
    const g = duelForecast({ ...d, maxStates: 150_000 }, { budgetMs: 60_000 });
    expect([g.method, g.exact]).toEqual(["forward", false]);
    expect(g.errorBound).toBeLessThanOrEqual(1e-4);
    for (const k of ["aOut", "bOut"] as const) expect(Math.abs(g[k] - f[k])).toBeLessThanOrEqual(g.errorBound + 1e-12);
  }, 240_000);
  it("a tiny maxStates is refused at once for every preset's chain", () => {
    const fudge = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
    expect(() => duelForecast({ ...fudge, maxStates: 10 })).toThrow(
      expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.TooManyStates" }),
    );
    expect(duelForecast(fudge).states).toBe(277);
  });
});
