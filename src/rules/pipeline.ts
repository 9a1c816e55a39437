/**
 * The attack pipeline of a preset: parse a plain-JSON request, name the dice it may need, and
 * resolve from recorded dice. Resolution reads dice through a DiceReader, one slot at a time,
 * only when a rule needs them (a damage roll only after a hit). The same resolve function
 * serves a live roll (the reader rolls and records), a chat card re-derived from its record
 * (the reader returns the record) and exact odds (the reader branches over every outcome).
 */
import { RulesError } from "./errors";
import { array, at, int, isRecord } from "./validate";
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
  /**
   * Checks recorded faces of this slot (count and range), throwing a RulesError naming `path`.
   * Absent: the faces of `uniform` (n dice, each lowest … lowest + sides − 1). A slot that is
   * neither (the Miniatures Legendary re-roll) gives its own.
   */
  check?(faces: unknown, path: string): void;
}

/**
 * Checks a slot's recorded faces as its dice can show them: its own `check`, else `uniform`'s
 * count and range. A slot with neither takes any list (a test pipeline's stand-in slot).
 */
export function checkSlotFaces(slot: DiceSlot, faces: unknown, path: string): void {
  if (slot.check) return slot.check(faces, path);
  if (!slot.uniform) {
    array(faces, path);
    return;
  }
  const { n, sides, lowest } = slot.uniform;
  const list = array(faces, path, n, n);
  for (let i = 0; i < n; i++) {
    const f = list[i];
    if (typeof f !== "number" || !Number.isInteger(f) || f < lowest || f >= lowest + sides)
      int(f, at(path, i), lowest, lowest + sides - 1);
  }
}

/**
 * Checks every recorded slot before any is read (a chat card's or a CLI request's dice are a
 * claim): each must be a slot this request's pipeline can roll — a misspelt `damge` is refused
 * by name, not ignored — and show faces its dice can show, whether or not this resolution reads
 * it (a hit's damage dice recorded with a miss are still the damage roll's). A slot the request
 * can roll but this resolution does not read (Volt `injuryDamage` on a hit that is not a Stun
 * hit, damage dice with a miss) stays accepted: a chat card rolls them before it knows.
 */
export function checkRecordedDice(
  record: unknown,
  slots: DiceSlot[],
  path = "dice",
): asserts record is Record<string, unknown> {
  if (!isRecord(record))
    throw new RulesError(path, "FUDGE.Error.NotObject", "must be an object of recorded dice by slot");
  for (const id of Object.keys(record)) {
    let slot: DiceSlot | undefined;
    for (let i = 0; i < slots.length; i++)
      if (slots[i].id === id) {
        slot = slots[i];
        break;
      }
    const field = `${path}.${id.length > 40 ? `${id.slice(0, 40)}…` : id}`;
    const known = slots.map((s) => s.id).join(", ");
    if (!slot)
      throw new RulesError(
        field,
        "FUDGE.Error.UnknownDiceSlot",
        `this attack rolls no dice "${id.slice(0, 40)}" (it rolls ${known})`,
        { known },
      );
    checkSlotFaces(slot, record[id], field);
  }
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

/** The parts every outcome of one resolution shares. */
export interface ResolutionBase {
  preset: PresetId;
  numbers: Record<string, number>;
  dice: Record<string, number[]>;
  steps: Step[];
  followUps: FollowUp[];
}

/**
 * A resolution from its shared parts and its outcome, its fields in the order a card stores them.
 * Built field by field: in V8 `{ ...base, outcome, … }` cost ≈ 5 µs a resolution, most of a
 * forecast enumeration's leaf (measured on the Volt pipeline, issue 34).
 */
export function resolution(
  base: ResolutionBase,
  outcome: string,
  hit: boolean,
  woundKey: string | null,
  wound: unknown,
  defenderAfter: AttackResolution["defenderAfter"],
): AttackResolution {
  return {
    preset: base.preset,
    numbers: base.numbers,
    dice: base.dice,
    steps: base.steps,
    followUps: base.followUps,
    outcome,
    hit,
    woundKey,
    wound,
    defenderAfter,
  };
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
   * Exact odds: joint outcome classes of two slots whose resolutions tally alike (outcome, wound,
   * track) within a class — e.g. the two rolls of an opposed exchange, when the result depends
   * on them only through their difference. Null: enumerate each slot's own classes.
   */
  pairedOutcomes?(req: R): PairedOutcomes | null;
  parseRequest(input: unknown): R;
  /**
   * The attacker's own refusals: those that need no die and nothing the defender decides at
   * Defend (Fudge §4.57 Incapacitated, §4.62 stunned; FATE: Taken Out; Miniatures, which has no
   * Defend: every rule of the attack, contact and Chivalrous among them). Throws the RulesError.
   * `resolve` makes this same check first (one place for each rule); src/system planAttack
   * calls it before any die is rolled, so an opposed attack, whose card waits for the defender,
   * is refused when it is made rather than at Defend. Absent: the attacker is never refused so.
   */
  checkAttacker?(req: R): void;
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

/**
 * Reader over recorded dice (a chat card, a CLI request): every recorded slot is checked first
 * (checkRecordedDice); a missing slot is a named error when a rule reads it.
 */
export function recordedDice(record: Record<string, unknown>, slots: DiceSlot[], path = "dice"): DiceReader {
  // Recorded dice come from a chat card's data, a claim like any other (null, a list, a misspelt slot …).
  checkRecordedDice(record, slots, path);
  const byId = new Map(slots.map((s) => [s.id, s]));
  return (id) => {
    const v = record[id];
    if (v === undefined) {
      const s = byId.get(id);
      throw new RulesError(
        `${path}.${id}`,
        "FUDGE.Error.MissingDice",
        `this resolution needs the ${s?.formula ?? ""} roll "${id}"`.replace("  ", " "),
        { slot: id },
      );
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

class NeedSlot {
  constructor(readonly id: string) {}
}

/**
 * Exact enumeration: calls `f` with a reader once per reachable combination of outcome classes,
 * with the combination's probability. Slots a rule never reads are never branched on. `paired`:
 * the first read of either of its two slots branches over their joint classes instead.
 *
 * A slot is discovered when `f` reads it unassigned (NeedSlot, thrown and caught): then `f` runs
 * again once per class. The first slot `f` reads comes before any die is known, so it is the same
 * on every path; it is guessed (the paired slots, else the first slot) and assigned up front,
 * which saves the call that would only discover it. A wrong guess is seen at that first read,
 * before anything is visited, and the enumeration goes on exactly as if it had not guessed: the
 * same calls, visits and probability products, in the same order (tests/rules/enumeration-golden).
 */
export function enumerateDice<T>(
  slots: DiceSlot[],
  f: (dice: DiceReader) => T,
  visit: (result: T, p: number) => void,
  paired: PairedOutcomes | null = null,
): void {
  const cache: Array<DiceOutcome[] | undefined> = [];
  const outcomesOf = (id: string): DiceOutcome[] => {
    for (let i = 0; i < slots.length; i++) if (slots[i].id === id) return (cache[i] ??= slots[i].outcomes());
    throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
  };
  // The slots assigned so far, innermost last (depth-first: assigned on the way down, dropped on the way back).
  const ids: string[] = [];
  const values: number[][] = [];
  let depth = 0;
  // Set for the first call only: its first read must be a guessed slot.
  let checkFirst = false;
  let wrongGuess = false;
  const guessA = paired ? paired.slots[0] : slots.length > 0 ? slots[0].id : "";
  const guessB = paired ? paired.slots[1] : guessA;
  const reader: DiceReader = (id) => {
    if (checkFirst) {
      checkFirst = false;
      if (id !== guessA && id !== guessB) {
        wrongGuess = true;
        throw new NeedSlot(id);
      }
    }
    for (let i = depth - 1; i >= 0; i--) if (ids[i] === id) return values[i];
    throw new NeedSlot(id);
  };
  const isPaired = (id: string): boolean => paired !== null && (id === paired.slots[0] || id === paired.slots[1]);
  /** Branches over the classes of slot `id` (or the paired slots' joint classes), from probability `p`. */
  const branch = (id: string, p: number): void => {
    const d = depth;
    if (paired && isPaired(id)) {
      for (const o of paired.outcomes) {
        if (o.p === 0) continue;
        ids[d] = paired.slots[0];
        values[d] = o.dice[0];
        ids[d + 1] = paired.slots[1];
        values[d + 1] = o.dice[1];
        depth = d + 2;
        walk(p * o.p);
      }
    } else {
      for (const o of outcomesOf(id)) {
        if (o.p === 0) continue;
        ids[d] = id;
        values[d] = o.dice;
        depth = d + 1;
        walk(p * o.p);
      }
    }
    depth = d;
  };
  const walk = (p: number): void => {
    let result: T;
    try {
      result = f(reader);
    } catch (e) {
      if (!(e instanceof NeedSlot)) throw e;
      branch(e.id, p);
      return;
    }
    visit(result, p);
  };
  if (guessA === "") return walk(1);
  // The guessed first slot's classes, in the order branch() takes them.
  const guessed: Array<{ dice: number[] | [number[], number[]]; p: number }> = paired
    ? paired.outcomes
    : outcomesOf(guessA);
  const assignGuess = (dice: number[] | [number[], number[]]): void => {
    if (paired) {
      ids[0] = guessA;
      values[0] = (dice as [number[], number[]])[0];
      ids[1] = guessB;
      values[1] = (dice as [number[], number[]])[1];
      depth = 2;
    } else {
      ids[0] = guessA;
      values[0] = dice as number[];
      depth = 1;
    }
  };
  let k = 0;
  while (k < guessed.length && guessed[k].p === 0) k++;
  if (k === guessed.length) return;
  // The first call, with the first class assigned: its first read tells whether the guess was right.
  const o = guessed[k];
  assignGuess(o.dice);
  checkFirst = true;
  try {
    const result = f(reader);
    if (checkFirst) {
      // f read no dice at all: one combination, certain.
      checkFirst = false;
      depth = 0;
      return visit(result, 1);
    }
    visit(result, 1 * o.p);
  } catch (e) {
    checkFirst = false;
    if (!(e instanceof NeedSlot)) throw e;
    // A wrong guess: go on from what the first call without a guess would have found.
    if (wrongGuess) return ((depth = 0), branch(e.id, 1));
    branch(e.id, 1 * o.p);
  }
  // The rest of the guessed classes.
  for (k++; k < guessed.length; k++) {
    const q = guessed[k];
    if (q.p === 0) continue;
    assignGuess(q.dice);
    walk(1 * q.p);
  }
  depth = 0;
}
