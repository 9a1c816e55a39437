/**
 * The world's attributes (Fudge §1.31: "the GM decides how many attributes she deems necessary";
 * none is mandatory) and which of them the wound rules read as Strength, Damage Capacity,
 * Willpower and Mass (Fudge §4.54, §4.52, §4.51). An actor stores its levels by attribute key, so
 * renaming an attribute touches no actor, and removing one keeps its stored level.
 */
import { RulesError } from "../rules";

export const ATTRIBUTE_ROLES = ["strength", "damageCapacity", "willpower", "mass"] as const;
export type AttributeRole = (typeof ATTRIBUTE_ROLES)[number];

/** One attribute of the world: a stable key and a name ("" = the system's own name for the key). */
export interface AttributeDef {
  key: string;
  name: string;
}

export interface AttributeSet {
  attributes: AttributeDef[];
  /** The key of the attribute that plays each role; "" = none (the rule reads Fair). */
  roles: Record<AttributeRole, string>;
}

/** Bounds on what a GM stores (every array and string is bounded). */
export const ATTRIBUTE_LIMITS = { count: 24, key: 32, name: 64 } as const;
export const ATTRIBUTE_KEY = /^[a-z][A-Za-z0-9]{0,31}$/;
/** Attribute keys the system names itself (FUDGE.Attribute.*), when the set gives no name. */
export const KNOWN_ATTRIBUTES = [
  "strength",
  "damageCapacity",
  "willpower",
  "mass",
  "reasoning",
  "perception",
  "agility",
  "health",
] as const;

/**
 * The sets a GM starts from. "wounds": the four attributes the wound rules name (Fudge §4.5x;
 * what every world had before attribute sets). "fivePoint": Fantasy Fudge's six (Fudge SRD,
 * Fantasy Fudge "Attributes"), Health playing Damage Capacity (Fudge §4.52: DC "may be tied to a
 * character trait such as Constitution"), Mass left Fair (Fudge §4.54).
 */
export const ATTRIBUTE_SET_PRESETS: Record<"wounds" | "fivePoint", () => AttributeSet> = {
  wounds: () => ({
    attributes: ATTRIBUTE_ROLES.map((key) => ({ key, name: "" })),
    roles: { strength: "strength", damageCapacity: "damageCapacity", willpower: "willpower", mass: "mass" },
  }),
  fivePoint: () => ({
    attributes: ["reasoning", "perception", "willpower", "strength", "agility", "health"].map((key) => ({
      key,
      name: "",
    })),
    roles: { strength: "strength", damageCapacity: "health", willpower: "willpower", mass: "" },
  }),
};

export const defaultAttributeSet = (): AttributeSet => ATTRIBUTE_SET_PRESETS.wounds();

/** The localized name key of an attribute the set leaves unnamed, or "" when it has its own name. */
export const attributeLabelKey = (a: AttributeDef): string =>
  a.name ? "" : (KNOWN_ATTRIBUTES as readonly string[]).includes(a.key) ? `FUDGE.Attribute.${a.key}` : "";

/** An attribute's level on an actor (Fair when it has none stored: Fudge §1.61, every attribute starts Fair). */
export function attributeLevel(attributes: Record<string, unknown> | undefined, key: string): number {
  const v = key ? attributes?.[key] : undefined;
  return typeof v === "number" && Number.isInteger(v) ? v : 0;
}

/** The level the wound rules read for a role: its attribute's, or Fair when no attribute plays it. */
export function roleLevel(attributes: Record<string, unknown> | undefined, set: AttributeSet, role: AttributeRole) {
  return attributeLevel(attributes, set.roles[role] ?? "");
}

const fail = (field: string, key: string, msg: string, params: Record<string, string | number> = {}): never => {
  throw new RulesError(field, key, msg, params);
};

/** A stored or edited set checked: keys unique and well formed, names bounded, roles on attributes of the set. */
export function checkAttributeSet(set: AttributeSet): AttributeSet {
  const list = Array.isArray(set?.attributes) ? set.attributes : [];
  if (list.length > ATTRIBUTE_LIMITS.count)
    fail("attributeSet.attributes", "FUDGE.Error.AttributeSetTooLong", "too many attributes", {
      max: ATTRIBUTE_LIMITS.count,
    });
  const seen = new Set<string>();
  list.forEach((a, i) => {
    const field = `attributeSet.attributes.${i}`;
    if (typeof a?.key !== "string" || !ATTRIBUTE_KEY.test(a.key))
      fail(`${field}.key`, "FUDGE.Error.AttributeKey", "an attribute key is letters and digits", { row: i + 1 });
    if (seen.has(a.key))
      fail(`${field}.key`, "FUDGE.Error.AttributeKeyTwice", "two attributes share a key", { row: i + 1 });
    seen.add(a.key);
    if (typeof a.name !== "string" || a.name.length > ATTRIBUTE_LIMITS.name)
      fail(`${field}.name`, "FUDGE.Error.AttributeName", "an attribute name is at most 64 characters", {
        row: i + 1,
        max: ATTRIBUTE_LIMITS.name,
      });
  });
  for (const role of ATTRIBUTE_ROLES) {
    const key = set.roles?.[role] ?? "";
    if (key && !seen.has(key))
      fail(`attributeSet.roles.${role}`, "FUDGE.Error.AttributeRoleMissing", "a role names no attribute of the set", {
        role,
      });
  }
  return set;
}

/**
 * A set with one attribute removed — refused while that attribute plays a role in the wound rules,
 * so the GM moves the role first and no rule silently reads Fair (the actors' levels stay stored).
 */
export function removeAttribute(set: AttributeSet, index: number): AttributeSet {
  const a = set.attributes[index];
  if (!a) return set;
  const role = ATTRIBUTE_ROLES.find((r) => set.roles[r] === a.key);
  if (role)
    fail(`attributeSet.attributes.${index}`, "FUDGE.Error.AttributeHasRole", "this attribute plays a role", {
      name: a.name || a.key,
      role,
    });
  return { ...set, attributes: set.attributes.filter((_, i) => i !== index) };
}

/** A fresh key for a new attribute: "attribute1", "attribute2" … not yet in the set. */
export function newAttributeKey(set: AttributeSet): string {
  for (let i = 1; ; i++) if (!set.attributes.some((a) => a.key === `attribute${i}`)) return `attribute${i}`;
}

/**
 * What an actor's stored levels become when the world's set changes: each role whose attribute
 * moved to another key carries its level there (an old world's Damage Capacity becomes its
 * Health). Nothing is deleted; a level already stored under the new key is kept. Null = no change.
 */
export function remapAttributes(
  attributes: Record<string, unknown> | undefined,
  from: AttributeSet,
  to: AttributeSet,
): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const role of ATTRIBUTE_ROLES) {
    const a = from.roles[role];
    const b = to.roles[role];
    if (!a || !b || a === b) continue;
    if (attributes && typeof attributes[b] === "number") continue;
    const level = attributeLevel(attributes, a);
    if (level !== 0) out[b] = level;
  }
  return Object.keys(out).length ? out : null;
}
