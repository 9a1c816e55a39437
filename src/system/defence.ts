/**
 * The defender's own choices for his defence roll (Fudge §3.5 opposed actions, §4.31 all-out
 * defence; FATE's defence): which of his skills he defends with, all-out defence, and a modifier.
 * He makes them in his Defend dialog (templates/dialog/defence-dialog.hbs); they are kept with his
 * defence roll on his own actor (actor-logs.ts DefenceRecord.choice), shown on his side of the
 * card, and the GM's client derives the result from them (integrity.ts rederiveTarget). What a
 * form, a relay request or a record says is a claim: read through readDefenceChoice, bounded.
 */
import { RulesError, type PresetId } from "../rules";
import { itemsOf, skillLevel, type Situation } from "./combatant";
import type { ActorDoc, CharacterData, DefenceShown, SkillData, WorldRules } from "./data";
import { ladderOf, levelView } from "./view";

export interface DefenceChoice {
  /** One of the defender's own skill items; "" or absent: his usual defence (his defence skill, else his default). */
  skillId?: string;
  /** Fudge §4.31: all-out defence (+2 to defend, no attack this round). */
  allOutDefense?: boolean;
  /** Added to the defence roll (bad footing, cover…), within ±10 as an attack's modifiers. */
  modifier?: number;
}

/** The presets whose defender rolls on the card (an opposed defence roll): Fudge and FATE. */
export const DEFENDER_ROLLS: readonly PresetId[] = ["fudge", "fate"];

/** Situation keys that are the defender's to choose, per preset: the attacker may no longer set them. */
export const DEFENDER_SITUATION: Record<PresetId, { modifier?: string; allOut?: string }> = {
  fudge: { modifier: "defenderModifier", allOut: "allOutDefense" },
  fate: { modifier: "defenseModifier" },
  volt: {},
  miniatures: {},
};

const MODIFIER_RANGE = 10;
const ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * A choice from any source (a form's entries, a relay request, a stored record), kept only where
 * it is well formed: a skill id of letters and digits, all-out defence yes/no, a whole modifier
 * within ±10 (0 dropped). Anything else is dropped, never guessed.
 */
export function readDefenceChoice(
  raw: Iterable<[string, unknown]> | Record<string, unknown> | null | undefined,
): DefenceChoice {
  const out: DefenceChoice = {};
  if (!raw || typeof raw !== "object") return out;
  const entries = Symbol.iterator in raw ? [...(raw as Iterable<[string, unknown]>)] : Object.entries(raw);
  for (const [k, v] of entries) {
    if (k === "skillId" && typeof v === "string" && ID.test(v)) out.skillId = v;
    else if (k === "allOutDefense" && (v === true || v === "on" || v === "true")) out.allOutDefense = true;
    else if (k === "modifier") {
      const n = typeof v === "string" && v.trim() === "" ? NaN : Number(v);
      if (Number.isInteger(n) && Math.abs(n) <= MODIFIER_RANGE && n !== 0) out.modifier = n;
    }
  }
  return out;
}

/** Is anything chosen (a record without a choice, or an empty one, leaves the card's situation as it was)? */
export const hasChoice = (c: DefenceChoice | null | undefined): c is DefenceChoice =>
  !!c && (c.skillId !== undefined || c.allOutDefense === true || c.modifier !== undefined);

/** The defender's skill of this id, or a RulesError: a choice names one of his own skills. */
function chosenSkill(defender: ActorDoc, skillId: string): { name: string; level: number } {
  const s = itemsOf(defender, "skill").find((i) => i._id === skillId);
  if (!s)
    throw new RulesError("defence.skillId", "FUDGE.Error.Defence.NoSuchSkill", `${defender.name} has no such skill`, {
      name: defender.name,
    });
  return { name: s.name, level: (s.system as SkillData).level };
}

/**
 * The defender as his choice makes him defend: with the chosen skill as his defence skill (the
 * requests read it: combatant.ts defenceLevel). A copy; the document itself is not changed.
 */
export function defenderWithChoice(defender: ActorDoc, choice: DefenceChoice): ActorDoc {
  if (!choice.skillId || defender.type === "miniature") return defender;
  const skill = chosenSkill(defender, choice.skillId);
  const system = defender.system as CharacterData;
  return { ...defender, system: { ...system, defenseSkill: skill.name } } as ActorDoc;
}

/** The attack's situation with the defender's choice in place of anything the card said of his side. */
export function situationWithChoice(preset: PresetId, situation: Situation, choice: DefenceChoice): Situation {
  const keys = DEFENDER_SITUATION[preset];
  const out: Situation = { ...situation };
  if (keys.modifier) delete out[keys.modifier];
  if (keys.allOut) delete out[keys.allOut];
  if (keys.modifier && choice.modifier) out[keys.modifier] = choice.modifier;
  if (keys.allOut && choice.allOutDefense) out[keys.allOut] = true;
  return out;
}

/** The defender's side as the card records it for display (its data is only shown: Apply reads his own record). */
export function defenceShown(defender: ActorDoc, choice: DefenceChoice, rules: WorldRules): DefenceShown {
  const d = defenderWithChoice(defender, choice) as ActorDoc<"character" | "npc">;
  const name = d.system.defenseSkill;
  return {
    skillName: name,
    level: skillLevel(d, name) ?? d.system.defenseDefault,
    allOutDefense: DEFENDER_SITUATION[rules.preset].allOut ? choice.allOutDefense === true : false,
    modifier: choice.modifier ?? 0,
  };
}

export interface DefenceDialogContext {
  defenderName: string;
  attackerName: string;
  skills: { value: string; label: string; selected: boolean }[];
  allOut: boolean;
  allOutDefense: boolean;
  modifier: number;
  cssClass: string;
}

/** The Defend dialog: the defender's own skills (his usual defence first), all-out defence (Fudge), a modifier. */
export function defenceDialogContext(
  defender: ActorDoc,
  attackerName: string,
  rules: WorldRules,
  choice: DefenceChoice,
  ladderNames: Partial<Record<string, string>> = {},
  usualLabel = "",
): DefenceDialogContext {
  const ladder = ladderOf(rules, ladderNames);
  const c = defender as ActorDoc<"character" | "npc">;
  const usual = skillLevel(c, c.system.defenseSkill) ?? c.system.defenseDefault;
  const skills = itemsOf(defender, "skill").map((s) => ({
    value: s._id,
    label: `${s.name}: ${levelView((s.system as SkillData).level, ladder).label}`,
    selected: s._id === choice.skillId,
  }));
  return {
    defenderName: defender.name,
    attackerName,
    skills: [
      {
        value: "",
        label: `${usualLabel}${c.system.defenseSkill ? ` (${c.system.defenseSkill})` : ""}: ${levelView(usual, ladder).label}`,
        selected: !skills.some((s) => s.selected),
      },
      ...skills,
    ],
    allOut: !!DEFENDER_SITUATION[rules.preset].allOut,
    allOutDefense: choice.allOutDefense === true,
    modifier: choice.modifier ?? 0,
    cssClass: "fudge-wounds fudge-defence-dialog",
  };
}

/**
 * The card target's request with the defender's choice in it, for the result the card shows at
 * once after his roll (Apply derives it again from the live actors: integrity.ts rederiveTarget).
 */
export function requestWithChoice(
  request: Record<string, unknown>,
  defender: ActorDoc,
  choice: DefenceChoice,
  rules: WorldRules,
): Record<string, unknown> {
  const preset = rules.preset;
  const out = structuredClone(request);
  out.situation = situationWithChoice(preset, (out.situation ?? {}) as Situation, choice);
  if (choice.skillId) {
    const level = defenceShown(defender, choice, rules).level;
    const side = (out.defender ?? {}) as Record<string, unknown>;
    side.defense = level;
    if (preset === "fate") side.skill = level;
    out.defender = side;
  }
  return out;
}
