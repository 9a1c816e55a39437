/**
 * Each preset's duel rules, by preset id: the built-in presets' from their own folders (FATE's
 * duels need no rules beyond the engine's), then any registered with a preset (a test's toy
 * preset). Here, beside the engine, so that the duel rules load with it and not with the pipelines.
 */
import { registeredPresets, type AnyDuelRules } from "../presets";
import { fudgeDuelRules } from "../fudge/duel";
import { miniaturesDuelRules } from "../miniatures/duel";
import { voltDuelRules } from "../volt/duel";
import { DEFAULT_DUEL_RULES } from "./rules";

const BUILT_IN_DUEL_RULES: Record<string, AnyDuelRules> = {
  miniatures: miniaturesDuelRules,
  fudge: fudgeDuelRules,
  volt: voltDuelRules,
};

/** A known preset's duel rules (the engine's defaults when it has none of its own). */
export function duelRulesFor(preset: string): AnyDuelRules {
  for (const [id, rules] of allDuelRules()) if (id === preset) return rules;
  return DEFAULT_DUEL_RULES;
}

/** Every preset's duel rules, in the order of the presets (those without any give the defaults). */
export function allDuelRules(): Array<[string, AnyDuelRules]> {
  return registeredPresets().map(([id, m]) => [id, m.duel ?? BUILT_IN_DUEL_RULES[id] ?? DEFAULT_DUEL_RULES]);
}
