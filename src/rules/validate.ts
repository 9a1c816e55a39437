/**
 * Small validators for plain JSON input. Each takes the value and its dotted path and either
 * returns the typed value or throws a RulesError naming that path.
 */
import { RulesError } from "./errors";

export type Path = string;

/** A bad value as an error message shows it: short, and never a stack overflow on deep input. */
export function shown(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null || typeof v !== "object") return String(v);
  try {
    const j = JSON.stringify(v);
    return j.length > 60 ? `${j.slice(0, 60)}…` : j;
  } catch {
    return Array.isArray(v) ? "a list" : "an object"; // too deep to show
  }
}

export const at = (path: Path, key: string | number): Path =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function record(v: unknown, path: Path): Record<string, unknown> {
  if (!isRecord(v)) throw new RulesError(path, "FUDGE.Error.NotObject", "must be an object");
  return v;
}

export function int(v: unknown, path: Path, min = -Infinity, max = Infinity): number {
  if (typeof v !== "number" || !Number.isInteger(v))
    throw new RulesError(path, "FUDGE.Error.NotInteger", `must be a whole number (got ${shown(v)})`);
  if (v < min || v > max)
    throw new RulesError(path, "FUDGE.Error.OutOfRange", `must be between ${min} and ${max} (got ${v})`, {
      min,
      max,
      value: v,
    });
  return v;
}

export function optInt(v: unknown, path: Path, fallback: number, min = -Infinity, max = Infinity): number {
  return v === undefined || v === null ? fallback : int(v, path, min, max);
}

export function num(v: unknown, path: Path, min = -Infinity, max = Infinity): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new RulesError(path, "FUDGE.Error.NotNumber", `must be a number (got ${shown(v)})`);
  if (v < min || v > max)
    throw new RulesError(path, "FUDGE.Error.OutOfRange", `must be between ${min} and ${max} (got ${v})`, {
      min,
      max,
      value: v,
    });
  return v;
}

export function bool(v: unknown, path: Path, fallback?: boolean): boolean {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "boolean")
    throw new RulesError(path, "FUDGE.Error.NotBoolean", `must be true or false (got ${shown(v)})`);
  return v;
}

export function str(v: unknown, path: Path, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "string") throw new RulesError(path, "FUDGE.Error.NotString", `must be text (got ${shown(v)})`);
  return v;
}

export function oneOf<T extends string>(v: unknown, path: Path, allowed: readonly T[], fallback?: T): T {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v))
    throw new RulesError(path, "FUDGE.Error.NotOneOf", `must be one of ${allowed.join(", ")} (got ${shown(v)})`, {
      allowed: allowed.join(", "),
    });
  return v as T;
}

export function array(v: unknown, path: Path, minLength = 0, maxLength = Infinity): unknown[] {
  if (!Array.isArray(v)) throw new RulesError(path, "FUDGE.Error.NotArray", "must be a list");
  if (v.length < minLength || v.length > maxLength)
    throw new RulesError(
      path,
      "FUDGE.Error.BadLength",
      `must hold ${minLength}${maxLength === Infinity ? " or more" : `–${maxLength}`} entries (got ${v.length})`,
      {
        min: minLength,
        max: maxLength === Infinity ? "∞" : maxLength,
      },
    );
  // A list built in JavaScript may have holes (JSON cannot): each entry must be there.
  for (let i = 0; i < v.length; i++)
    if (!(i in v)) throw new RulesError(at(path, i), "FUDGE.Error.ListHole", "is missing (a hole in the list)");
  return v;
}

/**
 * Bounds the shape of untrusted JSON before anything recursive reads it: nesting deeper than
 * `maxDepth` or more than `maxNodes` values is refused (iteratively: a request 8,000 levels
 * deep must give a clear error, not a stack overflow).
 */
export function checkJsonShape(value: unknown, path: Path = "", maxDepth = 64, maxNodes = 200_000): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let nodes = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (++nodes > maxNodes)
      throw new RulesError(path, "FUDGE.Error.TooLarge", `the request holds more than ${maxNodes} values`, {
        max: maxNodes,
      });
    if (v === null || typeof v !== "object") continue;
    if (depth >= maxDepth)
      throw new RulesError(path, "FUDGE.Error.TooDeep", `the request is nested more than ${maxDepth} levels deep`, {
        max: maxDepth,
      });
    for (const c of Array.isArray(v) ? v : Object.values(v))
      if (c !== null && typeof c === "object") stack.push([c, depth + 1]);
      else if (++nodes > maxNodes)
        throw new RulesError(path, "FUDGE.Error.TooLarge", `the request holds more than ${maxNodes} values`, {
          max: maxNodes,
        });
  }
}

/*
 * Field checks: a field's value, read by the caller (`o.skill`), checked like the validators
 * above, with the field's path built only when the value is refused (a request names dozens of
 * fields; building every path on the way costs more than the checks). On refusal they defer to
 * the validators, so errors are the same. The caller's own `o.skill` is a named load that V8
 * keeps fast at that site; `o[key]` inside one shared helper sees every field of every request
 * and goes megamorphic (a parse ran about twice as slow through it).
 */

/** An input object as it arrives (plain JSON): its fields `K`, each unchecked, read by name. */
export type Raw<K extends string> = Record<string, unknown> & { [k in K]?: unknown };

/** A whole number in [min, max]. */
export function intField(v: unknown, path: Path, key: string, min = -Infinity, max = Infinity): number {
  if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
  return int(v, at(path, key), min, max);
}

/** A whole number in [min, max]; `fallback` when absent (undefined or null). */
export function optIntField(
  v: unknown,
  path: Path,
  key: string,
  fallback: number,
  min = -Infinity,
  max = Infinity,
): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
  return int(v, at(path, key), min, max);
}

/** True or false; `fallback` when undefined (given). */
export function boolField(v: unknown, path: Path, key: string, fallback?: boolean): boolean {
  if (typeof v === "boolean") return v;
  if (v === undefined && fallback !== undefined) return fallback;
  return bool(v, at(path, key), fallback);
}

/** Text; `fallback` when undefined (given). */
export function strField(v: unknown, path: Path, key: string, fallback?: string): string {
  if (typeof v === "string") return v;
  if (v === undefined && fallback !== undefined) return fallback;
  return str(v, at(path, key), fallback);
}

/** One of `allowed`; `fallback` when undefined (given). */
export function oneOfField<T extends string>(
  v: unknown,
  path: Path,
  key: string,
  allowed: readonly T[],
  fallback?: T,
): T {
  if (typeof v === "string") for (let i = 0; i < allowed.length; i++) if (allowed[i] === v) return v as T;
  if (v === undefined && fallback !== undefined) return fallback;
  return oneOf(v, at(path, key), allowed, fallback);
}

/* The same, reading `o[key]` themselves (for code that is not on a hot path). */

/** `o[key]` as a whole number in [min, max]. */
export function intAt(o: Record<string, unknown>, key: string, path: Path, min = -Infinity, max = Infinity): number {
  return intField(o[key], path, key, min, max);
}

/** `o[key]` as a whole number in [min, max]; `fallback` when absent (undefined or null). */
export function optIntAt(
  o: Record<string, unknown>,
  key: string,
  path: Path,
  fallback: number,
  min = -Infinity,
  max = Infinity,
): number {
  return optIntField(o[key], path, key, fallback, min, max);
}

/** `o[key]` as true or false; `fallback` when undefined (given). */
export function boolAt(o: Record<string, unknown>, key: string, path: Path, fallback?: boolean): boolean {
  return boolField(o[key], path, key, fallback);
}

/** `o[key]` as text; `fallback` when undefined (given). */
export function strAt(o: Record<string, unknown>, key: string, path: Path, fallback?: string): string {
  return strField(o[key], path, key, fallback);
}

/** `o[key]` as one of `allowed`; `fallback` when undefined (given). */
export function oneOfAt<T extends string>(
  o: Record<string, unknown>,
  key: string,
  path: Path,
  allowed: readonly T[],
  fallback?: T,
): T {
  return oneOfField(o[key], path, key, allowed, fallback);
}

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
