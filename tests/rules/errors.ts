/** Test helpers: the RulesError a call throws (a call that throws nothing, or something else, fails the test). */
import { RulesError } from "../../src/rules";

export function caught(f: () => unknown): RulesError {
  try {
    f();
  } catch (e) {
    if (e instanceof RulesError) return e;
    throw e;
  }
  throw new Error("expected a RulesError, nothing was thrown");
}

/** The dotted field path the error names. */
export const fieldOf = (f: () => unknown): string => caught(f).field;

/** The i18n key of the error. */
export const keyOf = (f: () => unknown): string => caught(f).key;
