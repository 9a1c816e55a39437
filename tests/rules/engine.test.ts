/**
 * The generic engine (exact enumeration, odds, duel forecast) on a toy preset whose answers are
 * known in closed form, so the machinery is tested apart from any real preset.
 */
import { describe, expect, it } from "vitest";
import {
  fudgeOutcomes,
  rollFudgeDice,
  seededRng,
  RulesError,
  duelForecast,
  exactOdds,
  monteCarloOdds,
  enumerateDice,
  type AttackPipeline,
  type AttackRequest,
  type DiceSlot,
  type PairedOutcomes,
  registerPipeline,
  resolveAttack,
  registerTrackKind,
  type Track,
  record,
} from "../../src/rules";
import { hitsTrackKind } from "./toy-track";

const toyTrack = hitsTrackKind("toyCount", 0);
registerTrackKind(toyTrack);

const slot = (id: string): DiceSlot => ({
  id,
  formula: "1dF",
  labelKey: id,
  roll: (rng) => rollFudgeDice(1, rng),
  outcomes: () => fudgeOutcomes(1),
});
// Opposed 1dF vs 1dF; the higher die wins and deals one hit.
const toyPipeline: AttackPipeline<AttackRequest> = {
  preset: "toy" as never,
  exchange: "opposed",
  parseRequest: (input) => {
    const o = record(input, "");
    const side = (k: string) => {
      const c = record(o[k], k);
      const t = record(c.track, `${k}.track`);
      const config = toyTrack.parseConfig(t.config, `${k}.track.config`);
      const track = { config, state: t.state ? toyTrack.parseState(config, t.state, `${k}.track.state`) : { hits: 0 } };
      return { name: String(c.name), track: track as unknown as Track };
    };
    return {
      preset: "toy" as never,
      attacker: side("attacker"),
      defender: side("defender"),
      options: {},
      situation: {},
    };
  },
  slots: () => [slot("attack"), slot("defense")],
  resolve: (req, dice) => {
    const rd = dice("attack")[0] - dice("defense")[0];
    const wound = rd > 0 ? { n: 1 } : null;
    return {
      preset: req.preset,
      outcome: rd > 0 ? "wound" : "miss",
      hit: rd > 0,
      woundKey: wound ? "hit" : null,
      wound,
      numbers: { relativeDegree: rd },
      dice: {},
      steps: [],
      defenderAfter: null,
      followUps: [],
    };
  },
};
registerPipeline(toyPipeline);

const fighter = (name: string, boxes: number) => ({ name, track: { config: { kind: "toyCount", boxes } } });

describe("exact enumeration", () => {
  it("visits each dice class once with probabilities summing to 1", () => {
    let total = 0;
    let leaves = 0;
    enumerateDice(
      [slot("a"), slot("b")],
      (d) => d("a")[0] + d("b")[0],
      (_r, p) => {
        total += p;
        leaves++;
      },
    );
    expect(leaves).toBe(9);
    expect(total).toBeCloseTo(1, 15);
  });
  it("never branches on a slot the rule does not read", () => {
    let leaves = 0;
    enumerateDice(
      [slot("a"), slot("b")],
      (d) => (d("a")[0] > 0 ? d("b")[0] : 0),
      () => leaves++,
    );
    expect(leaves).toBe(2 + 3); // a ∈ {−1,0} stop; a = +1 branches on b
  });
  // enumerateDice guesses the first slot read (the first slot, or the paired slots): a rule that
  // reads another first, or none, must be enumerated exactly as without the guess.
  const leavesOf = (
    slots: DiceSlot[],
    f: (d: (id: string) => number[]) => number,
    paired: PairedOutcomes | null = null,
  ) => {
    const out: Array<[number, number]> = [];
    enumerateDice(slots, f, (r, p) => out.push([r, p]), paired);
    return out;
  };
  it("a rule whose first read is not the first slot: the same leaves, order and probabilities", () => {
    const third = 1 / 3;
    // b is read first: b = −1 stops; otherwise a is read.
    expect(leavesOf([slot("a"), slot("b")], (d) => (d("b")[0] < 0 ? -10 : 10 * d("b")[0] + d("a")[0]))).toEqual([
      [-10, third],
      [-1, third * third],
      [0, third * third],
      [1, third * third],
      [9, third * third],
      [10, third * third],
      [11, third * third],
    ]);
  });
  it("a rule that reads no dice: one leaf, certain", () => {
    expect(leavesOf([slot("a"), slot("b")], () => 7)).toEqual([[7, 1]]);
    expect(
      leavesOf([slot("a"), slot("b")], () => 7, {
        slots: ["a", "b"],
        outcomes: [
          { dice: [[1], [0]], p: 0.5 },
          { dice: [[0], [0]], p: 0.5 },
        ],
      }),
    ).toEqual([[7, 1]]);
  });
  it("paired slots read after another slot: the other slot branches first", () => {
    const paired: PairedOutcomes = {
      slots: ["a", "b"],
      outcomes: [
        { dice: [[1], [0]], p: 0.25 },
        { dice: [[0], [0]], p: 0.75 },
      ],
    };
    const c = { ...slot("a"), id: "c" };
    expect(
      leavesOf(
        [slot("a"), slot("b"), c],
        (d) => (d("c")[0] === 0 ? 100 : 10 * d("c")[0] + d("a")[0] - d("b")[0]),
        paired,
      ),
    ).toEqual([
      [-9, (1 / 3) * 0.25],
      [-10, (1 / 3) * 0.75],
      [100, 1 / 3],
      [11, (1 / 3) * 0.25],
      [10, (1 / 3) * 0.75],
    ]);
  });
});

describe("exact odds", () => {
  const req = { preset: "toy", attacker: fighter("A", 2), defender: fighter("B", 2) };
  it("1dF vs 1dF: the attacker wins 3 of 9", () => {
    const o = exactOdds(req);
    expect(o.hit).toBeCloseTo(1 / 3, 14);
    expect(o.outcomes.miss).toBeCloseTo(2 / 3, 14);
    expect(o.residual).toBeCloseTo(0, 14);
  });
  it("agrees with a seeded Monte Carlo within sampling error", () => {
    const n = 20_000;
    const mc = monteCarloOdds(req, n, seededRng(7));
    const p = 1 / 3;
    expect(Math.abs(mc.hit - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n));
  });
  it("resolves from recorded dice and names a missing slot", () => {
    expect(resolveAttack(req, { attack: [1], defense: [0] }).hit).toBe(true);
    expect(() => resolveAttack(req, { attack: [1] })).toThrow(RulesError);
    try {
      resolveAttack(req, { attack: [1] });
    } catch (e) {
      expect((e as RulesError).field).toBe("dice.defense");
    }
  });
});

describe("duel forecast", () => {
  it("is even between equals, one exchange in 2/3 decides", () => {
    const f = duelForecast({ preset: "toy", a: fighter("A", 1), b: fighter("B", 1) });
    expect(f.aOut).toBeCloseTo(0.5, 12);
    expect(f.bOut).toBeCloseTo(0.5, 12);
    expect(f.expectedExchanges).toBeCloseTo(1.5, 12);
    expect(f.stalemate).toBe(0);
  });
  it("favours the tougher side exactly (needs two hits vs one: 3/4)", () => {
    const f = duelForecast({ preset: "toy", a: fighter("A", 2), b: fighter("B", 1) });
    expect(f.bOut).toBeCloseTo(0.75, 12);
    expect(f.aOut).toBeCloseTo(0.25, 12);
    expect(f.aOut + f.bOut).toBeCloseTo(1, 12);
  });
  it("names the side of a bad combatant", () => {
    expect(() =>
      duelForecast({
        preset: "toy",
        a: fighter("A", 1),
        b: { name: "B", track: { config: { kind: "toyCount", boxes: 0 } } },
      }),
    ).toThrow(/b\.track\.config\.boxes/);
  });
});

// A variant whose standoffs heal the defender completely: the chain has cycles, solved by
// Gaussian elimination per strongly connected component.
registerPipeline({
  ...toyPipeline,
  preset: "toyHeal" as never,
  resolve: (req, dice) => {
    const r = toyPipeline.resolve(req, dice);
    const standoff = r.numbers.relativeDegree === 0;
    return {
      ...r,
      followUps: standoff ? [{ type: "reset", target: "defender", params: { healing: "reset" }, steps: [] }] : [],
    };
  },
});

describe("duel forecast with cycles", () => {
  it("stays a distribution and symmetric between equals", () => {
    const f = duelForecast({ preset: "toyHeal", a: fighter("A", 2), b: fighter("B", 2) });
    expect(f.aOut + f.bOut).toBeCloseTo(1, 12);
    expect(f.stalemate).toBe(0);
    expect(f.expectedExchanges).toBeGreaterThan(
      duelForecast({ preset: "toy", a: fighter("A", 2), b: fighter("B", 2) }).expectedExchanges!,
    );
  });
  it("matches power iteration of the same chain", () => {
    // States (hitsA, hitsB) before anyone is out; A attacks: standoff (1/3) resets B.
    const f = duelForecast({ preset: "toyHeal", a: fighter("A", 2), b: fighter("B", 3) });
    let dist = new Map<string, number>([["0,0", 1]]);
    let aOut = 0;
    let bOut = 0;
    for (let k = 0; k < 2000; k++) {
      const next = new Map<string, number>();
      const put = (a: number, b: number, p: number) => {
        if (a >= 2) aOut += p;
        else if (b >= 3) bOut += p;
        else next.set(`${a},${b}`, (next.get(`${a},${b}`) ?? 0) + p);
      };
      for (const [key, p] of dist) {
        const [a, b] = key.split(",").map(Number);
        put(a, b + 1, p / 3);
        put(a + 1, b, p / 3);
        put(a, 0, p / 3);
      }
      dist = next;
    }
    expect(f.bOut).toBeCloseTo(bOut, 10);
    expect(f.aOut).toBeCloseTo(aOut, 10);
  });
});
