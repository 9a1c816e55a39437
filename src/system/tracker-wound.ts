/**
 * Each combatant's wound state in the combat tracker, in words (never colour alone): his worst
 * wound level, the penalty his rolls take, his condition. Shown as far as the viewer may see the
 * actor (core's own rule for a combatant's resource, v13 CombatTracker#_prepareTurnContext: OBSERVER):
 * an observer or owner (a GM) reads all three; a LIMITED viewer only the condition, as the limited
 * sheet shows it; anyone else nothing. Foundry's tracker (src/foundry/tracker.ts) and the
 * playground's tracker view render it with templates/parts/tracker-wound.hbs.
 */
import { trackFor } from "./combatant";
import type { ActorDoc, WorldRules } from "./data";
import { forCombat, trackView } from "./view";

/** How much of an actor's state a viewer may see: all of it, its condition, or nothing. */
export type TrackerSight = "full" | "condition" | "none";

/** Ownership levels (CONST.DOCUMENT_OWNERSHIP_LEVELS) → what the tracker shows. */
export function trackerSight(level: number): TrackerSight {
  if (level >= 2) return "full";
  if (level >= 1) return "condition";
  return "none";
}

export interface TrackerWoundView {
  /** The worst wound level's label key ("" unhurt or when not shown). */
  levelLabelKey: string;
  /** The penalty in words' numbers ("−1"), "" when not shown. */
  penaltyText: string;
  conditionKey: string;
  condition: string;
  full: boolean;
  /** The stored track no longer fits (a changed preset): said, not guessed. */
  error: { key: string; params: Record<string, string | number> } | null;
}

/** The tracker's words for a combatant's actor (in combat: the combat penalty, Fudge §4.51), or null when the viewer sees none. */
export function trackerWound(actor: ActorDoc, rules: WorldRules, sight: TrackerSight): TrackerWoundView | null {
  if (sight === "none") return null;
  const v = forCombat(
    trackView(() => trackFor(actor, rules), false, rules.preset),
    true,
  );
  const full = sight === "full";
  return {
    levelLabelKey: full ? v.levelLabelKey || "FUDGE.Tracker.Unhurt" : "",
    penaltyText: full ? v.penaltyText : "",
    conditionKey: v.conditionKey,
    condition: v.condition,
    full,
    error: full ? v.error : null,
  };
}
