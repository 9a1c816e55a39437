/**
 * Dice slots of the `fudge` preset. Every resolution reads its dice from these slots, so a chat
 * card re-derives from its record and the odds enumerate exact outcome classes.
 */
import { dieValues, fudgeOutcomes, fudgeTotal, rollDie, rollFudgeDice, type DiceOutcome } from "../dice";
import { DICE_OPTION_FORMULAS, diceOptionClasses, readDiceOption, type DiceOption } from "../dice-options";
import { RulesError } from "../errors";
import type { DiceSlot } from "../pipeline";
import type { Path } from "../validate";

/** nDF slot (Fudge §3.2: dice with faces −, −, 0, 0, +, +). */
export function fudgeDiceSlot(id: string, n: number, labelKey: string): DiceSlot {
  return {
    id,
    formula: `${n}dF`,
    labelKey,
    roll: (rng) => rollFudgeDice(n, rng),
    outcomes: () => fudgeOutcomes(n),
    uniform: { n, sides: 3, lowest: -1 },
  };
}

/** Most throws a slot rolls for one result (a table's "roll again" bands are thrown again). */
const MAX_OPTION_THROWS = 1000;

/**
 * A four-Fudge-dice roll thrown with the world's dice option instead (Fudge §3.21–3.22): one Roll
 * of the option's formula per throw, a throw its table rolls again thrown again; the slot records
 * the standing throw (raw faces, read by readDiceOption). Its exact classes are the option's
 * results (only the result enters a rule), each with a representative throw.
 */
export function optionDiceSlot(id: string, option: DiceOption, labelKey: string): DiceSlot {
  const { count, sides } = option;
  const rerolls = option.table?.some((b) => b.result === "reroll") ?? false;
  return {
    id,
    formula: DICE_OPTION_FORMULAS[option.id],
    labelKey,
    roll: (rng) => {
      for (let i = 0; i < MAX_OPTION_THROWS; i++) {
        const faces = Array.from({ length: count }, () => rollDie(sides, rng));
        if (readDiceOption(option, faces) !== null) return faces;
      }
      throw new RulesError(`dice.${id}`, "FUDGE.Error.Dice.NoResult", "a thousand throws gave no result");
    },
    outcomes: () => diceOptionClasses(option).map((c) => ({ dice: c.dice, p: c.p })),
    // A table that rolls again draws an unknown number of dice: not a fixed-size uniform slot.
    ...(rerolls ? {} : { uniform: { n: count, sides, lowest: 1 } }),
    check: (faces, path) => {
      if (readDiceOption(option, faces, path) === null)
        throw new RulesError(
          path,
          "FUDGE.Error.Dice.Unfinished",
          "this throw is rolled again: the roll is not finished",
        );
    },
  };
}

/**
 * Exact outcome classes of n dice with `sides` sides, by sorted values (what Min-Mid-Max reads:
 * only the order statistics matter). Probabilities count the orderings of each multiset.
 */
export function sortedDiceOutcomes(n: number, sides: number): DiceOutcome[] {
  const counts = new Map<string, { dice: number[]; ways: number }>();
  const total = sides ** n;
  for (let i = 0; i < total; i++) {
    const dice: number[] = [];
    let x = i;
    for (let d = 0; d < n; d++) {
      dice.push((x % sides) + 1);
      x = Math.floor(x / sides);
    }
    dice.sort((a, b) => a - b);
    const key = dice.join(",");
    const c = counts.get(key);
    if (c) c.ways++;
    else counts.set(key, { dice, ways: 1 });
  }
  return [...counts.values()].map((c) => ({ dice: c.dice, p: c.ways / total }));
}

/** nDs slot (Fudge §4.63: 3d6 for Min-Mid-Max). */
export function plainDiceSlot(id: string, n: number, sides: number, labelKey: string): DiceSlot {
  return {
    id,
    formula: `${n}d${sides}`,
    labelKey,
    roll: (rng) => Array.from({ length: n }, () => rollDie(sides, rng)),
    outcomes: () => sortedDiceOutcomes(n, sides),
    uniform: { n, sides, lowest: 1 },
  };
}

/** Faces as players read them: "+ + 0 −". */
export function facesText(faces: readonly number[]): string {
  // Up to four faces of −1, 0, +1 (every nDF slot): the text from a table, built once.
  if (faces.length <= 4) {
    let i = FACES_OFFSET[faces.length];
    let ok = true;
    for (let j = 0, w = 1; j < faces.length; j++, w *= 3) {
      const f = faces[j];
      if (f !== -1 && f !== 0 && f !== 1) {
        ok = false;
        break;
      }
      i += (f + 1) * w;
    }
    if (ok) return FACES_TEXT[i];
  }
  return facesTextOf(faces);
}

function facesTextOf(faces: readonly number[]): string {
  let text = "";
  for (let i = 0; i < faces.length; i++)
    text += (i === 0 ? "" : " ") + (faces[i] > 0 ? "+" : faces[i] < 0 ? "\u2212" : "0");
  return text;
}

/** Where the texts of n faces start in FACES_TEXT (n = 0 … 4: 1, 3, 9, 27, 81 texts). */
const FACES_OFFSET = [0, 1, 4, 13, 40];
const FACES_TEXT: readonly string[] = (() => {
  const out: string[] = [];
  for (let n = 0; n <= 4; n++)
    for (let i = 0; i < 3 ** n; i++) {
      const faces: number[] = [];
      for (let j = 0, x = i; j < n; j++, x = Math.floor(x / 3)) faces.push((x % 3) - 1);
      out.push(facesTextOf(faces));
    }
  return out;
})();

/** Validated total of recorded Fudge dice. */
export function readFudgeTotal(faces: unknown, path: Path, n: number): number {
  return fudgeTotal(faces, path, n);
}

/** Validated recorded dN values. */
export function readDieValues(values: unknown, path: Path, n: number, sides: number): number[] {
  return dieValues(values, path, n, sides);
}
