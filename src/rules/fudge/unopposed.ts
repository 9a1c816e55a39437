/**
 * Unopposed trait roll (Fudge §3.4): trait + 4dF + modifiers must meet or beat the Difficulty
 * Level (Fair by default). Used by the sheet's trait rolls.
 */
import { signed, type Step } from "../explain";
import { DEFAULT_LADDER, describeLevel, type Ladder } from "../ladder";
import { int } from "../validate";
import { facesText, readFudgeTotal } from "./dice";
import { fstep } from "./util";

export interface UnopposedResult {
  /** Rolled degree: trait + dice + penalty. */
  rolled: number;
  diceTotal: number;
  success: boolean;
  /** Rolled degree − Difficulty Level (≥ 0 on a success). */
  margin: number;
  /** Ladder name of the rolled degree ("Great", "Superb +2"), or the signed number ("+2") for `numbers`. */
  name: string;
  steps: Step[];
}

const RULE = "Fudge §3.4";

/**
 * @param trait the trait level (ladder number)
 * @param faces the four recorded Fudge dice (−1, 0, +1)
 * @param difficulty the Difficulty Level (default Fair = 0)
 * @param penalty wound penalty or other modifier (0 or negative for a wound, Fudge §4.51)
 * @param numbers name levels as signed numbers, not on the ladder (a Miniatures datacard's stat:
 *   the datacard says "Strength +2", and its target numbers are numbers)
 */
export function unopposedRoll(trait: number, faces: readonly number[], difficulty = 0, penalty = 0, ladder: Ladder = DEFAULT_LADDER, numbers = false): UnopposedResult {
  int(trait, "trait", -50, 50);
  int(difficulty, "difficulty", -50, 50);
  int(penalty, "penalty", -50, 50);
  const diceTotal = readFudgeTotal(faces, "dice", 4);
  const rolled = trait + diceTotal + penalty;
  const margin = rolled - difficulty;
  const success = margin >= 0;
  const nameOf = (n: number): string => (numbers ? signed(n) : describeLevel(n, ladder).label);
  const name = nameOf(rolled);
  const steps: Step[] = [
    numbers ? fstep("FUDGE.Step.Fudge.TraitNumber", RULE, trait, { level: signed(trait) }) : fstep("FUDGE.Step.Fudge.Trait", RULE, trait, { level: nameOf(trait) }),
    fstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", diceTotal, { faces: facesText(faces) }),
  ];
  if (penalty !== 0) steps.push(fstep("FUDGE.Step.Fudge.Modifier", RULE, penalty));
  steps.push(
    fstep(success ? "FUDGE.Step.Fudge.Success" : "FUDGE.Step.Fudge.Failure", RULE, margin, {
      rolled: name,
      difficulty: nameOf(difficulty),
    }),
  );
  return { rolled, diceTotal, success, margin, name, steps };
}
