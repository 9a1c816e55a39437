/**
 * The Legendary roll of Fudge Miniatures Battles: "On an unmodified roll of +4, re-roll,
 * ignoring all [-] results, and add the new results to the total." Open-ended: a re-roll that
 * again shows four + is rolled again (RULES §3).
 *
 * Recorded faces: the first four dice, then four more for each re-roll. A re-roll's − faces are
 * recorded as rolled (−1) and count 0.
 */
import { FOUR_DF_WEIGHTS, facesForTotal, rollFudgeDice, type DiceOutcome, type Rng } from "../dice";
import { RulesError } from "../errors";
import type { DiceSlot } from "../pipeline";
import { array, at, int } from "../validate";

export const LEGENDARY_RULE = "Miniatures: Ground rules";

/** The classes of `legendaryOutcomes` stop where the probability of a higher total is below this. */
export const LEGENDARY_TAIL_EPSILON = 1e-15;

/** Most re-rolls a record may hold (81^-40 is far below any double; a longer record is corrupt). */
export const LEGENDARY_MAX_REROLLS = 40;

const allPlus = (g: number[]): boolean => g.every((f) => f === 1);
const isFudgeFace = (f: unknown): f is number => f === -1 || f === 0 || f === 1;

/**
 * Validates recorded Legendary faces and returns the total: 4dF, plus each re-roll (− as 0)
 * while the previous group was four +.
 */
export function legendaryTotal(faces: unknown, path: string): { total: number; base: number; rerolls: number[] } {
  // The common roll (4dF, not four +) without an error path built per face: every enumerated leaf.
  if (Array.isArray(faces) && faces.length === 4 && faces.every(isFudgeFace) && !allPlus(faces)) {
    const base = 0 + faces[0] + faces[1] + faces[2] + faces[3]; // as the sum below (0 + −0 is 0)
    return { total: base, base, rerolls: [] };
  }
  const list = array(faces, path, 4, 4 * (LEGENDARY_MAX_REROLLS + 1)).map((f, i) => int(f, at(path, i), -1, 1));
  const groups: number[][] = [];
  for (let i = 0; i < list.length; i += 4) groups.push(list.slice(i, i + 4));
  if (groups[groups.length - 1].length !== 4)
    throw new RulesError(
      path,
      "FUDGE.Error.Miniatures.LegendaryFaces",
      "Legendary faces come in groups of four (4dF, then each re-roll)",
      { count: list.length },
    );
  const base = groups[0].reduce((a, b) => a + b, 0);
  const rerolls: number[] = [];
  for (let g = 1; g < groups.length; g++) {
    // Miniatures: only an unmodified +4 (and, open-ended, a re-roll of four +) is rolled again.
    if (!allPlus(groups[g - 1]))
      throw new RulesError(
        at(path, g * 4),
        "FUDGE.Error.Miniatures.LegendaryExtra",
        "a re-roll follows only four + faces",
        { group: g },
      );
    // Miniatures: the re-roll ignores − results.
    rerolls.push(groups[g].reduce((a, f) => a + (f > 0 ? 1 : 0), 0));
  }
  if (allPlus(groups[groups.length - 1]))
    throw new RulesError(
      path,
      "FUDGE.Error.Miniatures.LegendaryMissing",
      "four + faces are rolled again: the re-roll is missing",
      {
        count: list.length,
      },
    );
  return { total: base + rerolls.reduce((a, b) => a + b, 0), base, rerolls };
}

/** Rolls 4dF with the open-ended Legendary re-roll, returning every face. */
export function rollLegendary(rng: Rng): number[] {
  const faces: number[] = rollFudgeDice(4, rng);
  let last = faces.slice();
  while (allPlus(last) && faces.length < 4 * (LEGENDARY_MAX_REROLLS + 1)) {
    last = rollFudgeDice(4, rng);
    faces.push(...last);
  }
  return faces;
}

/** Number of + among four dice that show no −: binomial(4, 1/3) → 16, 32, 24, 8, 1 out of 81. */
const REROLL_WEIGHTS = [16, 32, 24, 8, 1];

/**
 * Exact outcome classes by total. Below +4 the classes are those of 4dF. From +4 up, the total
 * is 4 + the re-rolls, an infinite tail: P(total = 4 + 4m + r) = (1/81)^(m+1) · w(r)/81 for
 * r = 0..3. The classes stop at the first total above which less than LEGENDARY_TAIL_EPSILON of
 * probability remains; that remainder is folded into the last class, so the probabilities sum
 * to exactly 1 (up to rounding) and the highest class stands for "this total or more".
 */
export function legendaryOutcomes(epsilon = LEGENDARY_TAIL_EPSILON): DiceOutcome[] {
  const out: DiceOutcome[] = [];
  for (let t = -4; t <= 3; t++) out.push({ dice: facesForTotal(4, t), p: FOUR_DF_WEIGHTS[t + 4] / 81 });
  // Probability that the total is ≥ 4 + 4m (m full groups of four + in the re-rolls).
  let reach = 1 / 81;
  let prefix: number[] = [1, 1, 1, 1];
  for (let m = 0; ; m++) {
    for (let r = 0; r <= 3; r++) {
      const p = (reach * REROLL_WEIGHTS[r]) / 81;
      const group = [0, 1, 2, 3].map((i) => (i < r ? 1 : 0));
      out.push({ dice: [...prefix, ...group], p });
      // What is left above this total: the rest of this group's classes and all longer chains.
      const above = (reach * REROLL_WEIGHTS.slice(r + 1).reduce((a, b) => a + b, 0)) / 81;
      if (above < epsilon) {
        out[out.length - 1].p += above;
        return out;
      }
    }
    reach /= 81;
    prefix = [...prefix, 1, 1, 1, 1];
  }
}

/** A Legendary 4dF dice slot (with `bonus` added by the rule that reads it, e.g. the crash's +5). */
export function legendarySlot(id: string, labelKey: string): DiceSlot {
  // Not uniform (open-ended): recorded faces are checked as a Legendary roll's, re-rolls and all.
  return {
    id,
    formula: "4dF",
    labelKey,
    roll: rollLegendary,
    outcomes: () => legendaryOutcomes(),
    check: (faces, path) => void legendaryTotal(faces, path),
  };
}
