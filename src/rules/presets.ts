/**
 * The presets by id, each from its own folder: its attack pipeline and its duel rules for the
 * forecast, and the functions that look a preset up by a request's `preset`. A preset's track
 * kind is listed in track.ts.
 */
import { RulesError } from "./errors";
import type { Rng } from "./dice";
import { recordedDice, rollingDice, type AttackPipeline, type AttackResolution } from "./pipeline";
import { fudgePipeline } from "./fudge/pipeline";
import { miniaturesPipeline } from "./miniatures/pipeline";
import { fatePipeline } from "./fate/pipeline";
import { voltPipeline } from "./volt/pipeline";
import { DEFAULT_DUEL_RULES, type DuelRules } from "./forecast/rules";
import { fudgeDuelRules } from "./fudge/duel";
import { miniaturesDuelRules } from "./miniatures/duel";
import { voltDuelRules } from "./volt/duel";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every preset's pipeline, each typed in its own module
type AnyPipeline = AttackPipeline<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every preset's duel rules, each typed in its own module
type AnyDuelRules = DuelRules<any, any>;

/** A preset: its attack pipeline and, when its duels have rules of their own, its duel rules. */
export interface Preset {
  pipeline: AnyPipeline;
  duel?: AnyDuelRules;
}

/**
 * Every preset by id (FATE's duels need no rules beyond the engine's), in the order an unknown
 * preset's refusal lists them and a duel request lists the presets' own fields.
 */
const PRESET_MODULES = new Map<string, Preset>([
  [miniaturesPipeline.preset, { pipeline: miniaturesPipeline, duel: miniaturesDuelRules }],
  [fudgePipeline.preset, { pipeline: fudgePipeline, duel: fudgeDuelRules }],
  [fatePipeline.preset, { pipeline: fatePipeline }],
  [voltPipeline.preset, { pipeline: voltPipeline, duel: voltDuelRules }],
]);

/** Adds a preset beside the built-in ones (a test's toy preset): its pipeline, and its duel rules if any. */
export function registerPreset(preset: Preset): void {
  PRESET_MODULES.set(preset.pipeline.preset, preset);
}

/** Adds a preset that is only a pipeline. */
export function registerPipeline(p: AnyPipeline): void {
  registerPreset({ pipeline: p });
}

/** A known preset's duel rules (the engine's defaults when it has none of its own). */
export function duelRulesFor(preset: string): AnyDuelRules {
  return PRESET_MODULES.get(preset)?.duel ?? DEFAULT_DUEL_RULES;
}

/** Every preset's duel rules, in the order of the presets (those without any give the defaults). */
export function allDuelRules(): Array<[string, AnyDuelRules]> {
  return [...PRESET_MODULES].map(([id, m]) => [id, m.duel ?? DEFAULT_DUEL_RULES]);
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
