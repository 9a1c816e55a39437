/**
 * The attack pipeline of a preset: parse a plain-JSON request, name the dice it may need, and
 * resolve from recorded dice. Resolution reads dice through a DiceReader, one slot at a time,
 * only when a rule needs them (a damage roll only after a hit). The same resolve function
 * serves a live roll (the reader rolls and records), a chat card re-derived from its record
 * (the reader returns the record) and exact odds (the reader branches over every outcome).
 */
import { RulesError } from "./errors";
import type { DiceOutcome, Rng } from "./dice";
import type { Step } from "./explain";
import type { Track, TrackStatus } from "./track";

export const PRESETS = ["fudge", "miniatures", "fate", "volt"] as const;
export type PresetId = (typeof PRESETS)[number];

export interface DiceSlot {
  id: string;
  /** Dice notation as Foundry would roll it: "4dF", "1dF", "3d6", "2d20". */
  formula: string;
  labelKey: string;
  roll(rng: Rng): number[];
  /** Exact outcome classes with probabilities summing to 1 (representative dice per class). */
  outcomes(): DiceOutcome[];
  /**
   * Set when `roll` draws exactly `n` independent dice, one `rng()` call each, as
   * `lowest + floor(rng() * sides)` (nDF: lowest −1, sides 3; nDs: lowest 1): the prepared
   * exchange (exchange.ts) rolls such a slot itself and keys its table by the faces.
   */
  uniform?: { n: number; sides: number; lowest: number };
}

/** Returns the recorded dice of a slot, validated by the caller. */
export type DiceReader = (slotId: string) => number[];

export interface FollowUp {
  /** e.g. "gutsCheck", "clippedConsumed", "stunInjuryRoll". */
  type: string;
  target: "attacker" | "defender";
  params: Record<string, string | number | boolean>;
  steps: Step[];
}

export interface AttackResolution {
  preset: PresetId;
  /** "miss" | "standoff" | "noDamage" | "wound" | "gmJudgement" */
  outcome: string;
  hit: boolean;
  /** Wound level key as dealt (before track placement), null when no wound. */
  woundKey: string | null;
  /** The wound for the defender's track (its kind's wound shape), null when none. */
  wound: unknown;
  /** Numbers the card shows (attackerTotal, defenderTotal, relativeDegree, odf, ddf, damageNumber …). */
  numbers: Record<string, number>;
  /** The dice this resolution read, by slot id. */
  dice: Record<string, number[]>;
  steps: Step[];
  /** The defender's track after the wound, as a preview (Apply re-applies `wound` to the live track). */
  defenderAfter: { track: Track; status: TrackStatus; steps: Step[]; ended: boolean } | null;
  followUps: FollowUp[];
}

export interface Combatant {
  name: string;
  track: Track;
}

export interface AttackRequest<C extends Combatant = Combatant, O = unknown> {
  preset: PresetId;
  attacker: C;
  defender: C;
  /** World rules options (settings). */
  options: O;
  /** This attack only: situational modifier, all-out, cover, range, gang-up … */
  situation: Record<string, unknown>;
}

export interface ResolveOptions {
  /**
   * false: the caller reads only numbers, the wound and the track preview (exact odds, the duel
   * forecast), so a pipeline may skip building `steps`. Default true.
   */
  explain?: boolean;
  /** false: the caller applies the wound itself (the duel forecast), so `defenderAfter` may be null. Default true. */
  preview?: boolean;
}

export interface AttackPipeline<R extends AttackRequest = AttackRequest> {
  preset: PresetId;
  /**
   * How a duel runs: "opposed" (one opposed roll per exchange; the loser is wounded —
   * Fudge, FATE) or "alternating" (each side attacks in turn — Miniatures, Volt).
   */
  exchange: "opposed" | "alternating";
  /**
   * The duel forecast's contract: which tracks' status an attack's dice and wound depend on.
   * "both" (default) or "attacker" (Volt: Guard and armor are fixed, only the attacker's wound
   * penalty moves the roll), which lets the forecast enumerate far fewer status pairs.
   */
  statusReads?: "both" | "attacker";
  /**
   * Duel forecast: what a side that cannot act but is not out of the fight does on its turn, as
   * outcomes for its own track with their probabilities (Miniatures: the Near Death Guts roll).
   * Absent, or null for this request: a side that cannot act is out of the fight.
   */
  ownTurn?(req: R): Array<{ p: number; heal?: unknown; wound?: unknown }> | null;
  /**
   * Exact odds: joint outcome classes of two slots whose resolutions tally alike (outcome, wound,
   * track) within a class — e.g. the two rolls of an opposed exchange, when the result depends
   * on them only through their difference. Null: enumerate each slot's own classes.
   */
  pairedOutcomes?(req: R): PairedOutcomes | null;
  parseRequest(input: unknown): R;
  /**
   * Duel forecast: the same parsed request with only the two tracks replaced (their statuses when
   * the caller has them). A pipeline that prepares work from the rest of a request (Fudge: the
   * damage factors) reuses it instead of computing it again for every pair of tracks.
   */
  withTracks?(req: R, attacker: Track, defender: Track, aStatus?: TrackStatus, dStatus?: TrackStatus): R;
  slots(req: R): DiceSlot[];
  resolve(req: R, dice: DiceReader, opts?: ResolveOptions): AttackResolution;
}

/** Joint outcome classes of two slots (see AttackPipeline.pairedOutcomes). */
export interface PairedOutcomes {
  slots: [string, string];
  outcomes: Array<{ dice: [number[], number[]]; p: number }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const PIPELINES = new Map<string, AttackPipeline<any>>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerPipeline(p: AttackPipeline<any>): void {
  PIPELINES.set(p.preset, p);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function pipelineFor(preset: unknown, path = "preset"): AttackPipeline<any> {
  const p = PIPELINES.get(String(preset));
  if (!p) throw new RulesError(path, "FUDGE.Error.UnknownPreset", `unknown preset ${JSON.stringify(preset)} (known: ${[...PIPELINES.keys()].join(", ")})`);
  return p;
}

/** Reader over recorded dice (a chat card, a CLI request): a missing slot is a named error. */
export function recordedDice(record: Record<string, unknown>, slots: DiceSlot[], path = "dice"): DiceReader {
  const byId = new Map(slots.map((s) => [s.id, s]));
  return (id) => {
    const v = record[id];
    if (v === undefined) {
      const s = byId.get(id);
      throw new RulesError(`${path}.${id}`, "FUDGE.Error.MissingDice", `this resolution needs the ${s?.formula ?? ""} roll "${id}"`.replace("  ", " "), { slot: id });
    }
    if (!Array.isArray(v)) throw new RulesError(`${path}.${id}`, "FUDGE.Error.NotArray", "must be a list of die faces");
    return v as number[];
  };
}

/**
 * Reader that rolls each slot the first time a rule reads it, and records it. A pipeline has a
 * handful of slots: found by a scan (a map per slot list, in a WeakMap, cost a card more than the
 * scan: every fresh request has a fresh slot list).
 */
export function rollingDice(slots: DiceSlot[], rng: Rng, record: Record<string, number[]> = {}): DiceReader {
  return (id) => {
    if (!record[id]) {
      let s: DiceSlot | undefined;
      for (let i = 0; i < slots.length; i++)
        if (slots[i].id === id) {
          s = slots[i];
          break;
        }
      if (!s) throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
      record[id] = s.roll(rng);
    }
    return record[id];
  };
}

/** Parse, then resolve from recorded dice. */
export function resolveAttack(input: unknown, dice: Record<string, unknown>): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, recordedDice(dice, p.slots(req)));
}

/** Parse, then roll what the rules need and resolve. */
export function rollAttack(input: unknown, rng: Rng): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, rollingDice(p.slots(req), rng));
}

class NeedSlot {
  constructor(readonly id: string) {}
}

/**
 * Exact enumeration: calls `f` with a reader once per reachable combination of outcome classes,
 * with the combination's probability. Slots a rule never reads are never branched on. `paired`:
 * the first read of either of its two slots branches over their joint classes instead.
 */
export function enumerateDice<T>(slots: DiceSlot[], f: (dice: DiceReader) => T, visit: (result: T, p: number) => void, paired: PairedOutcomes | null = null): void {
  const byId = new Map(slots.map((s) => [s.id, s]));
  const cache = new Map<string, DiceOutcome[]>();
  const outcomesOf = (id: string): DiceOutcome[] => {
    let o = cache.get(id);
    if (!o) {
      const s = byId.get(id);
      if (!s) throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
      o = s.outcomes();
      cache.set(id, o);
    }
    return o;
  };
  // The slots assigned so far, innermost last (depth-first: assigned on the way down, dropped on the way back).
  const ids: string[] = [];
  const values: number[][] = [];
  const reader: DiceReader = (id) => {
    for (let i = ids.length - 1; i >= 0; i--) if (ids[i] === id) return values[i];
    throw new NeedSlot(id);
  };
  const walk = (p: number): void => {
    let result: T;
    try {
      result = f(reader);
    } catch (e) {
      if (!(e instanceof NeedSlot)) throw e;
      if (paired && (e.id === paired.slots[0] || e.id === paired.slots[1])) {
        for (const o of paired.outcomes) {
          if (o.p === 0) continue;
          ids.push(paired.slots[0], paired.slots[1]);
          values.push(o.dice[0], o.dice[1]);
          walk(p * o.p);
          ids.length -= 2;
          values.length -= 2;
        }
        return;
      }
      for (const o of outcomesOf(e.id)) {
        if (o.p === 0) continue;
        ids.push(e.id);
        values.push(o.dice);
        walk(p * o.p);
        ids.pop();
        values.pop();
      }
      return;
    }
    visit(result, p);
  };
  walk(1);
}
