/**
 * The wound track and the fields of a sheet: a box marked or cleared (the sheet's boxes and the
 * Token HUD's + and −), the track reset, automatic death and its undo (RULES §2.2, GM only), the
 * custom track's levels (Fudge §4.57), a field edited. Each reads the actor in its turn of the
 * serialised write, so it sees every earlier write to it.
 */
import * as actions from "../actions";
import { readActor } from "../combatant";
import type { ActorDoc, WorldRules } from "../data";
import type { HostPort } from "./port";
import { liveActor } from "./read";

/** Computes an update from the actor as it is in its turn and writes it (null: nothing to write). */
export async function changeActor(
  port: HostPort,
  actorRef: string,
  compute: (doc: ActorDoc, rules: WorldRules) => { system?: unknown; flags?: unknown } | null,
): Promise<void> {
  const rules = port.rules();
  await port.writeActor(actorRef, async (turn) => {
    const u = compute(readActor(turn.read(), rules), rules);
    if (u) await turn.write(u);
  });
}

/** A click (or key press) on a wound box, or the Token HUD's + / −: mark it with its own level, or clear it. */
export const toggleBox = (port: HostPort, actorRef: string, ref: string): Promise<void> =>
  changeActor(port, actorRef, (doc, rules) => actions.toggleWoundBox(doc, ref, rules, port.user));

/** Resets a track whose stored state no longer fits (after a preset change), after the user confirms. */
export async function resetTrack(port: HostPort, actorRef: string): Promise<void> {
  actions.refuseUnless(actions.canEdit(liveActor(port, actorRef, port.rules()), port.user));
  if (!(await port.confirm("FUDGE.Sheet.ResetTrack", port.i18n.localize("FUDGE.Sheet.ResetTrackConfirm")))) return;
  await changeActor(port, actorRef, (doc) => actions.resetTrack(doc, port.user));
}

/** RULES §2.2 automatic death (GM only, no roll): refused for a player before anything is asked; confirmed; the track marked Dead. */
export async function kill(port: HostPort, actorRef: string): Promise<void> {
  const actor = liveActor(port, actorRef, port.rules());
  if (!port.user.isGM) throw actions.killRefusal(actor.name);
  if (!(await port.confirm("FUDGE.Sheet.Kill", port.i18n.format("FUDGE.Sheet.KillConfirm", { name: actor.name }))))
    return;
  await changeActor(port, actorRef, (doc, rules) => actions.killActor(doc, rules, port.user).update);
}

/**
 * Undo of the automatic death (GM only): confirmed with what it restores (the track before the
 * kill, from the GM's own record), then the track restored from that record, read from the live actor.
 */
export async function undoKill(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const doc = liveActor(port, actorRef, rules);
  const s = actions.killUndoSummary(doc, rules, port.user);
  const text = port.i18n.format("FUDGE.Sheet.UndoKillConfirm", {
    name: doc.name,
    level: port.i18n.localize(s.level || "FUDGE.Sheet.UndoKillUnhurt"),
    penalty: s.penalty === 0 ? "0" : `−${Math.abs(s.penalty)}`,
    by: port.userName(s.by),
    time: new Date(s.at).toLocaleString(),
  });
  if (!(await port.confirm("FUDGE.Sheet.UndoKill", text))) return;
  await changeActor(port, actorRef, (live, r) => actions.undoKill(live, r, port.user));
}

/** Fudge §4.57 custom track: add a level, or remove the row's level. */
export const editCustomLevels = (
  port: HostPort,
  actorRef: string,
  op: "add" | "remove",
  index: number,
): Promise<void> => changeActor(port, actorRef, (doc) => actions.editCustomLevels(doc, op, index, port.user));

/** A sheet field edited (`path` inside `system`, range-checked by setActorField). */
export const editField = (port: HostPort, actorRef: string, path: string, raw: unknown): Promise<void> =>
  changeActor(port, actorRef, (doc) => actions.setActorField(doc, path, raw, port.user));
