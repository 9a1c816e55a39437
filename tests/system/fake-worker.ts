/** A stand-in for the forecast Worker in tests (tests/system/forecast-queue.test.ts, tests/foundry-host/tracker.test.ts). */
import { answerForecastMessage } from "../../src/system/forecast-answer";
import { type ForecastMessage, type ForecastReply, type WorkerLike } from "../../src/system/forecast-queue";

/** A Worker stand-in: answers each message later (or never, when `stuck`), with cloned data both ways. */
export class FakeWorker implements WorkerLike {
  onmessage: ((ev: { data: ForecastReply }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  posted: ForecastMessage[] = [];
  terminated = false;
  stuck = false;
  postMessage(message: ForecastMessage): void {
    const m = structuredClone(message);
    this.posted.push(m);
    if (this.stuck) return;
    setTimeout(() => !this.terminated && this.onmessage?.({ data: structuredClone(answerForecastMessage(m)) }), 1);
  }
  terminate(): void {
    this.terminated = true;
  }
}
