/**
 * The forecast worker (built as dist/fudge-forecast.mjs): answers each posted duel request with
 * the rules core's forecast or its RulesError as data (src/system/forecast-queue.ts). It imports
 * nothing of Foundry: a worker has no `game`, and needs none.
 */

import { answerForecastStages } from "./forecast-answer";

const scope = globalThis as unknown as {
  onmessage: ((ev: { data: unknown }) => void) | null;
  postMessage(m: unknown): void;
};
// Each request is answered in stages: a first answer (bounded, or an estimate) when the exact one is not quick.
scope.onmessage = (ev) => answerForecastStages(ev.data, (reply) => scope.postMessage(reply));
