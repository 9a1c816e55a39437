/** The budgets of one `fudge-rules` command (docs/rules-api.md "Budgets"). Imports nothing heavy: the launcher reads it. */
/**
 * What one command may use (docs/rules-api.md "Budgets"). The CLI runs each command in a worker
 * thread with this heap limit and stops it at the time limit: either way it exits 2 with a short
 * error, never unbounded. FUDGE_RULES_TIME_MS / FUDGE_RULES_MEMORY_MB lower them (tests).
 */
export const CLI_BUDGET = {
  /** Wall time of one command. */
  timeMs: 20_000,
  /** Heap of the worker that runs it. */
  memoryMb: 1024,
  /** Request size. */
  inputBytes: 4 * 1024 * 1024,
  /** JSON nesting depth and number of values. */
  depth: 64,
  values: 200_000,
};

export function budget(): { timeMs: number; memoryMb: number } {
  const env = (k: string, d: number) => {
    const v = Number(process.env[k]);
    return Number.isFinite(v) && v > 0 ? Math.min(v, d) : d;
  };
  return { timeMs: env("FUDGE_RULES_TIME_MS", CLI_BUDGET.timeMs), memoryMb: env("FUDGE_RULES_MEMORY_MB", CLI_BUDGET.memoryMb) };
}

