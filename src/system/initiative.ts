/**
 * Initiative by preset. Core rolls `CONFIG.Combat.initiative.formula`
 * (else the manifest's `initiative`) with the actor's roll data; without one, rolling from the
 * tracker fails ("Unresolved StringTerm undefined", FOUNDRY-V13.md). `@derived.initiative` is the
 * relevant trait computed here and kept in each actor's derived data.
 *
 * None of the seed texts gives a dice procedure, so these are our defaults (a world setting
 * overrides them; docs/foundry.md):
 * - Fudge and FATE: 4dF + the combat skill (the defence skill, else the default defence level),
 *   with the wound penalty (Fudge §4.57: the penalty applies to every action).
 * - Miniatures: "Initiative is determined by the scenario" and players activate whole forces
 *   (Miniatures: The Game Turn): 4dF + Dexterity (with wound penalties, Miniatures: Wounds) orders
 *   the tracker; the GM may reorder it for the scenario.
 * - Volt: no initiative text; 1d20 + the defence level (Guard), highest first.
 */
import type { PresetId } from "../rules";
import { defenceLevel } from "./combatant";
import type { ActorDoc, CharacterData, MiniatureData } from "./data";

export const INITIATIVE_DEFAULTS: Record<PresetId, string> = {
  fudge: "4dF + @derived.initiative",
  fate: "4dF + @derived.initiative",
  miniatures: "4dF + @derived.initiative",
  volt: "1d20 + @derived.initiative",
};

/** The manifest's `initiative` (used by core when CONFIG has none): the Fudge default. */
export const MANIFEST_INITIATIVE = INITIATIVE_DEFAULTS.fudge;

/** The formula in force: the world setting when it is set, else the preset's default. */
export function initiativeFormula(preset: PresetId, custom: unknown): string {
  const c = typeof custom === "string" ? custom.trim() : "";
  return c || INITIATIVE_DEFAULTS[preset];
}

/** The trait added to the initiative roll, with the wound penalty (`penalty` ≤ 0). */
export function initiativeTrait(doc: ActorDoc, preset: PresetId, penalty: number): number {
  if (doc.type === "miniature") return (doc.system as MiniatureData).dexterity + penalty;
  if (preset === "volt") return (doc.system as CharacterData).volt.guard + penalty;
  return defenceLevel(doc as ActorDoc<"character" | "npc">) + penalty;
}
