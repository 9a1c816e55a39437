/**
 * Duel forecasts (issue #10): the fast paths agree with the plain ones, bounded answers stay
 * within their stated bound of the exact chain, and the Miniatures Guts checks agree with duels
 * played by the real pipeline and the real Guts functions. Monte Carlo tolerances come from the
 * sample size: 4.5 standard errors of a share of n duels, plus the forecast's own error bound.
 */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import {
  seededRng,
  duelForecast,
  type DuelForecast,
  rollingDice,
  type AttackResolution,
  pipelineFor,
  applyWound,
  newTrack,
  trackStatus,
  type Track,
} from "../../src/rules";
import {
  gutsAtCharge,
  gutsMind,
  datacard,
  gutsRecheck,
  gutsTrigger,
  nearDeathGuts,
  parseGutsState,
  terrifyingTarget,
  type GutsState,
  legendaryOutcomes,
  legendarySlot,
  legendaryTotal,
} from "../../src/rules/miniatures";
import { boxTrackConfig } from "../../src/rules/fudge";

/** |sampled − forecast| within 4.5 standard errors of n duels, plus the forecast's own bound. */
function agreesWithSample(f: DuelForecast, bLostShare: number, n: number): void {
  const se = Math.sqrt(Math.max(f.bOut * (1 - f.bOut), 1 / n) / n);
  expect(Math.abs(bLostShare - f.bOut), `forecast ${f.bOut}, sampled ${bLostShare} over ${n} duels`).toBeLessThan(
    4.5 * se + f.errorBound,
  );
}

describe("Fudge §4.5: the opposed roll folded by relative degree", () => {
  const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
  const optionSets: Array<Record<string, unknown>> = [
    {},
    { doubleRd: true },
    { damageRoll: "dfNumber" },
    { damageRoll: "dfLevel" },
    { woundMode: "minMidMax" },
    { dcVariant: "roll" },
    { scaleDamageRoll: true, willpowerVsPenalty: { difficulty: 1 } },
    // these read a roll itself (§4.58 critical success, §4.61 even/odd): the forecast enumerates every pair
    { criticalLetsPointThrough: true },
    { damageRoll: "evenOdd" },
  ];
  const foldedEqualsFull = (request: Record<string, unknown>): void => {
    const fast = duelForecast(request);
    const full = duelForecast({ ...request, foldDice: false });
    expect(fast.aOut).toBeCloseTo(full.aOut, 12);
    expect(fast.bOut).toBeCloseTo(full.bOut, 12);
    expect(fast.expectedExchanges!).toBeCloseTo(full.expectedExchanges!, 10);
    expect(fast.states).toBe(full.states);
  };
  for (const options of optionSets)
    it(`equals the full enumeration of both 4dF, options ${JSON.stringify(options)}`, () =>
      foldedEqualsFull({ ...duel, options }));
  // The folded step resolves a class where the first side loses the roll only as the strike back
  // (its miss "returns before the damage step"): situations that move the relative degree.
  for (const situation of [{ allOutAttack: true }, { modifier: -3 }, { modifier: 4, defenderModifier: 2 }])
    it(`equals the full enumeration of both 4dF, situation ${JSON.stringify(situation)}`, () =>
      foldedEqualsFull({ ...duel, situation }));
});

describe("bounded forecasts (method forward) stay within their stated bound of the exact chain", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["fudge", resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" })],
    ["fate (Clipped boxes heal: cycles)", resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" })],
    [
      "miniatures (Near Death rolls: cycles)",
      resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }),
    ],
  ];
  for (const [name, duel] of cases)
    it(name, () => {
      const exact = duelForecast({ ...duel, method: "chain" });
      expect([exact.method, exact.exact, exact.errorBound]).toEqual(["chain", true, 0]);
      for (const tolerance of [1e-2, 1e-4, 1e-6]) {
        const f = duelForecast({ ...duel, method: "forward", tolerance });
        expect(f.method).toBe("forward");
        expect(f.errorBound).toBeLessThanOrEqual(tolerance);
        expect(f.exact).toBe(f.errorBound === 0);
        expect(Math.abs(f.aOut - exact.aOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
        expect(Math.abs(f.bOut - exact.bOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
      }
    });
});

describe("Volt phases forecast (sums of products, one per history of both penalties) stays within its bound", () => {
  const side = (
    name: string,
    o: { damage?: number; attack?: number; guard?: number; will?: number; tough?: number } = {},
  ) => ({
    name,
    track: { config: { kind: "volt", willpower: o.will ?? 6, tough: o.tough ?? 0 } },
    weapon: { name: "Axe", attack: o.attack ?? 14, damage: o.damage ?? 25, pierce: 4 },
    guard: o.guard ?? 6,
  });
  const small: Array<[string, Record<string, unknown>]> = [
    ["two axes, Damage 25", { preset: "volt", a: side("A"), b: side("B") }],
    [
      "b opens, a better axe against a higher Guard",
      { preset: "volt", first: "b", a: side("A", { damage: 23, attack: 16 }), b: side("B", { guard: 9 }) },
    ],
  ];
  for (const [name, duel] of small)
    it(`equals the exact chain within its bound: ${name}`, () => {
      const exact = duelForecast({ ...duel, method: "chain", budgetMs: 60_000 });
      expect([exact.method, exact.exact]).toEqual(["chain", true]);
      for (const tolerance of [1e-2, 1e-4]) {
        const f = duelForecast({ ...duel, method: "phases", tolerance, budgetMs: 60_000 });
        expect(f.method).toBe("phases");
        expect(f.errorBound).toBeLessThanOrEqual(tolerance);
        expect(f.exact).toBe(f.errorBound === 0);
        expect(Math.abs(f.aOut - exact.aOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
        expect(Math.abs(f.bOut - exact.bOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
        expect(f.aOut + f.bOut).toBeLessThanOrEqual(1 + 1e-12);
      }
    }, 60_000);
  it("agrees with the forward forecast within both bounds (Willpower 12, a Tough defender)", () => {
    const duel = {
      preset: "volt",
      a: side("A", { will: 12, damage: 20 }),
      b: side("B", { will: 12, damage: 21, tough: 1 }),
    };
    const f = duelForecast({ ...duel, method: "phases", budgetMs: 60_000 });
    const g = duelForecast({ ...duel, method: "forward", budgetMs: 60_000 });
    expect(Math.abs(f.aOut - g.aOut)).toBeLessThanOrEqual(f.errorBound + g.errorBound + 1e-12);
    expect(Math.abs(f.bOut - g.bOut)).toBeLessThanOrEqual(f.errorBound + g.errorBound + 1e-12);
  }, 60_000);
  it("a duel nobody can win is a stalemate, not a loop", () => {
    // Both hit, but armor inside its Protection takes 5 off Damage 0: the damage roll fails and the
    // lowest unmarked row (1) is above the Damage, so nothing is marked (Volt: Armor, The damage roll).
    const plate = { coverage: 20, protection: [0, 20] };
    const hitsNothing = {
      preset: "volt",
      a: { ...side("A", { damage: 0 }), armor: plate },
      b: { ...side("B", { damage: 0 }), armor: plate },
    };
    const nobodyHits = { preset: "volt", a: side("A", { attack: 3 }), b: side("B", { attack: 3 }) };
    for (const duel of [hitsNothing, nobodyHits]) {
      const f = duelForecast({ ...duel, method: "phases" });
      expect([f.aOut, f.bOut, f.stalemate, f.expectedExchanges]).toEqual([0, 0, 1, null]);
      expect(duelForecast({ ...duel, method: "chain" }).stalemate).toBe(1);
      // The exact Volt method (src/rules/volt/product.ts) says the same, exactly.
      const g = duelForecast({ ...duel, method: "product" });
      expect([g.aOut, g.bOut, g.stalemate, g.expectedExchanges, g.exact]).toEqual([0, 0, 1, null, true]);
    }
  });
  it("is refused for a preset whose attacks read both sides (method field)", () => {
    const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
    expect(() => duelForecast({ ...duel, method: "phases" })).toThrow(/method/);
  });
});

describe("Guts checks are a Miniatures rule (Miniatures: Guts)", () => {
  it("a forecast asking for them in another preset is refused on the gutsChecks field, not silently ignored", () => {
    for (const preset of ["fudge", "fate", "volt"]) {
      const duel = resolveSamples({ preset, a: "Leroy", b: "Theodora" });
      expect(() => duelForecast({ ...duel, gutsChecks: true }), preset).toThrow(
        expect.objectContaining({ field: "gutsChecks", key: "FUDGE.Error.ForecastGuts" }),
      );
      expect(() => duelForecast({ ...duel, gutsChecks: false, budgetMs: 100 }), preset).not.toThrow(
        expect.objectContaining({ field: "gutsChecks" }),
      );
    }
  });
  it("the Terrifying charge check too: refused on the terrifyingCharge field in another preset (gutsChecks: false leaves it out in Miniatures)", () => {
    for (const preset of ["fudge", "fate", "volt"]) {
      const duel = resolveSamples({ preset, a: "Leroy", b: "Theodora" });
      expect(() => duelForecast({ ...duel, terrifyingCharge: true }), preset).toThrow(
        expect.objectContaining({ field: "terrifyingCharge", key: "FUDGE.Error.ForecastTerrifying" }),
      );
      expect(() => duelForecast({ ...duel, terrifyingCharge: false, budgetMs: 100 }), preset).not.toThrow(
        expect.objectContaining({ field: "terrifyingCharge" }),
      );
    }
    const mini = resolveSamples({ preset: "miniatures", a: "King Kingsley", b: "Brutas the Brute" });
    // a Guts check: no Guts checks, no charge check
    expect(duelForecast({ ...mini, gutsChecks: false, terrifyingCharge: true })).toEqual(
      duelForecast({ ...mini, gutsChecks: false }),
    );
    expect(() => duelForecast({ ...mini, terrifyingCharge: "yes" })).toThrow(
      expect.objectContaining({ field: "terrifyingCharge" }),
    );
  });
});

describe("Volt forward forecast agrees with a large seeded Monte Carlo of the real pipeline", () => {
  const side = (name: string, damage: number) => ({
    name,
    track: { config: { kind: "volt", willpower: 6 } },
    weapon: { name: "Axe", attack: 14, damage, pierce: 4 },
    guard: 6,
  });
  it("two axes, Damage 25: 20,000 duels", () => {
    const duel = { preset: "volt", a: side("A", 25), b: side("B", 25) };
    const f = duelForecast(duel);
    expect(f.errorBound).toBeLessThanOrEqual(1e-4);
    const p = pipelineFor("volt");
    const rng = seededRng(1604);
    const n = 20_000;
    let bLost = 0;
    for (let i = 0; i < n; i++) {
      const tracks: Record<"a" | "b", Track> = {
        a: p.parseRequest({ preset: "volt", attacker: duel.a, defender: duel.b }).attacker.track,
        b: p.parseRequest({ preset: "volt", attacker: duel.b, defender: duel.a }).attacker.track,
      };
      for (let turn: "a" | "b" = "a"; ; turn = turn === "a" ? "b" : "a") {
        const other = turn === "a" ? "b" : "a";
        const req = p.parseRequest({
          preset: "volt",
          attacker: { ...duel[turn], track: tracks[turn] },
          defender: { ...duel[other], track: tracks[other] },
        });
        const r = p.resolve(req, rollingDice(p.slots(req), rng));
        if (r.defenderAfter) tracks[other] = r.defenderAfter.track;
        if (!trackStatus(tracks.b).canAct) {
          bLost++;
          break;
        }
        if (!trackStatus(tracks.a).canAct) break;
      }
    }
    agreesWithSample(f, bLost / n, n);
    // the phases method on the same sample
    agreesWithSample(duelForecast({ ...duel, method: "phases" }), bLost / n, n);
  }, 60_000);
});

describe("Miniatures: Guts checks in the duel forecast (seed 004 'Guts')", () => {
  const duel = resolveSamples({ preset: "miniatures", a: "King Kingsley", b: "Knavely Knave" });
  it("are on by default, solved exactly by the chain, change the answer, and gutsChecks: false leaves them out", () => {
    const on = duelForecast(duel);
    expect(duelForecast({ ...duel, gutsChecks: true })).toEqual(on);
    const off = duelForecast({ ...duel, gutsChecks: false });
    expect([on.method, on.exact, on.errorBound, on.stalemate]).toEqual(["chain", true, 0, 0]);
    expect(on.aOut + on.bOut).toBeCloseTo(1, 12);
    expect(Math.abs(on.bOut - off.bOut)).toBeGreaterThan(0.01);
  }, 60_000);
  it("the reduced minds give the answers of the minds as they are (forward, within its bound)", () => {
    // One side starts with failures in force (bonus, forfeit, effects 1–3), so every part of a mind is exercised.
    const pending = [
      { reason: "newWoundLevel", target: 1, sinceTurn: 2, lastTurn: 3, bonus: 1, forfeitNext: 1, effect: 3 },
      { reason: "twoWoundLevels", target: 2, sinceTurn: 3, lastTurn: 3, bonus: 0, effect: 1 },
    ];
    const shaken = { ...duel, b: { ...(duel.b as object), guts: 0, gutsState: { pending } } };
    // Very Hurt (Guts 0 − 2) with a failure by 1 one short of the sure pass (target 1 − bonus 7 = −6
    // on the floor −6 − 1 (the −1 to rolls of a failure by 1) + 1, its next +1 forfeited): its
    // re-check, at −1 itself, still fails on a −4.
    const b = duel.b as { track: { config: unknown; state: { marks: Record<string, unknown[]> } } };
    const veryHurt = {
      ...b.track,
      state: { ...b.track.state, marks: { ...b.track.state.marks, veryHurt: [{ level: "veryHurt" }] } },
    };
    const nearFloor = {
      ...duel,
      b: {
        ...b,
        guts: 0,
        track: veryHurt,
        gutsState: {
          pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 1, bonus: 7, forfeitNext: 1, effect: 1 }],
        },
      },
    };
    // Near Death with failures in force: the reduced mind keeps only whether one is by 1 (its Near Death roll is at −1).
    const nearDeath = {
      ...b.track,
      state: { ...b.track.state, marks: { ...b.track.state.marks, nearDeath: [{ level: "nearDeath" }] } },
    };
    const dying = { ...duel, b: { ...b, guts: 0, track: nearDeath, gutsState: { pending } } };
    const dyingCases: Record<string, unknown>[] = [dying, { ...dying, options: { gutsRollPenalty: "attackRolls" } }];
    for (const d of [duel, shaken, { ...shaken, first: "b" }, nearFloor, ...dyingCases]) {
      const reduced = duelForecast(d, { budgetMs: 60_000 });
      const plain = duelForecast({ ...d, maxStates: 1_000_000 }, { gutsMinds: "plain", budgetMs: 60_000 });
      expect([reduced.method, plain.method]).toEqual(["chain", "forward"]);
      // The forward method only leaves probability out: each exact answer lies within [its answer, its answer + bound].
      for (const k of ["aOut", "bOut"] as const) {
        expect(reduced[k]).toBeGreaterThanOrEqual(plain[k] - 1e-12);
        expect(reduced[k]).toBeLessThanOrEqual(plain[k] + plain.errorBound + 1e-12);
      }
      // (A duel that starts Near Death is short: the forward method follows few states of it.)
      if (!dyingCases.includes(d)) expect(reduced.states).toBeLessThan(plain.states);
    }
  }, 120_000);
  it("keying a box track by its filled boxes changes no answer (the chain without Guts, with the Near Death roll and a flying model's crash)", () => {
    for (const [a, b, fly] of [
      ["Sir Knightly", "Brutas the Brute", true],
      ["Yanni the Yeoman", "King Kingsley", false],
    ] as const) {
      const d = resolveSamples({ preset: "miniatures", a, b });
      const req = { ...d, b: { ...(d.b as object), flying: fly }, gutsChecks: false };
      const keyed = duelForecast(req);
      const plain = duelForecast(req, { gutsMinds: "plain" });
      expect([keyed.method, plain.method]).toEqual(["chain", "chain"]);
      expect(keyed.aOut).toBeCloseTo(plain.aOut, 12);
      expect(keyed.bOut).toBeCloseTo(plain.bOut, 12);
      expect(keyed.expectedExchanges!).toBeCloseTo(plain.expectedExchanges!, 9);
      expect(keyed.states).toBeLessThan(plain.states);
    }
  });
  // The Knave with Guts −2, acting second in each round, fails often: Guts moves his chance by
  // about 0.13, twenty standard errors of 3,000 duels.
  const shaky = { ...duel, b: { ...(duel.b as object), guts: -2 } };
  it("agrees with duels played by the real pipeline, gutsTrigger, gutsRecheck and nearDeathGuts", () => {
    const f = duelForecast({ ...shaky, budgetMs: 60_000 });
    const off = duelForecast({ ...shaky, gutsChecks: false });
    const n = 3000;
    const sampled = simulateGutsDuel(shaky, n, 2026);
    agreesWithSample(f, sampled, n);
    // the sample tells Guts on from Guts off
    expect(Math.abs(sampled - off.bOut)).toBeGreaterThan(4.5 * Math.sqrt((off.bOut * (1 - off.bOut)) / n));
  }, 120_000);
  describe('a failure by 1: "1 Model is at a -1 to rolls (Rolls only, not stats)" (options.gutsRollPenalty)', () => {
    // A model lying Near Death (Guts 2, −2 at Near Death) with a failure by 1 in force that no
    // re-check ends before it recovers, against a victim that cannot hurt it and dies at its first
    // blow: the duel is its Near Death rolls. At −1 it dies on dice ≤ 0 and recovers on ≥ +3; with
    // the −1 on attack rolls only, ≤ −1 and ≥ +2.
    const track = applyWound(newTrack(boxTrackConfig("miniatures")), { level: "nearDeath" }).track;
    const shakenDying = {
      name: "Shaken",
      strength: 2,
      dexterity: 0,
      guts: 2,
      weapons: [{ name: "Axe", hands: 2, kind: "melee", damage: 6, stat: "strength" }],
      track,
      gutsState: { pending: [{ reason: "newWoundLevel", target: 6, sinceTurn: 0, effect: 1 }] },
    };
    const victim = {
      name: "Victim",
      strength: 0,
      dexterity: -20,
      guts: 0,
      weapons: [{ name: "Club", hands: 1, kind: "melee", damage: -20, stat: "strength" }],
      track: newTrack(boxTrackConfig("miniatures")),
    };
    const duelOf = (gutsRollPenalty?: string) => ({
      preset: "miniatures",
      a: victim,
      b: shakenDying,
      ...(gutsRollPenalty ? { options: { gutsRollPenalty } } : {}),
    });
    const pDice = (f: (d: number) => boolean): number =>
      legendaryOutcomes().reduce((t, o) => t + (f(legendaryTotal(o.dice, "d").total) ? o.p : 0), 0);
    it("hand-computed: the Near Death roll at −1 under the default rule (every roll), not under attackRolls", () => {
      const all = duelForecast(duelOf());
      expect(duelForecast(duelOf("allRolls"))).toEqual(all);
      expect([all.method, all.exact]).toEqual(["chain", true]);
      // (To 1e-9: the Legendary outcome classes leave out a tail below LEGENDARY_TAIL_EPSILON.)
      expect(all.bOut).toBeCloseTo(pDice((d) => d <= 0) / (pDice((d) => d <= 0) + pDice((d) => d >= 3)), 9);
      const attack = duelForecast(duelOf("attackRolls"));
      expect(attack.bOut).toBeCloseTo(pDice((d) => d <= -1) / (pDice((d) => d <= -1) + pDice((d) => d >= 2)), 9);
      expect(all.bOut - attack.bOut).toBeGreaterThan(0.2);
      // The rule is validated by name.
      expect(() => duelForecast(duelOf("someRolls"))).toThrow(
        expect.objectContaining({ field: "options.gutsRollPenalty", key: "FUDGE.Error.NotOneOf" }),
      );
    });
    it("agrees with duels played by the real pipeline and nearDeathGuts under each rule, and the sample tells the two apart", () => {
      const n = 3000;
      const f = { all: duelForecast(duelOf()), attack: duelForecast(duelOf("attackRolls")) };
      const sampled = {
        all: simulateGutsDuel(duelOf(), n, 1010),
        attack: simulateGutsDuel(duelOf("attackRolls"), n, 1011),
      };
      agreesWithSample(f.all, sampled.all, n);
      agreesWithSample(f.attack, sampled.attack, n);
      expect(Math.abs(sampled.all - f.attack.bOut)).toBeGreaterThan(
        4.5 * Math.sqrt((f.attack.bOut * (1 - f.attack.bOut)) / n),
      );
    }, 120_000);
    it("a shaken model's Guts re-checks and checks after a wound: the forecast agrees with played duels under attackRolls too (the Knave with Guts −2)", () => {
      const n = 3000;
      const d = { ...shaky, options: { gutsRollPenalty: "attackRolls" } };
      agreesWithSample(duelForecast({ ...d, budgetMs: 60_000 }), simulateGutsDuel(d, n, 2027), n);
    }, 120_000);
  });
  it("agrees with duels played by the real pipeline when a side acts second in each round (its failures of this round wait for the next)", () => {
    // Yanni the Yeoman (a bow) against Brutas, Brutas acting first: a failure Yanni makes in Brutas's
    // activation is not re-checked in Yanni's activation of the same round (the tracker's rule). A
    // re-check at every activation instead would give B 0.478 for 0.419: six standard errors of 3,000 duels.
    // (Without the Terrifying charge, which the tests below check on its own.)
    const d: Record<string, unknown> = {
      ...resolveSamples({ preset: "miniatures", a: "Yanni the Yeoman", b: "Brutas the Brute" }),
      first: "b",
      terrifyingCharge: false,
    };
    const f = duelForecast({ ...d, budgetMs: 60_000 });
    const n = 3000;
    agreesWithSample(f, simulateGutsDuel(d, n, 7), n);
  }, 120_000);
  it("with Near Death rolls and a flying model's crash, agrees with duels played by the real pipeline and Guts functions", () => {
    // Brutas flies: a blow that brings him Near Death adds the 4dF+5 crash wound (Miniatures: Wounds), and he
    // rolls Guts on his turns while Near Death; both sides check Guts for new wound levels.
    const d: Record<string, unknown> = {
      ...resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }),
      terrifyingCharge: false,
    };
    const fly = { ...d, b: { ...(d.b as object), flying: true } };
    const f = duelForecast({ ...fly, budgetMs: 60_000 });
    expect(f.bOut).toBeGreaterThan(duelForecast({ ...d, budgetMs: 60_000 }).bOut);
    const n = 3000;
    agreesWithSample(f, simulateGutsDuel(fly, n, 11), n);
  }, 120_000);
  it("a duel whose chain is over maxStates is followed forward within the rest of the budget, with its bound", () => {
    // King vs Knave: 12,098 states in the chain, about 5,500 followed forward at the default tolerance.
    const exact = duelForecast(duel);
    const f = duelForecast({ ...duel, maxStates: 8000, budgetMs: 60_000 });
    expect([f.method, f.exact]).toEqual(["forward", false]);
    expect(f.errorBound).toBeLessThanOrEqual(1e-4);
    for (const k of ["aOut", "bOut"] as const)
      expect(Math.abs(f[k] - exact[k])).toBeLessThanOrEqual(f.errorBound + 1e-12);
    // an explicit method is not second-guessed
    expect(() => duelForecast({ ...duel, maxStates: 8000, method: "chain" })).toThrow(
      expect.objectContaining({ field: "maxStates" }),
    );
  }, 60_000);
  it("a model that starts with a failure in force (may not attack) loses more often", () => {
    const broken = {
      ...duel,
      a: {
        ...(duel.a as object),
        gutsState: { pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 0, effect: 2 }] },
      },
    };
    const f = duelForecast({ ...broken, budgetMs: 60_000 });
    const g = duelForecast({ ...duel, budgetMs: 60_000 });
    expect(f.aOut).toBeGreaterThan(g.aOut + 0.01);
    // gutsChecks: false leaves Guts out, the failure in force too (it is not refused as "may not attack")
    expect(duelForecast({ ...broken, gutsChecks: false })).toEqual(duelForecast({ ...duel, gutsChecks: false }));
  }, 60_000);
  it("a duel nobody can ever win is a stalemate, not a refusal at the budget", () => {
    // Plate beyond any Legendary roll: no blow ever lands (Miniatures: Combat — a hit needs total ≥ DDF).
    const plated = (c: unknown) => ({ ...(c as object), armor: 20, shield: 20 });
    const f = duelForecast({ ...duel, a: plated(duel.a), b: plated(duel.b) });
    expect([f.aOut, f.bOut, f.stalemate, f.expectedExchanges, f.method]).toEqual([0, 0, 1, null, "chain"]);
    // the bounded forward method too
    const g = duelForecast({ ...duel, a: plated(duel.a), b: plated(duel.b), method: "forward" });
    expect([g.aOut, g.bOut, g.stalemate, g.expectedExchanges, g.method, g.errorBound]).toEqual([
      0,
      0,
      1,
      null,
      "forward",
      0,
    ]);
  });
  it("the largest sample duels fit the chain within the default budget of states (Yanni the Yeoman vs Brutas the Brute without the Terrifying charge, Sir Knightly vs Yanni)", () => {
    for (const [a, b] of [
      ["Yanni the Yeoman", "Brutas the Brute"],
      ["Sir Knightly", "Yanni the Yeoman"],
    ]) {
      const f = duelForecast(
        { ...resolveSamples({ preset: "miniatures", a, b }), terrifyingCharge: false },
        { budgetMs: 60_000 },
      );
      expect([f.method, f.exact], `${a} vs ${b}`).toEqual(["chain", true]);
      expect(f.aOut + f.bOut).toBeCloseTo(1, 12);
    }
  }, 120_000);
});

const legendary = legendarySlot("g", "sim");

/**
 * Plays Miniatures duels (`first` opens each round) with Guts as the texts give it: a model's turn starts with its
 * Near Death roll (Miniatures: Wounds) or the re-check of every failure of an earlier round
 * (Miniatures: Guts, as the combat tracker counts turns); a failure by 2 or more may not attack; a blow
 * that makes a new wound level calls the pipeline's Guts check at once; a failure by 3 gives the
 * attacker an immediate free attack at +1. Unless `terrifyingCharge: false`, the duel opens with
 * `first` charging: in its activation of round 1, each model facing Terrifying gifts makes the
 * immediate check ("Model tries to charge, or is being charged by, a Terrifying opponent", target
 * 0 + the gifts), a failure of round 1 (re-checked from round 2); a charged model that fails by 3
 * runs, and the charger strikes it at +1 instead of its blow (none if it may not attack). A Guts
 * failure by 1 lowers the model's rolls by the request's `options.gutsRollPenalty` (default: every roll).
 * Returns the share of duels B lost.
 */
function simulateGutsDuel(duel: Record<string, unknown>, n: number, seed: number): number {
  const p = pipelineFor("miniatures");
  const rng = seededRng(seed);
  const first = duel.first === "b" ? "b" : "a";
  const charge = duel.terrifyingCharge !== false;
  let bLost = 0;
  // The world's rule for a Guts failure by 1 (Miniatures: Guts, "−1 to rolls"): every Guts roll below reads it with the model's state.
  const options = (duel.options ?? {}) as { gutsRollPenalty?: "allRolls" | "attackRolls" };
  const rules = { gutsRollPenalty: options.gutsRollPenalty };
  const base = { preset: "miniatures", options, situation: {} };
  for (let i = 0; i < n; i++) {
    const tracks: Record<"a" | "b", Track> = {
      a: (duel.a as { track: Track }).track,
      b: (duel.b as { track: Track }).track,
    };
    // Each model's failures in force as the duel starts (its gutsState), else none.
    const guts: Record<"a" | "b", GutsState> = {
      a: parseGutsState((duel.a as { gutsState?: unknown }).gutsState, "a"),
      b: parseGutsState((duel.b as { gutsState?: unknown }).gutsState, "b"),
    };
    // Miniatures: Guts — "each subsequent turn": a turn of the game, the combat tracker's round.
    let round = 0;
    const req = (x: "a" | "b", y: "a" | "b", modifier = 0) =>
      p.parseRequest({
        ...base,
        situation: { modifier },
        attacker: { ...(duel[x] as object), track: tracks[x], gutsState: guts[x] },
        defender: { ...(duel[y] as object), track: tracks[y], gutsState: guts[y] },
      });
    const gutsOf = (x: "a" | "b") =>
      datacard(req(x, x === "a" ? "b" : "a").attacker, trackStatus(tracks[x]).penalty).guts;
    /** One attack of x on y; true when y broke and runs (a failure by 3): x strikes again at +1. */
    const attack = (x: "a" | "b", y: "a" | "b", modifier: number): boolean => {
      const q = req(x, y, modifier);
      const r: AttackResolution = p.resolve(q, rollingDice(p.slots(q), rng));
      if (!r.defenderAfter) return false;
      tracks[y] = r.defenderAfter.track;
      const check = r.followUps.find(
        (u) => u.type === "gutsCheck" && u.target === "defender" && u.params.who === "self",
      );
      if (!check) return false;
      const t = gutsTrigger(
        guts[y],
        {
          guts: gutsOf(y),
          faces: rollingDice([legendary], rng)("g"),
          target: Number(check.params.target),
          turn: round,
          reason: check.params.reason as "newWoundLevel",
        },
        rules,
      );
      guts[y] = t.state;
      return !t.check.passed && t.check.effect === 3;
    };
    let turn: "a" | "b" = first;
    for (let guard = 0; guard < 10_000; guard++) {
      const other: "a" | "b" = turn === "a" ? "b" : "a";
      const st = trackStatus(tracks[turn]);
      if (turn === first) round++;
      let runs = false;
      if (charge && round === 1 && turn === first && st.canAct)
        for (const z of [turn, other] as const) {
          const gifts = (duel[z === "a" ? "b" : "a"] as { terrifying?: number }).terrifying ?? 0;
          if (gifts === 0 || !trackStatus(tracks[z]).canAct) continue;
          const t = gutsTrigger(
            guts[z],
            {
              guts: gutsOf(z),
              faces: rollingDice([legendary], rng)("g"),
              target: terrifyingTarget(gifts),
              turn: round,
              reason: "terrifying",
            },
            rules,
          );
          guts[z] = t.state;
          if (z === other && !t.check.passed && t.check.effect === 3) runs = true;
        }
      if (st.condition === "dying") {
        const r = nearDeathGuts(tracks[turn], gutsOf(turn), rollingDice([legendary], rng)("g"), 0, guts[turn], rules);
        tracks[turn] = r.track;
        // "becomes merely Very Hurt and may then act normally": earlier Guts failures no longer hold it
        if (r.result === "veryHurt") guts[turn] = parseGutsState(undefined, "g");
      } else {
        let k = 0;
        while (k < guts[turn].pending.length) {
          if (guts[turn].pending[k].lastTurn >= round) {
            k++;
            continue;
          }
          const r = gutsRecheck(guts[turn], rollingDice([legendary], rng)("g"), round, gutsOf(turn), 0, k, {}, rules);
          guts[turn] = r.state;
          if (!r.check.passed) k++;
        }
        if (guts[turn].effect < 2) {
          let free = attack(turn, other, runs ? 1 : 0);
          while (free && trackStatus(tracks[other]).condition !== "dead") free = attack(turn, other, 1);
        }
      }
      if (trackStatus(tracks.b).condition === "dead") {
        bLost++;
        break;
      }
      if (trackStatus(tracks.a).condition === "dead") break;
      turn = other;
    }
  }
  return bLost / n;
}

describe("Miniatures: the Terrifying charge check in the duel forecast (seed 004 'Guts': \"Model tries to charge, or is being charged by, a Terrifying opponent\")", () => {
  const space = { floor: -100, reduce: false };
  /** P(each effect) of one charge check, out of 81, by the forecast's helper (the real gutsTrigger over the Legendary classes). */
  const byEffect = (guts: number, gifts: number, charged: boolean) => {
    const out: Record<string, number> = {};
    for (const [m, p] of gutsAtCharge(gutsMind(undefined, space), guts, gifts, charged, space)) {
      const k = `${m.state.effect}${m.owesFreeAttack ? "!" : ""}`;
      out[k] = Math.round((out[k] ?? 0) + p * 81 * 1e9) / 1e9;
    }
    return out;
  };
  it("the initial check by margin: Guts +1 against one Terrifying gift (target 0 + 1) fails by the 4dF total's shortfall", () => {
    // Legendary 4dF: −4..+3 as 4dF (1, 4, 10, 16, 19, 16, 10, 4 of 81), +4 and up passes. Guts 1 + dice ≥ 1 passes
    // (dice ≥ 0: 19 + 16 + 10 + 4 + 1 = 50); dice −1 fails by 1 (16), −2 by 2 (10), −3 by 3 (4), −4 by 4 (1).
    expect(byEffect(1, 1, true)).toEqual({ "0": 50, "1": 16, "2": 10, "3!": 4, "4": 1 });
    // The charger that breaks by 3 never reached its foe: it owes no free attack.
    expect(byEffect(1, 1, false)).toEqual({ "0": 50, "1": 16, "2": 10, "3": 4, "4": 1 });
    // Guts 0 against two gifts (target 2): dice ≥ 2 passes (15); 1 → 1 (16), 0 → 2 (19), −1 → 3 (16), ≤ −2 → 4 (15).
    expect(byEffect(0, 2, true)).toEqual({ "0": 15, "1": 16, "2": 19, "3!": 16, "4": 15 });
    // a new failure is of this round: re-checked from the next round on
    for (const [m] of gutsAtCharge(gutsMind(undefined, space), 0, 2, true, space))
      for (const p of m.state.pending) expect([p.reason, p.target, p.lastTurn]).toEqual(["other", 2, 1]);
  });

  // A Dodger whose Dexterity and shield no blow can beat (DDF 40 > 6 + the highest Legendary class 31) but whose HDDF
  // is 0, against a Horror with two Terrifying gifts whose every blow on a helpless target kills (6 − 4 ≥ deadAt 2)
  // and who cannot be hurt: the Dodger dies exactly when its charge check fails by 4 or more (helpless) — at once
  // if the Horror acts next, else in the Horror's activation — and the duel is otherwise a stalemate.
  const config = {
    kind: "box",
    levels: [
      { key: "scratch", boxes: 1, penalty: 0, effect: "none", min: 0 },
      { key: "hurt", boxes: 1, penalty: -1, effect: "penalty", min: 1 },
    ],
    deadAt: 2,
  };
  const dodger = (hurt: boolean) => ({
    name: "Dodger",
    strength: 0,
    dexterity: 20,
    guts: 0,
    armor: 0,
    shield: 20,
    weapons: [{ name: "Stick", hands: 1, kind: "melee", damage: 0, stat: "strength" }],
    track: { config, state: { marks: { scratch: [null], hurt: [hurt ? { level: "hurt" } : null] } } },
  });
  const horror = {
    name: "Horror",
    strength: 4,
    dexterity: 0,
    guts: 0,
    armor: 20,
    shield: 20,
    terrifying: 2,
    weapons: [{ name: "Claw", hands: 1, kind: "melee", damage: 2, stat: "strength" }],
    track: { config },
  };
  it("a hand-computed duel: P(out) is P(the charge check fails by 4 or more), with Guts lowered by the wound penalty", () => {
    for (const first of ["a", "b"])
      for (const method of ["chain", "forward"]) {
        // Unhurt, Guts 0 against target 2: dice ≤ −2, 15/81. Hurt (−1 to every stat, Guts −1): dice ≤ −1, 31/81.
        for (const [hurt, p] of [
          [false, 15 / 81],
          [true, 31 / 81],
        ] as const) {
          const req = { preset: "miniatures", a: dodger(hurt), b: horror, first, method };
          const f = duelForecast(req);
          expect([f.aOut, f.bOut, f.stalemate, f.expectedExchanges], `${first} ${method} ${hurt}`).toEqual([
            expect.closeTo(p, 14),
            0,
            expect.closeTo(1 - p, 14),
            null,
          ]);
          expect(duelForecast({ ...req, terrifyingCharge: false })).toMatchObject({ aOut: 0, bOut: 0, stalemate: 1 });
        }
      }
  });

  it("Brutas the Brute against each sample: on by default, it changes the answer for a model facing him (Brutas charging)", () => {
    for (const other of ["King Kingsley", "Sir Knightly", "Yanni the Yeoman", "Knavely Knave", "Brutas the Brute"]) {
      const d = resolveSamples({ preset: "miniatures", a: "Brutas the Brute", b: other });
      const on = duelForecast({ ...d, budgetMs: 60_000 });
      expect(duelForecast({ ...d, terrifyingCharge: true, budgetMs: 60_000 }), other).toEqual(on);
      const off = duelForecast({ ...d, terrifyingCharge: false });
      expect(on.errorBound, other).toBeLessThanOrEqual(1e-4);
      expect(Math.abs(on.bOut - off.bOut), other).toBeGreaterThan(0.005);
      // a model that may break before the first blow wins less often against him
      if (other !== "Brutas the Brute") expect(on.aOut, other).toBeLessThan(off.aOut);
    }
  }, 240_000);
  it("changes nothing for Brutas himself when his opponent is not Terrifying (an opponent who never fails a check: Guts +20)", () => {
    for (const first of ["a", "b"]) {
      const d = resolveSamples({ preset: "miniatures", a: "Brutas the Brute", b: "King Kingsley" });
      const steady = { ...d, b: { ...(d.b as object), guts: 20 }, first };
      const on = duelForecast(steady);
      expect(on, first).toEqual(duelForecast({ ...steady, terrifyingCharge: false }));
      // while the King with his own Guts does change it
      expect(duelForecast({ ...d, first, budgetMs: 60_000 }).bOut, first).not.toBeCloseTo(
        duelForecast({ ...d, first, terrifyingCharge: false }).bOut,
        3,
      );
    }
  }, 120_000);
  it("with maxStates to spare the chain solves a charge duel exactly, within the forward forecast's bound", () => {
    const d = resolveSamples({ preset: "miniatures", a: "King Kingsley", b: "Brutas the Brute" });
    const exact = duelForecast({ ...d, maxStates: 1_000_000, method: "chain" }, { budgetMs: 60_000 });
    const fwd = duelForecast({ ...d, method: "forward" }, { budgetMs: 60_000 });
    expect([exact.method, exact.exact, fwd.method]).toEqual(["chain", true, "forward"]);
    for (const k of ["aOut", "bOut"] as const) {
      expect(exact[k]).toBeGreaterThanOrEqual(fwd[k] - 1e-12);
      expect(exact[k]).toBeLessThanOrEqual(fwd[k] + fwd.errorBound + 1e-12);
    }
    expect(exact.aOut + exact.bOut).toBeCloseTo(1, 12);
  }, 120_000);

  // The shaky Knave (Guts −2) against Brutas (one gift, target 1) fails the charge check on a roll of +2 or less: 93% of duels.
  it("agrees with duels played by the real pipeline and Guts functions: the Knave charged by Brutas, and charging him", () => {
    for (const [first, seed] of [
      ["b", 404],
      ["a", 405],
    ] as const) {
      const d = resolveSamples({ preset: "miniatures", a: "Knavely Knave", b: "Brutas the Brute" });
      const shakyKnave: Record<string, unknown> = { ...d, a: { ...(d.a as object), guts: -2 }, first };
      const f = duelForecast({ ...shakyKnave, budgetMs: 60_000 });
      const off = duelForecast({ ...shakyKnave, terrifyingCharge: false, budgetMs: 60_000 });
      const n = 3000;
      const sampled = simulateGutsDuel(shakyKnave, n, seed);
      agreesWithSample(f, sampled, n);
      // the sample tells the charge check on from off
      expect(Math.abs(sampled - off.bOut), first).toBeGreaterThan(4.5 * Math.sqrt((off.bOut * (1 - off.bOut)) / n));
    }
  }, 240_000);
  it("agrees with duels played by the real pipeline when both are Terrifying (both check: a Terrifying Knave charged by Brutas)", () => {
    // The Knave (Guts −2) with a Terrifying gift, Brutas with Guts 0: Brutas's own check moves the Knave's chance
    // by about 0.09 (0.146 against 0.052 if only the Knave checked), ten standard errors of 3,000 duels.
    const d = resolveSamples({ preset: "miniatures", a: "Knavely Knave", b: "Brutas the Brute" });
    const both: Record<string, unknown> = {
      ...d,
      a: { ...(d.a as object), guts: -2, terrifying: 1 },
      b: { ...(d.b as object), guts: 0 },
      first: "b",
    };
    const f = duelForecast({ ...both, budgetMs: 60_000 });
    const onlyKnave = duelForecast({ ...both, a: { ...(both.a as object), terrifying: 0 }, budgetMs: 60_000 });
    const n = 3000;
    const sampled = simulateGutsDuel(both, n, 406);
    agreesWithSample(f, sampled, n);
    expect(Math.abs(sampled - onlyKnave.bOut)).toBeGreaterThan(
      4.5 * Math.sqrt((onlyKnave.bOut * (1 - onlyKnave.bOut)) / n),
    );
  }, 240_000);
});
