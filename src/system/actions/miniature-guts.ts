/** Miniatures: Guts checks, re-checks, Near Death rolls and a miniature's datacard numbers. */
import { RulesError, type Step, type AttackResolution, applyWound, trackStatus } from "../../rules";
import {
  datacard,
  parseDatacard,
  type MiniDatacard,
  gutsRecheck,
  gutsTrigger,
  nearDeathRoll,
  parseGutsState,
  type GutsRules,
  type GutsSituation,
} from "../../rules/miniatures";
import type { ActorDoc, AttackCardTarget, MiniatureData, WorldRules } from "../data";
import { miniatureDatacard, miniatureNumbers } from "../combatant";
import { UserRef, allowed, checkAllowed, refuseUnless, type Check } from "../permissions";
import { liveTrack } from "./wound-track";
import { plain } from "./attack-card";
import { ActorUpdate, trackUpdate } from "../updates";

/** A miniature's Guts as its wounds leave it, its datacard and its failed checks in force (every Guts check at the table starts here). */
export function miniGuts(
  actor: ActorDoc,
  rules: WorldRules,
): {
  guts: number;
  card: MiniDatacard;
  state: ReturnType<typeof parseGutsState>;
  traits: Pick<GutsSituation, "gift" | "fault">;
} {
  if (actor.type !== "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotMiniature", `${actor.name} is not a miniature`, {
      name: actor.name,
    });
  const card = parseDatacard(miniatureDatacard(actor, rules), "actor");
  // Miniatures: Wounds — penalties lower the stats, Guts included.
  const d = datacard(card, trackStatus(card.track).penalty);
  // The datacard's gift and fault: Steadfast, Faithful and Mercenary act on the model's own checks.
  return {
    guts: d.guts,
    card,
    state: parseGutsState((actor.system as MiniatureData).gutsState, "system.gutsState"),
    traits: { gift: card.gift, fault: card.fault },
  };
}

/** The world's rules of a model's Guts rolls (Miniatures: Guts — which rolls a failure by 1 lowers). */
export function gutsRules(rules: WorldRules): GutsRules {
  return { gutsRollPenalty: rules.miniatures.gutsRollPenalty };
}

/** What the table tells a Guts check about the model's situation (Miniatures: Sample characters): each flag counts only where the datacards give it a rule. */
export type GutsFlags = Pick<GutsSituation, "beingCharged" | "defendingKing" | "nobleInMelee" | "leaderFallen">;

export interface GutsUpdate {
  system: { "==gutsState": unknown };
}

/** May `user` roll a Guts check for this actor (the miniature sheet's Check Guts, before the dialog and any die)? */
export function canGutsCheck(actor: ActorDoc, user?: UserRef): Check {
  const denied = allowed("rollTrait", user, actor);
  if (denied) return denied;
  if (actor.type !== "miniature")
    return new RulesError("actor.type", "FUDGE.Error.NotMiniature", `${actor.name} is not a miniature`, {
      name: actor.name,
    });
  return null;
}

/**
 * A Guts check the card or the GM calls for (Miniatures: Guts): new wound level (+1), two levels
 * (+2), a friend shooting into the melee (+0), a Terrifying charge. `faces`: 4dF (Legendary).
 */
export function gutsCheckAction(
  actor: ActorDoc,
  trigger: {
    target: number;
    reason: "newWoundLevel" | "twoWoundLevels" | "friendShoots" | "terrifying" | "other";
    turn: number;
    modifiers?: number;
  } & GutsFlags,
  faces: number[],
  rules: WorldRules,
  user?: UserRef,
): GutsActionResult {
  refuseUnless(canGutsCheck(actor, user));
  const g = miniGuts(actor, rules);
  const { beingCharged, defendingKing, nobleInMelee, leaderFallen } = trigger;
  const r = gutsTrigger(
    g.state,
    {
      ...g.traits,
      ...{ beingCharged, defendingKing, nobleInMelee, leaderFallen },
      guts: g.guts,
      modifiers: trigger.modifiers ?? 0,
      faces,
      target: trigger.target,
      turn: trigger.turn,
      reason: trigger.reason,
    },
    gutsRules(rules),
  );
  return {
    update: { system: { "==gutsState": plain(r.state) } },
    passed: r.check.passed,
    effect: r.check.effect,
    total: r.check.total,
    target: r.check.target,
    fleesCombat: r.fleesCombat,
    steps: r.steps,
  };
}

export interface GutsActionResult {
  update: GutsUpdate;
  passed: boolean;
  effect: number;
  total: number;
  target: number;
  /** Mercenary: the check failed and the model flees the combat (the GM moves it off; nothing else changes). */
  fleesCombat: boolean;
  steps: Step[];
}

/** The turn-by-turn re-check of a failed Guts check (Miniatures: Guts). */
export function gutsRecheckAction(
  actor: ActorDoc,
  faces: number[],
  turn: number,
  rules: WorldRules,
  user?: UserRef,
  index = 0,
  flags: GutsFlags = {},
): GutsActionResult {
  checkAllowed("rollTrait", user, actor);
  const g = miniGuts(actor, rules);
  const r = gutsRecheck(g.state, faces, turn, g.guts, 0, index, { ...g.traits, ...flags }, gutsRules(rules));
  return {
    update: { system: { "==gutsState": plain(r.state) } },
    passed: r.check.passed,
    effect: r.check.effect,
    total: r.check.total,
    target: r.check.target,
    fleesCombat: r.fleesCombat,
    steps: r.steps,
  };
}

/**
 * The Near Death Guts roll at the start of the model's turn (Miniatures: Wounds). "dead" marks
 * the track dead (the update); "veryHurt" and "nearDeath" leave the track to the GM (the rules
 * core has no "recover to Very Hurt" change yet) and return no update.
 */
export function nearDeathAction(
  actor: ActorDoc,
  faces: number[],
  rules: WorldRules,
  user?: UserRef,
): { result: string; total: number; steps: Step[]; update: ActorUpdate | null } {
  checkAllowed("rollTrait", user, actor);
  const g = miniGuts(actor, rules);
  const status = trackStatus(liveTrack(actor, rules));
  if (status.condition !== "dying")
    throw new RulesError("actor", "FUDGE.Error.NotNearDeath", `${actor.name} is not Near Death`, { name: actor.name });
  // Miniatures: Guts — a failure by 1 still in force lowers the Near Death roll too (gutsRollPenalty "allRolls").
  const r = nearDeathRoll(g.guts, faces, 0, "faces", g.state, gutsRules(rules));
  if (r.result !== "dead") return { result: r.result, total: r.total, steps: r.steps, update: null };
  const w = applyWound(liveTrack(actor, rules), { level: "dead" });
  return { result: r.result, total: r.total, steps: [...r.steps, ...w.steps], update: trackUpdate(w.track.state) };
}

/** Guts/Near Death and other follow-ups the card asks for (shown as prompts). */
export function followUpsOf(t: AttackCardTarget): AttackResolution["followUps"] {
  return ((t.resolution as AttackResolution | null)?.followUps ?? []).map((f) => ({ ...f }));
}

export { miniatureNumbers };
