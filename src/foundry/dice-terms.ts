/**
 * The six-sided Fudge die (Fudge §3.21: ordinary d6 read 1–2 −, 3–4 blank, 5–6 +), the one die of
 * the text's options core lacks (core has `d` Die, `f` FateDie, `c` Coin: the v13 client's
 * config.mjs CONFIG.Dice.terms). Registered by its denomination as core's are, so `4ds` is a Roll
 * like any other: each result keeps its d6 face (the rules core reads faces, src/rules/dice-options.ts),
 * and its total is the Fudge reading. The other options are core dice (src/system/rolling.ts DICE_OPTION_FORMULAS).
 */

/** −1, 0 or +1 for a d6 face. */
export const fudgeReading = (face: number): number => (face <= 2 ? -1 : face <= 4 ? 0 : 1);

export const FUDGE_SIX_DENOMINATION = "s";

type TermResult = { result: number; active?: boolean };
type DieClass = new (termData: Record<string, unknown>) => { results: TermResult[]; _evaluated?: boolean };

/** Defines the die over the running core's `Die` and registers it in CONFIG.Dice (init). */
export function registerDiceTerms(): void {
  const Die = foundry.dice.terms.Die as unknown as DieClass;
  class FudgeSixDie extends Die {
    static DENOMINATION = FUDGE_SIX_DENOMINATION;
    constructor(termData: Record<string, unknown> = {}) {
      super({ ...termData, faces: 6 });
    }
    /** The Fudge reading of the active faces (§3.21), as FateDie's total reads −1, 0, +1. */
    get total(): number {
      return this.results.filter((r) => r.active !== false).reduce((s, r) => s + fudgeReading(r.result), 0);
    }
    getResultLabel(result: TermResult): string {
      return ["−", "−", "&nbsp;", "&nbsp;", "+", "+"][result.result - 1] ?? String(result.result);
    }
  }
  const dice = CONFIG.Dice as unknown as { terms: Record<string, unknown>; types?: unknown[] };
  dice.terms[FUDGE_SIX_DENOMINATION] = FudgeSixDie;
  dice.types?.push(FudgeSixDie);
}
