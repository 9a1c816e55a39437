/**
 * The prepared exchange with the full explanation (`runExplained`, src/rules/exchange.ts) must be
 * exactly the unprepared pipeline's explained resolution (parse + `rollingDice` + resolve, steps
 * and all) for every preset and option combination, with the same random source, exchange after
 * exchange — whether the leaf is new or kept, and whether the numbers-only `run` filled it first.
 * What it hands out is deep-frozen: callers share it and cannot change it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import { seededRng, prepareExchange, rollingDice, type AttackResolution, pipelineFor } from "../../src/rules";
import type { Track } from "../../src/rules";
import { fighter, fudgeOptions as options, parsedFudgeRequest, fudgeSituation as situation } from "./fudge-arbitraries";

/** Every object and array reachable from `v` is frozen. */
function deeplyFrozen(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return true;
  if (!Object.isFrozen(v)) return false;
  return Object.values(v).every(deeplyFrozen);
}

/**
 * `exchanges` exchanges from the request's tracks; each seed is resolved three times by the
 * prepared exchange (numbers-only first when `numbersFirst`, then explained twice: new, then
 * kept) and compared with the unprepared explained pipeline on the same track state.
 */
function explainedAgrees(input: Record<string, unknown>, seed: number, exchanges = 5, numbersFirst = false): void {
  const ex = prepareExchange(input);
  const p = pipelineFor(input.preset);
  const base = input as { attacker: Record<string, unknown>; defender: Record<string, unknown> };
  let d = 0;
  let track: Track = ex.track("defender", 0);
  for (let i = 0; i < exchanges; i++) {
    const req = p.parseRequest({ ...input, defender: { ...base.defender, track } });
    const rngFull = seededRng(seed * 97 + i);
    let full: AttackResolution;
    try {
      full = p.resolve(req, rollingDice(p.slots(req), rngFull));
    } catch (e) {
      expect(() => ex.runExplained(0, d, seededRng(seed * 97 + i))).toThrow((e as Error).message);
      return;
    }
    if (numbersFirst) ex.run(0, d, seededRng(seed * 97 + i));
    let first: AttackResolution | null = null;
    for (const pass of [0, 1]) {
      const rng = seededRng(seed * 97 + i);
      const r = ex.runExplained(0, d, rng);
      const where = `seed ${seed}, exchange ${i}, pass ${pass}`;
      expect(r, where).toEqual(full);
      expect(deeplyFrozen(r), where).toBe(true);
      // Same draws as the pipeline's rolling reader: both sources are at the same point afterwards.
      const after = seededRng(seed * 97 + i);
      p.resolve(req, rollingDice(p.slots(req), after), { explain: false });
      expect(rng(), where).toBe(after());
      if (pass === 0) first = r;
      else expect(r, where).toEqual(first);
    }
    const leaf = ex.run(0, d, seededRng(seed * 97 + i));
    d = ex.defenderAfter(leaf);
    track = full.defenderAfter?.track ?? track;
  }
}

describe("prepared exchange with the full explanation = the unprepared explained pipeline", () => {
  it("Fudge: every option combination (steps, numbers, dice, wound, track preview, follow-ups)", () => {
    let tested = 0;
    fc.assert(
      fc.property(
        fighter,
        fighter,
        options,
        situation,
        fc.integer({ min: 1, max: 1e6 }),
        fc.boolean(),
        (a, d, o, s, seed, numbersFirst) => {
          const parsed = parsedFudgeRequest(a, d, o, s);
          if (!parsed) return;
          explainedAgrees(parsed.input, seed, 5, numbersFirst);
          tested++;
        },
      ),
      { numRuns: 300 },
    );
    expect(tested).toBeGreaterThan(200);
  });

  for (const [name, req] of [
    ["Fudge samples", { preset: "fudge", attacker: "Leroy", defender: "Theodora" }],
    [
      "Miniatures (no table: re-derived every time)",
      { preset: "miniatures", attacker: "Brutas the Brute", defender: "Yanni the Yeoman" },
    ],
    ["FATE", { preset: "fate", attacker: "Leroy", defender: "Theodora" }],
    ["Volt", { preset: "volt", attacker: "Leroy", defender: "Theodora" }],
  ] as const) {
    it(name, () => {
      const input = resolveSamples(req) as Record<string, unknown>;
      for (let seed = 1; seed <= 40; seed++) explainedAgrees(input, seed, 6, seed % 2 === 0);
    });
  }

  it("a kept explanation cannot be changed by a caller, and past maxExplained nothing more is kept", () => {
    const input = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" });
    const ex = prepareExchange(input, { maxExplained: 3 });
    const r = ex.runExplained(0, 0, seededRng(1));
    expect(() => (r.steps as unknown[]).push(null)).toThrow();
    expect(() => {
      (r.steps[0] as { value?: number }).value = 99;
    }).toThrow();
    expect(() => {
      (r.numbers as Record<string, number>).relativeDegree = 99;
    }).toThrow();
    expect(ex.runExplained(0, 0, seededRng(1))).toBe(r); // kept: the same frozen object
    // 200 seeds: at most 3 kept; the rest re-derived, still equal to the pipeline and frozen.
    const p = pipelineFor("fudge");
    const req = p.parseRequest(input);
    for (let seed = 2; seed <= 200; seed++) {
      const e = ex.runExplained(0, 0, seededRng(seed));
      expect(e).toEqual(p.resolve(req, rollingDice(p.slots(req), seededRng(seed))));
      expect(deeplyFrozen(e)).toBe(true);
    }
  });
});
