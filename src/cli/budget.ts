/** The budgets of one `fudge-rules` command (docs/rules-api.md "Budgets"). Imports nothing heavy: the launcher reads it. */
import { closeSync, openSync, readSync } from "node:fs";

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
  return {
    timeMs: env("FUDGE_RULES_TIME_MS", CLI_BUDGET.timeMs),
    memoryMb: env("FUDGE_RULES_MEMORY_MB", CLI_BUDGET.memoryMb),
  };
}

/**
 * A file's text, read at most `max` bytes: past it, `tooLarge()` is thrown. The size is counted
 * as the bytes arrive, not taken from the file's size, which a device or a pipe does not tell
 * (`/dev/zero` reads for ever).
 */
export function readFileBounded(file: string, max: number, tooLarge: () => Error): string {
  const fd = openSync(file, "r");
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - size));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      size += n;
      if (size > max) throw tooLarge();
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, size).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
