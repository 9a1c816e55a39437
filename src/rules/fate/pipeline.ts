/**
 * Preset `fate`: an opposed 4dF exchange whose margin of success is read on the FATE wound
 * ladder (seed 003, RULES §4). Each side rolls with the penalty of its own ladder (Clipped
 * included); the margin (attacker − defender) marks the defender's ladder. FATE is a Fudge
 * derivative: a world may throw each side's roll with one of Fudge's dice alternatives instead
 * (Fudge §3.21–3.22, `options.dice`).
 */
import { fudgeOutcomes, fudgeTotal, rollFudgeDice } from "../dice";
import { optionDiceSlot } from "../fudge/dice";
import { parseDiceOption, readDiceOption, type DiceOption } from "../dice-options";
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import {
  resolution,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
  type FollowUp,
} from "../pipeline";
import { applyWound, parseTrack, trackStatus, healTrack, type Track } from "../track";
import { at, int, optInt, record, str, isRecord } from "../validate";
import { FATE_RULE, fateResultForMargin, fateTrack } from "./track";
import { rollsClipped } from "./clipped";

/** Loose bounds on a skill level: the ladder runs −3..+4, and results off it are allowed. */
export const FATE_SKILL_LIMIT = 20;

export interface FateCombatant {
  name: string;
  /** Skill used to attack (ladder number: Fair 0, Good +1 …). */
  skill: number;
  /** Skill used to defend; defaults to `skill`. */
  defense?: number;
  track: Track;
}

export interface FateSituation {
  /** Situational modifier to the attacker's roll. Default 0. */
  modifier: number;
  /** Situational modifier to the defender's roll. Default 0. */
  defenseModifier: number;
  /** Fudge §1.36: a Fudge Point spent to alter the attacker's roll one level (+1, −1; 0: none). */
  attackerFudgePoint: number;
  /** Fudge §1.36: the same for the defender's roll. */
  defenderFudgePoint: number;
}

export interface FateOptions {
  /** Fudge §3.21–3.22: the dice each side's roll is thrown with instead of 4dF; absent: 4dF. */
  dice?: DiceOption;
}

export interface FateAttackRequest extends AttackRequest<FateCombatant, FateOptions> {
  preset: "fate";
  situation: FateSituation & Record<string, unknown>;
}

function parseCombatant(input: unknown, path: string): FateCombatant {
  const o = record(input, path);
  const name = str(o.name, at(path, "name"));
  const skill = int(o.skill, at(path, "skill"), -FATE_SKILL_LIMIT, FATE_SKILL_LIMIT);
  const track = parseTrack(o.track, at(path, "track"));
  if (track.config.kind !== fateTrack.kind)
    throw new RulesError(
      at(path, "track.config.kind"),
      "FUDGE.Error.Fate.TrackKind",
      `the fate preset needs a "fate" track (got "${track.config.kind}")`,
      {
        kind: String(track.config.kind),
      },
    );
  const c: FateCombatant = { ...o, name, skill, track } as FateCombatant;
  if (o.defense !== undefined) c.defense = int(o.defense, at(path, "defense"), -FATE_SKILL_LIMIT, FATE_SKILL_LIMIT);
  return c;
}

function parseRequest(input: unknown): FateAttackRequest {
  const o = record(input, "");
  if (o.preset !== "fate")
    throw new RulesError("preset", "FUDGE.Error.UnknownPreset", `expected "fate" (got ${JSON.stringify(o.preset)})`);
  const attacker = parseCombatant(o.attacker, "attacker");
  const defender = parseCombatant(o.defender, "defender");
  if (o.options !== undefined && !isRecord(o.options))
    throw new RulesError("options", "FUDGE.Error.NotObject", "must be an object");
  const raw = (o.options as Record<string, unknown> | undefined)?.dice;
  const option = raw === undefined || raw === null || raw === "4dF" ? null : parseDiceOption(raw, "options.dice");
  const options: FateOptions = option && option.id !== "4dF" ? { dice: option } : {};
  const s = o.situation === undefined ? {} : record(o.situation, "situation");
  const situation = {
    ...s,
    modifier: optInt(s.modifier, "situation.modifier", 0, -FATE_SKILL_LIMIT, FATE_SKILL_LIMIT),
    defenseModifier: optInt(s.defenseModifier, "situation.defenseModifier", 0, -FATE_SKILL_LIMIT, FATE_SKILL_LIMIT),
    attackerFudgePoint: optInt(s.attackerFudgePoint, "situation.attackerFudgePoint", 0, -1, 1),
    defenderFudgePoint: optInt(s.defenderFudgePoint, "situation.defenderFudgePoint", 0, -1, 1),
  };
  return { preset: "fate", attacker, defender, options, situation };
}

function fourDF(id: string, labelKey: string): DiceSlot {
  return {
    id,
    formula: "4dF",
    labelKey,
    roll: (rng) => rollFudgeDice(4, rng),
    outcomes: () => fudgeOutcomes(4),
    uniform: { n: 4, sides: 3, lowest: -1 },
  };
}

function slots(req?: FateAttackRequest): DiceSlot[] {
  const option = req?.options.dice;
  if (option)
    return [
      optionDiceSlot("attack", option, "FUDGE.Fate.Dice.Attack"),
      optionDiceSlot("defense", option, "FUDGE.Fate.Dice.Defense"),
    ];
  return [fourDF("attack", "FUDGE.Fate.Dice.Attack"), fourDF("defense", "FUDGE.Fate.Dice.Defense")];
}

/** A side's dice as the world throws them: 4dF's total, or the option's reading of its throw (Fudge §3.22). */
function diceResult(faces: number[], option: DiceOption | undefined, path: string): number {
  if (!option) return fudgeTotal(faces, path);
  const r = readDiceOption(option, faces, path);
  if (r === null)
    throw new RulesError(path, "FUDGE.Error.Dice.Unfinished", "this throw is rolled again: the roll is not finished");
  return r;
}

/** A side's roll: skill + 4dF (or the world's dice) + ladder penalty + modifier, then a Fudge Point's level (Fudge §1.36). */
function sideRoll(
  c: FateCombatant,
  skill: number,
  [modifier, fudgePoint]: [number, number],
  faces: number[],
  path: string,
  side: "attacker" | "defender",
  steps: Step[],
  option?: DiceOption,
) {
  const dice = diceResult(faces, option, path);
  const st = trackStatus(c.track);
  const clipped = rollsClipped(c.track);
  const total = skill + dice + st.penalty + modifier;
  steps.push(
    step("FUDGE.Fate.Step.Roll", FATE_RULE, total, {
      side,
      name: c.name,
      skill: signed(skill),
      dice: signed(dice),
      penalty: signed(st.penalty),
      modifier: signed(modifier),
      total: signed(total),
    }),
  );
  if (st.penalty !== 0)
    steps.push(step("FUDGE.Fate.Step.LadderPenalty", FATE_RULE, st.penalty, { side, name: c.name }));
  // Fudge §1.36: "alter a die roll one level, up or down" (after the roll as rolled).
  if (fudgePoint !== 0)
    steps.push(
      step("FUDGE.Step.Fudge.FudgePoint", "Fudge §1.36", fudgePoint, { value: signed(fudgePoint), name: c.name }),
    );
  return { dice, total: total + fudgePoint, penalty: st.penalty, clipped };
}

/** FATE ladder: a Taken Out character is out of the scene — he neither attacks nor defends. */
function checkInScene(c: FateCombatant, side: "attacker" | "defender"): void {
  if (!trackStatus(c.track).canAct)
    throw new RulesError(`${side}.track`, "FUDGE.Error.Fate.TakenOut", `${c.name} is taken out and out of the scene`, {
      name: c.name,
    });
}

/** The attacker's own refusal, before any die (AttackPipeline.checkAttacker); resolve makes it too. */
export function checkFateAttacker(req: FateAttackRequest): void {
  checkInScene(req.attacker, "attacker");
}

function resolve(req: FateAttackRequest, read: DiceReader): AttackResolution {
  const steps: Step[] = [];
  const a = req.attacker;
  const d = req.defender;
  checkInScene(a, "attacker");
  checkInScene(d, "defender");
  const aFaces = read("attack");
  const dFaces = read("defense");
  const option = req.options.dice;
  const att = sideRoll(
    a,
    a.skill,
    [req.situation.modifier, req.situation.attackerFudgePoint],
    aFaces,
    "dice.attack",
    "attacker",
    steps,
    option,
  );
  const def = sideRoll(
    d,
    d.defense ?? d.skill,
    [req.situation.defenseModifier, req.situation.defenderFudgePoint],
    dFaces,
    "dice.defense",
    "defender",
    steps,
    option,
  );
  const margin = att.total - def.total;
  steps.push(step("FUDGE.Fate.Step.MarginOfSuccess", FATE_RULE, margin, { margin: signed(margin) }));

  const followUps: FollowUp[] = [];
  // FATE ladder: Clipped is −1 to the next action, "box resets after that action" — each side that rolled while Clipped.
  for (const [side, r] of [
    ["attacker", att],
    ["defender", def],
  ] as const) {
    if (r.clipped)
      followUps.push({
        type: "clippedConsumed",
        target: side,
        params: { healing: "consumeClipped" },
        steps: [step("FUDGE.Fate.Heal.ClippedConsumed", FATE_RULE)],
      });
  }

  const numbers: Record<string, number> = {
    attackerDice: att.dice,
    defenderDice: def.dice,
    attackerPenalty: att.penalty,
    defenderPenalty: def.penalty,
    attackerTotal: att.total,
    defenderTotal: def.total,
    relativeDegree: margin,
    margin,
  };
  const base = { preset: "fate" as const, numbers, dice: { attack: aFaces, defense: dFaces }, steps, followUps };
  const result = fateResultForMargin(margin);
  if (result === null) {
    // FATE ladder: margin 0 is Scratched, "a near miss, or a hit with no real impact"; below 0 the attack fails.
    steps.push(step(margin === 0 ? "FUDGE.Fate.Step.Scratched" : "FUDGE.Fate.Step.Miss", FATE_RULE, margin));
    return resolution(base, margin === 0 ? "standoff" : "miss", false, null, null, null);
  }
  const wound = { margin };
  // The defender's own roll used up its Clipped box before this exchange's result lands.
  const before = def.clipped ? healTrack(d.track, { type: "consumeClipped" }).track : d.track;
  const applied = applyWound(before, wound);
  return resolution(base, "wound", true, result, wound, {
    track: applied.track,
    status: applied.status,
    steps: applied.steps,
    ended: applied.ended,
  });
}

export const fatePipeline: AttackPipeline<FateAttackRequest> = {
  preset: "fate",
  exchange: "opposed",
  parseRequest,
  checkAttacker: checkFateAttacker,
  slots,
  resolve,
};
