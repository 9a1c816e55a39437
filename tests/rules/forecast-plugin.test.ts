/**
 * A fifth preset's duel rules, registered here and nowhere in the engine: the forecast plays them
 * (a status signature, a check at the start of a turn, a refusal to strike, flight, a default
 * method) and its answer equals a plain value iteration of the same rules written out below.
 */
import { describe, expect, it } from "vitest";
import {
  fudgeOutcomes,
  rollFudgeDice,
  duelForecast,
  type DuelRules,
  type SideMind,
  type SideMinds,
  registerPreset,
  registerTrackKind,
  trackStatus,
  type Track,
  record,
} from "../../src/rules";
import { hitsTrackKind } from "./toy-track";
import type { AttackPipeline, AttackRequest, DiceSlot } from "../../src/rules";

// A hit costs one level on later rolls.
const hitsTrack = hitsTrackKind("toyHits", 1);
registerTrackKind(hitsTrack);

const die: DiceSlot = {
  id: "attack",
  formula: "1dF",
  labelKey: "attack",
  roll: (rng) => rollFudgeDice(1, rng),
  outcomes: () => fudgeOutcomes(1),
};
// Each side attacks in turn with 1dF: a + hits (1/3); a wounded side fights harder, a 0 hits too (2/3).
const moralePipeline: AttackPipeline<AttackRequest> = {
  preset: "toyMorale" as never,
  exchange: "alternating",
  parseRequest: (input) => {
    const o = record(input, "");
    const side = (k: string) => {
      const c = record(o[k], k);
      const t = record(c.track, `${k}.track`);
      const config = hitsTrack.parseConfig(t.config, `${k}.track.config`);
      return { name: String(c.name), track: { config, state: { hits: 0 } } as unknown as Track };
    };
    return {
      preset: "toyMorale" as never,
      attacker: side("attacker"),
      defender: side("defender"),
      options: {},
      situation: {},
    };
  },
  slots: () => [die],
  resolve: (req, dice) => {
    const die = dice("attack")[0];
    const hit = die === 1 || (die === 0 && trackStatus(req.attacker.track).penalty < 0);
    return {
      preset: req.preset,
      outcome: hit ? "wound" : "miss",
      hit,
      woundKey: hit ? "hit" : null,
      wound: hit ? { n: 1 } : null,
      numbers: {},
      dice: {},
      steps: [],
      defenderAfter: null,
      followUps: [],
    };
  },
};

/**
 * Morale: a side hit (and still standing) rolls 1dF — − it flees, 0 it wavers, + it holds. A
 * wavering side rolls again at the start of its turn: − it flees, else it holds and attacks. Nobody
 * strikes a wavering foe (the turn passes).
 */
type Mind = SideMind & { wavering: boolean };
const mind = (wavering: boolean, fled = false): Mind => ({
  key: fled ? "F" : wavering ? "w" : "",
  fled,
  owesFreeAttack: false,
  wavering,
});
const third = 1 / 3;
const minds: SideMinds<Mind> = {
  start: () => mind(false),
  settle: (_side, m) => m,
  signature: (m) => (m.wavering ? "w" : ""),
  afterChange: (m, change) =>
    change.wounded && change.afterStatus?.canAct
      ? [
          [mind(false, true), third],
          [mind(true), third],
          [mind(false), third],
        ]
      : m,
  checksAtTurnStart: (m) => m.wavering,
  turnStart: () => [
    [mind(false, true), third],
    [mind(false), 2 * third],
  ],
  mayAttack: () => true,
  withoutFreeAttack: (_side, m) => m,
  combatant: (card, track) => ({ ...card, track }),
  freeAttack: (situation) => situation,
  changesOwnTurn: () => false,
  merge: false,
  settled: () => false,
  waitingReads: () => "",
};
const moraleRules: DuelRules<undefined, Mind> = {
  settings: () => undefined,
  duel: () => ({
    // An attack reads only whether its attacker is wounded (not how badly).
    signature: (s) => (s.penalty < 0 ? "w" : ""),
    minds,
    flight: true,
    refusesToStrike: (_attacker, foe) => foe.penalty <= -2,
    // Followed forward unless the chain is asked for.
    defaultMethod: "forward",
  }),
};
registerPreset({ pipeline: moralePipeline, duel: moraleRules });

/** The same duel by value iteration over (hits, mind) of both sides and whose turn. */
function reference(boxesA: number, boxesB: number) {
  type Side = { hits: number; wavering: boolean };
  const key = (a: Side, b: Side, turn: string) =>
    `${a.hits}${a.wavering ? "w" : ""}|${b.hits}${b.wavering ? "w" : ""}|${turn}`;
  const value = new Map<string, { aOut: number; bOut: number; aFled: number; bFled: number; turns: number }>();
  const zero = { aOut: 0, bOut: 0, aFled: 0, bFled: 0, turns: 0 };
  const states: Array<[Side, Side, "a" | "b"]> = [];
  for (let ha = 0; ha < boxesA; ha++)
    for (const wa of [false, true])
      for (let hb = 0; hb < boxesB; hb++)
        for (const wb of [false, true])
          for (const t of ["a", "b"] as const) states.push([{ hits: ha, wavering: wa }, { hits: hb, wavering: wb }, t]);
  const get = (a: Side, b: Side, t: string) => value.get(key(a, b, t)) ?? zero;
  for (let sweep = 0; sweep < 4000; sweep++)
    for (const [a, b, t] of states) {
      const [me, foe, boxes] = t === "a" ? [a, b, boxesB] : [b, a, boxesA];
      const next = t === "a" ? "b" : "a";
      const acc = { aOut: 0, bOut: 0, aFled: 0, bFled: 0, turns: 1 };
      const add = (p: number, v: typeof zero) => {
        acc.aOut += p * v.aOut;
        acc.bOut += p * v.bOut;
        acc.aFled += p * v.aFled;
        acc.bFled += p * v.bFled;
        acc.turns += p * v.turns;
      };
      const fled = (side: "a" | "b") =>
        side === "a" ? { ...zero, aOut: 1, aFled: 1 } : { ...zero, bOut: 1, bFled: 1 };
      const out = (side: "a" | "b") => (side === "a" ? { ...zero, aOut: 1 } : { ...zero, bOut: 1 });
      const pair = (m: Side, f: Side) => (t === "a" ? [m, f] : [f, m]) as [Side, Side];
      const attack = (p: number, m: Side) => {
        if (foe.hits >= 2) return add(p, get(...pair(m, foe), next));
        const hit = m.hits > 0 ? 2 * third : third;
        add(p * (1 - hit), get(...pair(m, foe), next));
        const hits = foe.hits + 1;
        const foeId = t === "a" ? "b" : "a";
        if (hits >= boxes) return add(p * hit, out(foeId));
        add(p * hit * third, fled(foeId));
        add(p * hit * third, get(...pair(m, { hits, wavering: true }), next));
        add(p * hit * third, get(...pair(m, { hits, wavering: false }), next));
      };
      if (me.wavering) {
        add(third, fled(t));
        attack(2 * third, { hits: me.hits, wavering: false });
      } else attack(1, me);
      value.set(key(a, b, t), acc);
    }
  return get({ hits: 0, wavering: false }, { hits: 0, wavering: false }, "a");
}

describe("a fifth preset's duel rules, registered in this file (no edit to the engine)", () => {
  const fighter = (name: string, boxes: number) => ({ name, track: { config: { kind: "toyHits", boxes } } });
  it("are played by the forecast: the chain's answer equals a value iteration of the same rules", () => {
    const f = duelForecast({ preset: "toyMorale", a: fighter("A", 2), b: fighter("B", 3), method: "chain" });
    const r = reference(2, 3);
    expect(f.method).toBe("chain");
    expect(f.exact).toBe(true);
    expect(f.aOut).toBeCloseTo(r.aOut, 12);
    expect(f.bOut).toBeCloseTo(r.bOut, 12);
    expect(f.aFled).toBeCloseTo(r.aFled, 12);
    expect(f.bFled).toBeCloseTo(r.bFled, 12);
    expect(f.expectedExchanges).toBeCloseTo(r.turns / 2, 10);
    expect(f.aOut + f.bOut).toBeCloseTo(1, 12);
    // The rules change the answer: without morale, the side with more boxes wins far more often.
    expect(f.bFled! + f.aFled!).toBeGreaterThan(0.3);
  });
  it("the engine's other methods play the same rules: forward within its bound, the sample within its interval", () => {
    const duel = { preset: "toyMorale", a: fighter("A", 3), b: fighter("B", 2) };
    const exact = duelForecast({ ...duel, method: "chain" });
    const forward = duelForecast(duel);
    expect(forward.method).toBe("forward");
    expect(Math.abs(forward.aOut - exact.aOut)).toBeLessThanOrEqual(forward.errorBound + 1e-12);
    expect(Math.abs(forward.aFled! - exact.aFled!)).toBeLessThanOrEqual(forward.errorBound + 1e-12);
    const sample = duelForecast({ ...duel, method: "sample", samples: 20_000, seed: 3 });
    expect(Math.abs(sample.aOut - exact.aOut)).toBeLessThan(sample.estimate!.halfWidth.aOut);
    expect(Math.abs(sample.bFled! - exact.bFled!)).toBeLessThan(sample.estimate!.halfWidth.bFled!);
  });
});
