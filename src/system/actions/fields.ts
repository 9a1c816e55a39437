/** Sheet field edits: each editable field's range, checked before the update. */
import { RulesError } from "../../rules";
import { CREATION_METHODS, type ActorDoc, type CreationMethod, type CustomWoundLevel, type WorldRules } from "../data";
import { UserRef, checkAllowed } from "../permissions";
import { customLevelsOf, standardCustomLevels, setCustomLevelField, hasPath } from "./custom-track";
import { fieldValue, type FieldSpec } from "./field-value";
import { EDITABLE_FIELDS, LADDER_FIELD } from "../editable-fields";

export { EDITABLE_FIELDS, LADDER_FIELD };

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
  // Attributes by the world's keys (src/system/attributes.ts): a ladder value each (Fudge §1.2).
  const attribute = /^attributes\.([a-z][A-Za-z0-9]{0,31})$/.test(path) && actor.type !== "miniature";
  const spec = attribute ? LADDER_FIELD : EDITABLE_FIELDS[path];
  if (!spec || (!attribute && !hasPath(actor.system, path)))
    throw new RulesError(field, "FUDGE.Error.UnknownField", `no editable field ${path} on ${actor.type}`, { path });
  const value = fieldValue(spec, field, raw);
  // Fudge §4.57 custom track: choosing it starts from the standard levels, which the sheet then edits.
  if (path === "woundTrack.preset" && value === "custom" && !customLevelsOf(actor).length)
    return { system: { woundTrack: { preset: "custom", customLevels: standardCustomLevels() } } };
  return { system: nested(path, value) };
}

/** Item fields an actor sheet edits inline (a skill's level by ladder name, Fudge §1.2). */
export const EDITABLE_ITEM_FIELDS: Record<string, FieldSpec> = { "system.level": LADDER_FIELD };

/**
 * Validates one inline edit of an owned item's field (the skill list's level picker) and returns
 * the item update; refused when the user may not edit the actor or the item is not its own.
 */
export function setItemField(
  actor: ActorDoc,
  itemId: string,
  path: string,
  raw: unknown,
  user?: UserRef,
): { itemId: string; update: Record<string, unknown> } {
  checkAllowed("edit", user, actor);
  const item = (actor.items ?? []).find((i) => i._id === itemId);
  // A weapon's skill: "" (the stated default) or one of the actor's own skills, never free text.
  const skills = (actor.items ?? []).filter((i) => i.type === "skill").map((i) => i.name);
  const spec =
    path === "system.skill" && item?.type === "weapon"
      ? ({ type: "enum", values: ["", ...skills] } as const)
      : item?.type === "skill"
        ? EDITABLE_ITEM_FIELDS[path]
        : undefined;
  if (!item || !spec)
    throw new RulesError(path, "FUDGE.Error.UnknownField", `no editable item field ${path}`, { path });
  return { itemId, update: nested(path, fieldValue(spec, path, raw)) };
}

/**
 * The world's creation method, picked by the GM on a character's creation panel (Fudge §1.5,
 * §1.6, Five-Point Fudge): the world setting's new value; refused for anyone but a GM.
 */
export function setCreationMethod(creation: WorldRules["creation"], raw: unknown, gm: boolean): WorldRules["creation"] {
  if (!gm) throw new RulesError("creation.method", "FUDGE.Error.GmOnlySetting", "only a GM changes a world setting");
  const method = fieldValue({ type: "enum", values: CREATION_METHODS }, "creation.method", raw) as CreationMethod;
  return { ...creation, method };
}
