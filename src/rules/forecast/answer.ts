/** The answer of a duel forecast, whichever method gave it. */
import type { SampleEstimate } from "./sampling";

export interface DuelForecast {
  preset: string;
  /** P(A is put out first) — B wins. */
  aOut: number;
  /** P(B is put out first) — A wins. */
  bOut: number;
  /** P(the fight can never end: no side can hurt the other any more). */
  stalemate: number;
  /** Expected exchanges until one side is out; null when a stalemate is possible. */
  expectedExchanges: number | null;
  /** Reachable states of the chain (both tracks and the turn). */
  states: number;
  /** Distinct status pairs whose dice were enumerated. */
  enumerations: number;
  /** True when every probability is exact; false when states below `errorBound`'s share were left out. */
  exact: boolean;
  /**
   * Largest possible error of aOut, bOut and stalemate (each): the probability mass of the duels
   * that were not followed to their end. 0 when exact. Never more than the request's `tolerance`.
   */
  errorBound: number;
  /**
   * "chain": the absorbing chain solved exactly; "forward": turns followed forward (bounded);
   * "phases": sums of per-side products (bounded); "product": the exact backward programme over
   * both Volt sheets (volt/product.ts); "sample": an estimate from simulated duels, `exact` false
   * and `errorBound` 1 — no bound, an interval in `estimate`.
   */
  method: DuelMethodName;
  /** Only with method "sample": duels played, seed, confidence and each probability's interval. */
  estimate?: SampleEstimate;
  /**
   * Only where a side can flee (Miniatures): P(A leaves the duel by flight) — part of `aOut` — and
   * the same for B (0 for a side that cannot flee). Exact with "chain", within `errorBound` with
   * "forward", an estimate with "sample".
   */
  aFled?: number;
  bFled?: number;
}

export type DuelMethodName = "chain" | "forward" | "phases" | "product" | "sample";

/** What a forecast held, added up over its methods (a request may try the chain, then the forward method). */
export interface ForecastMemoryStats {
  /** Chains taken (node arrays): the forward method after a refused chain runs on that chain's arrays, emptied. */
  chains: number;
  /** The stand-in keys kept (states of one side with the same future) and their characters in all. */
  standInKeys: number;
  standInKeyChars: number;
}
