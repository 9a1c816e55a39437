/**
 * A duel's set-up kept between the stages of one request (src/system/forecast-answer.ts): the quick
 * exact attempt parses the duel, interns its states and enumerates the pipeline's dice per status;
 * the estimate that follows plays its duels on that same run instead of doing it all again (for a
 * Volt duel its 8 enumerations, for a Miniatures duel its Guts checks and attacks per state).
 */
import { DUEL_FIELDS_TAIL } from "./request";
import type { DuelRun } from "./run";

export class DuelSetup {
  private key: string | null = null;
  private run: DuelRun | null = null;

  /** The run kept for the same duel (every field but the method's, the budgets' and the sampling's), or null. */
  find(input: Record<string, unknown>): DuelRun | null {
    return this.run !== null && this.key === duelKey(input) ? this.run : null;
  }

  keep(input: Record<string, unknown>, run: DuelRun): void {
    this.key = duelKey(input);
    this.run = run;
  }
}

/** What makes two requests the same duel: their fields but the engine's tail (method, budgets, sampling). */
function duelKey(input: Record<string, unknown>): string {
  const tail: readonly string[] = DUEL_FIELDS_TAIL;
  const duel: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!tail.includes(k)) duel[k] = v;
  return JSON.stringify(duel);
}
