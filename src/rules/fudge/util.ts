import { signed, type Step } from "../explain";

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
