/**
 * Exact odds group the Fudge opposed roll by relative degree (fudgePairedOutcomes): 17 classes of
 * attackRoll − defenseRoll, all misses merged, instead of the 81 pairs of 4dF totals. The grouped
 * odds must equal the enumeration of every pair, for every option combination.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import { exactOddsOf, type AttackOdds, pipelineFor } from "../../src/rules";
import { fighter, fudgeOptions, parsedFudgeRequest, fudgeSituation } from "./fudge-arbitraries";

function same(a: AttackOdds, b: AttackOdds, where: string): void {
  expect(a.hit, where).toBeCloseTo(b.hit, 12);
  expect(a.death, where).toBeCloseTo(b.death, 12);
  expect(a.residual, where).toBeCloseTo(b.residual, 12);
  for (const field of ["outcomes", "woundLevels", "trackResults", "conditions"] as const) {
    const x = a[field] as Record<string, number>;
    const y = b[field] as Record<string, number>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)]))
      expect(x[k] ?? 0, `${where}: ${field}.${k}`).toBeCloseTo(y[k] ?? 0, 12);
  }
}

describe("exact odds by relative degree = every pair of totals", () => {
  const p = pipelineFor("fudge");
  it("Fudge: every option combination", () => {
    let grouped = 0;
    fc.assert(
      fc.property(fighter, fighter, fudgeOptions, fudgeSituation, (a, d, o, s) => {
        const parsed = parsedFudgeRequest(a, d, o, s);
        if (!parsed) return;
        const { req } = parsed;
        let all: AttackOdds;
        try {
          all = exactOddsOf(p, req, false);
        } catch (e) {
          expect(() => exactOddsOf(p, req, true)).toThrow((e as Error).message);
          return;
        }
        const g = exactOddsOf(p, req, true);
        same(g, all, JSON.stringify({ o, s }));
        if (g.leaves < all.leaves) grouped++;
      }),
      { numRuns: 150 },
    );
    expect(grouped).toBeGreaterThan(30);
  });

  it("Leroy vs Theodora: at most 17 resolutions instead of 81", () => {
    const req = p.parseRequest(resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }));
    const g = exactOddsOf(p, req);
    const all = exactOddsOf(p, req, false);
    expect(all.leaves).toBe(81);
    expect(g.leaves).toBeLessThanOrEqual(17);
    same(g, all, "samples");
  });
});
