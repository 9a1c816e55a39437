/**
 * The `fudge` preset's attack request (Fudge 1995 §4.5x): its situation fields, its parse, and
 * the dice it may read.
 */
import { RulesError } from "../errors";
import type { AttackRequest, DiceSlot } from "../pipeline";
import { at, boolField, optIntField, record, rejectUnknown, str, type Path, type Raw } from "../validate";
import { parseCombatant, type FudgeCombatant } from "./combatant";
import { fudgeDiceSlot, optionDiceSlot, plainDiceSlot } from "./dice";
import { parseFudgeOptions, usesDoubledThresholds, type FudgeOptions } from "./options";
import { checkLevel, isStandardLevel, levelScaleFor, type LevelScale } from "./woundLevel";

/** This attack only (the card's situation fields). */
export type FudgeSituation = {
  /** Situational modifier to the attacker's roll (Fudge §4.31: position, aiming, blessing …). */
  modifier: number;
  /** Situational modifier to the defender's roll. */
  defenderModifier: number;
  /** Fudge §4.31 all-out offense: +1 to the attacker's skill and +1 to his ODF on a hit. */
  allOutAttack: boolean;
  /** Fudge §4.31 all-out defence: +2 to the defender's skill. */
  allOutDefense: boolean;
  /** Fudge §4.62: a stun attack (needs a stun-capable weapon). */
  stun: boolean;
  /** Fudge §4.62: the worst wound level the blow may cause, or null. */
  pullPunch: string | null;
  /** Fudge §4.64 safeguard: the defender began the round Incapacitated. */
  beganRoundIncapacitated: boolean;
  /** Fudge §4.64 safeguard: the defender spends a Fudge Point to turn a deadly wound into a serious one. */
  spendFudgePoint: boolean;
  /** Fudge §4.55 GM judgement: the level the GM picks ("none" for no damage), null until picked. */
  gmLevel: string | null;
  /** Fudge §4.62: the blow is aimed at the head (with the headBlowKnockout option, a Good stun blow knocks out). */
  headBlow: boolean;
  /** Fudge §1.36: a Fudge Point spent to alter the attacker's roll one level (+1, −1; 0: none). */
  attackerFudgePoint: number;
  /** Fudge §1.36: the same for the defender's roll. */
  defenderFudgePoint: number;
};

export interface FudgeRequest extends AttackRequest<FudgeCombatant, FudgeOptions> {
  preset: "fudge";
  situation: FudgeSituation;
}

const SITUATION_FIELDS = [
  "modifier",
  "defenderModifier",
  "allOutAttack",
  "allOutDefense",
  "stun",
  "pullPunch",
  "beganRoundIncapacitated",
  "spendFudgePoint",
  "gmLevel",
  "headBlow",
  "attackerFudgePoint",
  "defenderFudgePoint",
] as const;

export function parseSituation(
  input: unknown,
  path: Path,
  scale: LevelScale,
  defender: FudgeCombatant,
): FudgeSituation {
  // Fields read by name (see validate.ts): most requests have no situation, and `o[key]` on the
  // shared empty one was a megamorphic lookup per field.
  const o = (input === undefined || input === null ? NO_SITUATION : record(input, path)) as Raw<
    (typeof SITUATION_FIELDS)[number]
  >;
  rejectUnknown(o, SITUATION_FIELDS, path);
  const pullPunch =
    o.pullPunch === undefined || o.pullPunch === null
      ? null
      : checkLevel(scale, str(o.pullPunch, at(path, "pullPunch")), at(path, "pullPunch"));
  let gmLevel: string | null = null;
  if (o.gmLevel !== undefined && o.gmLevel !== null) {
    const g = str(o.gmLevel, at(path, "gmLevel"));
    gmLevel = g === "none" ? "none" : checkLevel(scale, g, at(path, "gmLevel"));
  }
  const spendFudgePoint = boolField(o.spendFudgePoint, path, "spendFudgePoint", false);
  if (spendFudgePoint && defender.fudgePoints === 0)
    throw new RulesError(
      at(path, "spendFudgePoint"),
      "FUDGE.Error.Fudge.NoFudgePoints",
      `${defender.name} has no Fudge Points left`,
      { name: defender.name },
    );
  return {
    modifier: optIntField(o.modifier, path, "modifier", 0, -20, 20),
    defenderModifier: optIntField(o.defenderModifier, path, "defenderModifier", 0, -20, 20),
    allOutAttack: boolField(o.allOutAttack, path, "allOutAttack", false),
    allOutDefense: boolField(o.allOutDefense, path, "allOutDefense", false),
    stun: boolField(o.stun, path, "stun", false),
    pullPunch,
    beganRoundIncapacitated: boolField(o.beganRoundIncapacitated, path, "beganRoundIncapacitated", false),
    spendFudgePoint,
    gmLevel,
    headBlow: boolField(o.headBlow, path, "headBlow", false),
    attackerFudgePoint: optIntField(o.attackerFudgePoint, path, "attackerFudgePoint", 0, -1, 1),
    defenderFudgePoint: optIntField(o.defenderFudgePoint, path, "defenderFudgePoint", 0, -1, 1),
  };
}

const NO_SITUATION: Record<string, unknown> = Object.freeze({});

const REQUEST_FIELDS = ["preset", "attacker", "defender", "options", "situation"];

/** Parses and checks a request: options default when omitted; every error names its field. */
export function parseFudgeRequest(input: unknown): FudgeRequest {
  const o = record(input, "");
  rejectUnknown(o, REQUEST_FIELDS, "");
  if (o.preset !== "fudge")
    throw new RulesError("preset", "FUDGE.Error.Fudge.Preset", `must be "fudge" (got ${JSON.stringify(o.preset)})`);
  const options = parseFudgeOptions(o.options, "options");
  const attacker = parseCombatant(o.attacker, "attacker");
  const defender = parseCombatant(o.defender, "defender");
  const scale = levelScaleFor(defender.track, "defender.track.config.kind", usesDoubledThresholds(options));
  // Fudge §4.57: with the DC-as-track variant the defender's wounds go on a DC track.
  if (options.dcVariant === "track" && defender.track.config.kind !== "dc")
    throw new RulesError(
      "defender.track.config.kind",
      "FUDGE.Error.Fudge.DcTrackNeeded",
      `the "track" Damage Capacity variant needs a "dc" track (got ${JSON.stringify(defender.track.config.kind)})`,
    );
  if (options.dcVariant === "willpower" && defender.willpower === null)
    throw new RulesError(
      "defender.willpower",
      "FUDGE.Error.Fudge.WillpowerNeeded",
      "the willpower Damage Capacity variant needs the defender's Willpower",
    );
  const grazeRows = options.graze.table;
  for (let i = 0; i < grazeRows.length; i++) {
    const level = grazeRows[i].level;
    // A standard level the track lacks is read at its place (levelOnTrack); any other must be the track's.
    if (level !== null && !scale.keys.includes(level) && !isStandardLevel(level))
      checkLevel(scale, level, `options.graze.table[${i}].level`);
  }
  const situation = parseSituation(o.situation, "situation", scale, defender);
  return { preset: "fudge", attacker, defender, options, situation };
}

const LABEL = {
  attack: "FUDGE.Dice.Fudge.attack",
  defense: "FUDGE.Dice.Fudge.defense",
  damage: "FUDGE.Dice.Fudge.damage",
  dc: "FUDGE.Dice.Fudge.dc",
  situational: "FUDGE.Dice.Fudge.situational",
  scale: "FUDGE.Dice.Fudge.scale",
  attackerWill: "FUDGE.Dice.Fudge.attackerWill",
  defenderWill: "FUDGE.Dice.Fudge.defenderWill",
};

/** The dice a request may read: the opposed roll always; the others only when an option calls for them. */
export function fudgeSlots(req: FudgeRequest): DiceSlot[] {
  const o = req.options;
  // Fudge §3.21–3.22: the world's dice option throws every four-Fudge-dice roll.
  // (labelled without "(4dF)": the card's tooltip gives the option's formula).
  const four = (id: keyof typeof LABEL): DiceSlot =>
    o.dice ? optionDiceSlot(id, o.dice, `FUDGE.Dice.Option.${id}`) : fudgeDiceSlot(id, 4, LABEL[id]);
  const slots = [four("attack"), four("defense")];
  if (o.woundMode === "minMidMax") slots.push(plainDiceSlot("damage", 3, 6, LABEL.damage));
  else if (o.woundMode === "factors" && (o.damageRoll === "dfNumber" || o.damageRoll === "dfLevel"))
    slots.push(fudgeDiceSlot("damage", 1, LABEL.damage));
  else if (o.woundMode === "factors" && o.damageRoll === "situational4dF") slots.push(four("damage"));
  if ((o.dcVariant === "roll" && !req.attacker.weapon.dcWithoutRoll) || o.dcVariant === "willpower")
    slots.push(four("dc"));
  if (o.woundMode === "gmJudgement" && o.gmSituationalRoll) slots.push(four("situational"));
  if (o.scaleDamageRoll && o.woundMode === "factors") slots.push(fudgeDiceSlot("scale", 1, LABEL.scale));
  if (o.willpowerVsPenalty) slots.push(four("attackerWill"), four("defenderWill"));
  return slots;
}
