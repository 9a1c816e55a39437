/**
 * Every bad input to the rules core raises a RulesError that names the field (a dotted path
 * into the request), an i18n key under FUDGE.Error.* and an English message for the CLI.
 * The Foundry adapter localizes `key` with `params`; nothing is lost because the core never
 * mutates its input.
 */
export class RulesError extends Error {
  readonly field: string;
  readonly key: string;
  readonly params: Record<string, string | number>;

  constructor(field: string, key: string, message: string, params: Record<string, string | number> = {}) {
    super(field ? `${field}: ${message}` : message);
    this.name = "RulesError";
    this.field = field;
    this.key = key;
    this.params = { field, ...params };
  }

  toJSON(): { error: string; field: string; key: string; params: Record<string, string | number> } {
    return { error: this.message, field: this.field, key: this.key, params: this.params };
  }
}

export function isRulesError(e: unknown): e is RulesError {
  return e instanceof RulesError;
}
