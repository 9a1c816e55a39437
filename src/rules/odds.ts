/**
 * Exact odds of one attack: every reachable combination of dice outcome classes is resolved by
 * the preset's own pipeline (enumerateDice), weighted by its exact probability, and tallied.
 * No sampling. `monteCarloOdds` is the sampling peer used by tests and the benchmark.
 */
import type { Rng } from "./dice";
import { enumerateDice, pipelineFor, rollingDice, type AttackPipeline, type AttackRequest, type AttackResolution } from "./pipeline";
import { checkJsonShape, int } from "./validate";
import { trackStatus, type Condition, type Track, type TrackStatus } from "./track";

export interface AttackOdds {
  preset: string;
  /** P(hit): the attack landed (it may still do no damage). */
  hit: number;
  /** By resolution outcome: miss, standoff, noDamage, wound, gmJudgement … */
  outcomes: Record<string, number>;
  /** By wound level dealt ("none" when no wound). */
  woundLevels: Record<string, number>;
  /** By the defender's worst track level afterwards ("none" when unhurt). */
  trackResults: Record<string, number>;
  /** By the defender's condition afterwards. */
  conditions: Partial<Record<Condition, number>>;
  /** P(the defender is dead afterwards). */
  death: number;
  /** Probability mass not enumerated (only open-ended dice truncated far out); 0 otherwise. */
  residual: number;
  /** How many dice combinations were resolved. */
  leaves: number;
}

/** Odds tally numbers and wounds, never the explanation. */
const QUIET = { explain: false } as const;

function emptyOdds(preset: string): AttackOdds {
  return { preset, hit: 0, outcomes: {}, woundLevels: {}, trackResults: {}, conditions: {}, death: 0, residual: 0, leaves: 0 };
}

const add = (m: Record<string, number>, k: string, p: number): void => {
  m[k] = (m[k] ?? 0) + p;
};

/**
 * `before`: the defender's status before the attack. A miss (or a blow that does no damage)
 * leaves the defender as he was: his worst level and condition afterwards are those he had, so
 * `trackResults` and `conditions` each sum to 1 (a Hurt defender missed stays Hurt).
 */
function tally(odds: AttackOdds, r: AttackResolution, p: number, before: TrackStatus | null): void {
  odds.leaves++;
  if (r.hit) odds.hit += p;
  add(odds.outcomes, r.outcome, p);
  add(odds.woundLevels, r.woundKey ?? "none", p);
  const status = r.defenderAfter?.status ?? before;
  add(odds.trackResults, status?.levelKey ?? "none", p);
  if (status) {
    add(odds.conditions, status.condition, p);
    if (status.condition === "dead") odds.death += p;
  }
}

function defenderStatus(req: unknown): TrackStatus | null {
  const track = (req as { defender?: { track?: Track } }).defender?.track;
  return track ? trackStatus(track) : null;
}

/** Exact probability of every outcome of the attack described by `input` (a pipeline request). */
export function exactOdds(input: unknown): AttackOdds {
  checkJsonShape(input); // untrusted input (a sheet, a chat card): bounded before anything recursive reads it
  const p = pipelineFor((input as { preset?: unknown })?.preset);
  return exactOddsOf(p, p.parseRequest(input));
}

/**
 * Exact odds of a parsed request. `grouped` (default): where the pipeline names joint classes of
 * two slots (an opposed roll by its difference, `pairedOutcomes`), one resolution per joint class
 * instead of one per pair of classes; false enumerates every class of every slot (the tests
 * check that both agree).
 */
export function exactOddsOf<R extends AttackRequest>(p: AttackPipeline<R>, req: R, grouped = true): AttackOdds {
  const odds = emptyOdds(p.preset);
  const before = defenderStatus(req);
  let total = 0;
  const paired = grouped && p.pairedOutcomes ? p.pairedOutcomes(req) : null;
  enumerateDice(
    p.slots(req),
    (dice) => p.resolve(req, dice, QUIET),
    (r: AttackResolution, prob) => {
      tally(odds, r, prob, before);
      total += prob;
    },
    paired,
  );
  odds.residual = Math.max(0, 1 - total);
  return odds;
}

/** The same tallies from `samples` random rolls (the sampling peer of exactOdds). */
export function monteCarloOdds(input: unknown, samples: number, rng: Rng): AttackOdds {
  const p = pipelineFor((input as { preset?: unknown })?.preset);
  return monteCarloOddsOf(p, p.parseRequest(input), samples, rng);
}

/** Most samples one Monte Carlo call draws (the bench draws 100,000; ≈ 1 µs each). */
export const MONTE_CARLO_MAX_SAMPLES = 10_000_000;

/** Monte Carlo of a parsed request: the same resolver per sample as exactOddsOf per class. */
export function monteCarloOddsOf<R extends AttackRequest>(p: AttackPipeline<R>, req: R, samples: number, rng: Rng): AttackOdds {
  int(samples, "samples", 1, MONTE_CARLO_MAX_SAMPLES); // no call runs unbounded (issue #10): Infinity looped for ever
  const slots = p.slots(req);
  const odds = emptyOdds(p.preset);
  const w = 1 / samples;
  const before = defenderStatus(req);
  for (let i = 0; i < samples; i++) tally(odds, p.resolve(req, rollingDice(slots, rng), QUIET), w, before);
  odds.leaves = samples;
  return odds;
}
