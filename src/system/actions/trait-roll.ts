/** Trait rolls: a roll card's data, the Willpower roll that eases a wound penalty. */
import { attributeLabelKey, attributeLevel } from "../attributes";
import {
  DICE_OPTION_IDS,
  RulesError,
  isRulesError,
  type DiceOptionId,
  type Step,
  penaltyFor,
  trackStatus,
  unopposedChance,
} from "../../rules";
import { unopposedRoll, unopposedRollWithDice } from "../../rules/fudge";
import { statCheck, parseGutsState } from "../../rules/miniatures";
import { voltRoll } from "../../rules/volt";
import {
  usesDiceOption,
  type ActorDoc,
  type CharacterData,
  type ItemDoc,
  type MiniatureData,
  type SkillData,
  type WorldRules,
} from "../data";
import { actorRef, findItem } from "../combatant";
import { isDatacardStat, ladderOf } from "../view";
import { UserRef, allowed, refuseUnless, type Check } from "../permissions";
import { liveTrack } from "./wound-track";
import { willpowerEase } from "./attack-card";
import { gutsRules } from "./miniature-guts";
import type { RollCardFudgePoint } from "../fudge-point-spend";

/** An opposed roll's (src/system/opposed.ts) opponent side of an opposed roll card: pending (no dice) until he rolls. */
export interface OpposedSide {
  actorId: string;
  actorName: string;
  traitKey: string;
  traitLabelKey: string;
  traitName: string;
  level: number;
  /** His roll (4dF, a Legendary re-roll after it in Miniatures); null while he has not rolled. */
  dice: number[] | null;
  penalty: number;
  result: number;
  resultName: string;
  /** Who rolled it ("" while pending). */
  by: string;
}

export interface RollCardData {
  actorId: string;
  actorName: string;
  traitKey: string;
  /** i18n key of the trait (attributes), or "" with `traitName` for a skill. */
  traitLabelKey: string;
  traitName: string;
  level: number;
  penalty: number;
  dice: number[];
  /** Fudge/FATE/Miniatures: rolled degree; Volt: the result die. */
  result: number;
  resultName: string;
  success: boolean;
  difficulty: number;
  steps: Step[];
  preset: string;
  /**
   * Fudge §4.51 (RULES §2.3, world option "Willpower against penalties"): the four Fudge dice of
   * the Willpower roll made before this roll to ease its wound penalty; absent (null once stored) when none was made.
   */
  willpowerDice?: number[] | null;
  /** Fudge §3.22: the world's dice when other than 4dF (src/rules/dice-options.ts); `dice` then holds every throw's faces in order. */
  diceOption?: DiceOptionId;
  /** An opposed roll (Fudge §3.5): the opponent's side (src/system/opposed.ts), pending until he rolls; absent or null: unopposed. */
  opposed?: OpposedSide | null;
  /** Fudge §1.36: a Fudge Point spent to alter the result one level (src/system/fudge-point-spend.ts); absent or null: none. */
  fudgePoint?: RollCardFudgePoint | null;
}

/** The dice a trait roll uses (Fudge §3.21–3.22, a world setting): another than 4dF only for a Fudge or FATE world's ladder traits. */
export function traitDiceOption(traitKey: string, rules: WorldRules): DiceOptionId | null {
  if (!usesDiceOption(rules.preset) || traitKey.startsWith("volt.")) return null;
  return rules.dice !== "4dF" && (DICE_OPTION_IDS as readonly string[]).includes(rules.dice) ? rules.dice : null;
}

/**
 * Fudge §4.51 (RULES §1: wound penalties apply to every roll; §2.3: "Optional Willpower roll
 * against a GM-set Difficulty Level to reduce or cancel a penalty"): a Fudge character's trait
 * roll makes the Willpower roll first when the world's option is on and the roll has a wound
 * penalty — as an attack does for each side (src/rules/fudge/pipeline.ts easedPenalty).
 */
export function traitWillpowerNeeded(actor: ActorDoc, traitKey: string, rules: WorldRules, inCombat = false): boolean {
  if (rules.preset !== "fudge" || !rules.fudgeTrack.willpowerVsPenalty) return false;
  if (actor.type === "miniature" || traitKey.startsWith("volt.")) return false;
  return penaltyFor(trackStatus(liveTrack(actor, rules)), inCombat) < 0;
}

/**
 * The exact chance a trait roll succeeds (Fudge §3.4: the result meets the Difficulty Level), under
 * the world's dice (§3.21–3.22, src/rules/dice-options.ts unopposedChance) with the wound penalty
 * (§4.51) and the modifier as the roll would take them (before any Willpower roll). Null where the
 * roll is not a ladder roll against a Difficulty (Volt's 2d20, a Miniatures Legendary roll).
 */
export function traitRollChance(
  actor: ActorDoc,
  traitKey: string,
  rules: WorldRules,
  opts: { difficulty?: number; modifier?: number; inCombat?: boolean } = {},
): { chance: number; percent: string; dice: DiceOptionId } | null {
  if (rules.preset === "miniatures" || rules.preset === "volt" || traitKey.startsWith("volt.")) return null;
  const t = traitLevel(actor, traitKey, rules);
  const penalty = penaltyFor(trackStatus(liveTrack(actor, rules)), opts.inCombat ?? false) + (opts.modifier ?? 0);
  const dice = traitDiceOption(traitKey, rules) ?? "4dF";
  const chance = unopposedChance(dice, t.level + penalty, opts.difficulty ?? rules.defaultDifficulty);
  return { chance, percent: (Math.round(chance * 1000) / 10).toFixed(1), dice };
}

/** The trait a key names on this actor: its level and its name (an attribute's lang key, or a skill's own name). */
export function traitLevel(
  actor: ActorDoc,
  traitKey: string,
  rules: WorldRules,
): { level: number; labelKey: string; name: string } {
  const path = "traitKey";
  if (traitKey.startsWith("skill:")) {
    const it = findItem(actor, traitKey.slice(6), path) as ItemDoc;
    if (it.type !== "skill")
      throw new RulesError(path, "FUDGE.Error.NotASkill", `${it.name} is not a skill`, { name: it.name });
    return { level: (it.system as SkillData).level, labelKey: "", name: it.name };
  }
  const [group, key] = traitKey.includes(".") ? traitKey.split(".") : ["", traitKey];
  if (actor.type === "miniature") {
    const d = actor.system as MiniatureData;
    if (group === "" && (key === "strength" || key === "dexterity" || key === "guts"))
      return { level: d[key], labelKey: `FUDGE.Attribute.${key}`, name: "" };
  } else {
    const d = actor.system as CharacterData;
    // Any attribute of the world's set (Fudge §1.31), by its key.
    const attr = group === "attributes" ? rules.attributeSet.attributes.find((a) => a.key === key) : undefined;
    if (attr) return { level: attributeLevel(d.attributes, key), labelKey: attributeLabelKey(attr), name: attr.name };
    if (group === "volt" && (key === "willpower" || key === "strength"))
      return { level: d.volt[key], labelKey: `FUDGE.Volt.Attribute.${key}`, name: "" };
  }
  throw new RulesError(path, "FUDGE.Error.UnknownTrait", `no trait ${JSON.stringify(traitKey)} on ${actor.name}`, {
    trait: traitKey,
  });
}

/**
 * May `user` roll this trait of this actor (the sheet's die buttons, before the dialog and before
 * any die)? Permission, the trait on the actor, and an actor who can act (Fudge §4.57).
 */
export function canRollTrait(actor: ActorDoc, traitKey: string, rules: WorldRules, user?: UserRef): Check {
  const denied = allowed("rollTrait", user, actor);
  if (denied) return denied;
  try {
    traitLevel(actor, traitKey, rules);
    if (!trackStatus(liveTrack(actor, rules)).canAct)
      return new RulesError("actor", "FUDGE.Error.CannotAct", `${actor.name} cannot act`, { name: actor.name });
  } catch (e) {
    if (isRulesError(e)) return e;
    throw e;
  }
  return null;
}

/**
 * Rolls a trait with the wound penalty applied, the result named on the ladder (Fudge §3.4,
 * §4.51). Volt traits roll 2d20 against the value minus the penalty (Volt: Rolls). Miniatures:
 * penalties lower the stat itself (Miniatures: Wounds), which is the same number here.
 * `faces`: four Fudge dice (in a Miniatures world, with each Legendary re-roll's four after them:
 * Miniatures: Ground rules), or [black, white] for Volt. `inCombat`: the actor is in a started combat
 * (a level's after-combat penalty applies outside it, Fudge §4.51); absent = not in combat.
 */
export function rollTrait(
  actor: ActorDoc,
  traitKey: string,
  faces: number[],
  rules: WorldRules,
  opts: {
    difficulty?: number;
    modifier?: number;
    user?: UserRef;
    inCombat?: boolean;
    willpowerDice?: number[];
    /** The world's dice option's throws (traitDiceOption): read by the rules core in place of 4dF `faces`. */
    throws?: number[][];
  } = {},
): RollCardData {
  refuseUnless(canRollTrait(actor, traitKey, rules, opts.user));
  const t = traitLevel(actor, traitKey, rules);
  const status = trackStatus(liveTrack(actor, rules));
  // Fudge §4.51 Light Wound: "no penalty during combat … but after combat … -1" (not in a started combat: after).
  let wound = penaltyFor(status, opts.inCombat ?? false);
  const difficulty = opts.difficulty ?? rules.defaultDifficulty;
  // Fudge §4.51 (RULES §2.3): the world's Willpower roll against the wound penalty, made first.
  const will = traitWillpowerNeeded(actor, traitKey, rules, opts.inCombat ?? false)
    ? willpowerEase(actor, wound, opts.willpowerDice, rules)
    : null;
  if (will) wound = will.penalty;
  const penalty = wound + (opts.modifier ?? 0);
  const base = {
    actorId: actorRef(actor),
    actorName: actor.name,
    traitKey,
    traitLabelKey: t.labelKey,
    traitName: t.name,
    level: t.level,
    penalty,
    dice: [...faces],
    difficulty,
    preset: rules.preset,
    ...(will ? { willpowerDice: will.dice } : {}),
  };
  if (traitKey.startsWith("volt.")) {
    if (!Array.isArray(faces) || faces.length !== 2)
      throw new RulesError("dice", "FUDGE.Error.BadLength", "a Volt roll needs two d20 (black, white)", {
        min: 2,
        max: 2,
      });
    const r = voltRoll(t.level + penalty, faces[0], faces[1]);
    return { ...base, result: r.result, resultName: String(r.result), success: r.success, steps: [] };
  }
  const ladder = ladderOf(rules);
  // Miniatures: a datacard's stat rolls in numbers, as the datacard shows it.
  const numbers = isDatacardStat(traitKey);
  // The card says why the wound penalty is not the combat one.
  const afterCombat = [
    ...(opts.inCombat ? [] : status.steps.filter((x) => x.key === "FUDGE.Step.Box.AfterCombat")),
    ...(will ? [will.step] : []),
  ];
  if (rules.preset === "miniatures") {
    // Miniatures: Ground rules — every 4dF is the Legendary roll; Guts — a failure by 1 in force is −1 to rolls.
    const gutsState =
      actor.type === "miniature"
        ? parseGutsState((actor.system as MiniatureData).gutsState, "system.gutsState")
        : undefined;
    const r = statCheck(t.level, faces, difficulty, penalty, { numbers, ladder, gutsState, rules: gutsRules(rules) });
    return {
      ...base,
      penalty: penalty + r.gutsPenalty,
      result: r.rolled,
      resultName: r.name,
      success: r.success,
      steps: [...afterCombat, ...r.steps],
    };
  }
  const option = traitDiceOption(traitKey, rules);
  if (option) {
    // Fudge §3.22: the world's other dice, every throw recorded (a table's "roll again" ones too).
    const r = unopposedRollWithDice(option, t.level, opts.throws ?? [faces], difficulty, penalty, ladder);
    const dice = (opts.throws ?? [faces]).flat();
    return {
      ...base,
      dice,
      diceOption: option,
      result: r.rolled,
      resultName: r.name,
      success: r.success,
      steps: [...afterCombat, ...r.steps],
    };
  }
  const r = unopposedRoll(t.level, faces, difficulty, penalty, ladder, numbers);
  return { ...base, result: r.rolled, resultName: r.name, success: r.success, steps: [...afterCombat, ...r.steps] };
}
