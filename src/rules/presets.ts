/**
 * The presets by id, each from its own folder: its attack pipeline, and the functions that look a
 * preset up by a request's `preset`. A preset's duel rules are listed beside the forecast engine
 * (forecast/presets.ts), which loads on demand; a preset's track kind is listed in track.ts.
 */
import { RulesError } from "./errors";
import type { Rng } from "./dice";
import { recordedDice, rollingDice, type AttackPipeline, type AttackResolution } from "./pipeline";
import { fudgePipeline } from "./fudge/pipeline";
import { miniaturesPipeline } from "./miniatures/pipeline";
import { fatePipeline } from "./fate/pipeline";
import { voltPipeline } from "./volt/pipeline";
import type { DuelRules } from "./forecast/rules";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every preset's pipeline, each typed in its own module
type AnyPipeline = AttackPipeline<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every preset's duel rules, each typed in its own module
export type AnyDuelRules = DuelRules<any, any>;

/** A preset: its attack pipeline and, when its duels have rules of their own, its duel rules. */
export interface Preset {
  pipeline: AnyPipeline;
  duel?: AnyDuelRules;
}

/**
 * Every preset by id, in the order an unknown preset's refusal lists them and a duel request lists
 * the presets' own fields. The built-in presets' duel rules are in forecast/presets.ts.
 */
const PRESET_MODULES = new Map<string, Preset>([
  [miniaturesPipeline.preset, { pipeline: miniaturesPipeline }],
  [fudgePipeline.preset, { pipeline: fudgePipeline }],
  [fatePipeline.preset, { pipeline: fatePipeline }],
  [voltPipeline.preset, { pipeline: voltPipeline }],
]);

/** Adds a preset beside the built-in ones (a test's toy preset): its pipeline, and its duel rules if any. */
export function registerPreset(preset: Preset): void {
  PRESET_MODULES.set(preset.pipeline.preset, preset);
}

/** Every preset by id with the duel rules it was registered with (the built-in ones' are the engine's to add). */
export function registeredPresets(): Array<[string, Preset]> {
  return [...PRESET_MODULES];
}

/** Adds a preset that is only a pipeline. */
export function registerPipeline(p: AnyPipeline): void {
  registerPreset({ pipeline: p });
}

export function pipelineFor(preset: unknown, path = "preset"): AnyPipeline {
  const p = PRESET_MODULES.get(String(preset))?.pipeline;
  if (!p)
    throw new RulesError(
      path,
      "FUDGE.Error.UnknownPreset",
      `unknown preset ${JSON.stringify(preset)} (known: ${[...PRESET_MODULES.keys()].join(", ")})`,
    );
  return p;
}

/** Parse, then resolve from recorded dice. */
export function resolveAttack(input: unknown, dice: Record<string, unknown>): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, recordedDice(dice, p.slots(req)));
}

/** Parse, then roll what the rules need and resolve. */
export function rollAttack(input: unknown, rng: Rng): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, rollingDice(p.slots(req), rng));
}
