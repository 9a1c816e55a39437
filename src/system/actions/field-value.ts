/** A sheet field's value checked against its spec (range, type): the one check of every inline edit. */
import { RulesError } from "../../rules";

import type { FieldSpec } from "../editable-fields";

export type { FieldSpec };

/** A form value parsed and range-checked by its field spec ("+2" and "−1" are numbers). */
export function fieldValue(spec: FieldSpec, field: string, raw: unknown): unknown {
  let value: unknown = raw;
  switch (spec.type) {
    case "int": {
      const n =
        typeof raw === "number"
          ? raw
          : typeof raw === "string"
            ? Number(
                raw
                  .trim()
                  .replace(/^\u2212/, "-")
                  .replace(/^\+/, ""),
              )
            : NaN;
      if (!Number.isInteger(n))
        throw new RulesError(field, "FUDGE.Error.NotInteger", `must be a whole number (got ${JSON.stringify(raw)})`, {
          value: String(raw),
        });
      if (n < spec.min || n > spec.max)
        throw new RulesError(field, "FUDGE.Error.OutOfRange", `must be between ${spec.min} and ${spec.max}`, {
          min: spec.min,
          max: spec.max,
          value: n,
        });
      value = n;
      break;
    }
    case "bool":
      if (typeof raw !== "boolean") throw new RulesError(field, "FUDGE.Error.NotBoolean", "must be true or false");
      break;
    case "text":
      if (typeof raw !== "string") throw new RulesError(field, "FUDGE.Error.NotString", "must be text");
      break;
    case "enum":
      if (typeof raw !== "string" || !spec.values.includes(raw))
        throw new RulesError(field, "FUDGE.Error.NotOneOf", `must be one of ${spec.values.join(", ")}`, {
          allowed: spec.values.join(", "),
        });
      break;
  }
  return value;
}
