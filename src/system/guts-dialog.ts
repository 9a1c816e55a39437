/**
 * The Guts check dialog of a miniature (templates/dialog/guts-dialog.hbs): why the model checks
 * (Miniatures: Guts — charging or being charged by a Terrifying opponent, a friend shooting into
 * the combat, anything else the GM calls for), the target, and the datacard's own circumstances
 * (Faithful: defending the King). Steadfast needs no box: "being charged" is one of the reasons.
 * Pure functions over plain documents, as the attack dialog: Foundry's DialogV2 and the tests
 * render the same template from the same context.
 */
import { GUTS_TARGETS, terrifyingTarget } from "../rules/miniatures";
import { miniRules } from "./combatant";
import type { ActorDoc } from "./data";
import type { GutsActionResult, GutsFlags } from "./actions";

/** Why a model checks Guts, as the dialog asks it. */
export const GUTS_DIALOG_REASONS = ["charged", "charging", "friendShoots", "other"] as const;
export type GutsDialogReason = (typeof GUTS_DIALOG_REASONS)[number];

/** What the dialog returns: a Guts check's trigger, in the rules core's words. */
export interface GutsDialogChoice {
  reason: GutsDialogReason;
  /** The opponent's Terrifying gifts (charged / charging). */
  terrifying: number;
  /** The GM's target for "other". */
  target: number;
  /** Faithful: the model is defending the King. */
  defendingKing: boolean;
  /** The model is a peasant in melee with a model of Noble presence (−1). */
  nobleInMelee: boolean;
  /** The model is a follower whose Leader has fallen (−1). */
  leaderFallen: boolean;
  /** Any other modifier the GM gives (Noble presence −1 …). */
  modifier: number;
}

/**
 * The dialog's choice when no Terrifying opponent is targeted. Of the seed's circumstances
 * (Miniatures: Guts), the table rolls the wound checks itself (on Apply) and a friend's shot into a
 * melee from its card; what is left without a Terrifying foe is a check the GM calls for, and its
 * target starts at the commonest circumstance's, a new wound level: +1 (a wound marked by hand on
 * the track rolls no check). The Terrifying gifts count stays 1, the least a Terrifying foe has,
 * for a player who picks a charge.
 */
export function defaultGutsChoice(): GutsDialogChoice {
  return {
    reason: "other",
    terrifying: 1,
    target: GUTS_TARGETS.newWoundLevel,
    defendingKing: false,
    nobleInMelee: false,
    leaderFallen: false,
    modifier: 0,
  };
}

/**
 * The dialog's first choice from the player's targets: when they include a miniature with
 * Terrifying gifts, a charge by it with the most Terrifying gifts among them (Miniatures: Guts —
 * the target is "0 plus the number of 'Terrifying' gifts the opponent has"), so a charge by a
 * targeted Brutas reads his count ("being charged", unless `last` says charging). Without one, the
 * default (defaultGutsChoice): no Terrifying charge the table does not show.
 */
export function gutsChoiceFor(
  opponents: readonly ActorDoc[],
  last: GutsDialogChoice = defaultGutsChoice(),
  circumstances?: Pick<GutsDialogChoice, "defendingKing" | "nobleInMelee" | "leaderFallen">,
): GutsDialogChoice {
  const counts = opponents
    .filter((o) => o.type === "miniature")
    .map((o) => Number((o.system as { terrifying?: unknown }).terrifying) || 0);
  const most = Math.max(0, ...counts);
  // The model's standing and what the table derives (src/system/guts.ts) tick the boxes; the player can change them.
  const c = circumstances
    ? {
        defendingKing: circumstances.defendingKing,
        nobleInMelee: circumstances.nobleInMelee,
        leaderFallen: circumstances.leaderFallen,
      }
    : {};
  if (most > 0) return { ...last, ...c, reason: last.reason === "charging" ? "charging" : "charged", terrifying: most };
  // No Terrifying opponent targeted: a charge the table does not show is not offered first.
  const reason = last.reason === "charged" || last.reason === "charging" ? defaultGutsChoice().reason : last.reason;
  return { ...last, ...c, reason };
}

export interface GutsDialogContext {
  actorName: string;
  reasons: { value: GutsDialogReason; labelKey: string; selected: boolean }[];
  terrifying: number;
  target: number;
  modifier: number;
  /** Offered only to a model whose datacard has Faithful. */
  faithful: boolean;
  defendingKing: boolean;
  /** The King's rules act on other models' checks: offered to every model (the GM knows who is a peasant or a follower). */
  nobleInMelee: boolean;
  leaderFallen: boolean;
  /** The model's Steadfast, shown by the reasons (it counts when "charged" is chosen). */
  steadfast: boolean;
  cssClass: string;
}

export function gutsDialogContext(actor: ActorDoc, last: GutsDialogChoice = defaultGutsChoice()): GutsDialogContext {
  const rules = miniRules(actor);
  return {
    actorName: actor.name,
    reasons: GUTS_DIALOG_REASONS.map((r) => ({
      value: r,
      labelKey: `FUDGE.GutsDialog.Reason.${r}`,
      selected: r === last.reason,
    })),
    terrifying: last.terrifying,
    target: last.target,
    modifier: last.modifier,
    faithful: rules.has("faithful"),
    defendingKing: rules.has("faithful") && last.defendingKing,
    nobleInMelee: last.nobleInMelee,
    leaderFallen: last.leaderFallen,
    steadfast: rules.has("steadfast"),
    cssClass: "fudge-wounds fudge-guts-dialog",
  };
}

/** Whole numbers within a range, else the default (a form's values are claims). */
function whole(raw: unknown, min: number, max: number, dflt: number): number {
  if (typeof raw === "string" && raw.trim() === "") return dflt;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : dflt;
}

/** A submitted Guts dialog → the choice (claims checked: a known reason, whole numbers in range). */
export function readGutsChoice(form: Iterable<[string, unknown]>): GutsDialogChoice {
  const out = defaultGutsChoice();
  for (const [name, raw] of form) {
    if (name === "reason" && (GUTS_DIALOG_REASONS as readonly unknown[]).includes(raw))
      out.reason = raw as GutsDialogReason;
    else if (name === "terrifying") out.terrifying = whole(raw, 0, 20, out.terrifying);
    else if (name === "target") out.target = whole(raw, -10, 10, out.target);
    else if (name === "modifier") out.modifier = whole(raw, -10, 10, out.modifier);
    else if (name === "defendingKing" || name === "nobleInMelee" || name === "leaderFallen")
      out[name] = raw === true || raw === "on" || raw === "true";
  }
  return out;
}

/** The trigger of the rules core's Guts check for a choice (Miniatures: Guts targets); the flags count only where a datacard gives them a rule. */
export function gutsTriggerOf(
  choice: GutsDialogChoice,
): { reason: "terrifying" | "friendShoots" | "other"; target: number; modifiers: number } & Required<GutsFlags> {
  const base = {
    modifiers: choice.modifier,
    beingCharged: choice.reason === "charged",
    defendingKing: choice.defendingKing,
    nobleInMelee: choice.nobleInMelee,
    leaderFallen: choice.leaderFallen,
  };
  // Miniatures: Guts — charging or being charged by a Terrifying opponent: 0 + its Terrifying gifts.
  if (choice.reason === "charged" || choice.reason === "charging")
    return { ...base, reason: "terrifying", target: terrifyingTarget(choice.terrifying) };
  // Miniatures: Guts — a friend shoots into the combat: +0.
  if (choice.reason === "friendShoots") return { ...base, reason: "friendShoots", target: GUTS_TARGETS.friendShoots };
  return { ...base, reason: "other", target: choice.target };
}

/**
 * The lines of a Guts check's chat note, in the game's words: the result, then each gift or fault
 * that counted (Steadfast +1, Faithful +1, Mercenary "flees the combat"), as the rules core names
 * them. `format(key, params)` is the host's (Foundry's i18n.format, the playground's).
 */
export function gutsNoteLines(
  r: Pick<GutsActionResult, "passed" | "total" | "target" | "effect" | "steps">,
  format: (key: string, params: Record<string, string | number>) => string,
): string[] {
  const result = r.passed
    ? format("FUDGE.Miniatures.GutsPassed", { total: String(r.total), target: String(r.target) })
    : format("FUDGE.Miniatures.GutsFailed", {
        total: String(r.total),
        target: String(r.target),
        effect: format(`FUDGE.Miniatures.Guts.Effect${r.effect}`, {}),
      });
  return [result, ...gutsTraitLines(r.steps, format)];
}

/**
 * The gifts, faults and circumstances that counted in a Guts check, one short line each, as the
 * rules core names them ("Sir Knightly: defending the King +1", "A follower whose Leader has
 * fallen: −1", "… flees the combat"), and the −1 of a Guts failure by 1 in force ("Shaken (failed
 * Guts check): −1 to rolls", Miniatures: Guts): every note of a Guts check or Near Death roll lists them.
 */
export function gutsTraitLines(
  steps: readonly { key: string; params?: Record<string, string | number> }[],
  format: (key: string, params: Record<string, string | number>) => string,
): string[] {
  return steps
    .filter(
      (s) => s.key.startsWith("FUDGE.Miniatures.Step.Trait.") || s.key === "FUDGE.Miniatures.Step.GutsRollPenalty",
    )
    .map((s) => format(s.key, s.params ?? {}));
}
