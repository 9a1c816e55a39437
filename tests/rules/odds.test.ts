/** Exact odds and duel forecasts on the real presets, checked against the dice and against sampling. */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import {
  FOUR_DF_WEIGHTS,
  fudgeOutcomes,
  fudgeWeights,
  seededRng,
  duelForecast,
  exactOdds,
  monteCarloOdds,
  type AttackOdds,
  rollingDice,
  pipelineFor,
  applyWound,
  healTrack,
  newTrack,
  trackStatus,
  type Track,
} from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";
import { datacard, nearDeathGuts, legendarySlot } from "../../src/rules/miniatures";

const legendarySlotForSim = legendarySlot("g", "sim");

describe("4dF", () => {
  it("is exactly 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81", () => {
    expect([...FOUR_DF_WEIGHTS]).toEqual([1, 4, 10, 16, 19, 16, 10, 4, 1]);
    expect(FOUR_DF_WEIGHTS.reduce((a, b) => a + b, 0)).toBe(81);
    expect(fudgeOutcomes(4).map((o) => o.p * 81)).toEqual(
      [1, 4, 10, 16, 19, 16, 10, 4, 1].map((x) => expect.closeTo(x, 12)),
    );
  });
  it("matches brute-force counting of all faces for 1..6 dice", () => {
    for (let n = 1; n <= 6; n++) {
      const counts = new Array(2 * n + 1).fill(0);
      for (let code = 0; code < 3 ** n; code++) {
        let t = 0;
        for (let c = code, i = 0; i < n; i++, c = Math.floor(c / 3)) t += (c % 3) - 1;
        counts[t + n]++;
      }
      expect(fudgeWeights(n)).toEqual(counts);
    }
  });
});

/** Every tallied probability of a Monte Carlo run lies within 4.5 standard errors of the exact one. */
function agrees(exact: AttackOdds, mc: AttackOdds, n: number): void {
  for (const field of ["outcomes", "woundLevels", "trackResults", "conditions"] as const) {
    const keys = new Set([...Object.keys(exact[field]), ...Object.keys(mc[field])]);
    for (const k of keys) {
      const p = (exact[field] as Record<string, number>)[k] ?? 0;
      const q = (mc[field] as Record<string, number>)[k] ?? 0;
      const se = Math.sqrt(Math.max(p * (1 - p), 1 / n) / n);
      expect(Math.abs(p - q), `${field}.${k}: exact ${p}, sampled ${q}`).toBeLessThan(4.5 * se);
    }
  }
  expect(Math.abs(exact.hit - mc.hit)).toBeLessThan(4.5 * Math.sqrt((exact.hit * (1 - exact.hit)) / n) + 1e-9);
}

const attacks: Array<[string, Record<string, unknown>]> = [
  ["fudge", { preset: "fudge", attacker: "Leroy", defender: "Theodora" }],
  ["fudge (Theodora attacks)", { preset: "fudge", attacker: "Theodora", defender: "Leroy" }],
  ["miniatures", { preset: "miniatures", attacker: "Brutas the Brute", defender: "Yanni the Yeoman" }],
  ["fate", { preset: "fate", attacker: "Leroy", defender: "Theodora" }],
  // issue #10 options that read extra dice lazily (Scale damage roll, Willpower vs penalty, critical point)
  [
    "fudge (giant defender, options with extra dice)",
    {
      preset: "fudge",
      attacker: {
        name: "A",
        skill: 1,
        willpower: 1,
        weapon: { name: "Knife", kind: "muscle", size: "small", sharp: true, magic: 1 },
        track: {
          config: {
            kind: "box",
            label: "",
            levels: [
              { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1, tag: "S" },
              { key: "hurt", boxes: 1, penalty: -1, effect: "penalty", min: 3, tag: "H" },
            ],
            scratchCap: false,
            painShift: 0,
            safeguards: { maxThreeLevels: false, nearDeathNeedsIncapacitated: false, fudgePointSaves: false },
            deadAt: null,
          },
          state: { marks: { hurt: [{ level: "hurt" }] } },
        },
      },
      defender: {
        name: "G",
        skill: 0,
        massScale: 3,
        armor: { value: 2 },
        weapon: { name: "Club", kind: "muscle", size: "large" },
        track: {
          config: {
            kind: "box",
            label: "",
            levels: [
              { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1, tag: "S" },
              { key: "hurt", boxes: 1, penalty: -1, effect: "penalty", min: 3, tag: "H" },
            ],
            scratchCap: false,
            painShift: 0,
            safeguards: { maxThreeLevels: false, nearDeathNeedsIncapacitated: false, fudgePointSaves: false },
            deadAt: null,
          },
        },
      },
      options: {
        scaleDamageRoll: true,
        criticalLetsPointThrough: true,
        willpowerVsPenalty: { difficulty: 1 },
        graze: { table: [{ min: 0, level: "scratch" }] },
      },
    },
  ],
];

describe("exact odds agree with a large seeded Monte Carlo", () => {
  for (const [name, req] of attacks) {
    it(name, () => {
      const full = resolveSamples(req);
      const exact = exactOdds(full);
      const total = Object.values(exact.outcomes).reduce((a, b) => a + b, 0);
      expect(total + exact.residual).toBeCloseTo(1, 12);
      const n = 40_000;
      agrees(exact, monteCarloOdds(full, n, seededRng(1995)), n);
    });
  }
});

describe("duel forecast", () => {
  it("Fudge: probabilities sum to one and the better fighter is favoured", () => {
    const f = duelForecast(resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" }));
    expect(f.aOut + f.bOut + f.stalemate).toBeCloseTo(1, 12);
    expect(f.expectedExchanges).toBeGreaterThan(1);
    // Swapping the sides swaps the answer (an opposed exchange has no first mover).
    const g = duelForecast(resolveSamples({ preset: "fudge", a: "Theodora", b: "Leroy" }));
    expect(g.aOut).toBeCloseTo(f.bOut, 12);
    expect(g.expectedExchanges).toBeCloseTo(f.expectedExchanges!, 10);
  });
  it("Miniatures: identical datacards favour the side that strikes first", () => {
    // The two cards differ only in Brutas's Terrifying gift: without the charge check it reads, they fight alike.
    const f = duelForecast({
      ...resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }),
      terrifyingCharge: false,
    });
    expect(f.aOut + f.bOut).toBeCloseTo(1, 12);
    expect(f.bOut).toBeGreaterThan(f.aOut);
    const g = duelForecast({
      ...resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }),
      first: "b",
      terrifyingCharge: false,
    });
    expect(g.aOut).toBeCloseTo(f.bOut, 12);
  });
  it("FATE: cycles of Clipped boxes are solved and sum to one", () => {
    const f = duelForecast(resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" }));
    expect(f.aOut + f.bOut).toBeCloseTo(1, 10);
  });
  it("Volt: refuses, naming maxStates, when the duel needs more states than allowed", () => {
    const req = { ...resolveSamples({ preset: "volt", a: "Leroy", b: "Theodora" }), maxStates: 500 };
    expect(() => duelForecast(req)).toThrow(
      expect.objectContaining({ field: "maxStates", key: "FUDGE.Error.TooManyStates" }),
    );
  });
  it("agrees with a simulated duel", () => {
    // Independent check: play 4,000 duels with the real pipeline and dice.
    const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
    const f = duelForecast(duel);
    const sim = simulateFudgeDuel(duel, 4000);
    const se = Math.sqrt((f.bOut * (1 - f.bOut)) / 4000);
    expect(Math.abs(sim - f.bOut)).toBeLessThan(4.5 * se);
  });
});

/** Plays duels exchange by exchange with random dice; returns the share B lost. */
function simulateFudgeDuel(duel: Record<string, unknown>, n: number): number {
  const p = pipelineFor("fudge");
  const rng = seededRng(42);
  const ab = p.parseRequest({ preset: "fudge", attacker: duel.a, defender: duel.b });
  const ba = p.parseRequest({ preset: "fudge", attacker: duel.b, defender: duel.a });
  let bLost = 0;
  for (let i = 0; i < n; i++) {
    let tA: Track = ab.attacker.track;
    let tB: Track = ab.defender.track;
    for (;;) {
      const dice: Record<string, number[]> = {};
      const r = p.resolve(
        { ...ab, attacker: { ...ab.attacker, track: tA }, defender: { ...ab.defender, track: tB } },
        rollingDice(p.slots(ab), rng, dice),
      );
      if (r.numbers.relativeDegree > 0 && r.wound) tB = applyWound(tB, r.wound).track;
      else if (r.numbers.relativeDegree < 0) {
        const swapped = { attack: dice.defense, defense: dice.attack };
        const c = p.resolve(
          { ...ba, attacker: { ...ba.attacker, track: tB }, defender: { ...ba.defender, track: tA } },
          rollingDice(p.slots(ba), rng, swapped),
        );
        if (c.wound) tA = applyWound(tA, c.wound).track;
      }
      if (!trackStatus(tB).canAct) {
        bLost++;
        break;
      }
      if (!trackStatus(tA).canAct) break;
    }
  }
  return bLost / n;
}

describe("Volt duel forecast: followed forward with a stated error bound (issue #10)", () => {
  const side = (name: string, damage: number) => ({
    name,
    track: { config: { kind: "volt", willpower: 6 } },
    weapon: { name: "Axe", attack: 14, damage, pierce: 4 },
    guard: 6,
  });
  const duel = { preset: "volt", a: side("A", 25), b: side("B", 25) };
  it("agrees with the exact chain within its error bound, and says which it is", () => {
    // The default for Volt is the exact "product" method (tests/rules/volt-duel.test.ts); "forward" on request.
    expect(duelForecast(duel).method).toBe("product");
    const f = duelForecast({ ...duel, method: "forward" });
    expect(f.method).toBe("forward");
    expect(f.errorBound).toBeLessThanOrEqual(1e-4);
    expect(f.exact).toBe(f.errorBound === 0);
    const c = duelForecast({ ...duel, method: "chain" });
    expect([c.method, c.exact, c.errorBound]).toEqual(["chain", true, 0]);
    expect(Math.abs(f.aOut - c.aOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
    expect(Math.abs(f.bOut - c.bOut)).toBeLessThanOrEqual(f.errorBound + 1e-12);
    expect(f.expectedExchanges!).toBeCloseTo(c.expectedExchanges!, 3);
    // a tighter tolerance gives a tighter bound
    const t = duelForecast({ ...duel, method: "forward", tolerance: 1e-7 });
    expect(t.errorBound).toBeLessThanOrEqual(1e-7);
    expect(Math.abs(t.aOut - c.aOut)).toBeLessThanOrEqual(1e-7);
  });
  it("the forward method also serves duels whose wounds heal: turn by turn, with its bound (tests/rules/forecast.test.ts)", () => {
    const f = duelForecast({ ...resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" }), method: "forward" });
    expect([f.method, f.errorBound <= 1e-4]).toEqual(["forward", true]);
  });
  it("stops within its time budget with a clear error", () => {
    const req = { ...resolveSamples({ preset: "volt", a: "Leroy", b: "Theodora" }), budgetMs: 200 };
    const t = Date.now();
    expect(() => duelForecast(req)).toThrow(
      expect.objectContaining({ field: "budgetMs", key: "FUDGE.Error.ForecastBudget" }),
    );
    expect(Date.now() - t).toBeLessThan(3000);
  });
});

describe("Miniatures duel forecast: Near Death rolls and the flying crash (issue #10)", () => {
  // Near Death and the crash alone: the simulation below plays no Guts checks (tests/rules/forecast.test.ts plays them with both).
  const duel: Record<string, unknown> = {
    ...resolveSamples({ preset: "miniatures", a: "Sir Knightly", b: "Brutas the Brute" }),
    gutsChecks: false,
  };
  it("a Near Death model rolls Guts on its turns instead of leaving the fight; the duel ends at Dead", () => {
    const old = duelForecast({ ...duel, nearDeathRolls: false });
    const f = duelForecast(duel);
    expect(f.aOut + f.bOut).toBeCloseTo(1, 10);
    expect(f.expectedExchanges!).toBeGreaterThan(old.expectedExchanges!);
    // independent check: play the duels with the real pipeline, dice and Near Death roll
    const n = 3000;
    const sim = simulateMiniaturesDuel(duel, n);
    const se = Math.sqrt((f.bOut * (1 - f.bOut)) / n);
    expect(Math.abs(sim - f.bOut)).toBeLessThan(4.5 * se);
  });
  it("a flying model that falls Near Death takes the 4dF+5 crash wound", () => {
    const fly = { ...duel, b: { ...(duel.b as Record<string, unknown>), flying: true } };
    const f = duelForecast(fly);
    expect(f.bOut).toBeGreaterThan(duelForecast(duel).bOut);
    const n = 3000;
    const sim = simulateMiniaturesDuel(fly, n);
    const se = Math.sqrt((f.bOut * (1 - f.bOut)) / n);
    expect(Math.abs(sim - f.bOut)).toBeLessThan(4.5 * se);
  });
});

/** Plays Miniatures duels (a strikes first); a Near Death model rolls Guts on its turn. Returns the share of duels B lost (B dead first). */
function simulateMiniaturesDuel(duel: Record<string, unknown>, n: number): number {
  const p = pipelineFor("miniatures");
  const rng = seededRng(77);
  const base = { preset: "miniatures", options: {}, situation: {} };
  let bLost = 0;
  for (let i = 0; i < n; i++) {
    const sides = { a: duel.a as Record<string, unknown>, b: duel.b as Record<string, unknown> };
    let turn: "a" | "b" = "a";
    for (let guard = 0; guard < 10_000; guard++) {
      const me = sides[turn];
      const other: "a" | "b" = turn === "a" ? "b" : "a";
      const myTrack = me.track as Track;
      const st = trackStatus(myTrack);
      if (st.condition === "dying") {
        const req = p.parseRequest({ ...base, attacker: me, defender: sides[other] }) as {
          attacker: Parameters<typeof datacard>[0];
        };
        const guts = datacard(req.attacker, st.penalty).guts;
        const faces = rollingDice([legendarySlotForSim], rng)("g");
        sides[turn] = { ...me, track: nearDeathGuts(myTrack, guts, faces).track };
      } else {
        const r = p.resolve(
          p.parseRequest({ ...base, attacker: me, defender: sides[other] }),
          rollingDice(p.slots(p.parseRequest({ ...base, attacker: me, defender: sides[other] })), rng),
        );
        if (r.defenderAfter) sides[other] = { ...sides[other], track: r.defenderAfter.track };
      }
      if (trackStatus(sides.b.track as Track).condition === "dead") {
        bLost++;
        break;
      }
      if (trackStatus(sides.a.track as Track).condition === "dead") break;
      turn = other;
    }
  }
  return bLost / n;
}

describe("Fudge stun duel forecast (issue #10)", () => {
  // Fudge §4.62: "a stunned character cannot attack"; Stunned lasts one round, Very Stunned two;
  // knocked out (a stun of Incapacitated or worse) cannot act.
  const sap = { name: "Sap", kind: "muscle", size: "medium", stunCapable: true };
  const side = (name: string, skill: number) => ({
    name,
    skill,
    strength: 1,
    weapon: sap,
    track: newTrack(boxTrackConfig("standard")),
  });
  const duel = { preset: "fudge", a: side("A", 1), b: side("B", 2), situation: { stun: true } };
  it("is forecast: a stunned side only defends and the stun wears off by rounds; agrees with simulated duels", () => {
    const f = duelForecast(duel);
    expect(f.aOut + f.bOut).toBeCloseTo(1, 10);
    const n = 3000;
    const sim = simulateStunDuel(duel, n);
    const se = Math.sqrt((f.bOut * (1 - f.bOut)) / n);
    expect(Math.abs(sim - f.bOut)).toBeLessThan(4.5 * se);
  });
});

/** Plays stun duels round by round: a stunned side only defends; running stuns tick before the round's wound. */
function simulateStunDuel(duel: Record<string, unknown>, n: number): number {
  const p = pipelineFor("fudge");
  const rng = seededRng(9);
  const base = { preset: "fudge", situation: duel.situation };
  const stunned = (t: Track) => trackStatus(t).effects.some((e) => e === "stunned" || e === "veryStunned");
  let bLost = 0;
  for (let i = 0; i < n; i++) {
    let tA = (duel.a as { track: Track }).track;
    let tB = (duel.b as { track: Track }).track;
    for (;;) {
      const sa = stunned(tA);
      const sb = stunned(tB);
      const ab = p.parseRequest({
        ...base,
        attacker: { ...(duel.a as object), track: tA },
        defender: { ...(duel.b as object), track: tB },
      });
      const ba = p.parseRequest({
        ...base,
        attacker: { ...(duel.b as object), track: tB },
        defender: { ...(duel.a as object), track: tA },
      });
      const dice = {
        attack: rollingDice(p.slots(ab), rng)("attack"),
        defense: rollingDice(p.slots(ab), rng)("defense"),
      };
      let toA: unknown = null;
      let toB: unknown = null;
      if (!sa) {
        const r = p.resolve(ab, (id) => (dice as Record<string, number[]>)[id]);
        toB = r.wound;
        if (!sb && r.numbers.relativeDegree < 0)
          toA = p.resolve(ba, (id) => (id === "attack" ? dice.defense : dice.attack)).wound;
      } else if (!sb) toA = p.resolve(ba, (id) => (id === "attack" ? dice.defense : dice.attack)).wound;
      if (sa || sb) {
        tA = healTrack(tA, { type: "endRound" }).track;
        tB = healTrack(tB, { type: "endRound" }).track;
      }
      if (toA) tA = applyWound(tA, toA).track;
      if (toB) tB = applyWound(tB, toB).track;
      if (!trackStatus(tA).canAct) break;
      if (!trackStatus(tB).canAct) {
        bLost++;
        break;
      }
    }
  }
  return bLost / n;
}
