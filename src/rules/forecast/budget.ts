/**
 * Budgets of one duel forecast (docs/rules-api.md "Budgets"): past any of them the forecast stops
 * with a RulesError naming the field instead of running unbounded. The bytes each kind of state
 * is charged were measured at peak; docs/bench.md keeps the measurements.
 */
import { RulesError } from "../errors";

export const FORECAST_BUDGET = {
  /** Default and largest `maxStates` (the Volt methods' budgets below derive from it). */
  defaultStates: 200_000,
  maxStates: 1_000_000,
  /**
   * Default `maxStates` of the chain when the request gives none: `chainBytes / bytesPerState`, the
   * exact chain's cap when no side can flee (`chainCap` gives each kind of chain its own).
   */
  chainStates: 400_000,
  /** What one node of the exact chain costs at peak (typed arrays, shared rows of probabilities). */
  bytesPerState: 400,
  /** What the chain's nodes may take in all when the request gives no `maxStates`. */
  chainBytes: 160_000_000,
  /** A node of the exact chain where a side can flee: four more Float64 and a second solve. */
  bytesPerFlightState: 432,
  /** A node of the turn-by-turn forward method: its live states per turn, nodes kept across passes. */
  bytesPerForwardState: 1_200,
  /**
   * The memory budget of one forecast (request field `maxBytes`, default and largest), whatever
   * `maxStates` allows: a method is refused with FUDGE.Error.MemoryBudget before it holds more
   * (`memoryCap`). 600 MB leaves every request without `maxStates` as it is, within the CLI
   * worker's 1 GiB heap; the table's forecast worker runs with this default.
   */
  maxBytes: 600_000_000,
  /** Smallest `maxBytes` a request may give (1 MB: a forecast's fixed structures). */
  minBytes: 1_000_000,
  /** A state of the forward method in order of progress (Volt's): its buckets, sheets met and progress memo. */
  bytesPerVoltForwardState: 2_600,
  /** Volt "product": a pair of sheets held at once, its successor tables included. */
  bytesPerVoltProductPair: 26,
  /** "phases": one entry of its products. */
  bytesPerVoltPhasesEntry: 190,
  /** Default and largest `budgetMs`. */
  timeMs: 10_000,
  maxTimeMs: 60_000,
  /**
   * Volt "product" method: at most `maxStates × productPairsPerState` sheet pairs solved (each for
   * both turns), and at most `maxStates × productWindowPerState` pairs held at once, never more than
   * `productMaxWindow` (≤ 384 MB). Past either, a Volt duel is followed forward instead (or refused,
   * when "product" was asked for).
   */
  productPairsPerState: 100,
  productWindowPerState: 50,
  productMaxWindow: 16_000_000,
  /** With `fallback: "sample"`: the share of `budgetMs` kept for the estimate. */
  sampleReserve: 0.5,
  /** Largest strongly connected component solved by Gaussian elimination (its matrix is m² numbers). */
  maxComponent: 800,
  /** Default and smallest `tolerance` (the error bound allowed to a bounded forecast). */
  tolerance: 1e-4,
  minTolerance: 1e-9,
};

/**
 * The default node cap of a chain when the request gives no `maxStates` (`chainBytes` over what a
 * node of that kind costs at peak): the exact chain, the exact chain of a duel where a side can
 * flee (its second solve), and the forward method.
 */
export function chainCap(
  kind: "chain" | "flight" | "forward",
  chainBytes: number = FORECAST_BUDGET.chainBytes,
): number {
  const bytes =
    kind === "forward"
      ? FORECAST_BUDGET.bytesPerForwardState
      : kind === "flight"
        ? FORECAST_BUDGET.bytesPerFlightState
        : FORECAST_BUDGET.bytesPerState;
  return Math.floor(chainBytes / bytes);
}

/** What one state of each method costs at peak. */
export type ForecastStateKind = "chain" | "flight" | "forward" | "voltForward" | "voltProductPair" | "voltPhases";
const BYTES_PER: Record<ForecastStateKind, number> = {
  chain: FORECAST_BUDGET.bytesPerState,
  flight: FORECAST_BUDGET.bytesPerFlightState,
  forward: FORECAST_BUDGET.bytesPerForwardState,
  voltForward: FORECAST_BUDGET.bytesPerVoltForwardState,
  voltProductPair: FORECAST_BUDGET.bytesPerVoltProductPair,
  voltPhases: FORECAST_BUDGET.bytesPerVoltPhasesEntry,
};

/**
 * The most states of a kind that fit the memory budget `maxBytes`: past it the forecast is refused
 * with FUDGE.Error.MemoryBudget, whatever `maxStates` allows (states are counted before each is stored).
 */
export function memoryCap(kind: ForecastStateKind, maxBytes: number = FORECAST_BUDGET.maxBytes): number {
  return Math.floor(maxBytes / BYTES_PER[kind]);
}

/** The refusal of a forecast whose method would hold more than `maxBytes` (`{max}` in MB, as the CLI's MemoryBudget). */
export function memoryRefusal(maxBytes: number, cap: number, kind: ForecastStateKind): RulesError {
  const max = Math.round(maxBytes / 1e5) / 10;
  return new RulesError(
    "maxBytes",
    "FUDGE.Error.MemoryBudget",
    `the duel forecast needs more than its memory budget of ${max} MB (more than ${cap} states of ${BYTES_PER[kind]} bytes)`,
    { max, states: cap },
  );
}

/** The refusal of a forecast past its budget of time (`budgetMs`) or work (`maxStates`). */
export function overBudget(field: string, what: string): RulesError {
  return new RulesError(field, "FUDGE.Error.ForecastBudget", `the duel forecast needs more than its budget (${what})`, {
    what,
  });
}

/** The refusal of a forecast past its request's `maxStates`. */
export function tooManyStates(maxStates: number, why = ""): RulesError {
  return new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states${why}`);
}

/**
 * The forecast's clock: `check` throws the time budget's refusal once the deadline has passed. It
 * reads the clock every 64th call, or at every call under a budget of `SHORT_BUDGET_MS` or less (the
 * table's quick attempt): some call sites are far apart (a Volt sheet's tables, a chain's node),
 * and 64 of them can take longer than a short budget.
 */
export class Deadline {
  private readonly at: number;
  private readonly mask: number;
  private calls = 0;
  constructor(private readonly budgetMs: number) {
    this.at = Date.now() + budgetMs;
    this.mask = budgetMs <= SHORT_BUDGET_MS ? 0 : 63;
  }
  readonly check = (): void => {
    if ((++this.calls & this.mask) === 0 && Date.now() > this.at) throw overBudget("budgetMs", `${this.budgetMs} ms`);
  };
}

/** A budget this short reads the clock at every check. */
export const SHORT_BUDGET_MS = 1_000;
