/**
 * The forecast worker's work as pure functions (src/system/forecast-worker.ts runs them on each
 * posted message), and the same forecast on the calling thread. This module and the rules core's
 * forecast engine are loaded on demand: by the worker's own bundle, or as a lazy chunk of the
 * system's bundle where no worker runs (src/system/forecast-queue.ts).
 *
 * An answer comes in stages, so that the table sees one at once: the exact forecast when it is
 * quick (within `QUICK`'s states and time); otherwise a first answer — a bounded forecast, or an
 * estimate from a few simulated duels with its confidence interval (`FIRST_ESTIMATE`) — and then
 * the request's own forecast with its full budget.
 */
import { DuelSetup, duelForecast, isBudgetRefusal, isRulesError, type DuelForecast, type RulesError } from "../rules";
import type { ForecastMessage, ForecastReply, RulesErrorData } from "./forecast-queue";

export { DuelSetup };

/**
 * The stages' stated budgets. `quick`: an exact (or bounded) forecast within these states and this
 * time, else a first answer; `estimate`: the first estimate, on the quick attempt's set-up (its
 * states and enumerations, DuelSetup), at most this many simulated duels, no duel started past
 * `untilMs` after the request arrived once 100 are played (fewer duels: a wider interval, which
 * the answer states), refused only past `budgetMs` (a cap, so that an estimate nearly always comes).
 * The table's goal, the first answer within 250 ms, is measured by `npm run bench`, not promised by
 * these numbers.
 */
export const STAGE_BUDGETS = {
  quick: { maxStates: 5_000, budgetMs: 60 },
  estimate: { samples: 2_000, budgetMs: 1_000, untilMs: 150 },
};
export type StageBudgets = typeof STAGE_BUDGETS;

/** What kind of answer a forecast is, as the screen says it. */
export type ForecastKind = "exact" | "bounded" | "estimate";
export const forecastKind = (f: DuelForecast): ForecastKind =>
  f.method === "sample" ? "estimate" : f.exact ? "exact" : "bounded";

/** The worker's whole job, as a pure function: a posted message → the message it posts back. */
export function answerForecastMessage(data: unknown): ForecastReply {
  const id = idOf(data);
  if (id < 0) return { id, ok: false, fault: "a forecast message needs a numeric id" };
  return attempt(id, () => duelForecast((data as ForecastMessage).request));
}

/**
 * The worker's job in stages: `post` gets the quick exact answer alone; or a first answer (a
 * bounded forecast or an estimate, `interim: true`) and then the final one; or a refusal.
 */
export function answerForecastStages(
  data: unknown,
  post: (reply: ForecastReply) => void,
  budgets: StageBudgets = STAGE_BUDGETS,
): void {
  const id = idOf(data);
  if (id < 0) return post({ id, ok: false, fault: "a forecast message needs a numeric id" });
  const request = (data as ForecastMessage).request;
  const first = firstAnswer(id, request, budgets, Date.now());
  if (!first.interim) return post(first.reply);
  if (first.reply.ok) post({ ...first.reply, interim: true });
  // The final answer on a set-up of its own: on the first stages' set-up a Miniatures chain can
  // intern its states in another order (other node counts, other last bits), and it must be the
  // same answer as the request's alone.
  post(attempt(id, () => duelForecast(request)));
}

/**
 * The first answer to a request, within the stages' stated budgets: final when
 * it is the exact forecast or a refusal of the request itself; interim otherwise (a bounded
 * forecast, an estimate, or the estimate's own refusal when it ran over its budget).
 */
export function firstAnswer(
  id: number,
  request: unknown,
  budgets: StageBudgets = STAGE_BUDGETS,
  arrived = Date.now(),
): { reply: ForecastReply; interim: boolean } {
  const setup = new DuelSetup();
  return (
    quickAnswer(id, request, budgets, setup) ?? {
      reply: estimateAnswer(id, request, budgets, setup, arrived),
      interim: true,
    }
  );
}

/** The quick attempt's answer (final unless bounded), or null when it ran over its budgets. */
export function quickAnswer(
  id: number,
  request: unknown,
  budgets: StageBudgets = STAGE_BUDGETS,
  setup?: DuelSetup,
): { reply: ForecastReply; interim: boolean } | null {
  try {
    const quick = duelForecast(quickRequest(request, budgets.quick), { setup });
    return { reply: { id, ok: true, forecast: quick }, interim: !quick.exact };
  } catch (e) {
    // Over the quick budgets: an estimate first. Anything else is the request's own refusal.
    if (!isBudgetRefusal(e)) return { reply: failure(id, e), interim: false };
    return null;
  }
}

/**
 * The first estimate: its stated duels (fewer when the request asks for fewer, or when `untilMs`
 * after `arrived` comes first), on the quick attempt's set-up when given; refused past its budget.
 */
export function estimateAnswer(
  id: number,
  request: unknown,
  budgets: StageBudgets = STAGE_BUDGETS,
  setup?: DuelSetup,
  arrived = Date.now(),
): ForecastReply {
  const asked = (request as { samples?: unknown } | null)?.samples;
  const { samples: most, budgetMs, untilMs } = budgets.estimate;
  const samples = typeof asked === "number" ? Math.min(asked, most) : most;
  return attempt(id, () =>
    duelForecast(
      { ...(request as object), budgetMs, samples, method: "sample", fallback: "none" },
      { setup, sampleUntil: arrived + untilMs },
    ),
  );
}

/** The request within the quick attempt's budgets (never more than its own). */
function quickRequest(request: unknown, quick: StageBudgets["quick"]): unknown {
  const r = request as Record<string, unknown>;
  const own = (k: "maxStates" | "budgetMs") => (typeof r?.[k] === "number" ? (r[k] as number) : Infinity);
  return {
    ...r,
    maxStates: Math.min(own("maxStates"), quick.maxStates),
    budgetMs: Math.min(own("budgetMs"), quick.budgetMs),
    fallback: "none",
  };
}

function idOf(data: unknown): number {
  return typeof (data as ForecastMessage | null)?.id === "number" ? (data as ForecastMessage).id : -1;
}

function attempt(id: number, f: () => DuelForecast): ForecastReply {
  try {
    return { id, ok: true, forecast: f() };
  } catch (e) {
    return failure(id, e);
  }
}

/** A refusal as data (a RulesError), or a fault's message (a bug). */
function failure(id: number, e: unknown): ForecastReply {
  if (isRulesError(e)) return { id, ok: false, error: rulesErrorData(e) };
  return { id, ok: false, fault: e instanceof Error ? e.message : String(e) };
}

/** The rules core's forecast on this thread (its RulesError thrown as is). */
export function forecastHere(request: unknown): DuelForecast {
  return duelForecast(request);
}

export function rulesErrorData(e: RulesError): RulesErrorData {
  return { field: e.field, key: e.key, params: { ...e.params }, message: e.message };
}
