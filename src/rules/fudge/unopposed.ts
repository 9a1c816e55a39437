/**
 * Unopposed trait roll (Fudge §3.4): trait + 4dF + modifiers must meet or beat the Difficulty
 * Level (Fair by default). Used by the sheet's trait rolls.
 */
import { readDiceOption, parseDiceOption } from "../dice-options";
import { RulesError } from "../errors";
import { signed, type Step } from "../explain";
import { DEFAULT_LADDER, describeLevel, type Ladder } from "../ladder";
import { array, at, int } from "../validate";
import { facesText, readFudgeTotal } from "./dice";
import { fstep } from "./util";
import { relievedPenalty, willpowerPainRelief } from "./box-track";

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
export function unopposedRoll(
  trait: number,
  faces: readonly number[],
  difficulty = 0,
  penalty = 0,
  ladder: Ladder = DEFAULT_LADDER,
  numbers = false,
): UnopposedResult {
  int(trait, "trait", -50, 50);
  int(difficulty, "difficulty", -50, 50);
  int(penalty, "penalty", -50, 50);
  const diceTotal = readFudgeTotal(faces, "dice", 4);
  const dice = [fstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", diceTotal, { faces: facesText(faces) })];
  return unopposedOutcome(
    trait,
    diceTotal,
    dice,
    difficulty,
    penalty !== 0 ? [fstep("FUDGE.Step.Fudge.Modifier", RULE, penalty)] : [],
    ladder,
    numbers,
  );
}

/** Most throws one roll records (a table's "roll again" bands are thrown again). */
export const MAX_DICE_THROWS = 20;

/**
 * An Unopposed roll thrown with the world's dice option (Fudge §3.21–3.22: 4dF, d6−d6, 3d6 or d%
 * on a table …). `throws`: every throw recorded, raw dice as the option reads them; all but the
 * last are ones its table rolls again. With 4dF it is `unopposedRoll`, to the step.
 */
export function unopposedRollWithDice(
  dice: unknown,
  trait: number,
  throws: unknown,
  difficulty = 0,
  penalty = 0,
  ladder: Ladder = DEFAULT_LADDER,
): UnopposedResult {
  const option = parseDiceOption(dice);
  const list = array(throws, "throws", 1, MAX_DICE_THROWS);
  if (option.id === "4dF" && list.length === 1)
    return unopposedRoll(trait, list[0] as number[], difficulty, penalty, ladder);
  int(trait, "trait", -50, 50);
  int(difficulty, "difficulty", -50, 50);
  int(penalty, "penalty", -50, 50);
  const results = list.map((t, i) => readDiceOption(option, t, at("throws", i)));
  results.forEach((r, i) => {
    const last = i === results.length - 1;
    if ((r === null) === last)
      throw new RulesError(
        at("throws", i),
        last ? "FUDGE.Error.Dice.Unfinished" : "FUDGE.Error.Dice.NotRerolled",
        last
          ? "this throw is rolled again: the roll is not finished"
          : "only a throw the table rolls again may come before another",
      );
  });
  const diceTotal = results[results.length - 1]!;
  const faces = list.map((t) => (t as number[]).join(" ")).join(" / ");
  const steps = [fstep("FUDGE.Step.Fudge.DiceOption", option.rule, diceTotal, { dice: option.id, faces })];
  return unopposedOutcome(
    trait,
    diceTotal,
    steps,
    difficulty,
    penalty !== 0 ? [fstep("FUDGE.Step.Fudge.Modifier", RULE, penalty)] : [],
    ladder,
  );
}

/**
 * The roll once its dice are read (Fudge §3.4): trait + dice + each modifier's value, against the
 * Difficulty Level. `diceSteps` explain the dice (a Miniatures roll adds its Legendary re-roll),
 * `modifiers` are steps whose values add to the roll (a wound penalty, a Guts failure's −1).
 */
export function unopposedOutcome(
  trait: number,
  diceTotal: number,
  diceSteps: readonly Step[],
  difficulty: number,
  modifiers: readonly Step[],
  ladder: Ladder = DEFAULT_LADDER,
  numbers = false,
): UnopposedResult {
  let rolled = trait + diceTotal;
  for (const m of modifiers) rolled += m.value ?? 0;
  const margin = rolled - difficulty;
  const success = margin >= 0;
  const nameOf = (n: number): string => (numbers ? signed(n) : describeLevel(n, ladder).label);
  const name = nameOf(rolled);
  const steps: Step[] = [
    numbers
      ? fstep("FUDGE.Step.Fudge.TraitNumber", RULE, trait, { level: signed(trait) })
      : fstep("FUDGE.Step.Fudge.Trait", RULE, trait, { level: nameOf(trait) }),
    ...diceSteps,
    ...modifiers,
    fstep(success ? "FUDGE.Step.Fudge.Success" : "FUDGE.Step.Fudge.Failure", RULE, margin, {
      rolled: name,
      difficulty: nameOf(difficulty),
    }),
  ];
  return { rolled, diceTotal, success, margin, name, steps };
}

/**
 * Fudge §4.51 (optional, RULES §2.3): "a Willpower roll against a GM-set Difficulty Level to reduce
 * or cancel a penalty", made before a wounded character's trait or skill roll, as the attack makes
 * it (fudge/pipeline.ts): meeting the Difficulty eases the wound penalty by one, beating it by two
 * cancels it (tracks/box.ts willpowerPainRelief). `faces`: the recorded 4dF of the Willpower roll.
 */
export function willpowerEasedPenalty(
  willpower: number,
  faces: readonly number[],
  difficulty: number,
  penalty: number,
  ladder: Ladder = DEFAULT_LADDER,
): { penalty: number; step: Step } {
  int(willpower, "willpower", -50, 50);
  int(penalty, "penalty", -50, 0);
  const rolled = willpower + readFudgeTotal(faces, "willpowerDice", 4);
  const eased = relievedPenalty(penalty, willpowerPainRelief(Math.max(-20, Math.min(20, rolled)), difficulty));
  const name = (n: number) => describeLevel(n, ladder).label;
  const step = fstep("FUDGE.Step.Fudge.TraitWillpower", "Fudge §4.51", eased - penalty, {
    level: name(willpower),
    faces: facesText(faces),
    rolled: name(rolled),
    difficulty: name(difficulty),
    from: signed(penalty),
    penalty: signed(eased),
  });
  return { penalty: eased, step };
}
