/**
 * The duel forecast says how often a side leaves by flight (Miniatures: Sample characters — a
 * Mercenary "will flee the combat on any failed Guts check", Self-interest "will flee combat if
 * wounded"): `aFled` / `bFled`, part of `aOut` / `bOut`, exact with the chain, within the error
 * bound with "forward", an estimate with its interval with "sample"; absent wherever no side can
 * flee (docs/rules-api.md "forecast").
 */
import { describe, expect, it } from "vitest";
import { duelForecast as forecastOnTheClock, type DuelForecast, applyWound, newTrack } from "../../src/rules";

/** The forecasts here are checked for their figures, not their speed: no time budget, so a loaded machine changes nothing. */
const duelForecast: typeof forecastOnTheClock = (input, opts = {}) =>
  forecastOnTheClock(input, { budgetMs: Number.POSITIVE_INFINITY, ...opts });
import { legendaryOutcomes, legendaryTotal } from "../../src/rules/miniatures";
import { boxTrackConfig } from "../../src/rules/fudge";
import { runCommand } from "../../src/cli/run";
import { resolveSamples } from "../../src/cli/samples";
import { sampleModel } from "./miniatures-samples";

type Model = Record<string, unknown>;
const miniTrack = () => newTrack(boxTrackConfig("miniatures"));
/** Brutas with his fault's rule (Mercenary); Knavely with his (Self-interest). */
const brutas = (): Model => {
  const m = sampleModel("brutasTheBrute");
  return { ...m, fault: { ...(m.fault as object), rule: "mercenary" } };
};
const knavely = (): Model => {
  const m = sampleModel("knavelyKnave");
  return { ...m, fault: { ...(m.fault as object), rule: "selfInterest" } };
};
/** A Terrifying ogre that can never wound anyone (tests/rules/miniatures-traits.test.ts): only the Guts checks decide who leaves. */
const OGRE: Model = {
  name: "Harmless Ogre",
  strength: 0,
  dexterity: -5,
  guts: 0,
  weapons: [{ name: "Club", hands: 1, kind: "melee", damage: -20, stat: "strength" }],
  terrifying: 1,
  track: miniTrack(),
};
const ARCHER: Model = {
  ...OGRE,
  name: "Archer",
  terrifying: 0,
  dexterity: -20,
  weapons: [{ name: "Knife", hands: 1, kind: "melee", damage: -2, stat: "strength" }],
};
const pDice = (f: (d: number) => boolean): number =>
  legendaryOutcomes().reduce((s, o) => s + (f(legendaryTotal(o.dice, "d").total) ? o.p : 0), 0);
const keysOf = (f: DuelForecast): string[] => Object.keys(f).filter((k) => k.endsWith("Fled"));

describe("duel forecast: flight (aFled, bFled)", () => {
  it("hand-computed: Brutas (Guts 2) charged by the harmless Terrifying ogre leaves only by flight, 15/81 (dice ≤ −1 fails target 2); the ogre never flees", () => {
    const f = duelForecast({ preset: "miniatures", a: brutas(), b: OGRE, first: "b" });
    expect([f.method, f.exact]).toEqual(["chain", true]);
    expect(f.aFled).toBeCloseTo(15 / 81, 12);
    expect(f.aFled).toBeCloseTo(f.aOut, 12);
    expect(f.bFled).toBe(0);
    // A pending failure by 1 re-checked at +1 (no charge), at −1 while it lasts (Miniatures: Guts, "−1 to
    // rolls"): flees with 15/81 (2 + 1 − 1 + dice < 1: dice ≤ −2); with the −1 on attack rolls only, 5/81 (dice ≤ −3).
    const shaken = {
      ...brutas(),
      gutsState: { pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 0, effect: 1 }] },
    };
    const recheck = duelForecast({ preset: "miniatures", a: shaken, b: OGRE, terrifyingCharge: false });
    expect(recheck.aFled).toBeCloseTo(15 / 81, 12);
    expect(
      duelForecast({
        preset: "miniatures",
        a: shaken,
        b: OGRE,
        terrifyingCharge: false,
        options: { gutsRollPenalty: "attackRolls" },
      }).aFled,
    ).toBeCloseTo(5 / 81, 12);
    // The sides swapped: the same flight, now b's.
    const swapped = duelForecast({ preset: "miniatures", a: OGRE, b: brutas(), first: "a" });
    expect([swapped.aFled, swapped.bFled! - 15 / 81].map((x) => Math.abs(x!) < 1e-12)).toEqual([true, true]);
  });

  it("hand-computed: Knavely (Self-interest) struck first by the archer flees on any wound short of Near Death; already wounded, he has fled (1)", () => {
    const f = duelForecast({ preset: "miniatures", a: knavely(), b: ARCHER, first: "b" });
    expect(f.aFled).toBeGreaterThanOrEqual(pDice((d) => d >= 3 && d <= 9) - 1e-12);
    expect(f.aFled).toBeLessThanOrEqual(f.aOut + 1e-12);
    const scratched = { ...knavely(), track: applyWound(miniTrack(), { level: "scratch" }).track };
    const gone = duelForecast({ preset: "miniatures", a: scratched, b: ARCHER });
    expect([gone.aOut, gone.aFled, gone.bFled]).toEqual([1, 1, 0]);
  });

  it("a Mercenary put out by wounds is out, not fled: Brutas vs the King, flight is part of his 0.3474 (0.3648 with the Guts −1 on attack rolls only)", () => {
    const f = duelForecast({ preset: "miniatures", a: brutas(), b: sampleModel("kingKingsley") }, { budgetMs: 60_000 });
    expect(f.aOut).toBeCloseTo(0.3474, 3);
    expect(f.aFled).toBeCloseTo(0.2766, 3);
    expect(f.bFled).toBe(0);
  }, 60_000);

  it("chain, forward and sample agree: forward within its error bound, the sample's 99% interval holds the exact value", () => {
    for (const duel of [
      { preset: "miniatures", a: brutas(), b: sampleModel("kingKingsley") },
      { preset: "miniatures", a: knavely(), b: brutas() },
    ]) {
      const exact = duelForecast({ ...duel, method: "chain" }, { budgetMs: 60_000 });
      const fwd = duelForecast({ ...duel, method: "forward" }, { budgetMs: 60_000 });
      const est = duelForecast({ ...duel, method: "sample" }, { budgetMs: 60_000 });
      expect(exact.aFled! + exact.bFled!).toBeGreaterThan(0.01);
      for (const k of ["aFled", "bFled"] as const) {
        expect(Math.abs(fwd[k]! - exact[k]!)).toBeLessThanOrEqual(fwd.errorBound + 1e-12);
        expect(Math.abs(est[k]! - exact[k]!)).toBeLessThanOrEqual(est.estimate!.halfWidth[k]!);
        expect(est.estimate!.counts[k]).toBe(Math.round(est[k]! * est.estimate!.duels));
      }
    }
  }, 120_000);

  it("absent where no side can flee: Fudge, FATE, Miniatures without the rules (text only) or a Mercenary without Guts checks", () => {
    const fudge = duelForecast(resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" }));
    expect(keysOf(fudge)).toEqual([]);
    expect(
      keysOf(
        duelForecast({
          ...resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" }),
          method: "sample",
          samples: 200,
        }),
      ),
    ).toEqual([]);
    expect(keysOf(duelForecast(resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" })))).toEqual([]);
    const plain = duelForecast({ preset: "miniatures", a: sampleModel("brutasTheBrute"), b: OGRE, first: "b" });
    expect(keysOf(plain)).toEqual([]);
    const est = duelForecast({
      preset: "miniatures",
      a: sampleModel("brutasTheBrute"),
      b: OGRE,
      method: "sample",
      samples: 200,
    });
    expect([keysOf(est), Object.keys(est.estimate!.counts), Object.keys(est.estimate!.halfWidth)]).toEqual([
      [],
      ["aOut", "bOut", "stalemate", "unfinished"],
      ["aOut", "bOut", "stalemate"],
    ]);
    expect(keysOf(duelForecast({ preset: "miniatures", a: brutas(), b: OGRE, gutsChecks: false }))).toEqual([]);
  });

  it("the CLI's forecast carries the fields", () => {
    const f = runCommand("forecast", { preset: "miniatures", a: brutas(), b: OGRE, first: "b" }) as DuelForecast;
    expect(f.aFled).toBeCloseTo(15 / 81, 12);
    expect(f.bFled).toBe(0);
  });
});
