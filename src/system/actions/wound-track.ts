/** Wound-track edits from a sheet: a box toggled, healing, Volt recovery, a track reset. */
import { RulesError, type Step, healTrack, toggleBox, trackStatus, type Track } from "../../rules";
import { injuryToRecover, recoverAction } from "../../rules/volt";
import type { ActorDoc, CharacterData, WorldRules } from "../data";
import { trackFor } from "../combatant";
import { UserRef, checkAllowed } from "../permissions";
import { ActorUpdate, trackUpdate } from "../updates";

export function liveTrack(actor: ActorDoc, rules: WorldRules): Track {
  return trackFor(actor, rules);
}

/** A click (or key press) on a wound box: mark it with its own level, or clear it. */
export function toggleWoundBox(actor: ActorDoc, ref: string, rules: WorldRules, user?: UserRef): ActorUpdate {
  checkAllowed("toggleWoundBox", user, actor);
  if (typeof ref !== "string" || !ref)
    throw new RulesError("ref", "FUDGE.Error.BadBoxRef", "a box reference is needed");
  const track = liveTrack(actor, rules);
  return trackUpdate(toggleBox(track, ref).state);
}

/** Healing of any kind the track supports (box: scratches/roll/natural/endRound; fate: endScene/consumeClipped; volt: rest/injuryRecovery). */
export function healWounds(
  actor: ActorDoc,
  healing: unknown,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  checkAllowed("heal", user, actor);
  const track = liveTrack(actor, rules);
  // Volt: Recovery — the Injury recovery roll's value is the highest Injury: with none there is
  // nothing to roll for (refused before any die is rolled, as the hosts call this first).
  if (
    (healing as { type?: unknown } | null)?.type === "injuryRecovery" &&
    track.config.kind === "volt" &&
    injuryToRecover(track) === null
  )
    throw new RulesError("actor", "FUDGE.Volt.Error.NoInjuryToRecover", `${actor.name} has no Injury to recover from`, {
      name: actor.name,
    });
  const r = healTrack(track, healing);
  return { update: trackUpdate(r.track.state), steps: r.steps };
}

/** Clears Scratches (Fudge §4.8: after the fight). */
export function clearScratches(
  actor: ActorDoc,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  return healWounds(actor, { type: "scratches" }, rules, user);
}

/** Volt: the Injury recovery roll (monthly by default), with an optional medical result (Volt: Recovery). */
export function injuryRecovery(
  actor: ActorDoc,
  black: number,
  white: number,
  rules: WorldRules,
  medical = 0,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "Injury recovery needs a Volt character", {
      name: actor.name,
    });
  return healWounds(
    actor,
    { type: "injuryRecovery", black, white, strength: (actor.system as CharacterData).volt.strength, medical },
    rules,
    user,
  );
}

/** Volt: the Recover action, from its two d20 (black, white). */
export function recover(
  actor: ActorDoc,
  black: number,
  white: number,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[]; success: boolean | null } {
  checkAllowed("heal", user, actor);
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "Recover needs a Volt character", {
      name: actor.name,
    });
  const d = actor.system as CharacterData;
  const track = liveTrack(actor, rules);
  // Volt: Recovery — Recover is an action: one who cannot act makes no roll (refused before any die is rolled).
  if (!trackStatus(track).canAct)
    throw new RulesError("actor", "FUDGE.Volt.Error.RecoverCannotAct", `${actor.name} cannot act, so cannot Recover`, {
      name: actor.name,
    });
  const r = recoverAction(track, d.volt.willpower, black, white);
  return { update: trackUpdate(r.track.state), steps: r.steps, success: r.roll ? r.roll.success : null };
}

/** Resets a track whose stored state no longer fits (after a preset change): GM or owner, explicit. */
export function resetTrack(actor: ActorDoc, user?: UserRef): ActorUpdate {
  checkAllowed("edit", user, actor);
  return trackUpdate(null);
}
