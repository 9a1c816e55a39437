/**
 * ChatMessage `attackCard`: one attack and, per target, the request sent to the preset's
 * pipeline, the recorded dice, the resolution snapshot and the applied records (for Undo).
 * The card is re-derivable: request + dice → resolution (src/rules/pipeline.ts resolveAttack).
 * Its author writes it, so it is bounded (CARD_LIMITS): the server refuses a card past them.
 */
import { DICE_OPTION_IDS, PRESETS } from "../../rules";
import { defaultAttackCardData } from "../../system/data";
import { choice, text } from "./fields";
import { CARD_LIMITS } from "../../system/card-limits";
import { maxChars, overJson } from "../../system/bounds";

const fields = foundry.data.fields;

const dice = () => new fields.ObjectField({ required: true, nullable: false, initial: {} });
const json = () => new fields.ObjectField({ required: true, nullable: true, initial: null });

function appliedSchema() {
  return new fields.SchemaField({
    userId: text(""),
    at: new fields.NumberField({ required: true, nullable: false, integer: true, initial: 0, min: 0 }),
    // Exact track states before and after the wound; Undo restores `before`.
    before: json(),
    after: json(),
    undone: new fields.BooleanField({ required: true, initial: false }),
    undoneBy: text(""),
    // How the wound was placed (track steps) and whether it ended the fight.
    steps: new fields.ArrayField(new fields.ObjectField(), { required: true, initial: [], max: CARD_LIMITS.steps }),
    ended: new fields.BooleanField({ required: true, initial: false }),
    // Fudge §4.64: a Fudge Point spent to survive; Undo gives it back.
    fudgePointSpent: new fields.BooleanField({ required: true, initial: false }),
  });
}

function targetSchema() {
  return new fields.SchemaField({
    actorId: text(""),
    tokenId: text(""),
    name: text(""),
    defend: choice(["none", "pending", "rolled"] as const, "none"),
    // Fudge: a defence roll is 4dF, recorded face by face (or the world's dice option's throw: d% up to 100).
    defendDice: new fields.ArrayField(
      new fields.NumberField({ required: true, nullable: false, integer: true, min: -1, max: 100 }),
      {
        required: true,
        nullable: true,
        initial: null,
        max: CARD_LIMITS.faces,
      },
    ),
    defendUserId: new fields.StringField({
      required: true,
      nullable: true,
      blank: false,
      initial: null,
      validate: maxChars(CARD_LIMITS.text) as never,
    }),
    // This target's own situation over the card's (Miniatures: the range, gang-up and contact the table measured).
    situation: new fields.ObjectField({ required: true, nullable: false, initial: {} }),
    request: json(),
    dice: dice(),
    resolution: json(),
    applied: new fields.ArrayField(appliedSchema(), { required: true, initial: [], max: CARD_LIMITS.applied }),
    // Apply re-derived the result from the live actors and it differed from what the card showed.
    differs: new fields.BooleanField({ required: true, initial: false }),
    // The defender's own choices for his defence roll, as his Defend recorded them (src/system/defence.ts DefenceShown); shown only.
    defence: json(),
    // GM judgement (Fudge §4.55): the level the GM picked when he applied ("none": no wound; "": no pick).
    gmLevel: text(""),
  });
}

export function attackCardSchema() {
  const D = defaultAttackCardData();
  return {
    preset: choice(PRESETS, D.preset),
    // The user who attacked: may ask a GM to apply to targets they do not own.
    userId: text(D.userId),
    attackerId: text(""),
    attackerName: text(""),
    weaponId: text(""),
    weaponName: text(""),
    situation: new fields.ObjectField({ required: true, nullable: false, initial: {} }),
    attackDice: dice(),
    // Fudge §3.22: the dice option the card's rolls were thrown with ("" = 4dF, or the preset's own dice).
    diceOption: new fields.StringField({ required: true, blank: true, initial: "", choices: ["", ...DICE_OPTION_IDS] }),
    targets: new fields.ArrayField(targetSchema(), { required: true, initial: [], max: CARD_LIMITS.targets }),
  };
}

export class AttackCardModel extends foundry.abstract.TypeDataModel<
  ReturnType<typeof attackCardSchema>,
  ChatMessage.Implementation
> {
  static readonly type = "attackCard";
  static override defineSchema() {
    return attackCardSchema();
  }

  /** The whole card is bounded (CARD_LIMITS.chars): its free-form parts (request, resolution, dice) have no field limits. */
  static override validateJoint(data: Record<string, unknown>) {
    const over = overJson(data, CARD_LIMITS.chars, "attack card");
    if (over) throw new Error(over);
  }
}
