/**
 * What the combat hooks do, decided as pure functions (tests import them). The rolls
 * themselves are the rules core's; these only say who rolls what, and which tracks heal when.
 */
import type { PresetId } from "../rules/pipeline";
import type { TrackStatus } from "../rules/track";
import type { WorldRules } from "../system/data";

export type TurnStartTask =
  /** Miniatures: a Near Death model rolls Guts each turn from its next turn (≥ +2 Very Hurt, ≤ −1 Dead). */
  | { kind: "nearDeathGuts" }
  /** Miniatures: a failed Guts check is re-checked each later turn. */
  | { kind: "gutsRecheck" }
  /** FATE: remember that Clipped was on the track when this turn began (it clears when the turn ends). */
  | { kind: "noteClipped" };

export interface TurnStartInput {
  preset: PresetId;
  actorType: string;
  status: TrackStatus | null;
  /** A failed Guts check is still in force (Miniatures). */
  gutsPending: boolean;
}

export function turnStartTasks(i: TurnStartInput): TurnStartTask[] {
  const tasks: TurnStartTask[] = [];
  if (!i.status) return tasks;
  if (i.preset === "miniatures" && i.actorType === "miniature") {
    // Miniatures: Wounds — Near Death (dying) models roll Guts at the start of each of their turns.
    if (i.status.condition === "dying") tasks.push({ kind: "nearDeathGuts" });
    else if (i.gutsPending && i.status.condition === "able") tasks.push({ kind: "gutsRecheck" });
  }
  // FATE wound ladder: Clipped is −1 on the next action only; this turn is that action.
  if (i.preset === "fate" && i.status.effects.includes("clipped")) tasks.push({ kind: "noteClipped" });
  return tasks;
}

/**
 * When a combatant's turn ends: FATE Clipped that was there when the turn began is used up
 * ("−1 on the loser's next action only, then the box clears"). A Clipped taken during the
 * turn waits for the next one.
 */
export function turnEndHealing(preset: PresetId, clippedAtTurnStart: boolean, status: TrackStatus | null): string | null {
  if (preset === "fate" && clippedAtTurnStart && status?.effects.includes("clipped")) return "consumeClipped";
  return null;
}

/** Healing run on every combatant when a combat ends (Fudge §4.8: Scratches clear after the fight). */
export function combatEndHealing(rules: WorldRules): string | null {
  if (!rules.clearScratchesAtCombatEnd) return null;
  if (rules.preset === "fudge" || rules.preset === "miniatures") return "scratches";
  // Volt: a minute of rest clears all Stun.
  if (rules.preset === "volt") return "rest";
  return null;
}

/** Healing run on every actor of a scene when the scene ends (FATE: Hurt lasts for the scene). */
export function sceneEndHealing(rules: WorldRules): string | null {
  return rules.preset === "fate" ? "endScene" : null;
}

/** The combat turn a model is on, counted from 1 (for Guts re-check bonuses). */
export function combatTurn(round: number | null | undefined): number {
  return Math.max(1, Math.floor(round ?? 1));
}

/** A combat as plain data: started (round ≥ 1) and who is in it. */
export interface CombatRoster {
  started: boolean;
  /** `linked`: the combatant stands for its world actor (no token, or a linked token). */
  combatants: { actorId: string | null; tokenId: string | null; linked: boolean }[];
}

/**
 * Is this actor in a started combat? Fudge §4.51 Light Wound: "no penalty during combat … but after
 * combat … -1". A token's own (unlinked) actor is matched by its token, a world actor by the
 * combatants that stand for it (an unlinked token's combatant is not the world actor).
 */
export function inStartedCombat(actor: { id: string; tokenId: string | null }, combats: readonly CombatRoster[]): boolean {
  return combats.some(
    (c) => c.started && c.combatants.some((b) => (actor.tokenId !== null ? b.tokenId === actor.tokenId : b.linked && b.actorId === actor.id)),
  );
}
