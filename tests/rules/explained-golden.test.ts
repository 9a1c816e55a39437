/**
 * Golden explanations: the unprepared explained resolution (what one chat card runs: parse,
 * `rollingDice`, resolve) must stay byte for byte what it was when this fixture was written —
 * steps (keys, rules, values, params, in order), numbers, dice, wound, track preview and
 * follow-ups — for 800 Fudge requests over every option (fixed fast-check seed, both tracks
 * pre-wounded by earlier exchanges) and the sample duels of every preset. The fixture holds a
 * digest of each case's JSON (tests/fixtures/explained-golden.json); speed work on the resolver
 * must leave every digest unchanged. Regenerate only for a deliberate change of an explanation:
 * `UPDATE_GOLDEN=1 npx vitest run tests/rules/explained-golden.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import { seededRng, RulesError, rollingDice, pipelineFor } from "../../src/rules";
import type { Track } from "../../src/rules";
import { expectGoldenDigests } from "./golden-digests";
import { fighter, fudgeOptions, fudgeRequest, fudgeSituation } from "./fudge-arbitraries";

const FIXTURE = new URL("../fixtures/explained-golden.json", import.meta.url);

/** What a chat card would show for one resolution (or the refusal it would show), as JSON. */
function cardJson(input: Record<string, unknown>, seed: number): string {
  const p = pipelineFor(input.preset);
  try {
    const req = p.parseRequest(input);
    return JSON.stringify(p.resolve(req, rollingDice(p.slots(req), seededRng(seed))));
  } catch (e) {
    if (!(e instanceof RulesError)) throw e;
    return JSON.stringify({ error: e.key, field: e.field, message: e.message, params: e.params });
  }
}

/** A request's defender (and, swapped, attacker) after `n` earlier exchanges, so penalties, stuns and overflow show. */
function woundedBy(input: Record<string, unknown>, n: number, seed: number): Record<string, unknown> {
  let cur = input as Record<string, unknown> & { attacker: { track: Track }; defender: { track: Track } };
  const p = pipelineFor(cur.preset);
  for (let i = 0; i < n; i++) {
    try {
      const req = p.parseRequest(cur);
      const after = p.resolve(req, rollingDice(p.slots(req), seededRng(seed * 31 + i))).defenderAfter;
      if (!after || after.ended) break;
      // Alternate who is wounded: the next exchange's attacker carries this wound.
      cur =
        i % 2 === 0
          ? { ...cur, attacker: { ...cur.defender, track: after.track }, defender: cur.attacker }
          : { ...cur, defender: { ...cur.defender, track: after.track } };
    } catch {
      break;
    }
  }
  return JSON.parse(JSON.stringify(cur));
}

function cases(): Array<{ label: string; json: string }> {
  const out: Array<{ label: string; json: string }> = [];
  const draws = fc.sample(
    fc.tuple(fighter, fighter, fudgeOptions, fudgeSituation, fc.integer({ min: 1, max: 1e6 }), fc.nat(4)),
    { seed: 1010, numRuns: 800 },
  );
  draws.forEach(([a, d, o, s, seed, wounds], i) => {
    const input = woundedBy(fudgeRequest(a, d, o, s), wounds, seed);
    out.push({ label: `fudge #${i} (seed ${seed}, ${wounds} earlier exchanges)`, json: cardJson(input, seed) });
  });
  for (const [preset, x, y] of [
    ["fudge", "Leroy", "Theodora"],
    ["fudge", "Theodora", "Leroy"],
    ["miniatures", "Brutas the Brute", "Yanni the Yeoman"],
    ["miniatures", "King Kingsley", "Knavely Knave"],
    ["fate", "Leroy", "Theodora"],
    ["volt", "Leroy", "Theodora"],
  ] as const) {
    const input = resolveSamples({ preset, attacker: x, defender: y });
    for (let seed = 1; seed <= 40; seed++) {
      const wounded = woundedBy(input, seed % 4, seed);
      out.push({ label: `${preset} ${x} vs ${y} (seed ${seed})`, json: cardJson(wounded, seed) });
    }
  }
  return out;
}

describe("golden explanations of the unprepared explained resolution", () => {
  it("every case's resolution is byte for byte the recorded one", () => {
    const got = cases();
    expectGoldenDigests(
      FIXTURE,
      got.map((c) => ({ label: c.label, text: c.json })),
    );
    // The cases cover what they claim: wounds on the track, refusals, and several outcomes.
    const outcomes = new Set(
      got.map((c) => (JSON.parse(c.json) as { outcome?: string; error?: string }).outcome ?? "error"),
    );
    expect([...outcomes].sort()).toEqual(
      expect.arrayContaining(["error", "miss", "noDamage", "standoff", "wound", "gmJudgement"]),
    );
  });
});
