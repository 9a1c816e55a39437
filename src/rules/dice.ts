/**
 * Dice. The rules core never rolls inside a resolution: every resolution takes the faces as
 * input, so a chat card can be re-derived from its recorded dice. Rolling happens only in
 * `roll*` helpers that take an explicit random source.
 */
import { RulesError } from "./errors";
import { array, int, type Path, at } from "./validate";

/** A uniform random number in [0, 1). Foundry passes its own; tests pass a seeded one. */
export type Rng = () => number;

/** Small seeded generator (mulberry32) for reproducible tests, demos and Monte Carlo. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FudgeFace = -1 | 0 | 1;

/** A Fudge die has faces −, −, 0, 0, +, + (Fudge §1.4). */
export function rollFudgeDice(n: number, rng: Rng): FudgeFace[] {
  const faces: FudgeFace[] = []; // packed, not holey: copies and spreads of it stay fast
  for (let i = 0; i < n; i++) faces.push((Math.floor(rng() * 3) - 1) as FudgeFace);
  return faces;
}

export function rollDie(sides: number, rng: Rng): number {
  return 1 + Math.floor(rng() * sides);
}

/** Validates recorded Fudge faces (exactly `n` of −1, 0, +1) and returns their total. */
export function fudgeTotal(faces: unknown, path: Path, n = 4): number {
  // Fast path: a well-formed array (every resolution of exact odds and forecasts reads one).
  if (Array.isArray(faces) && faces.length === n) {
    let total = 0;
    let ok = true;
    for (let i = 0; i < n; i++) {
      const f = faces[i];
      if (f !== -1 && f !== 0 && f !== 1) {
        ok = false;
        break;
      }
      total += f;
    }
    if (ok) return total;
  }
  const list = array(faces, path, n, n);
  let total = 0;
  list.forEach((f, i) => {
    total += int(f, at(path, i), -1, 1);
  });
  return total;
}

/** Validates recorded dN results. */
export function dieValues(values: unknown, path: Path, n: number, sides: number): number[] {
  // Good dice (every enumerated leaf) pass without building an error path per die.
  if (Array.isArray(values) && values.length === n) {
    let good = true;
    for (let i = 0; i < n && good; i++) good = isFace(values[i], sides);
    if (good) return values.slice() as number[];
  }
  return array(values, path, n, n).map((v, i) => int(v, at(path, i), 1, sides));
}

/** A whole number from 1 to `sides` (what `int(v, path, 1, sides)` accepts). */
export const isFace = (v: unknown, sides: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= sides;

/** Most Fudge dice `fudgeWeights` adds up (the rules roll four; 3^100 is still a finite weight). */
export const MAX_FUDGE_DICE = 100;

/** Weights of each total of n Fudge dice, from −n to +n (denominator 3^n). */
export function fudgeWeights(n: number): number[] {
  int(n, "n", 0, MAX_FUDGE_DICE); // a whole number of dice, and few enough to stay quick and finite
  let w = [1];
  for (let d = 0; d < n; d++) {
    const next = new Array<number>(w.length + 2).fill(0);
    w.forEach((x, i) => {
      next[i] += x;
      next[i + 1] += x;
      next[i + 2] += x;
    });
    w = next;
  }
  return w;
}

/** 4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81 for −4..+4. */
export const FOUR_DF_WEIGHTS: readonly number[] = fudgeWeights(4);

/** Canonical faces that sum to `total` (used to name an outcome class in exact enumeration). */
export function facesForTotal(n: number, total: number): FudgeFace[] {
  if (!Number.isInteger(total) || Math.abs(total) > n)
    throw new RulesError("total", "FUDGE.Error.OutOfRange", `a total of ${total} is impossible on ${n}dF`);
  const faces: FudgeFace[] = [];
  const sign = (total > 0 ? 1 : -1) as FudgeFace;
  for (let i = 0; i < n; i++) faces.push(i < Math.abs(total) ? sign : 0);
  return faces;
}

/** One outcome class of a dice slot: representative dice and its exact probability. */
export interface DiceOutcome {
  dice: number[];
  p: number;
}

/** Exact outcome classes of nDF by total. */
export function fudgeOutcomes(n: number): DiceOutcome[] {
  const w = fudgeWeights(n);
  const denom = 3 ** n;
  return w.map((x, i) => ({ dice: facesForTotal(n, i - n), p: x / denom }));
}
