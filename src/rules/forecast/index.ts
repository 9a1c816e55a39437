/**
 * The duel forecast engine: `duelForecast`, its budgets, and the plug-in API a preset's duel
 * rules implement (rules.ts). Each preset's rules live in its own folder (fudge/duel.ts,
 * miniatures/duel.ts, volt/duel.ts) and are listed in src/rules/presets.ts.
 */
export { duelForecast } from "./forecast";
export { DuelSetup } from "./setup";
export type { DuelForecast, DuelMethodName, ForecastMemoryStats } from "./answer";
export { Deadline, FORECAST_BUDGET, SHORT_BUDGET_MS, chainCap, memoryCap, type ForecastStateKind } from "./budget";
export type { DuelOptions, SideId } from "./request";
export type {
  DiceFolding,
  DuelMethod,
  DuelRules,
  DuelStartState,
  MindOutcome,
  OpposedRound,
  OwnTurnOutcome,
  PresetDuel,
  SideMind,
  SideMinds,
  TrackChange,
} from "./rules";
export type { DuelRun, DuelStart } from "./run";
/** What a turn does to a side, interned (a run's `changes`: the plug-in API reads it). */
export { SideChanges, type SideChange } from "./changes";
export {
  SAMPLE_BUDGET,
  isBudgetRefusal,
  parseFallback,
  parseSampleRequest,
  sampleDuels,
  wilsonHalfWidth,
  type SampleEstimate,
  type SampleRequest,
  type SampledAnswer,
  type SampledDuel,
} from "./sampling";
