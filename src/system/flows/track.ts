/**
 * The wound track and the fields of a sheet: a box marked or cleared (the sheet's boxes and the
 * Token HUD's + and −), the track reset, automatic death and its undo (RULES §2.2, GM only), the
 * custom track's levels (Fudge §4.57), a field edited. Each reads the actor in its turn of the
 * serialised write, so it sees every earlier write to it.
 */
import * as actions from "../actions";
import type { HostPort } from "./port";
import { liveActor } from "./read";
import { reduceWound, refundWound } from "../fudge-point-spend";

/**
 * A click (or key press) on a wound box, or the Token HUD's + / −: mark it with its own level, or
 * clear it; `intent` says which the user asked (writes.ts toggleBox), as the writer reads the track.
 */
export const toggleBox = (
  port: HostPort,
  actorRef: string,
  ref: string,
  intent: { mark?: boolean; level?: string } = {},
): Promise<void> => port.changeActor(actorRef, { kind: "toggleBox", ref, ...intent }).then(() => undefined);

/** Resets a track whose stored state no longer fits (after a preset change), after the user confirms. */
export async function resetTrack(port: HostPort, actorRef: string): Promise<void> {
  actions.refuseUnless(actions.canEdit(liveActor(port, actorRef, port.rules()), port.user));
  if (!(await port.confirm("FUDGE.Sheet.ResetTrack", port.i18n.localize("FUDGE.Sheet.ResetTrackConfirm")))) return;
  await port.changeActor(actorRef, { kind: "resetTrack" });
}

/** RULES §2.2 automatic death (GM only, no roll): refused for a player before anything is asked; confirmed; the track marked Dead. */
export async function kill(port: HostPort, actorRef: string): Promise<void> {
  const actor = liveActor(port, actorRef, port.rules());
  if (!port.user.isGM) throw actions.killRefusal(actor.name);
  if (!(await port.confirm("FUDGE.Sheet.Kill", port.i18n.format("FUDGE.Sheet.KillConfirm", { name: actor.name }))))
    return;
  await port.changeActor(actorRef, { kind: "kill" });
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
  await port.changeActor(actorRef, { kind: "undoKill" });
}

/** Fudge §4.57 custom track: add a level, or remove the row's level. */
export const editCustomLevels = (
  port: HostPort,
  actorRef: string,
  op: "add" | "remove",
  index: number,
): Promise<void> => port.changeActor(actorRef, { kind: "customLevels", op, index }).then(() => undefined);

/** A sheet field edited (`path` inside `system`, range-checked by setActorField). */
export const editField = (port: HostPort, actorRef: string, path: string, raw: unknown): Promise<void> =>
  port.changeActor(actorRef, { kind: "field", path, raw: fieldRaw(raw) }).then(() => undefined);

/** A field's raw value as the form gives it (a string, number or checkbox); anything else is sent as its text. */
const fieldRaw = (raw: unknown): string | number | boolean | null =>
  raw === null || typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? raw : String(raw);

/**
 * Fudge §1.36 on the wound track: the owner spends a Fudge Point to make a wound one level less
 * (a Hurt becomes a Scratch). Refused here first (a sentence, nothing written); the writer spends
 * it again from the live actor in its turn.
 */
export async function reduceWoundWithFudgePoint(port: HostPort, actorRef: string, level: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  reduceWound(actor, level, rules, port.user, new Date().toISOString());
  await port.changeActor(actorRef, { kind: "reduceWound", level });
  port.notify("FUDGE.FudgePoint.WoundReduced", { name: actor.name });
}

/** The sheet's Undo of a wound's Fudge Point: the wound back and the point refunded, while the log holds the spend. */
export async function refundWoundFudgePoint(port: HostPort, actorRef: string, spend: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  refundWound(actor, spend, rules, port.user);
  await port.changeActor(actorRef, { kind: "refundWound", spend });
  port.notify("FUDGE.FudgePoint.Refunded", { name: actor.name });
}
