/**
 * What the combat hooks do (src/foundry/combat.ts), decided over plain data. The rolls
 * themselves are the rules core's; these only say who rolls what, and which tracks heal when.
 */
import type { PresetId, TrackStatus } from "../rules";
import { COUNTED_STUNS } from "../rules/fudge";
import type { WorldRules } from "./data";
import { incapacitatedBy, type RoundStart } from "./combatant";

export type TurnStartTask =
  /** Miniatures: a Near Death model rolls Guts each turn from its next turn (≥ +2 Very Hurt, ≤ −1 Dead). */
  | { kind: "nearDeathGuts" }
  /** Miniatures: a failed Guts check is re-checked each later turn. */
  | { kind: "gutsRecheck" }
  /** FATE: remember that Clipped was on the track when this turn began (it clears when the turn ends). */
  | { kind: "noteClipped" }
  /** Fudge §4.62: remember the stun in force when this turn began (it counts down when the turn ends). */
  | { kind: "noteStun" };

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
  // Fudge §4.62: Stunned lasts one round, Very Stunned two (knocked out lasts until the stun marks heal).
  if (i.preset === "fudge" && i.status.effects.some((e) => COUNTED_STUNS.includes(e))) tasks.push({ kind: "noteStun" });
  return tasks;
}

/**
 * When a combatant's turn ends: FATE Clipped that was there when the turn began is used up
 * ("−1 on the loser's next action only, then the box clears"). A Clipped taken during the
 * turn waits for the next one.
 */
export function turnEndHealing(
  preset: PresetId,
  clippedAtTurnStart: boolean,
  status: TrackStatus | null,
): string | null {
  if (preset === "fate" && clippedAtTurnStart && status?.effects.includes("clipped")) return "consumeClipped";
  return null;
}

/** The combat flag where the active GM's client records each round's start (Fudge §4.64), and the turn's stun note. */
export const ROUND_START_FLAG = "roundStart";
export const STUN_NOTE_FLAG = "stunNote";

/**
 * Fudge §4.64 PC safeguard "nobody becomes Near Death unless they began the round Incapacitated":
 * who, among a combat's combatants, is Incapacitated or worse (or knocked out) as a round starts.
 * Written by the active GM's client from the live actors; Apply reads it for the defender.
 */
export function roundStartRecord(
  round: number,
  combatants: readonly { ref: string; status: TrackStatus | null }[],
): RoundStart {
  const actors = [...new Set(combatants.map((c) => c.ref))];
  const incapacitated = [
    ...new Set(combatants.filter((c) => c.status !== null && incapacitatedBy(c.status.condition)).map((c) => c.ref)),
  ];
  return { round, actors, incapacitated };
}

/** Reads a stored record (a combat flag): null when it is not one. */
export function readRoundStart(raw: unknown): RoundStart | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const refs = (v: unknown): v is string[] =>
    Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === "string");
  if (!Number.isInteger(r.round) || !refs(r.actors) || !refs(r.incapacitated)) return null;
  return { round: r.round as number, actors: [...r.actors], incapacitated: [...r.incapacitated] };
}

/** A combat as the round-start lookup reads it: its round, its combatants' actor refs and its stored record. */
export interface RoundStartSource {
  started: boolean;
  round: number;
  refs: readonly string[];
  record: unknown;
}

/**
 * The round-start record that holds for an actor (its ref): that of a started combat it fights in,
 * recorded for the combat's current round. Null (the actor's current track then counts): not in a
 * started combat, or the round was not recorded (a combat stepped back, begun before this version).
 */
export function roundStartFor(ref: string, combats: readonly RoundStartSource[]): RoundStart | null {
  for (const c of combats) {
    if (!c.started || !c.refs.includes(ref)) continue;
    const rec = readRoundStart(c.record);
    if (rec && rec.round === c.round) return rec;
  }
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
export function inStartedCombat(
  actor: { id: string; tokenId: string | null },
  combats: readonly CombatRoster[],
): boolean {
  return combats.some(
    (c) =>
      c.started &&
      c.combatants.some((b) =>
        actor.tokenId !== null ? b.tokenId === actor.tokenId : b.linked && b.actorId === actor.id,
      ),
  );
}
