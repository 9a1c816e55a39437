/** Wound-track edits from a sheet: a box toggled, healing, Volt recovery, a track reset. */
import { RulesError, isRulesError, type Step, healTrack, toggleBox, trackStatus, type Track } from "../../rules";
import { injuryToRecover, recoverAction } from "../../rules/volt";
import type { ActorDoc, CharacterData, WorldRules } from "../data";
import { trackFor } from "../combatant";
import { UserRef, allowed, refuseUnless, type Check } from "../permissions";
import { healInputsError } from "../heal";
import { ActorUpdate, trackUpdate } from "../updates";

export function liveTrack(actor: ActorDoc, rules: WorldRules): Track {
  return trackFor(actor, rules);
}

/** May `user` mark or clear this actor's wound boxes (the sheet's boxes, the Token HUD's + and −)? */
export function canToggleBox(actor: ActorDoc, user?: UserRef): Check {
  return allowed("toggleWoundBox", user, actor);
}

/** A click (or key press) on a wound box: mark it with its own level, or clear it. */
export function toggleWoundBox(actor: ActorDoc, ref: string, rules: WorldRules, user?: UserRef): ActorUpdate {
  refuseUnless(canToggleBox(actor, user));
  if (typeof ref !== "string" || !ref)
    throw new RulesError("ref", "FUDGE.Error.BadBoxRef", "a box reference is needed");
  const track = liveTrack(actor, rules);
  return trackUpdate(toggleBox(track, ref).state);
}

/**
 * May `user` heal this actor this way (the sheet's healing buttons, before the dialog and before
 * any die)? Permission; Volt: Recovery — the Injury recovery roll's value is the highest Injury:
 * with none there is nothing to roll for, and only a character has the Strength it rolls against.
 * With `inputs` (the healing dialog's numbers), each in its range.
 */
export function canHeal(
  actor: ActorDoc,
  type: string,
  rules: WorldRules,
  user?: UserRef,
  inputs?: Record<string, number>,
): Check {
  const denied = allowed("heal", user, actor);
  if (denied) return denied;
  if (type === "injuryRecovery") {
    if (actor.type === "miniature")
      return new RulesError("actor.type", "FUDGE.Error.NotCharacter", "injury recovery needs a Volt character", {
        name: actor.name,
      });
    let track: Track;
    try {
      track = liveTrack(actor, rules);
    } catch (e) {
      if (isRulesError(e)) return e;
      throw e;
    }
    if (track.config.kind === "volt" && injuryToRecover(track) === null)
      return new RulesError(
        "actor",
        "FUDGE.Volt.Error.NoInjuryToRecover",
        `${actor.name} has no Injury to recover from`,
        { name: actor.name },
      );
  }
  return inputs ? healInputsError(type, inputs) : null;
}

/** Healing of any kind the track supports (box: scratches/roll/natural/endRound; fate: endScene/consumeClipped; volt: rest/injuryRecovery). */
export function healWounds(
  actor: ActorDoc,
  healing: unknown,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  refuseUnless(canHeal(actor, String((healing as { type?: unknown } | null)?.type ?? ""), rules, user));
  const r = healTrack(liveTrack(actor, rules), healing);
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

/** May `user` make this actor's Volt Recover roll (Volt: Recovery — an action: one who cannot act makes no roll)? */
export function canRecover(actor: ActorDoc, rules: WorldRules, user?: UserRef): Check {
  const denied = allowed("heal", user, actor);
  if (denied) return denied;
  if (actor.type === "miniature")
    return new RulesError("actor.type", "FUDGE.Error.NotCharacter", "Recover needs a Volt character", {
      name: actor.name,
    });
  try {
    if (!trackStatus(liveTrack(actor, rules)).canAct)
      return new RulesError(
        "actor",
        "FUDGE.Volt.Error.RecoverCannotAct",
        `${actor.name} cannot act, so cannot Recover`,
        { name: actor.name },
      );
  } catch (e) {
    if (isRulesError(e)) return e;
    throw e;
  }
  return null;
}

/** Volt: the Recover action, from its two d20 (black, white). */
export function recover(
  actor: ActorDoc,
  black: number,
  white: number,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[]; success: boolean | null } {
  refuseUnless(canRecover(actor, rules, user));
  const d = actor.system as CharacterData;
  const r = recoverAction(liveTrack(actor, rules), d.volt.willpower, black, white);
  return { update: trackUpdate(r.track.state), steps: r.steps, success: r.roll ? r.roll.success : null };
}

/** May `user` reset or edit this actor's track and fields (GM or owner)? */
export function canEdit(actor: ActorDoc, user?: UserRef): Check {
  return allowed("edit", user, actor);
}

/** Resets a track whose stored state no longer fits (after a preset change): GM or owner, explicit. */
export function resetTrack(actor: ActorDoc, user?: UserRef): ActorUpdate {
  refuseUnless(canEdit(actor, user));
  return trackUpdate(null);
}
