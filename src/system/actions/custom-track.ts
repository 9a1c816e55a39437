/** The custom wound track (Fudge §4.57: "any levels, boxes, thresholds and penalties") edited on a sheet. */
import { RulesError } from "../../rules";
import type { ActorDoc, CharacterData, CustomWoundLevel } from "../data";
import { boxTrackConfig } from "../../rules/fudge";
import { customBoxLevels } from "../combatant";
import { UserRef, checkAllowed } from "../permissions";
import { fieldValue, type FieldSpec } from "./field-value";
import { REPLACE_STATE_KEY } from "../updates";

export const CUSTOM_FIELDS: Record<string, FieldSpec> = {
  label: { type: "text" },
  boxes: { type: "int", min: 0, max: 10 },
  penalty: { type: "int", min: -10, max: 0 },
  threshold: { type: "int", min: 1, max: 99 },
  effect: { type: "enum", values: ["", "cannotAct", "dying"] },
  // Fudge §4.51 Light Wound ("no penalty during combat … after combat … -1"); blank = none.
  afterCombatPenalty: { type: "int", min: -10, max: 0 },
};

export function customLevelsOf(actor: ActorDoc): CustomWoundLevel[] {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.UnknownField", "miniatures have no custom wound track", {
      path: "woundTrack.customLevels",
    });
  return structuredClone((actor.system as CharacterData).woundTrack.customLevels ?? []);
}

/** The standard track (Fudge §4.57) as editable custom levels. */
export function standardCustomLevels(): CustomWoundLevel[] {
  return boxTrackConfig("standard").levels.map((l) => ({
    key: l.key,
    label: "",
    boxes: l.boxes,
    penalty: l.penalty,
    threshold: l.min ?? 1,
    effect: l.effect === "cannotAct" || l.effect === "dying" ? l.effect : "",
  }));
}

/** The levels as the rules core will read them: validated (thresholds rising, boxes, penalties). */
function checkedCustomLevels(levels: CustomWoundLevel[], field: string): { system: Record<string, unknown> } {
  try {
    boxTrackConfig("custom", { levels: customBoxLevels(levels) });
  } catch (e) {
    if (e instanceof RulesError) throw new RulesError(field, e.key, e.message.replace(/^[^:]*: /, ""), e.params);
    throw e;
  }
  return { system: { woundTrack: { customLevels: levels } } };
}

export function setCustomLevelField(
  actor: ActorDoc,
  index: number,
  key: keyof CustomWoundLevel,
  raw: unknown,
): { system: Record<string, unknown> } {
  const levels = customLevelsOf(actor);
  const field = `system.woundTrack.customLevels.${index}.${key}`;
  if (!levels[index])
    throw new RulesError(field, "FUDGE.Error.UnknownField", `no custom level ${index}`, { path: field });
  // A blank after-combat penalty is none: the level's penalty in and out of combat.
  const blank = key === "afterCombatPenalty" && (raw === null || (typeof raw === "string" && raw.trim() === ""));
  (levels[index] as unknown as Record<string, unknown>)[key] = blank
    ? null
    : fieldValue(CUSTOM_FIELDS[key], field, raw);
  return checkedCustomLevels(levels, field);
}

/** Adds a level after the last one, or removes one (at least one stays). */
export function editCustomLevels(
  actor: ActorDoc,
  op: "add" | "remove",
  index: number,
  user?: UserRef,
): { system: Record<string, unknown> } {
  checkAllowed("edit", user, actor);
  const levels = customLevelsOf(actor);
  const field = "system.woundTrack.customLevels";
  if (op === "add") {
    const last = levels[levels.length - 1];
    let n = levels.length + 1;
    while (levels.some((l) => l.key === `level${n}`)) n++;
    levels.push({
      key: `level${n}`,
      label: `Level ${n}`,
      boxes: 1,
      penalty: last ? Math.max(-10, last.penalty - 1) : 0,
      threshold: last ? Math.min(99, last.threshold + 2) : 1,
      effect: last?.effect ?? "",
    });
  } else {
    if (!levels[index])
      throw new RulesError(`${field}.${index}`, "FUDGE.Error.UnknownField", `no custom level ${index}`, {
        path: `${field}.${index}`,
      });
    if (levels.length === 1)
      throw new RulesError(field, "FUDGE.Error.CustomLevelsMissing", "a custom wound track needs at least one level");
    const [gone] = levels.splice(index, 1);
    const state = stateWithout(actor, gone, `${field}.${index}`);
    const update = checkedCustomLevels(levels, field);
    // The level's (empty) row leaves the stored track with it: a track naming an unknown level would not read.
    if (state !== undefined) (update.system.woundTrack as Record<string, unknown>)[REPLACE_STATE_KEY] = state;
    return update;
  }
  return checkedCustomLevels(levels, field);
}

/**
 * The stored track without the removed level's row, or undefined when the custom track is not the
 * one in use (its state is another track's). A level that still holds marks (its own boxes, or a
 * wound that rolled up from it) is refused: the user clears them first, nothing is lost silently.
 */
function stateWithout(actor: ActorDoc, level: CustomWoundLevel, field: string): unknown {
  const track = (actor.system as CharacterData).woundTrack;
  if (track.preset !== "custom") return undefined;
  const state = structuredClone((track.state ?? null) as { marks?: Record<string, unknown> } | null);
  const marks = state?.marks && typeof state.marks === "object" ? state.marks : {};
  const own = Array.isArray(marks[level.key]) ? (marks[level.key] as unknown[]).filter((m) => m !== null).length : 0;
  const from = (m: unknown) => (m as { level?: unknown } | null)?.level === level.key;
  const rolled = Object.entries(marks)
    .filter(([k, v]) => k !== level.key && Array.isArray(v))
    .reduce((n, [, v]) => n + (v as unknown[]).filter(from).length, 0);
  // The level as the sheet names it: its own label, else its standard name (a key the sentence localizes).
  const name = level.label || `FUDGE.Wound.${level.key}`;
  if (own + rolled > 0)
    throw new RulesError(field, "FUDGE.Error.CustomLevelMarked", `${level.label || level.key} still holds marks`, {
      level: name,
      count: own + rolled,
    });
  if (!state || !(level.key in marks)) return undefined;
  delete marks[level.key];
  return state;
}

export function hasPath(obj: unknown, path: string): boolean {
  let o = obj as Record<string, unknown> | undefined;
  for (const k of path.split(".")) {
    if (!o || typeof o !== "object" || !(k in o)) return false;
    o = o[k] as Record<string, unknown>;
  }
  return true;
}
