/**
 * The forecast worker (built as dist/fudge-forecast.mjs): answers each posted duel request with
 * the rules core's forecast or its RulesError as data (src/system/forecast-queue.ts). It imports
 * nothing of Foundry: a worker has no `game`, and needs none.
 */

import { answerForecastMessage } from "./forecast-answer";

const scope = globalThis as unknown as {
  onmessage: ((ev: { data: unknown }) => void) | null;
  postMessage(m: unknown): void;
};
scope.onmessage = (ev) => scope.postMessage(answerForecastMessage(ev.data));
