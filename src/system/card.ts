/**
 * Chat-card context builders: the attack card (attack → defend → apply → undo) and the trait
 * roll card. Everything shown comes from the card's recorded data and the rules core's
 * resolution; the viewer only decides which buttons are offered.
 */
import { signed } from "../rules/explain";
import { pipelineFor, type AttackResolution } from "../rules/pipeline";
import { renderTrack, type Track } from "../rules/track";
import { isRulesError } from "../rules/errors";
import type { ActorDoc, AttackCardData, AttackCardTarget, WorldRules } from "./data";
import { authorize, fudgePointOffer, liveApplied, isOwner, type RollCardData, type UserRef } from "./actions";
import { liveRecord, woundLogOf } from "./integrity";
import { FUDGE_LEVELS, ladderOf, levelView, stepView, trackViewFromRender, type LevelView, type StepView, type TrackView } from "./view";

export interface CardViewer {
  user: UserRef;
  /**
   * Looks up a (target) actor by the card's actor id; unknown → not owned. With the whole
   * document (system, items) the card can also offer the defender's own choices (Fudge Points).
   */
  actor: (id: string) => (Pick<ActorDoc, "ownership" | "name"> & Partial<ActorDoc>) | undefined;
}

export interface DiceView {
  slot: string;
  labelKey: string;
  formula: string;
  faces: string;
}

export interface NumberView {
  key: string;
  labelKey: string;
  value: number;
  /** Ladder modifiers signed (+2, −1); Volt values and die faces plain. */
  text: string;
  /** Set instead of `text` for yes/no flags. */
  textKey: string;
}

export interface TargetView {
  index: number;
  actorId: string;
  name: string;
  defend: string;
  canDefend: boolean;
  waiting: boolean;
  resolved: boolean;
  outcome: string;
  outcomeKey: string;
  hit: boolean;
  woundKey: string | null;
  woundLabelKeys: string[];
  numbers: NumberView[];
  relativeDegree: number | null;
  relativeDegreeText: string;
  dice: DiceView[];
  steps: StepView[];
  /** The defender's track after the wound (preview before Apply; the applied result after). */
  after: TrackView | null;
  followUps: { type: string; labelKey: string; target: string }[];
  applied: { userId: string; undone: boolean; ended: boolean; steps: StepView[] }[];
  isApplied: boolean;
  /** Apply re-derived the result from the live actors and it differed from what the card showed. */
  differs: boolean;
  canApply: boolean;
  /** Fudge §4.64: the defender's owner may spend a Fudge Point so that this wound does not kill. */
  canSpendFudgePoint: boolean;
  canUndo: boolean;
  /** "needsRelay" when the click will go through the GM. */
  applyVia: string;
  undoVia: string;
  error: { key: string; params: Record<string, string | number> } | null;
}

export interface AttackCardContext {
  messageId: string;
  preset: string;
  presetLabelKey: string;
  attackerName: string;
  weaponName: string;
  situation: { key: string; labelKey: string; value: string }[];
  targets: TargetView[];
  /**
   * World setting "apply wounds to: selected tokens" (dnd5e-style GM toggle): the card offers one
   * button that applies to the tokens the clicking user has selected that are targets of the card.
   */
  canApplySelected: boolean;
  cssClass: string;
}

const facesText = (faces: number[], formula: string): string =>
  formula.endsWith("dF") ? faces.map((f) => (f > 0 ? "+" : f < 0 ? "\u2212" : "0")).join(" ") : faces.join(", ");

/** Label keys of the wound dealt: the defender track's level row, else the wound types ("stun+injury" → two labels). */
function woundLabels(res: AttackResolution): string[] {
  if (!res.woundKey) return [];
  const t = res.defenderAfter?.track;
  if (t) {
    try {
      const row = renderTrack(t as Track).rows.find((r) => r.key === res.woundKey);
      if (row) return [row.labelKey];
    } catch {
      /* fall through */
    }
  }
  return res.woundKey.split("+").map((k) => (FUDGE_LEVELS.includes(k) ? `FUDGE.Wound.${k}` : `FUDGE.Card.Wound.${k}`));
}

function afterView(state: unknown, res: AttackResolution | null): TrackView | null {
  const t = res?.defenderAfter?.track as Track | undefined;
  if (!t) return null;
  try {
    const view = trackViewFromRender(renderTrack(state === undefined ? t : { config: t.config, state }), false);
    // Volt: twenty rows are too many for a chat card; it shows the marked rows (the sheet has them all).
    return view.kind === "volt" ? { ...view, rows: view.rows.filter((r) => r.boxes.some((b) => b.marked)) } : view;
  } catch (e) {
    if (isRulesError(e)) return null;
    throw e;
  }
}

function diceViews(t: AttackCardTarget, res: AttackResolution | null): DiceView[] {
  let slots: { id: string; labelKey: string; formula: string }[] = [];
  try {
    const p = pipelineFor((t.request as { preset?: unknown })?.preset);
    slots = p.slots(p.parseRequest(t.request));
  } catch {
    slots = [];
  }
  const read = res ? res.dice : t.dice;
  return Object.entries(read).map(([id, faces]) => {
    const s = slots.find((x) => x.id === id);
    return { slot: id, labelKey: s?.labelKey ?? "FUDGE.Card.Dice", formula: s?.formula ?? "", faces: facesText(faces, s?.formula ?? "") };
  });
}

/** Volt's numbers are die faces and values, not ladder modifiers; a few numbers are yes/no flags. */
const FLAG_NUMBERS = new Set(["damageSuccess", "injuryDamageSuccess"]);
const PLAIN_NUMBERS = new Set(["mmmRead"]);
function numberView(preset: string, key: string, value: number): NumberView {
  const labelKey = `FUDGE.Card.Number.${key}`;
  if (FLAG_NUMBERS.has(key)) return { key, labelKey, value, text: "", textKey: value ? "FUDGE.Card.Yes" : "FUDGE.Card.No" };
  return { key, labelKey, value, text: preset === "volt" || PLAIN_NUMBERS.has(key) ? String(value) : signed(value), textKey: "" };
}

export function attackCardContext(message: { _id?: string; id?: string; system: AttackCardData }, rules: WorldRules, viewer: CardViewer): AttackCardContext {
  const card = message.system;
  const messageId = message._id ?? message.id ?? "";
  const targets = card.targets.map((t, index): TargetView => {
    const actor = viewer.actor(t.actorId) ?? { ownership: {}, name: t.name };
    const res = (t.resolution as AttackResolution | null) ?? null;
    // With the live target at hand, "applied" is its wound log's word, not the card's (which its author writes).
    const whole = "system" in actor;
    const live = whole ? liveRecord(woundLogOf(actor), messageId) : liveApplied(t);
    const applyVerdict = authorize("apply", viewer.user, actor, card, t);
    const undoVerdict = authorize("undo", viewer.user, actor, card, t, whole ? messageId : undefined);
    const canWound = !!res && res.wound !== null && res.wound !== undefined;
    return {
      index,
      actorId: t.actorId,
      // The live actor's name: a card cannot call a player's character "Goblin".
      name: actor.name,
      defend: t.defend,
      canDefend: t.defend === "pending" && isOwner(viewer.user, actor),
      waiting: t.defend === "pending",
      resolved: !!res,
      outcome: res?.outcome ?? "",
      outcomeKey: res ? `FUDGE.Card.Outcome.${res.outcome}` : "FUDGE.Card.WaitingDefense",
      hit: res?.hit ?? false,
      woundKey: res?.woundKey ?? null,
      woundLabelKeys: res ? woundLabels(res) : [],
      numbers: res ? Object.entries(res.numbers).map(([key, value]) => numberView(card.preset, key, value)) : [],
      relativeDegree: res?.numbers.relativeDegree ?? null,
      relativeDegreeText: res && res.numbers.relativeDegree !== undefined ? signed(res.numbers.relativeDegree) : "",
      dice: diceViews(t, res),
      steps: res ? res.steps.map(stepView) : [],
      after: live ? afterView(live.after, res) : canWound ? afterView(undefined, res) : null,
      followUps: (res?.followUps ?? []).map((f) => ({ type: f.type, labelKey: `FUDGE.FollowUp.${f.type}`, target: f.target })),
      applied: t.applied.map((a) => ({ userId: a.userId, undone: a.undone, ended: a.ended, steps: ((a.steps ?? []) as never[]).map(stepView) })),
      isApplied: !!live,
      differs: t.differs === true,
      canApply: canWound && !live && applyVerdict !== "deny",
      canSpendFudgePoint: canWound && !live && whole && isOwner(viewer.user, actor) && fudgePointOffer(card, t, actor as ActorDoc, rules),
      canUndo: !!live && undoVerdict !== "deny",
      applyVia: applyVerdict,
      undoVia: undoVerdict,
      error: null,
    };
  });
  const situation = Object.entries(card.situation ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== 0 && v !== "")
    .map(([key, v]) => ({ key, labelKey: `FUDGE.Situation.${key}`, value: typeof v === "number" ? signed(v) : typeof v === "boolean" ? "" : String(v) }));
  return {
    messageId,
    preset: card.preset,
    presetLabelKey: `FUDGE.Preset.${card.preset}`,
    attackerName: viewer.actor(card.attackerId)?.name ?? card.attackerName,
    weaponName: card.weaponName,
    situation,
    targets,
    canApplySelected: rules.applyTo === "selected" && targets.some((t) => t.canApply),
    cssClass: `fudge-wounds fudge-card preset-${card.preset}`,
  };
}

export interface RollCardContext {
  actorName: string;
  traitLabelKey: string;
  traitName: string;
  level: LevelView | null;
  penaltyText: string;
  hasPenalty: boolean;
  dice: string;
  result: LevelView | null;
  resultText: string;
  success: boolean;
  difficulty: LevelView;
  steps: StepView[];
  volt: boolean;
  cssClass: string;
}

/** The trait roll card (from rollTrait's data). */
export function rollCardContext(roll: RollCardData, rules: WorldRules): RollCardContext {
  const ladder = ladderOf(rules);
  const volt = roll.traitKey.startsWith("volt.");
  return {
    actorName: roll.actorName,
    traitLabelKey: roll.traitLabelKey,
    traitName: roll.traitName,
    level: volt ? null : levelView(roll.level, ladder),
    penaltyText: signed(roll.penalty),
    hasPenalty: roll.penalty !== 0,
    dice: facesText(roll.dice, volt ? "2d20" : "4dF"),
    result: volt ? null : levelView(roll.result, ladder),
    resultText: String(roll.result),
    success: roll.success,
    difficulty: levelView(roll.difficulty, ladder),
    steps: roll.steps.map(stepView),
    volt,
    cssClass: `fudge-wounds fudge-card roll-card preset-${roll.preset}`,
  };
}
