/**
 * The prepared exchange (src/rules/exchange.ts) must be the real rules: for every preset and
 * option combination, the same random source gives the same dice and the same result as the
 * full pipeline (parse + `rollingDice` + resolve) on the same track states — including options
 * that read single dice rather than totals (criticals, even/odd, Min-Mid-Max, the Legendary
 * re-roll) and states reached exchange after exchange.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import {
  seededRng,
  prepareExchange,
  rollingDice,
  pipelineFor,
  newTrack,
  trackStateKey,
  type Track,
} from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";
import { fighter, fudgeOptions as options, parsedFudgeRequest, fudgeSituation as situation } from "./fudge-arbitraries";

/** Runs `exchanges` exchanges from the request's tracks, each against the full pipeline, twice per seed (the second from the table). */
function agreesWithPipeline(input: Record<string, unknown>, seed: number, exchanges = 6): void {
  const ex = prepareExchange(input);
  const p = pipelineFor(input.preset);
  const base = input as { attacker: Record<string, unknown>; defender: Record<string, unknown> };
  let d = 0;
  let track: Track = ex.track("defender", 0);
  for (let i = 0; i < exchanges; i++) {
    for (const pass of [0, 1]) {
      const rngA = seededRng(seed * 97 + i);
      const rngB = seededRng(seed * 97 + i);
      const req = p.parseRequest({ ...input, defender: { ...base.defender, track } });
      const record: Record<string, number[]> = {};
      let full;
      try {
        full = p.resolve(req, rollingDice(p.slots(req), rngB, record), { explain: false });
      } catch (e) {
        expect(() => ex.run(0, d, rngA)).toThrow((e as Error).message);
        return;
      }
      const leaf = ex.run(0, d, rngA);
      const r = ex.resolution(leaf);
      const where = `seed ${seed}, exchange ${i}, pass ${pass}`;
      expect(ex.lastDice(), where).toEqual(full.dice);
      expect(ex.lastDice(), where).toEqual(record);
      expect(
        { outcome: r.outcome, hit: r.hit, woundKey: r.woundKey, wound: r.wound, numbers: r.numbers },
        where,
      ).toEqual({
        outcome: full.outcome,
        hit: full.hit,
        woundKey: full.woundKey,
        wound: full.wound,
        numbers: full.numbers,
      });
      const after = full.defenderAfter?.track ?? track;
      expect(trackStateKey(ex.track("defender", ex.defenderAfter(leaf))), where).toBe(trackStateKey(after));
      // Same draws: both random sources are at the same point afterwards.
      expect(rngA(), where).toBe(rngB());
      if (pass === 1) {
        d = ex.defenderAfter(leaf);
        track = after;
      }
    }
  }
}

describe("prepared exchange = full pipeline, same dice, same track states", () => {
  it("Fudge: every option combination (box and DC tracks, stun, criticals, even/odd, Min-Mid-Max, GM judgement, Willpower rolls)", () => {
    let tested = 0;
    fc.assert(
      fc.property(fighter, fighter, options, situation, fc.integer({ min: 1, max: 1e6 }), (a, d, o, s, seed) => {
        const parsed = parsedFudgeRequest(a, d, o, s);
        if (!parsed) return;
        agreesWithPipeline(parsed.input, seed);
        tested++;
      }),
      { numRuns: 400 },
    );
    expect(tested).toBeGreaterThan(300);
  });

  for (const [name, req] of [
    ["Fudge samples", { preset: "fudge", attacker: "Leroy", defender: "Theodora" }],
    [
      "Miniatures (Legendary re-roll: the pipeline on every exchange)",
      { preset: "miniatures", attacker: "Brutas the Brute", defender: "Yanni the Yeoman" },
    ],
    ["FATE", { preset: "fate", attacker: "Leroy", defender: "Theodora" }],
    ["Volt", { preset: "volt", attacker: "Leroy", defender: "Theodora" }],
  ] as const) {
    it(name, () => {
      const input = resolveSamples(req) as Record<string, unknown>;
      for (let seed = 1; seed <= 60; seed++) agreesWithPipeline(input, seed, 8);
    });
  }

  it("the table fills once per dice and state pair, and the Legendary re-roll never keys a table", () => {
    const ex = prepareExchange(resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }));
    expect(ex.tabled).toBe(true);
    const rng = seededRng(7);
    // 100k exchanges see all 81 × 81 face sequences of the two 4dF (P(one unseen) ≈ 0.002).
    for (let i = 0; i < 100_000; i++) ex.run(0, 0, rng);
    expect(ex.size).toBeLessThanOrEqual(81 * 81);
    const before = ex.size;
    for (let i = 0; i < 10_000; i++) ex.run(0, 0, rng);
    expect(ex.size - before).toBeLessThan(3);
    // A state is interned with its config: an unmarked cinematic track is not the unmarked standard one.
    const cinematic = newTrack(boxTrackConfig("cinematic"));
    const c = ex.state("defender", cinematic);
    expect(c).not.toBe(0);
    expect(ex.state("defender", JSON.parse(JSON.stringify(cinematic)))).toBe(c);
    const p = pipelineFor("fudge");
    const req = p.parseRequest({
      ...resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }),
      defender: { ...ex.request.defender, track: cinematic },
    });
    for (let seed = 1; seed <= 200; seed++) {
      const full = p.resolve(req, rollingDice(p.slots(req), seededRng(seed)), { explain: false });
      const leaf = ex.run(0, c, seededRng(seed));
      expect(ex.resolution(leaf).woundKey).toBe(full.woundKey);
      expect(trackStateKey(ex.track("defender", ex.defenderAfter(leaf)))).toBe(
        trackStateKey(full.defenderAfter?.track ?? cinematic),
      );
    }
    expect(
      prepareExchange(
        resolveSamples({ preset: "miniatures", attacker: "Brutas the Brute", defender: "Yanni the Yeoman" }),
      ).tabled,
    ).toBe(false);
  });
});
