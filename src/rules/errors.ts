/**
 * Every bad input to the rules core raises a RulesError that names the field (a dotted path
 * into the request), an i18n key under FUDGE.Error.* and an English message for the CLI.
 * The Foundry adapter localizes `key` with `params`; nothing is lost because the core never
 * mutates its input.
 */
/** Longest message and string parameter an error carries (its JSON line stays well under 1 KB). */
const MAX_MESSAGE = 400;
const MAX_PARAM = 160;
const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

export class RulesError extends Error {
  readonly field: string;
  readonly key: string;
  readonly params: Record<string, string | number>;

  constructor(field: string, key: string, message: string, params: Record<string, string | number> = {}) {
    // An error never echoes a huge value back (a 10 MB string, a deeply nested field path).
    super(clip(field ? `${field}: ${message}` : message, MAX_MESSAGE));
    this.name = "RulesError";
    this.field = clip(field, MAX_PARAM);
    this.key = key;
    const clipped: Record<string, string | number> = { field: this.field };
    for (const [k, v] of Object.entries(params)) clipped[k] = typeof v === "string" ? clip(v, MAX_PARAM) : v;
    this.params = clipped;
  }

  toJSON(): { error: string; field: string; key: string; params: Record<string, string | number> } {
    return { error: this.message, field: this.field, key: this.key, params: this.params };
  }
}

export function isRulesError(e: unknown): e is RulesError {
  return e instanceof RulesError;
}
