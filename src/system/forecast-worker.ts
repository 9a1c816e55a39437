/**
 * The forecast worker (built as dist/fudge-forecast.mjs): answers each posted duel request with
 * the rules core's forecast or its RulesError as data (src/system/forecast-queue.ts). It imports
 * nothing of Foundry: a worker has no `game`, and needs none.
 */
// Every preset's pipeline registers itself on import: the worker is its own bundle, so it needs them all.
import { answerForecastMessage } from "./forecast-queue";

const scope = globalThis as unknown as {
  onmessage: ((ev: { data: unknown }) => void) | null;
  postMessage(m: unknown): void;
};
scope.onmessage = (ev) => scope.postMessage(answerForecastMessage(ev.data));
