/**
 * The presets by id, each from its own folder: its attack pipeline, and the functions that look a
 * preset up by a request's `preset`. A built-in preset's pipeline loads on demand (its own chunk in
 * the system's build): `loadPreset` loads it, after which `pipelineFor` returns it at once. A
 * preset's duel rules are listed beside the forecast engine (forecast/presets.ts), which loads on
 * demand too; a preset's track kind is listed in track.ts and loads with the rules core.
 */
import { RulesError } from "./errors";
import type { Rng } from "./dice";
import { recordedDice, rollingDice, type AttackPipeline, type AttackResolution } from "./pipeline";
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

/** A preset as the registry holds it: its pipeline once loaded, the load under way, and how to load it. */
interface PresetEntry {
  pipeline?: AnyPipeline;
  duel?: AnyDuelRules;
  loading?: Promise<AnyPipeline>;
  load?: () => Promise<AnyPipeline>;
}

/**
 * Every preset by id, in the order an unknown preset's refusal lists them and a duel request lists
 * the presets' own fields. Each built-in pipeline is a dynamic import, so a world's client loads
 * only its own preset's (the system's docs, "What loads when"). The built-in presets' duel rules are
 * in forecast/presets.ts.
 */
const PRESET_MODULES = new Map<string, PresetEntry>([
  ["miniatures", { load: () => import("./miniatures/pipeline").then((m) => m.miniaturesPipeline) }],
  ["fudge", { load: () => import("./fudge/pipeline").then((m) => m.fudgePipeline) }],
  ["fate", { load: () => import("./fate/pipeline").then((m) => m.fatePipeline) }],
  ["volt", { load: () => import("./volt/pipeline").then((m) => m.voltPipeline) }],
]);

/** Adds a preset beside the built-in ones (a test's toy preset): its pipeline, and its duel rules if any. */
export function registerPreset(preset: Preset): void {
  PRESET_MODULES.set(preset.pipeline.preset, { pipeline: preset.pipeline, duel: preset.duel });
}

/** Every preset by id with the duel rules it was registered with (the built-in ones' are the engine's to add). */
export function registeredPresets(): Array<[string, { duel?: AnyDuelRules }]> {
  return [...PRESET_MODULES].map(([id, e]) => [id, { duel: e.duel }]);
}

/** Adds a preset that is only a pipeline. */
export function registerPipeline(p: AnyPipeline): void {
  registerPreset({ pipeline: p });
}

function unknownPreset(preset: unknown, path: string): RulesError {
  return new RulesError(
    path,
    "FUDGE.Error.UnknownPreset",
    `unknown preset ${JSON.stringify(preset)} (known: ${[...PRESET_MODULES.keys()].join(", ")})`,
  );
}

/**
 * The preset's pipeline, loaded (`loadPreset`). Synchronous: a preset known but not loaded yet is
 * refused in a sentence of its own, never waited for, so a caller that can wait awaits `loadPreset`
 * first.
 */
export function pipelineFor(preset: unknown, path = "preset"): AnyPipeline {
  const entry = PRESET_MODULES.get(String(preset));
  if (!entry) throw unknownPreset(preset, path);
  if (!entry.pipeline)
    throw new RulesError(
      path,
      "FUDGE.Error.PresetNotLoaded",
      `the rules of preset ${JSON.stringify(preset)} are not loaded yet (loadPreset first)`,
    );
  return entry.pipeline;
}

/** A preset of this registry (loaded or not). */
export function presetKnown(preset: unknown): boolean {
  return typeof preset === "string" && PRESET_MODULES.has(preset);
}

/** The preset's pipeline is loaded: `pipelineFor` returns it. */
export function presetLoaded(preset: unknown): boolean {
  return !!PRESET_MODULES.get(String(preset))?.pipeline;
}

/**
 * Loads the preset's pipeline (once; a failed load is tried again the next time), refusing an
 * unknown preset as `pipelineFor` does.
 */
export function loadPreset(preset: unknown, path = "preset"): Promise<AnyPipeline> {
  const entry = PRESET_MODULES.get(String(preset));
  if (!entry) return Promise.reject(unknownPreset(preset, path));
  if (entry.pipeline) return Promise.resolve(entry.pipeline);
  if (!entry.load) return Promise.reject(unknownPreset(preset, path));
  return (entry.loading ??= entry.load().then(
    (p) => (entry.pipeline = p),
    (e: unknown) => {
      entry.loading = undefined;
      throw e;
    },
  ));
}

/** Loads every preset's pipeline (the CLI, the forecast worker and tests, which may need any). */
export async function loadAllPresets(): Promise<void> {
  await Promise.all([...PRESET_MODULES.keys()].map((id) => loadPreset(id)));
}

/** Parse, then resolve from recorded dice (the preset loaded). */
export function resolveAttack(input: unknown, dice: Record<string, unknown>): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, recordedDice(dice, p.slots(req)));
}

/** Parse, then roll what the rules need and resolve (the preset loaded). */
export function rollAttack(input: unknown, rng: Rng): AttackResolution {
  const preset = (input as { preset?: unknown })?.preset;
  const p = pipelineFor(preset);
  const req = p.parseRequest(input);
  return p.resolve(req, rollingDice(p.slots(req), rng));
}
