#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the rules core needs no separate build step. Each
// command runs in a worker thread with a heap limit and a time limit (CLI_BUDGET in
// src/cli/fudge-rules.ts): a request over budget exits 2 with a short error, never unbounded.
import { Worker } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/fudge-rules.ts");
const workerUrl = new URL("./fudge-rules-worker.mjs", import.meta.url);

const budgetError = (key, error, max) => ({ error: { error, field: "", key, params: { field: "", max } } });

/** Runs one command in a worker; resolves with its outcome, or a budget error. */
const isolated = (command, text, source, limits, options) =>
  new Promise((resolve) => {
    const worker = new Worker(workerUrl, {
      workerData: { command, text, source, options },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
    let done = false;
    const finish = (outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcome);
      worker.terminate().catch((e) => console.error(e)); // not awaited: the outcome is settled; a failed stop is only logged
    };
    const timer = setTimeout(
      () =>
        finish(
          budgetError(
            "FUDGE.Error.TimeBudget",
            `the command ran longer than its budget of ${limits.timeMs} ms`,
            limits.timeMs,
          ),
        ),
      limits.timeMs,
    );
    worker.on("message", finish);
    worker.on("error", (e) =>
      finish(
        e?.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? budgetError(
              "FUDGE.Error.MemoryBudget",
              `the command needed more than its budget of ${limits.memoryMb} MB`,
              limits.memoryMb,
            )
          : { crash: e?.stack ?? String(e) },
      ),
    );
    worker.on("exit", (code) => finish({ crash: `the worker exited early (${code})` }));
  });

/**
 * `convert-fudge-rpg` in a worker with the budget's heap limit: its own time budget is checked
 * as it converts, and a batch that needs more memory is refused (exit 2, nothing written: the
 * files are written only once every actor is converted). Stdin is passed on only if it reads it.
 */
const isolatedConvert = (argv, limits) =>
  new Promise((resolve) => {
    const worker = new Worker(workerUrl, {
      workerData: { convert: argv },
      stdin: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
    let code = null;
    let failure = null;
    worker.on("message", (m) => {
      if (m === "stdin") process.stdin.pipe(worker.stdin);
      else code = m.code;
    });
    worker.on("error", (e) => {
      failure =
        e?.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? budgetError(
              "FUDGE.Error.MemoryBudget",
              `the conversion needed more than its budget of ${limits.memoryMb} MB`,
              limits.memoryMb,
            )
          : { crash: e?.stack ?? String(e) };
    });
    // The worker's output reaches this thread's streams before its exit is reported.
    worker.on("exit", () => {
      process.stdin.unpipe(worker.stdin);
      process.stdin.pause();
      resolve(code !== null ? { code } : (failure ?? { crash: "the worker exited early" }));
    });
  });

process.exitCode = await main(process.argv.slice(2), isolated, isolatedConvert);
