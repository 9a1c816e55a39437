/**
 * Fudge's duel rules for the forecast (src/rules/forecast): the opposed roll's two 4dF folded into
 * the classes of their difference, and the rounds of a stun.
 */
import { fudgeOutcomes, fudgeTotal, type DiceOutcome } from "../dice";
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
function differenceFolding(): DiceFolding {
  const outcomes4 = fudgeOutcomes(4);
  const byDifference = new Map<number, DiceOutcome>();
  for (const a of outcomes4)
    for (const d of outcomes4) {
      const k = fudgeTotal(a.dice, "attack") - fudgeTotal(d.dice, "defense");
      const e = byDifference.get(k);
      if (e) e.p += a.p * d.p;
      else byDifference.set(k, { dice: [...a.dice, ...d.dice], p: a.p * d.p });
    }
  const outcomes = [...byDifference.values()];
  // Each class's two rolls, split once (frozen: resolutions may keep them), not sliced per read.
  const halves = new Map<number[], [number[], number[]]>();
  const differences = new Map<number[], number>();
  for (const o of outcomes)
    halves.set(o.dice, [Object.freeze(o.dice.slice(0, 4)) as number[], Object.freeze(o.dice.slice(4, 8)) as number[]]);
  for (const [k, o] of byDifference) differences.set(o.dice, k);
  const slot: DiceSlot = { id: "pair", formula: "8dF", labelKey: "", roll: () => [], outcomes: () => outcomes };
  return {
    slots: ["attack", "defense"],
    slot,
    halves: (dice) => halves.get(dice)!,
    difference: (dice) => differences.get(dice)!,
    // Fudge §3.5: with the two 4dF the only dice, the relative degree is their difference plus the request's constant.
    relativeDegreeIsDifference: true,
  };
}
let folding: DiceFolding | null = null;

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
    return { folding: folds ? (folding ??= differenceFolding()) : null, opposedRound: stunRound };
  },
};
