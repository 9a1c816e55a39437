/**
 * The Volt roll (Volt 4.0 core rules, outside the wounds seed; RULES.md §5): two d20, one black
 * and one white, against a value. Pure functions of the faces, so every result is reproducible.
 */
import { isFace, type DiceOutcome } from "../dice";
import { at, int, type Path } from "../validate";

export interface VoltDie {
  /** The face rolled, 1–20. */
  face: number;
  /** The face after adding 20 as many times as it still succeeds (values over 20). */
  value: number;
  success: boolean;
}

export interface VoltRollResult {
  /** The value rolled against (after any penalty or modifier). */
  value: number;
  black: VoltDie;
  white: VoltDie;
  /** One successful die is enough. */
  success: boolean;
  /** Success: the highest successful die. Failure: the highest die (rates the failure). */
  result: number;
}

/** One die against a value: ≤ value succeeds; over 20, add 20 while it still succeeds. */
export function voltDie(value: number, face: number): VoltDie {
  let v = face;
  // Volt: Rolls — values over 20: add 20 to a die as many times as it still succeeds.
  while (v <= value && v + 20 <= value) v += 20;
  return { face, value: v, success: v <= value };
}

function checkFace(face: unknown, path: Path): number {
  return int(face, path, 1, 20);
}

/**
 * Roll two d20 (black, white) against `value`. Damage 15, dice 9 and 13 → success 13;
 * value 22, dice 16 and 1 → 16 and 21 → success 21.
 */
export function voltRoll(value: number, black: number, white: number, path: Path = "dice"): VoltRollResult {
  // Checked without building an error path per roll when the numbers are good (every enumerated leaf).
  if (!(Number.isInteger(value) && isFace(black, 20) && isFace(white, 20))) {
    int(value, at(path, "value"));
    checkFace(black, at(path, 0));
    checkFace(white, at(path, 1));
  }
  const b = voltDie(value, black);
  const w = voltDie(value, white);
  const success = b.success || w.success;
  // Volt: Rolls — result is the highest successful die; with no success the highest die rates the failure.
  const result = success ? Math.max(b.success ? b.value : 0, w.success ? w.value : 0) : Math.max(b.face, w.face);
  return { value, black: b, white: w, success, result };
}

export interface VoltRollOutcome extends DiceOutcome {
  /** [black, white] of one representative pair of the class. */
  dice: number[];
  success: boolean;
  result: number;
  /** How many of the 400 pairs give this result. */
  count: number;
}

/**
 * Exact distribution of a roll against `value` over all 400 (black, white) pairs, one class per
 * (success, result), ordered failures first then successes, each by result.
 */
export function voltRollOutcomes(value: number): VoltRollOutcome[] {
  int(value, "value");
  const byKey = new Map<string, VoltRollOutcome>();
  for (let black = 1; black <= 20; black++)
    for (let white = 1; white <= 20; white++) {
      const r = voltRoll(value, black, white);
      const key = `${r.success ? "s" : "f"}${r.result}`;
      const o = byKey.get(key);
      if (o) o.count++;
      else byKey.set(key, { dice: [black, white], success: r.success, result: r.result, count: 1, p: 0 });
    }
  const list = [...byKey.values()];
  for (const o of list) o.p = o.count / 400;
  return list.sort((a, b) => Number(a.success) - Number(b.success) || a.result - b.result);
}

/** P(success) of a roll against `value`, exact. */
export function voltSuccessChance(value: number): number {
  return voltRollOutcomes(value).reduce((s, o) => s + (o.success ? o.p : 0), 0);
}
