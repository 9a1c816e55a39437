/**
 * One roll path for every die the system rolls, shared by Foundry and the playground. A host
 * gives a `Roller` that rolls one formula ("4dF", "1dF", "2d20", "3d6") the host's way — in
 * Foundry a `Roll` evaluated on the clicking user's client (Dice So Nice, roll modes, the
 * message's `rolls`); in the playground fixed or seeded faces. The faces are then fed to the
 * pure rules core, which never rolls itself here.
 *
 * A dice slot of the rules core may need more dice than its formula once (the Miniatures
 * Legendary reroll: four + roll 4dF again): the slot's own `roll` is replayed over the faces
 * rolled so far, and each time it asks for more, the roller rolls the formula again.
 */
import { DICE_OPTION_FORMULAS, readDiceOption, type DiceOptionId, type Rng, type DiceSlot } from "../rules";
import { MAX_DICE_THROWS } from "../rules/fudge";
import { fudgeDiceSlot, plainDiceSlot } from "../rules/fudge";
import { legendarySlot, rollLegendary } from "../rules/miniatures";
import type { ActorDoc, WorldRules } from "./data";

/** One formula rolled by the host: its faces in order, and the host's own record (a Foundry Roll). */
export interface Rolled<R = unknown> {
  formula: string;
  faces: number[];
  roll: R | null;
}
export type Roller<R = unknown> = (formula: string) => Promise<Rolled<R>>;
export type SyncRoller = (formula: string) => Rolled<null>;

/** The dice of one slot: the faces the rules core reads, and every roll made for them. */
export interface SlotRoll<R = unknown> {
  slot: string;
  formula: string;
  faces: number[];
  rolls: R[];
}

/** "4dF" → dice count and sides ("F" for Fudge dice; "4ds", the six-sided Fudge die, rolls d6 faces). */
export function parseFormula(formula: string): { n: number; sides: number | "F" } {
  const m = /^(\d*)d(F|s|\d+)$/i.exec(formula.trim());
  if (!m) throw new Error(`not a dice formula: ${formula}`);
  const d = m[2].toLowerCase();
  return { n: m[1] ? Number(m[1]) : 1, sides: d === "f" ? "F" : d === "s" ? 6 : Number(m[2]) };
}

/** The formula each dice option of Fudge §3.21–3.22 is rolled with, one Roll per throw (src/rules/dice-options.ts). */
export { DICE_OPTION_FORMULAS } from "../rules";

/**
 * Rolls a dice option until a result stands: each throw one Roll of its formula; a throw the
 * table reads as "roll again" (d% 82–00 by default) is thrown again (at most MAX_DICE_THROWS).
 */
export async function rollDiceOption<R>(
  option: DiceOptionId,
  roller: Roller<R>,
): Promise<{ throws: number[][]; rolls: R[]; result: number }> {
  const throws: number[][] = [];
  const rolls: R[] = [];
  for (let i = 0; i < MAX_DICE_THROWS; i++) {
    const r = await roller(DICE_OPTION_FORMULAS[option]);
    if (r.roll !== null) rolls.push(r.roll);
    throws.push(r.faces);
    const result = readDiceOption(option, r.faces);
    if (result !== null) return { throws, rolls, result };
  }
  throw new Error(`the ${option} dice gave no result in ${MAX_DICE_THROWS} throws`);
}

/** The uniform number the rules core's die functions map to `face` (floor(u·3) − 1 for dF, 1 + floor(u·S) for dS). */
export function faceToUniform(face: number, sides: number | "F"): number {
  return sides === "F" ? (face + 1.5) / 3 : (face - 0.5) / sides;
}

class NeedMore extends Error {}

/** Replays a slot's own roll over the uniforms of the faces so far: its faces, or null when it needs another roll. */
function replay(slot: Pick<DiceSlot, "roll">, uniforms: readonly number[]): number[] | null {
  let i = 0;
  try {
    return slot.roll(() => {
      if (i >= uniforms.length) throw new NeedMore();
      return uniforms[i++];
    });
  } catch (e) {
    if (e instanceof NeedMore) return null;
    throw e;
  }
}

const MAX_ROLLS = 64;

/** Rolls a rules-core dice slot with the host's roller (re-rolling the formula while the slot asks for more). */
export async function rollSlot<R>(
  slot: Pick<DiceSlot, "id" | "formula" | "roll">,
  roller: Roller<R>,
): Promise<SlotRoll<R>> {
  // "1d6 - 1d6" (the d6−d6 option): dice of the same sides, faces in order [plus, minus].
  const { sides } = parseFormula(slot.formula.split(/\s+-\s+/)[0]);
  const uniforms: number[] = [];
  const rolls: R[] = [];
  for (let n = 0; n < MAX_ROLLS; n++) {
    const faces = replay(slot, uniforms);
    if (faces) return { slot: slot.id, formula: slot.formula, faces, rolls };
    const r = await roller(slot.formula);
    if (r.roll !== null) rolls.push(r.roll);
    uniforms.push(...r.faces.map((f) => faceToUniform(f, sides)));
  }
  throw new Error(`dice slot ${slot.id} asked for too many rolls`);
}

/**
 * A Miniatures Guts check or Near Death roll: 4dF with the Legendary re-roll (Miniatures: Ground
 * rules — "On an unmodified roll of +4, re-roll, ignoring all [-] results, and add"), so four +
 * roll again, as the rules core's Guts functions read the faces.
 */
export const GUTS_ROLL: Pick<DiceSlot, "id" | "formula" | "roll"> = { id: "guts", formula: "4dF", roll: rollLegendary };

const FOUR_DF = fudgeDiceSlot("trait", 4, "FUDGE.Card.Dice");
const TWO_D20 = plainDiceSlot("trait", 2, 20, "FUDGE.Card.Dice");
const LEGENDARY = legendarySlot("trait", "FUDGE.Card.Dice");

/**
 * A trait roll's dice (rolled with rollSlot): 4dF (Fudge §3.2); in a Miniatures world 4dF with the
 * Legendary re-roll, as every Miniatures roll (Miniatures: Ground rules; rollTrait reads them so);
 * a Volt roll's two d20, black and white (Volt: Rolls).
 */
export function traitRollSlot(traitKey: string, preset: string): DiceSlot {
  if (traitKey.startsWith("volt.")) return TWO_D20;
  return preset === "miniatures" ? LEGENDARY : FOUR_DF;
}

/**
 * Fudge §4.51 (world option "Willpower against penalties"): the Willpower roll a wounded
 * character's trait roll makes first (src/system/actions/trait-roll.ts traitWillpowerNeeded), 4dF.
 */
export const WILLPOWER_ROLL: DiceSlot = fudgeDiceSlot("willpower", 4, "FUDGE.Card.Dice");

/** Rolls a plain formula (a trait roll, a healing roll). */
export async function rollFaces<R>(formula: string, roller: Roller<R>): Promise<SlotRoll<R>> {
  const r = await roller(formula);
  return { slot: formula, formula, faces: r.faces, rolls: r.roll === null ? [] : [r.roll] };
}

/** The dice source src/system/actions/attack-card.ts attackCard accepts: faces per slot and target. */
export interface SlotDice {
  faces(slot: DiceSlot, targetIndex: number): number[];
}

/** A roller over a plain random source (the playground's fixed or seeded faces; tests), die by die as the rules core rolls. */
export function rngRoller(rng: Rng): SyncRoller {
  return (formula) => {
    // "1d6 - 1d6" (the d6−d6 option): each die part in order, faces [plus, minus].
    const faces = formula.split(/\s+-\s+/).flatMap((part) => {
      const { n, sides } = parseFormula(part);
      return Array.from({ length: n }, () =>
        sides === "F" ? Math.floor(rng() * 3) - 1 : 1 + Math.floor(rng() * sides),
      );
    });
    return { formula, faces, roll: null };
  };
}

/** Heal kinds that roll, and what (Fudge §4.8 healing roll; Volt: Recovery, the injury recovery roll). */
export const HEAL_ROLLS: Partial<Record<string, string>> = { roll: "4dF", injuryRecovery: "2d20" };
export const HEAL_TITLES: Partial<Record<string, string>> = { roll: "FUDGE.Heal.HealingRoll" };

/**
 * Fudge §4.8 (RULES §2.5 "optional Constitution roll: Fair for Hurt, Good for Very Hurt, Great for
 * Incapacitated"): with the world's option on, a Fudge character's natural healing rolls 4dF for
 * his Constitution (Damage Capacity, Fudge §4.52) — a miniature has no such trait.
 */
export function healsWithConstitutionRoll(
  type: string,
  actor: Pick<ActorDoc, "type">,
  rules: Pick<WorldRules, "preset" | "fudgeTrack">,
): boolean {
  return (
    type === "natural" &&
    rules.preset === "fudge" &&
    rules.fudgeTrack.healingConstitutionRoll &&
    actor.type !== "miniature"
  );
}

/** What a heal kind rolls for this actor under the world rules (HEAL_ROLLS, and the Constitution roll), undefined = no roll. */
export function healRollFormula(
  type: string,
  actor: Pick<ActorDoc, "type">,
  rules: Pick<WorldRules, "preset" | "fudgeTrack">,
): string | undefined {
  return healsWithConstitutionRoll(type, actor, rules) ? "4dF" : HEAL_ROLLS[type];
}

/**
 * Volt: Recovery ("monthly by default; weekly or nightly per setting"): the world's interval in the
 * Injury recovery roll's name ("Injury recovery roll (weekly)"), on the sheet's button, the dialog
 * and the note. Informational: the system does not track calendar time (docs/foundry.md).
 */
export function injuryRecoveryTitle(rules: Pick<WorldRules, "volt">): string {
  return `FUDGE.Heal.InjuryRecoveryEvery.${rules.volt.recovery}`;
}

/** The title of a heal kind's roll note. */
export function healRollTitle(
  type: string,
  actor: Pick<ActorDoc, "type">,
  rules: Pick<WorldRules, "preset" | "fudgeTrack" | "volt">,
): string {
  if (type === "injuryRecovery") return injuryRecoveryTitle(rules);
  return healsWithConstitutionRoll(type, actor, rules)
    ? "FUDGE.Heal.ConstitutionRoll"
    : (HEAL_TITLES[type] ?? "FUDGE.Heal.Title");
}
