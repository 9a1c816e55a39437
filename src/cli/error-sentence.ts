/**
 * What the CLI prints for a refused request: the RulesError's JSON (`field`, `key`, `params`
 * unchanged, for scripts) with `error` as a sentence a person reads — what was refused, where, and
 * what to do — instead of the library's "field.path: message" form. The line stays under 1 KB.
 */
import type { RulesError } from "../rules";

export type ErrorJson = Omit<ReturnType<RulesError["toJSON"]>, "params"> & { params?: unknown };

/** What to do, by error key (else the general advice). */
const ADVICE: Record<string, string> = {
  "FUDGE.Error.BadJson": "Check the JSON syntax and run the command again.",
  "FUDGE.Error.NoFile": "Check the file name and run the command again.",
  "FUDGE.Error.TooLarge": "Send a smaller request.",
  "FUDGE.Error.TooDeep": "Send a flatter, smaller request.",
  // FUDGE_RULES_TIME_MS can only lower the budget (src/cli/budget.ts), so the advice is to ask for less.
  "FUDGE.Error.TimeBudget": "Ask for less (a smaller duel, maxStates or budgetMs).",
  "FUDGE.Error.MemoryBudget": "Ask for less (a smaller duel or maxStates).",
  "FUDGE.Error.UnknownCommand": "Run fudge-rules --help for the commands.",
  "FUDGE.Error.UnknownOption": "Run fudge-rules --help for each command's options.",
  "FUDGE.Error.OptionValue": "Give the option a value (--samples 5000) and run the command again.",
  "FUDGE.Error.UnknownSample": "Name a sample character from the packs, or give the combatant in full.",
  "FUDGE.Error.AmbiguousSample": "Give more of the sample character's name.",
  "FUDGE.Error.EmptySample": "Name a sample character from the packs, or give the combatant in full.",
};
const GENERAL_ADVICE = "Correct it and run the command again.";

/** Longest line printed (the JSON of the whole error), under the documented 1 KB. */
const MAX_LINE = 1000;

const capitalize = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);
const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, Math.max(0, n - 1))}…`);

/** The library message without its "field: " prefix. */
function reason(e: ErrorJson): string {
  const prefix = `${e.field}: `;
  return e.field && e.error.startsWith(prefix) ? e.error.slice(prefix.length) : e.error;
}

/**
 * The error line for the request's errors: "The request's field "defender.skill" is refused: must
 * be a whole number (got 1.5). Correct it and run the command again."
 */
export function cliError(e: ErrorJson, advice = ADVICE[e.key] ?? GENERAL_ADVICE): ErrorJson {
  const why = reason(e).replace(/[.\s]+$/, "");
  // "file" names the input itself, and a message that starts with an option names it already.
  const head = why.startsWith("--")
    ? `The option ${why}`
    : e.field && e.field !== "file"
      ? `The request's field "${e.field}" is refused: ${why}`
      : capitalize(why);
  return withSentence(e, `${head}. ${advice}`);
}

/** The error line with `sentence` as its `error`, clipped so the whole line stays under 1 KB. */
export function withSentence(e: ErrorJson, sentence: string): ErrorJson {
  const rest = JSON.stringify({ ...e, error: "" }).length;
  return { ...e, error: clip(sentence, Math.max(80, MAX_LINE - rest)) };
}
