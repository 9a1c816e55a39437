import { RulesError } from "../errors";
import { signed, type Step } from "../explain";
import { at, type Path } from "../validate";

/**
 * Unknown fields are errors (a typo in a request would otherwise be silently ignored). Fields
 * usually arrive in the listed order (sheets and cards build them so), so each field's search
 * starts just after the last one found: one comparison per field instead of a hashed lookup
 * (every request object passes here; the lookups were a sixth of a parse).
 */
export function rejectUnknown(o: Record<string, unknown>, known: readonly string[], path: Path): void {
  const n = known.length;
  let j = 0;
  // for…in over own fields: Object.keys without its array.
  for (const k in o) {
    // The field expected next (nearly always): one comparison.
    if (known[j] === k) {
      j = j + 1 === n ? 0 : j + 1;
      continue;
    }
    let found = false;
    for (let t = 1; t < n; t++) {
      j = j + 1 === n ? 0 : j + 1;
      if (known[j] === k) {
        found = true;
        j = j + 1 === n ? 0 : j + 1;
        break;
      }
    }
    if (!found && Object.hasOwn(o, k))
      throw new RulesError(
        at(path, k),
        "FUDGE.Error.Fudge.UnknownField",
        `unknown field (known: ${known.join(", ")})`,
        { known: known.join(", ") },
      );
  }
}

/**
 * A step whose params also carry its value as players write it (`{value}` in the text: "+2",
 * "−1"), so that a card can render the line from the key and params alone.
 */
export function fstep(key: string, rule: string, value?: number, params?: Record<string, string | number>): Step {
  if (value === undefined) return { key, rule, params: params ?? {} };
  if (params === undefined) return { key, rule, value, params: { value: signed(value) } };
  // As `{ value: signed(value), ...params }` (a param named value wins), without the spread's cost.
  const withValue: Record<string, string | number> = { value: signed(value) };
  for (const k in params) withValue[k] = params[k];
  return { key, rule, value, params: withValue };
}

/**
 * fstep for a hot path: `params` already starts with `value: signed(value)` (the caller's object
 * literal, of one shape at each call site), so nothing is copied. Same step as fstep builds.
 */
export function vstep(
  key: string,
  rule: string,
  value: number,
  params: { value: string } & Record<string, string | number>,
): Step {
  return { key, rule, value, params };
}
