/**
 * Field builders shared by the data models. Ranges come from the rules: ladder traits run
 * Terrible −3 … Legendary +4 with room beyond for superhuman values (Fudge §1.3: off-ladder
 * values are named from the nearest end), Scale is open-ended (Fudge §4.58).
 */
import { EDITABLE_FIELDS } from "../../system/editable-fields";
import { ATTRIBUTE_KEY, ATTRIBUTE_LIMITS } from "../../system/attributes";
import { STORE_BOUNDS, maxChars } from "../../system/bounds";

const fields = foundry.data.fields;

/** A whole number in [min, max]. */
export const int = (initial: number, min: number, max: number) =>
  new fields.NumberField({ required: true, nullable: false, integer: true, initial, min, max });

/** A trait on the ladder (Fudge §1.3): −10 … +10 leaves room beyond Terrible and Legendary. */
export const ladder = (initial = 0) => int(initial, -10, 10);

export const bool = (initial = false) => new fields.BooleanField({ required: true, initial });

/** A short text field, at most `max` characters (STORE_BOUNDS.text; v13 has no string length option: a `validate`). */
export const text = (initial = "", max: number = STORE_BOUNDS.text) =>
  new fields.StringField({ required: true, blank: true, initial, validate: maxChars(max) as never });

/**
 * Notes and descriptions: HTML, edited with Foundry's `<prose-mirror>`. Declared in system.json's
 * `documentTypes.*.htmlFields` too, so Foundry's server cleans every write (src/system/rich-text.ts).
 */
export const richText = () =>
  new fields.HTMLField({
    required: true,
    blank: true,
    initial: "",
    validate: maxChars(STORE_BOUNDS.richText) as never,
  });

export const choice = <T extends string>(choices: readonly T[], initial: T) =>
  new fields.StringField({ required: true, blank: false, choices: [...choices], initial });

/**
 * A kind-specific JSON state of a wound track (validated by the rules core, not here); null =
 * unhurt. Its size is bounded by the actor models' validateJoint (STORE_BOUNDS.trackState: an
 * ObjectField's own validate sees only the changed part of a partial update).
 */
export const trackState = () => new fields.ObjectField({ required: true, nullable: true, initial: null });

/**
 * A whole-number field whose range is the one src/system's sheet editing accepts
 * (EDITABLE_FIELDS), so the sheet, the data model and the rules core agree on it.
 */
export function editableInt(path: string, initial: number) {
  const spec = EDITABLE_FIELDS[path];
  if (!spec || spec.type !== "int")
    throw new Error(`no whole-number editable field ${path} in src/system/editable-fields.ts`);
  return int(initial, spec.min, spec.max);
}

/**
 * An actor's attribute levels by key (Fudge §1.31: the world's own attributes): a ladder value
 * per key, keys letters and digits, at most ATTRIBUTE_LIMITS.count of them (a player's write is bounded).
 */
export function attributeLevels(initial: Record<string, number>) {
  return new fields.TypedObjectField(ladder(0), {
    required: true,
    initial: () => ({ ...initial }),
    validateKey: (k: string) => ATTRIBUTE_KEY.test(k),
    validate: (v: unknown) => {
      if (v && typeof v === "object" && Object.keys(v).length > ATTRIBUTE_LIMITS.count)
        throw new Error(`at most ${ATTRIBUTE_LIMITS.count} attributes`);
    },
  });
}
