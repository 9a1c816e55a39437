/**
 * A stat check of Fudge Miniatures Battles (a Dexterity check to disengage, a Strength check the
 * GM calls for): stat + modifiers + 4dF against a target number, as Fudge §3.4's unopposed roll,
 * with the Miniatures dice — the Legendary re-roll — and a Guts failure by 1's −1 to rolls.
 */
import { step, type Step } from "../explain";
import { facesText } from "../fudge/dice";
import { unopposedOutcome, type UnopposedResult } from "../fudge/unopposed";
import { fstep } from "../fudge/util";
import { DEFAULT_LADDER, type Ladder } from "../ladder";
import { int } from "../validate";
import { gutsRollPenaltyOf, type GutsRules, type GutsState } from "./guts";
import { LEGENDARY_RULE, legendaryTotal } from "./legendary";

export interface StatCheckOptions {
  /** Name levels as signed numbers (a datacard's stat), not on the ladder (a character's trait). */
  numbers?: boolean;
  ladder?: Ladder;
  /** The model's Guts state: a failure by 1 in force is −1 to the roll under `rules.gutsRollPenalty` "allRolls". */
  gutsState?: GutsState;
  rules?: GutsRules;
}

/**
 * @param stat the stat (already lowered by wounds: Miniatures: Wounds — penalties lower the stats)
 * @param faces 4dF, then four more for each Legendary re-roll (Miniatures: Ground rules)
 * @param target what the check must equal or beat
 * @param modifier other modifiers (the roll dialog's)
 */
export function statCheck(
  stat: number,
  faces: unknown,
  target = 0,
  modifier = 0,
  opts: StatCheckOptions = {},
): UnopposedResult & { gutsPenalty: number } {
  int(stat, "trait", -50, 50);
  int(target, "difficulty", -50, 50);
  int(modifier, "penalty", -50, 50);
  // Miniatures: Ground rules — "On an unmodified roll of +4, re-roll, ignoring all [-] results, and add".
  const roll = legendaryTotal(faces, "dice");
  const shown = (faces as number[]).slice(0, 4);
  const dice: Step[] = [fstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", roll.base, { faces: facesText(shown) })];
  if (roll.rerolls.length > 0)
    dice.push(
      step("FUDGE.Miniatures.Step.Legendary", LEGENDARY_RULE, roll.total - roll.base, { rerolls: roll.rerolls.length }),
    );
  // Miniatures: Guts — "1 Model is at a -1 to rolls (Rolls only, not stats)": a stat check is a roll.
  const shaken = gutsRollPenaltyOf(opts.gutsState, opts.rules);
  const modifiers = [
    ...(modifier !== 0 ? [fstep("FUDGE.Step.Fudge.Modifier", "Fudge §3.4", modifier)] : []),
    ...shaken.steps,
  ];
  return {
    ...unopposedOutcome(
      stat,
      roll.total,
      dice,
      target,
      modifiers,
      opts.ladder ?? DEFAULT_LADDER,
      opts.numbers ?? false,
    ),
    gutsPenalty: shaken.penalty,
  };
}
