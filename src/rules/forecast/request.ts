/**
 * The duel request as the engine reads it (docs/rules-api.md `forecast`): the two combatants,
 * whose turn is first, the method and the budgets. A preset's own fields are read by its duel
 * rules (DuelRules.settings); the sampling fields by sampling.ts.
 */
import { RulesError } from "../errors";
import { checkJsonShape, isRecord, num, oneOf, optInt, rejectUnknown } from "../validate";
import type { ForecastMemoryStats } from "./answer";
import { chainCap, Deadline, FORECAST_BUDGET } from "./budget";
import { parseSampleRequest, type SampleRequest } from "./sampling";
import type { DuelSetup } from "./setup";

export type SideId = "a" | "b";

/**
 * What a caller of duelForecast may set beside the request (tests, the bench). A preset adds its
 * own knobs by declaration merging (miniatures/duel.ts, volt/duel.ts).
 */
export interface DuelOptions {
  maxStates?: number;
  /** Wall-time budget of the forecast in ms (default FORECAST_BUDGET.timeMs). */
  budgetMs?: number;
  /** The bytes the chain's nodes may take when the request gives no maxStates (default FORECAST_BUDGET.chainBytes; tests lower it to reach the caps: chainCap). */
  chainBytes?: number;
  /** The forecast's memory budget in bytes, whatever `maxStates` allows (default: the request's `maxBytes`, else FORECAST_BUDGET.maxBytes; memoryCap). */
  maxBytes?: number;
  /** Filled with what the forecast held (ForecastMemoryStats); tests read it. */
  memoryStats?: ForecastMemoryStats;
  /** The set-up of this duel kept between the stages of one request: reused when it is the same duel, else filled (setup.ts). */
  setup?: DuelSetup;
  /** Method "sample": the time (Date.now()) past which no more duels start, once SAMPLE_BUDGET.minDuels are played (the first estimate's time box). */
  sampleUntil?: number;
}

/** The engine's fields of a duel request, parsed. */
export interface DuelRequest {
  input: Record<string, unknown>;
  first: SideId;
  /** `maxStates` as asked (or its default), and whether the request or the caller gave it. */
  maxStates: number;
  ownCap: boolean;
  /** The chain's cap before the method is known (the exact chain's: chainCap). */
  chainStates: number;
  maxBytes: number;
  budgetMs: number;
  /** The time budget's clock, started as the request is read. */
  deadline: Deadline;
  tolerance: number;
  sampling: SampleRequest;
}

/** The engine's fields of a duel request, in the order the table writes them, around the presets' own (after "first"). */
export const DUEL_FIELDS_HEAD = ["preset", "a", "b", "options", "situation", "first"] as const;
export const DUEL_FIELDS_TAIL = [
  "method",
  "maxStates",
  "maxBytes",
  "budgetMs",
  "tolerance",
  "fallback",
  "samples",
  "seed",
  "maxExchanges",
] as const;

/** The request as an object of JSON values with only known fields (a misspelt "maxState" would otherwise run on the defaults). */
export function checkDuelInput(input: unknown, known: readonly string[]): Record<string, unknown> {
  if (!isRecord(input)) throw new RulesError("", "FUDGE.Error.NotObject", "the duel request must be an object");
  checkJsonShape(input);
  rejectUnknown(input, known, "");
  return input;
}

/** The engine's fields: budgets, then `first`, then the sampling fields (the order of their errors). */
export function parseDuelRequest(input: Record<string, unknown>, opts: DuelOptions): DuelRequest {
  const maxStates =
    opts.maxStates ?? optInt(input.maxStates, "maxStates", FORECAST_BUDGET.defaultStates, 1, FORECAST_BUDGET.maxStates);
  const ownCap = opts.maxStates !== undefined || input.maxStates !== undefined;
  const maxBytes =
    opts.maxBytes ??
    optInt(input.maxBytes, "maxBytes", FORECAST_BUDGET.maxBytes, FORECAST_BUDGET.minBytes, FORECAST_BUDGET.maxBytes);
  const budgetMs =
    opts.budgetMs ?? optInt(input.budgetMs, "budgetMs", FORECAST_BUDGET.timeMs, 1, FORECAST_BUDGET.maxTimeMs);
  const tolerance =
    input.tolerance === undefined
      ? FORECAST_BUDGET.tolerance
      : num(input.tolerance, "tolerance", FORECAST_BUDGET.minTolerance, 0.01);
  return {
    input,
    maxStates,
    ownCap,
    chainStates: ownCap ? maxStates : chainCap("chain", opts.chainBytes),
    maxBytes,
    budgetMs,
    deadline: new Deadline(budgetMs),
    tolerance,
    first: oneOf(input.first, "first", ["a", "b"] as const, "a"),
    sampling: parseSampleRequest(input),
  };
}

/** A combatant's error in an attack request, renamed to its side of the duel (`attacker.track` → `a.track`). */
export function renamePaths(e: unknown, map: Record<string, string>): unknown {
  if (!(e instanceof RulesError)) return e;
  const first = e.field.split(/[.[]/)[0];
  if (!(first in map)) return e;
  const field = map[first] + e.field.slice(first.length);
  return new RulesError(field, e.key, e.message.replace(/^[^:]*: /, ""), e.params);
}
