import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import { at, type Path } from "../validate";

/** Each list of known fields as a Set, made once per list (lists are module constants). */
const knownSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Unknown fields are errors (a typo in a request would otherwise be silently ignored). */
export function rejectUnknown(o: Record<string, unknown>, known: readonly string[], path: Path): void {
  let set = knownSets.get(known);
  if (!set) knownSets.set(known, (set = new Set(known)));
  // for…in over own fields: Object.keys without its array (every request object passes here).
  for (const k in o) {
    if (!set.has(k) && Object.hasOwn(o, k)) throw new RulesError(at(path, k), "FUDGE.Error.Fudge.UnknownField", `unknown field (known: ${known.join(", ")})`, { known: known.join(", ") });
  }
}

/**
 * A step whose params also carry its value as players write it (`{value}` in the text: "+2",
 * "−1"), so that a card can render the line from the key and params alone.
 */
export function fstep(key: string, rule: string, value?: number, params: Record<string, string | number> = {}): Step {
  if (value === undefined) return step(key, rule, value, params);
  // As `{ value: signed(value), ...params }` (a param named value wins), without the spread's cost.
  const withValue: Record<string, string | number> = { value: signed(value) };
  for (const k in params) withValue[k] = params[k];
  return step(key, rule, value, withValue);
}
