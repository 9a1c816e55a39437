/**
 * Each preset's duel rules, by preset id: the built-in presets' from their own folders (FATE's
 * duels need no rules beyond the engine's), then any registered with a preset (a test's toy
 * preset). Here, beside the engine, so that the duel rules load with it and not with the pipelines.
 * The engine forecasts duels of any preset, so it imports every built-in pipeline itself: a forecast
 * needs no preset loaded first (the pipelines' chunks load with the engine's).
 */
import { pipelineFor, presetLoaded, registeredPresets, type AnyDuelRules } from "../presets";
import type { AttackPipeline } from "../pipeline";
import { fudgePipeline } from "../fudge/pipeline";
import { miniaturesPipeline } from "../miniatures/pipeline";
import { fatePipeline } from "../fate/pipeline";
import { voltPipeline } from "../volt/pipeline";
import { fudgeDuelRules } from "../fudge/duel";
import { miniaturesDuelRules } from "../miniatures/duel";
import { voltDuelRules } from "../volt/duel";
import { DEFAULT_DUEL_RULES } from "./rules";

const BUILT_IN_DUEL_RULES: Record<string, AnyDuelRules> = {
  miniatures: miniaturesDuelRules,
  fudge: fudgeDuelRules,
  volt: voltDuelRules,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every preset's pipeline, each typed in its own module
const BUILT_IN_PIPELINES: Record<string, AttackPipeline<any>> = {
  miniatures: miniaturesPipeline,
  fudge: fudgePipeline,
  fate: fatePipeline,
  volt: voltPipeline,
};

/** The pipeline of a duel's preset: the registry's when loaded (a test's toy preset), else the engine's own import. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as pipelineFor
export function duelPipelineFor(preset: unknown): AttackPipeline<any> {
  if (!presetLoaded(preset) && typeof preset === "string" && Object.hasOwn(BUILT_IN_PIPELINES, preset))
    return BUILT_IN_PIPELINES[preset];
  return pipelineFor(preset);
}

/** A known preset's duel rules (the engine's defaults when it has none of its own). */
export function duelRulesFor(preset: string): AnyDuelRules {
  for (const [id, rules] of allDuelRules()) if (id === preset) return rules;
  return DEFAULT_DUEL_RULES;
}

/** Every preset's duel rules, in the order of the presets (those without any give the defaults). */
export function allDuelRules(): Array<[string, AnyDuelRules]> {
  return registeredPresets().map(([id, m]) => [id, m.duel ?? BUILT_IN_DUEL_RULES[id] ?? DEFAULT_DUEL_RULES]);
}
