/**
 * The presets by id, each from its own folder: its attack pipeline (and the functions that look a
 * preset up by a request's `preset`). A preset's track kind is listed in track.ts.
 */
import { RulesError } from "./errors";
import type { Rng } from "./dice";
import { recordedDice, rollingDice, type AttackPipeline, type AttackResolution } from "./pipeline";
import { fudgePipeline } from "./fudge/pipeline";
import { miniaturesPipeline } from "./miniatures/pipeline";
import { fatePipeline } from "./fate/pipeline";
import { voltPipeline } from "./volt/pipeline";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyPipeline = AttackPipeline<any>;

/** Every preset's attack pipeline by id. */
const PIPELINES = new Map<string, AnyPipeline>([
  [fudgePipeline.preset, fudgePipeline],
  [miniaturesPipeline.preset, miniaturesPipeline],
  [fatePipeline.preset, fatePipeline],
  [voltPipeline.preset, voltPipeline],
]);

/** Adds a pipeline beside the built-in ones (a test's toy preset). */
export function registerPipeline(p: AnyPipeline): void {
  PIPELINES.set(p.preset, p);
}

export function pipelineFor(preset: unknown, path = "preset"): AnyPipeline {
  const p = PIPELINES.get(String(preset));
  if (!p)
    throw new RulesError(
      path,
      "FUDGE.Error.UnknownPreset",
      `unknown preset ${JSON.stringify(preset)} (known: ${[...PIPELINES.keys()].join(", ")})`,
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
