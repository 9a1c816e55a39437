/**
 * Exact odds of one attack: every reachable combination of dice outcome classes is resolved by
 * the preset's own pipeline (enumerateDice), weighted by its exact probability, and tallied.
 * No sampling. `monteCarloOdds` is the sampling peer used by tests and the benchmark.
 */
import type { Rng } from "./dice";
import { enumerateDice, rollingDice, type AttackPipeline, type AttackRequest, type AttackResolution } from "./pipeline";
import { pipelineFor } from "./presets";
import { checkJsonShape, int } from "./validate";
import { healTrack, trackStatus, type Condition, type Track, type TrackStatus } from "./track";

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
  return {
    preset,
    hit: 0,
    outcomes: {},
    woundLevels: {},
    trackResults: {},
    conditions: {},
    death: 0,
    residual: 0,
    leaves: 0,
  };
}

const add = (m: Record<string, number>, k: string, p: number): void => {
  m[k] = (m[k] ?? 0) + p;
};

/**
 * `unwounded`: the defender's status when the attack does not wound him (defenderStatuses). A miss
 * (or a blow that does no damage) leaves the defender as he was, but for the healing the rules ask
 * for: his worst level and condition afterwards are those he had, so `trackResults` and
 * `conditions` each sum to 1 (a Hurt defender missed stays Hurt; a Clipped one is Clipped no more).
 */
function tally(
  odds: AttackOdds,
  r: AttackResolution,
  p: number,
  unwounded: (r: AttackResolution) => TrackStatus | null,
): void {
  odds.leaves++;
  if (r.hit) odds.hit += p;
  add(odds.outcomes, r.outcome, p);
  add(odds.woundLevels, r.woundKey ?? "none", p);
  const status = r.defenderAfter ? r.defenderAfter.status : unwounded(r);
  add(odds.trackResults, status?.levelKey ?? "none", p);
  if (status) {
    add(odds.conditions, status.condition, p);
    if (status.condition === "dead") odds.death += p;
  }
}

/**
 * The defender's status when the attack leaves his track unwounded: as he was, or, when the
 * resolution asks for a healing of his track (a follow-up with `params.healing`), as that leaves
 * him — FATE ladder: a Clipped defender's roll is "that action", and the "box resets after that
 * action" even when the attack misses. One status per healing type, computed once.
 */
function defenderStatuses(req: unknown): (r: AttackResolution) => TrackStatus | null {
  const track = (req as { defender?: { track?: Track } }).defender?.track;
  if (!track) return () => null;
  const before = trackStatus(track);
  const healed = new Map<string, TrackStatus>();
  return (r) => {
    if (r.followUps.length === 0) return before;
    const f = r.followUps.find((x) => x.target === "defender" && typeof x.params.healing === "string");
    if (!f) return before;
    const type = String(f.params.healing);
    let st = healed.get(type);
    if (!st) healed.set(type, (st = trackStatus(healTrack(track, { type }).track)));
    return st;
  };
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
  const unwounded = defenderStatuses(req);
  let total = 0;
  const paired = grouped && p.pairedOutcomes ? p.pairedOutcomes(req) : null;
  enumerateDice(
    p.slots(req),
    (dice) => p.resolve(req, dice, QUIET),
    (r: AttackResolution, prob) => {
      tally(odds, r, prob, unwounded);
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
export function monteCarloOddsOf<R extends AttackRequest>(
  p: AttackPipeline<R>,
  req: R,
  samples: number,
  rng: Rng,
): AttackOdds {
  int(samples, "samples", 1, MONTE_CARLO_MAX_SAMPLES); // no call runs unbounded (issue #10): Infinity looped for ever
  const slots = p.slots(req);
  const odds = emptyOdds(p.preset);
  const w = 1 / samples;
  const unwounded = defenderStatuses(req);
  for (let i = 0; i < samples; i++) tally(odds, p.resolve(req, rollingDice(slots, rng), QUIET), w, unwounded);
  odds.leaves = samples;
  return odds;
}
