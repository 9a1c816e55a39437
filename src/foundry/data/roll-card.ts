/**
 * ChatMessage `rollCard`: a trait roll (src/system/actions/trait-roll.ts RollCardData): the trait, the
 * wound penalty applied, the recorded dice, the result named on the ladder and its steps.
 */
import { DICE_OPTION_IDS, PRESETS } from "../../rules";
import { bool, choice, int, text } from "./fields";
import { CARD_LIMITS } from "../../system/card-limits";
import { overJson } from "../../system/bounds";

const fields = foundry.data.fields;

export function rollCardSchema() {
  return {
    preset: choice(PRESETS, "fudge"),
    actorId: text(""),
    actorName: text(""),
    traitKey: text(""),
    traitLabelKey: text(""),
    traitName: text(""),
    // Ladder values, or a Volt value (which may exceed 20: Volt: Rolls).
    level: int(0, -200, 200),
    // Fudge §4.57: the worst marked level's penalty (plus any modifier of this roll).
    penalty: int(0, -200, 200),
    // 4dF faces, the black and white d20 of a Volt roll, or the throws of the world's dice option (Fudge §3.22: d% up to 100).
    dice: new fields.ArrayField(
      new fields.NumberField({ required: true, nullable: false, integer: true, min: -1, max: 100 }),
      { required: true, initial: [], max: CARD_LIMITS.faces },
    ),
    // Fudge §3.22: the dice option rolled when other than 4dF ("" = 4dF, or the preset's own dice).
    diceOption: new fields.StringField({ required: true, blank: true, initial: "", choices: ["", ...DICE_OPTION_IDS] }),
    result: int(0, -400, 400),
    resultName: text(""),
    success: bool(false),
    difficulty: int(0, -200, 200),
    steps: new fields.ArrayField(new fields.ObjectField(), { required: true, initial: [], max: CARD_LIMITS.steps }),
    // Fudge §4.51 (world option): the Willpower roll against the wound penalty, 4dF face by face; null when none was made.
    willpowerDice: new fields.ArrayField(
      new fields.NumberField({ required: true, nullable: false, integer: true, min: -1, max: 1 }),
      { required: true, nullable: true, initial: null, max: CARD_LIMITS.faces },
    ),
    // Fudge §3.5: the opponent's side of an opposed roll (src/system/opposed.ts); null: unopposed.
    opposed: new fields.ObjectField({ required: true, nullable: true, initial: null }),
    // Fudge §1.36: a Fudge Point spent on the roll (src/system/fudge-point-spend.ts); null: none.
    fudgePoint: new fields.ObjectField({ required: true, nullable: true, initial: null }),
  };
}

export class RollCardModel extends foundry.abstract.TypeDataModel<
  ReturnType<typeof rollCardSchema>,
  ChatMessage.Implementation
> {
  static readonly type = "rollCard";
  static override defineSchema() {
    return rollCardSchema();
  }

  /** The whole card is bounded (CARD_LIMITS.chars): its steps are free-form records. */
  static override validateJoint(data: Record<string, unknown>) {
    const over = overJson(data, CARD_LIMITS.chars, "roll card");
    if (over) throw new Error(over);
  }
}
