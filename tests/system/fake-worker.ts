/** A stand-in for the forecast Worker in tests (tests/system/forecast-queue.test.ts, tests/foundry-host/tracker.test.ts). */
import { answerForecastStages, STAGE_BUDGETS, type StageBudgets } from "../../src/system/forecast-answer";
import { type ForecastMessage, type ForecastReply, type WorkerLike } from "../../src/system/forecast-queue";

/** The stages' budgets by count only (states, duels), the time budgets out of reach: no answer depends on the clock. */
export const COUNT_BUDGETS: StageBudgets = {
  quick: { ...STAGE_BUDGETS.quick, budgetMs: 60_000 },
  estimate: { ...STAGE_BUDGETS.estimate, budgetMs: 60_000, untilMs: 60_000 },
};

/** A Worker stand-in: answers each message later, in stages as the worker does (or never, when `stuck`), with cloned data both ways. */
export class FakeWorker implements WorkerLike {
  onmessage: ((ev: { data: ForecastReply }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  posted: ForecastMessage[] = [];
  terminated = false;
  stuck = false;
  /** The stages' budgets (count-only by default, so that no answer depends on the clock). */
  constructor(readonly budgets: StageBudgets = COUNT_BUDGETS) {}
  postMessage(message: ForecastMessage): void {
    const m = structuredClone(message);
    this.posted.push(m);
    if (this.stuck) return;
    // Each stage as the worker posts it (a first answer, then the final one), in order.
    const replies: ForecastReply[] = [];
    answerForecastStages(m, (r) => replies.push(structuredClone(r)), this.budgets);
    for (const r of replies) setTimeout(() => !this.terminated && this.onmessage?.({ data: r }), 1);
  }
  terminate(): void {
    this.terminated = true;
  }
}
