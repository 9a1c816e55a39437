/**
 * Fudge's duel rules for the forecast (src/rules/forecast): the opposed roll's two 4dF folded into
 * the classes of their difference, and the rounds of a stun.
 */
import { fudgeOutcomes, fudgeTotal, type DiceOutcome } from "../dice";
import { diceOptionClasses, diceOptionKey, readDiceOption, type DiceOption } from "../dice-options";
import type { DiceSlot } from "../pipeline";
import type { TrackStatus } from "../track";
import { bool } from "../validate";
import type { DiceFolding, DuelRules, OpposedRound } from "../forecast/rules";
import type { FudgeOptions } from "./options";

/**
 * Fudge §4.5: the opposed roll's two 4dF enter the resolution only through the relative degree
 * (attacker total − defender total), unless an option reads a roll itself (§4.58 critical success:
 * all four dice +; §4.61 even/odd damage roll). Then the 81 pairs of totals fold into 17 classes
 * of their difference, resolved once each with one representative pair.
 */
function differenceFolding(option: DiceOption | null): DiceFolding {
  // Fudge §3.21–3.22: under another dice option, its exact results with a representative throw each.
  const rolls = option === null ? fudgeOutcomes(4) : diceOptionClasses(option);
  const n = option === null ? 4 : option.count;
  const total = (dice: number[]): number =>
    option === null ? fudgeTotal(dice, "dice") : readDiceOption(option, dice)!;
  const byDifference = new Map<number, DiceOutcome>();
  for (const a of rolls)
    for (const d of rolls) {
      const k = total(a.dice) - total(d.dice);
      const e = byDifference.get(k);
      if (e) e.p += a.p * d.p;
      else byDifference.set(k, { dice: [...a.dice, ...d.dice], p: a.p * d.p });
    }
  const outcomes = [...byDifference.values()];
  // Each class's two rolls, split once (frozen: resolutions may keep them), not sliced per read.
  const halves = new Map<number[], [number[], number[]]>();
  const differences = new Map<number[], number>();
  for (const o of outcomes)
    halves.set(o.dice, [
      Object.freeze(o.dice.slice(0, n)) as number[],
      Object.freeze(o.dice.slice(n, 2 * n)) as number[],
    ]);
  for (const [k, o] of byDifference) differences.set(o.dice, k);
  const slot: DiceSlot = {
    id: "pair",
    formula: option === null ? "8dF" : "",
    labelKey: "",
    roll: () => [],
    outcomes: () => outcomes,
  };
  return {
    slots: ["attack", "defense"],
    slot,
    halves: (dice) => halves.get(dice)!,
    difference: (dice) => differences.get(dice)!,
    // Fudge §3.5: with the two 4dF the only dice, the relative degree is their difference plus the request's constant.
    relativeDegreeIsDifference: true,
  };
}
const foldings = new Map<string, DiceFolding>();

function foldingFor(option: DiceOption | null): DiceFolding {
  const key = option === null ? "4dF" : diceOptionKey(option);
  let f = foldings.get(key);
  if (!f) foldings.set(key, (f = differenceFolding(option)));
  return f;
}

/** Fudge §4.62: a Stunned or Very Stunned fighter "cannot attack" — in an opposed round he only defends. */
const stunned = (s: TrackStatus): boolean => s.effects.some((e) => e === "stunned" || e === "veryStunned");
const END_ROUND = { type: "endRound" };

/**
 * A running stun wears off by rounds (Fudge §4.62: one round Stunned, two Very Stunned); an
 * opposed exchange is one round, so both tracks take the round's end before its wound.
 */
function stunRound(first: TrackStatus, second: TrackStatus): OpposedRound {
  const firstStunned = stunned(first);
  const secondStunned = stunned(second);
  return {
    firstStrikes: !firstStunned,
    secondStrikes: !secondStunned,
    roundEnd: firstStunned || secondStunned ? END_ROUND : null,
  };
}

export const fudgeDuelRules: DuelRules<undefined> = {
  fields: ["foldDice"],
  settings: () => undefined,
  duel({ input, attacks }) {
    const options = attacks.a.options as Partial<FudgeOptions> | undefined;
    // `foldDice: false` enumerates all 81 pairs of the two 4dF (the tests compare the two).
    const folds =
      !options?.criticalLetsPointThrough && options?.damageRoll !== "evenOdd" && bool(input.foldDice, "foldDice", true);
    return { folding: folds ? foldingFor(options?.dice ?? null) : null, opposedRound: stunRound };
  },
};
