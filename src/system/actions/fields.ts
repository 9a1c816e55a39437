/** Sheet field edits: each editable field's range, checked before the update. */
import { RulesError } from "../../rules";
import type { ActorDoc, CustomWoundLevel } from "../data";
import { UserRef, checkAllowed } from "../permissions";
import { customLevelsOf, standardCustomLevels, setCustomLevelField, hasPath } from "./custom-track";
import { fieldValue } from "./field-value";
import { EDITABLE_FIELDS } from "../editable-fields";

export { EDITABLE_FIELDS };

/** Sets a nested value on a fresh object: setPath("a.b", 1) → { a: { b: 1 } }. */
export function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split(".")
    .reverse()
    .reduce<unknown>((acc, k) => ({ [k]: acc }), value) as Record<string, unknown>;
}

/**
 * Validates one edited sheet field (`path` inside `system`, e.g. "attributes.strength") and
 * returns the nested update. Strings from form inputs are parsed ("+2", "−1", "3").
 */
export function setActorField(
  actor: ActorDoc,
  path: string,
  raw: unknown,
  user?: UserRef,
): { system: Record<string, unknown> } {
  checkAllowed("edit", user, actor);
  const field = `system.${path}`;
  const custom = /^woundTrack\.customLevels\.(\d+)\.(label|boxes|penalty|threshold|effect|afterCombatPenalty)$/.exec(
    path,
  );
  if (custom) return setCustomLevelField(actor, Number(custom[1]), custom[2] as keyof CustomWoundLevel, raw);
  const spec = EDITABLE_FIELDS[path];
  if (!spec || !hasPath(actor.system, path))
    throw new RulesError(field, "FUDGE.Error.UnknownField", `no editable field ${path} on ${actor.type}`, { path });
  const value = fieldValue(spec, field, raw);
  // Fudge §4.57 custom track: choosing it starts from the standard levels, which the sheet then edits.
  if (path === "woundTrack.preset" && value === "custom" && !customLevelsOf(actor).length)
    return { system: { woundTrack: { preset: "custom", customLevels: standardCustomLevels() } } };
  return { system: nested(path, value) };
}
