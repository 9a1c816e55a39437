/**
 * The forecast worker's work as pure functions (src/system/forecast-worker.ts runs them on each
 * posted message), and the same forecast on the calling thread. This module and the rules core's
 * forecast engine are loaded on demand: by the worker's own bundle, or as a lazy chunk of the
 * system's bundle where no worker runs (src/system/forecast-queue.ts).
 */
import { duelForecast, isRulesError, type DuelForecast, type RulesError } from "../rules";
import type { ForecastMessage, ForecastReply, RulesErrorData } from "./forecast-queue";

/** The worker's whole job, as a pure function: a posted message → the message it posts back. */
export function answerForecastMessage(data: unknown): ForecastReply {
  const id = typeof (data as ForecastMessage | null)?.id === "number" ? (data as ForecastMessage).id : -1;
  if (id < 0) return { id, ok: false, fault: "a forecast message needs a numeric id" };
  try {
    return { id, ok: true, forecast: duelForecast((data as ForecastMessage).request) };
  } catch (e) {
    if (isRulesError(e)) return { id, ok: false, error: rulesErrorData(e) };
    return { id, ok: false, fault: e instanceof Error ? e.message : String(e) };
  }
}

/** The rules core's forecast on this thread (its RulesError thrown as is). */
export function forecastHere(request: unknown): DuelForecast {
  return duelForecast(request);
}

export function rulesErrorData(e: RulesError): RulesErrorData {
  return { field: e.field, key: e.key, params: { ...e.params }, message: e.message };
}
