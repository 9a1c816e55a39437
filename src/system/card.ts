/**
 * Chat-card context builders: the attack card (attack → defend → apply → undo) and the trait
 * roll card. Everything shown comes from the card's recorded data and the rules core's
 * resolution; the viewer only decides which buttons are offered.
 */
import {
  signed,
  type AttackResolution,
  pipelineFor,
  parseTrack,
  renderTrack,
  type Track,
  isRulesError,
  type RulesError,
  character,
  DICE_OPTION_FORMULAS,
} from "../rules";
import type { ActorDoc, AttackCardData, AttackCardTarget, DefenceShown, WorldRules } from "./data";
import {
  authorize,
  fudgePointOffer,
  gmRollSlot,
  liveApplied,
  isOwner,
  type RollCardData,
  type UserRef,
} from "./actions";
import { trackFor } from "./combatant";
import { checkCard, checkRollCard, liveRecord, woundLogOf } from "./integrity";
import {
  hasFudgePoints,
  rollSpendOf,
  rollTakesFudgePoint,
  type AttackSide,
  type RollCardFudgePoint,
} from "./fudge-point-spend";
import { attackSpendOf, attackTakesFudgePoint } from "./attack-fudge-point";
import { opposedOutcome } from "./opposed";
import {
  FUDGE_LEVELS,
  isDatacardStat,
  ladderOf,
  levelView,
  outcomeLabelKey,
  stepView,
  trackViewFromRender,
  type LevelView,
  type RowView,
  type StepView,
  type TrackView,
} from "./view";

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

/** One die of a roll as the card shows it: a Fudge face (+ / blank / −) or a plain number. */
export interface FaceView {
  text: string;
  css: string;
  /** Screen-reader / tooltip text of the face ("plus", "blank", "minus", or the number). */
  labelKey: string;
}

/** A roll line: who rolled, the faces, and the result on the ladder (Fudge/FATE) or as a number. */
export interface RollLineView {
  slot: string;
  labelKey: string;
  formula: string;
  faces: FaceView[];
  /** The result this roll gave, e.g. the attacker's total: a ladder level (Fudge/FATE), else null. */
  level: LevelView | null;
  resultText: string;
  /** Fudge §1.36: the viewer may spend this roll's side's Fudge Point on it (whose roll), or null. */
  offer: { side: AttackSide; name: string } | null;
}

/** A short fact of the headline ("RD +2", "damage 8"). */
export interface FactView {
  key: string;
  labelKey: string;
  text: string;
}

/** Card state shown on each target: pending (defence to roll), resolved, applied, undone. */
export type CardState = "pending" | "resolved" | "applied" | "undone";

export interface TargetView {
  index: number;
  state: CardState;
  stateKey: string;
  /** The headline sentence's i18n key and params ("{name} takes {level}", "{attacker} misses"). */
  headlineKey: string;
  headlineParams: Record<string, string | number>;
  /** Penalty of the wound dealt ("−1"), "" where none. */
  woundPenaltyText: string;
  facts: FactView[];
  rolls: RollLineView[];
  /** Only the rows of the defender's track that this wound changes (before → after). */
  changedRows: RowView[];
  /** The defender's condition after the wound (when it is not "able"). */
  afterConditionKey: string;
  /** Fudge §4.64: a Fudge Point saved the defender; the headline and Undo name the level it marked instead. */
  fudgePointSaved: boolean;
  /** The defender's own choices for his defence roll (his Defend dialog), or null (none recorded). */
  defence: (DefenceShown & { modifierText: string }) | null;
  applyLabelKey: string;
  applyLabelParams: Record<string, string>;
  undoLabelParams: Record<string, string>;
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
  /**
   * GM judgement (Fudge §4.55): this hit's wound is the GM's call (awaiting it, or ruled and not
   * applied now). The GM alone gets the picker and its Apply; everyone else reads "The GM decides".
   */
  gmJudgement: boolean;
  canJudge: boolean;
  /** The picker's choices: "none" (no wound), then the defender track's levels; the GM's last pick selected. */
  judgeLevels: { value: string; labelKey: string; labelParams: Record<string, string | number>; selected: boolean }[];
  /** The GM's Apply rolls the Situational 4dF after the pick (the world's option). */
  judgeRolls: boolean;
  /** Fudge §4.64: the defender's owner may spend a Fudge Point so that this wound does not kill. */
  canSpendFudgePoint: boolean;
  /** Fudge §1.36: the Fudge Points spent on this target's rolls (the attacker's, the defender's), read from the spenders' own logs. */
  fudgePoints: AttackFudgePointView[];
  /** Fudge §1.36: the viewer may spend the defender's Fudge Point on his defence roll (one level up or down). */
  canSpendDefenceFudgePoint: boolean;
  /** Fudge §1.36: the attacker's offer on his attack roll (every target's, offered on each target's attack line). */
  canSpendAttackFudgePoint: boolean;
  canUndo: boolean;
  /** "needsRelay" when the click will go through the GM. */
  applyVia: string;
  undoVia: string;
  error: { key: string; params: Record<string, string | number> } | null;
}

/** A Fudge Point spent on one side's roll (Fudge §1.36), as a target of the card shows it: who, the result from → to. */
export interface AttackFudgePointView {
  side: AttackSide;
  labelKey: string;
  params: { name: string };
  from: LevelView;
  to: LevelView;
  /** The viewer may undo it (the spender's owner, no wound applied). */
  canUndo: boolean;
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
  /** More than one target can take its wound: one button applies them all. */
  canApplyAll: boolean;
  /** Miniatures: a shot into a melee — the GM's button for the Guts checks of the friends in it. */
  canGutsFriends: boolean;
  cssClass: string;
  /** The card's data failed its check (src/system/integrity.ts checkCard): the card is this one line, and offers nothing. */
  error: CardError | null;
}

/** The one line a card that cannot be drawn shows instead (a localized FUDGE.Error.Card.* sentence). */
export interface CardError {
  key: string;
  params: Record<string, string | number>;
}

const cardError = (e: RulesError): CardError => ({
  key: e.key,
  params: { ...e.params } as Record<string, string | number>,
});

/** A card's data passed through its check; a RulesError becomes the card's error line, anything else is a bug and thrown. */
function checked<T>(check: () => T): T | CardError {
  try {
    return check();
  } catch (e) {
    if (isRulesError(e)) return cardError(e);
    throw e;
  }
}

/** Miniatures: Guts — the follow-up of a shot into a melee: the shooter's friends in it check (target 0). */
const friendsInMelee = (f: { type: string; params?: Record<string, unknown> }): boolean =>
  f.type === "gutsCheck" && f.params?.who === "friendsInMelee";

/** A follow-up's line on the card: the friends' Guts checks say whose they are. */
const followUpLabel = (f: { type: string; params?: Record<string, unknown> }): string =>
  friendsInMelee(f) ? "FUDGE.FollowUp.gutsFriendsInMelee" : `FUDGE.FollowUp.${f.type}`;

/** Faces as rolled; a Miniatures Legendary re-roll (four more 4dF) is set apart: "+ + + + · + − 0 +". */
function facesText(faces: number[], formula: string): string {
  if (!formula.endsWith("dF")) return faces.join(", ");
  const n = Number.parseInt(formula, 10) || faces.length;
  return faces
    .map((f, i) => (i > 0 && i % n === 0 ? "\u00b7 " : "") + (f > 0 ? "+" : f < 0 ? "\u2212" : "0"))
    .join(" ");
}

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
    return {
      slot: id,
      labelKey: s?.labelKey ?? "FUDGE.Card.Dice",
      formula: s?.formula ?? "",
      faces: facesText(faces, s?.formula ?? ""),
    };
  });
}

/** Volt's numbers are die faces and values, not ladder modifiers; a few numbers are yes/no flags. */
const FLAG_NUMBERS = new Set(["damageSuccess", "injuryDamageSuccess"]);
const PLAIN_NUMBERS = new Set(["mmmRead"]);
function numberView(preset: string, key: string, value: number): NumberView {
  const labelKey = `FUDGE.Card.Number.${key}`;
  if (FLAG_NUMBERS.has(key))
    return { key, labelKey, value, text: "", textKey: value ? "FUDGE.Card.Yes" : "FUDGE.Card.No" };
  return {
    key,
    labelKey,
    value,
    text: preset === "volt" || PLAIN_NUMBERS.has(key) ? String(value) : signed(value),
    textKey: "",
  };
}

/** Fudge dice show their faces (+, blank, −); other dice their number (Fudge §1.4, Volt 2d20). */
function faceViews(faces: number[], formula: string): FaceView[] {
  if (!formula.endsWith("dF")) return faces.map((f) => ({ text: String(f), css: "fudge-face number", labelKey: "" }));
  // A Miniatures Legendary re-roll (four more 4dF) is set apart: + + + + · + − 0 +.
  const n = Number.parseInt(formula, 10) || faces.length;
  return faces.flatMap((f, i) => [
    ...(i > 0 && i % n === 0 ? [{ text: "\u00b7", css: "fudge-face-set", labelKey: "FUDGE.Card.Face.reroll" }] : []),
    f > 0
      ? { text: "+", css: "fudge-face plus", labelKey: "FUDGE.Card.Face.plus" }
      : f < 0
        ? { text: "\u2212", css: "fudge-face minus", labelKey: "FUDGE.Card.Face.minus" }
        : { text: "", css: "fudge-face blank", labelKey: "FUDGE.Card.Face.blank" },
  ]);
}

/** The result a roll slot produced: Fudge and FATE read totals on the ladder (Fudge §1.3). */
const SLOT_TOTAL: Record<string, string> = {
  attack: "attackerTotal",
  defense: "defenderTotal",
  defence: "defenderTotal",
};
function rollLines(
  dice: DiceView[],
  raw: Record<string, number[]>,
  res: AttackResolution | null,
  preset: string,
  rules: WorldRules,
): RollLineView[] {
  const ladder = preset === "fudge" || preset === "fate" ? ladderOf(rules) : null;
  return dice.map((d) => {
    const totalKey = SLOT_TOTAL[d.slot];
    const total = res && totalKey ? res.numbers[totalKey] : undefined;
    return {
      slot: d.slot,
      labelKey: d.labelKey,
      formula: d.formula,
      faces: faceViews(raw[d.slot] ?? [], d.formula),
      level: ladder && total !== undefined ? levelView(total, ladder) : null,
      resultText: total !== undefined && !ladder ? String(total) : "",
      offer: null,
    };
  });
}

/**
 * The few numbers the headline names, in each preset's words: Fudge's RD and damage number
 * (Fudge §4.55), FATE's margin of success (FATE ladder "MoS"), Volt's hits.
 */
const FACT_KEYS: Record<string, readonly string[]> = {
  fudge: ["relativeDegree", "damageNumber"],
  fate: ["margin"],
  miniatures: ["relativeDegree", "damageNumber"],
  volt: ["hits"],
};
const SIGNED_FACTS = new Set(["relativeDegree", "margin"]);
/** Numbers the headline shows in some preset: not repeated under Details (FATE's RD is its margin). */
const HEADLINE_NUMBERS = new Set(Object.values(FACT_KEYS).flat());
function factsOf(res: AttackResolution, preset: string): FactView[] {
  const out: FactView[] = [];
  for (const key of FACT_KEYS[preset] ?? FACT_KEYS.fudge) {
    const v = res.numbers[key];
    if (v === undefined) continue;
    if ((key === "damageNumber" || key === "hits") && !res.hit) continue;
    // Volt: one die hitting is a Hit, both a Full Hit (+2 Pierce, +5 Damage).
    if (key === "hits")
      out.push({ key, labelKey: v >= 2 ? "FUDGE.Card.Fact.fullHit" : "FUDGE.Card.Fact.hit", text: "" });
    else out.push({ key, labelKey: `FUDGE.Card.Fact.${key}`, text: SIGNED_FACTS.has(key) ? signed(v) : String(v) });
  }
  if (res.steps.some((s) => s.key.endsWith(".Graze")))
    out.push({ key: "graze", labelKey: "FUDGE.Card.Fact.graze", text: "" });
  return out;
}

/** Rows of the track whose boxes differ between two views (the part of the track a wound changed). */
function changedRows(before: TrackView | null, after: TrackView | null): RowView[] {
  if (!after) return [];
  const sig = (r: RowView | undefined) =>
    r
      ? r.boxes.map((b) => `${b.marked ? 1 : 0}${b.mark ?? ""}${b.overflow ? "o" : ""}${b.stun ? "s" : ""}`).join(",")
      : "";
  return after.rows.filter((r) => sig(r) !== sig(before?.rows.find((x) => x.key === r.key)));
}

function trackAt(res: AttackResolution | null, state: unknown): TrackView | null {
  const t = res?.defenderAfter?.track as Track | undefined;
  if (!t || state === undefined) return null;
  try {
    // The state comes from the card's request or a wound record: parsed against the preview's config first.
    return trackViewFromRender(renderTrack(parseTrack({ config: t.config, state }, "card.track")), false, res?.preset);
  } catch (e) {
    if (isRulesError(e)) return null;
    throw e;
  }
}

function headlineOf(res: AttackResolution | null, waiting: boolean, preset: string): string {
  if (waiting || !res) return "FUDGE.Card.Headline.waiting";
  // FATE ladder: a margin of 0 is Scratched, "a near miss, or a hit with no real impact".
  if (preset === "fate" && res.outcome === "standoff") return "FUDGE.Fate.Headline.scratched";
  return `FUDGE.Card.Headline.${res.outcome}`;
}

/**
 * The attack card's render model. `system` is the card's stored data, a claim: it is checked
 * first (checkCard), and a card that fails is drawn as its error line alone.
 */
export function attackCardContext(
  message: { _id?: string; id?: string; system: unknown },
  rules: WorldRules,
  viewer: CardViewer,
): AttackCardContext {
  const messageId = message._id ?? message.id ?? "";
  const card = checked(() => checkCard(message.system));
  if (!("targets" in card)) {
    return {
      messageId,
      preset: "",
      presetLabelKey: "",
      attackerName: "",
      weaponName: "",
      situation: [],
      targets: [],
      canApplySelected: false,
      canApplyAll: false,
      canGutsFriends: false,
      cssClass: "fudge-wounds fudge-card",
      error: card,
    };
  }
  // The live attacker's name: a card's author cannot sign it with another name (as for targets).
  const attackerName = viewer.actor(card.attackerId)?.name ?? card.attackerName;
  const spends = fudgePointSpends(card, messageId, rules, viewer);
  const targets = card.targets.map((t, index): TargetView => {
    const actor = viewer.actor(t.actorId) ?? { ownership: {}, name: t.name };
    const res = (t.resolution as AttackResolution | null) ?? null;
    // With the live target at hand, "applied" is its wound log's word, not the card's (which its author writes).
    const whole = "system" in actor;
    const live = whole ? liveRecord(woundLogOf(actor), messageId) : liveApplied(t);
    const applyVerdict = authorize("apply", viewer.user, actor, card, t);
    const undoVerdict = authorize("undo", viewer.user, actor, card, t, whole ? messageId : undefined);
    const canWound = !!res && res.wound !== null && res.wound !== undefined;
    const lastUndone = !live && t.applied.length > 0 && t.applied[t.applied.length - 1].undone;
    const state: CardState = t.defend === "pending" ? "pending" : live ? "applied" : lastUndone ? "undone" : "resolved";
    const before = trackAt(
      res,
      live ? live.before : (t.request as { defender?: { track?: { state?: unknown } } })?.defender?.track?.state,
    );
    // The defender's track after the wound, rendered once: the changed rows, the wound's row and
    // (Volt: marked rows only) the `after` view all come from it.
    const fullAfter = live ? trackAt(res, live.after) : canWound ? trackAt(res, res?.defenderAfter?.track.state) : null;
    const after =
      fullAfter && fullAfter.kind === "volt"
        ? { ...fullAfter, rows: fullAfter.rows.filter((r) => r.boxes.some((b) => b.marked)) }
        : fullAfter;
    // Fudge §4.64: a Fudge Point spent on Apply turned the deadly wound into the level it marked (the changed row).
    const saved = live?.fudgePointSpent === true ? changedRows(before, fullAfter)[0] : undefined;
    const woundRow = saved ?? fullAfter?.rows.find((r) => r.key === res?.woundKey);
    const woundLabelKeys = res ? (woundRow ? [woundRow.labelKey] : woundLabels(res)) : [];
    const woundPenaltyText =
      woundRow && woundRow.penaltyText && woundRow.penaltyText !== "0" ? woundRow.penaltyText : "";
    const level = woundLabelKeys[0] ?? "";
    const dice = diceViews(t, res);
    // Fudge §4.55: a hit awaiting the GM's judgement, or one he ruled on (the card's record of his pick, shown only).
    const judgement = !!res && (res.outcome === "gmJudgement" || (typeof t.gmLevel === "string" && t.gmLevel !== ""));
    const canJudge = judgement && viewer.user.isGM && !live && t.defend !== "pending";
    return {
      index,
      state,
      stateKey: `FUDGE.Card.State.${state}`,
      headlineKey: headlineOf(res, t.defend === "pending", card.preset),
      headlineParams: { name: actor.name, attacker: attackerName },
      woundPenaltyText,
      facts: res ? factsOf(res, card.preset) : [],
      rolls: rollLines(dice, res ? res.dice : t.dice, res, card.preset, rules),
      changedRows: changedRows(before, fullAfter),
      afterConditionKey: fullAfter && fullAfter.condition !== "able" ? fullAfter.conditionKey : "",
      fudgePointSaved: !!saved,
      defence: t.defence ? { ...t.defence, modifierText: t.defence.modifier ? signed(t.defence.modifier) : "" } : null,
      applyLabelKey: lastUndone ? "FUDGE.Card.ApplyAgain" : "FUDGE.Card.ApplyTo",
      applyLabelParams: { level, name: actor.name },
      undoLabelParams: { level, name: actor.name },
      actorId: t.actorId,
      // The live actor's name: a card cannot call a player's character "Goblin".
      name: actor.name,
      defend: t.defend,
      canDefend: t.defend === "pending" && isOwner(viewer.user, actor),
      waiting: t.defend === "pending",
      resolved: !!res,
      outcome: res?.outcome ?? "",
      outcomeKey: res ? outcomeLabelKey(card.preset, res.outcome) : "FUDGE.Card.WaitingDefense",
      hit: res?.hit ?? false,
      woundKey: res?.woundKey ?? null,
      woundLabelKeys,
      // Only the factors that are not zero; the headline's facts are not repeated.
      numbers: res
        ? Object.entries(res.numbers)
            .filter(([key, value]) => value !== 0 && !HEADLINE_NUMBERS.has(key))
            .map(([key, value]) => numberView(card.preset, key, value))
        : [],
      relativeDegree: res?.numbers.relativeDegree ?? null,
      relativeDegreeText: res && res.numbers.relativeDegree !== undefined ? signed(res.numbers.relativeDegree) : "",
      dice,
      steps: res ? res.steps.map(stepView) : [],
      after,
      followUps: (res?.followUps ?? []).map((f) => ({ type: f.type, labelKey: followUpLabel(f), target: f.target })),
      applied: t.applied.map((a) => ({
        userId: a.userId,
        undone: a.undone,
        ended: a.ended,
        steps: ((a.steps ?? []) as never[]).map(stepView),
      })),
      isApplied: !!live,
      differs: t.differs === true,
      canApply: canWound && !live && !judgement && applyVerdict !== "deny",
      gmJudgement: judgement,
      canJudge,
      judgeLevels: canJudge ? judgeLevels(actor, t, rules) : [],
      judgeRolls: canJudge && gmRollSlot(rules) !== null,
      canSpendFudgePoint:
        canWound &&
        !live &&
        !judgement &&
        whole &&
        isOwner(viewer.user, actor) &&
        offersFudgePoint(card, t, actor as ActorDoc, rules),
      ...targetFudgePoints(
        { card, messageId, viewer, rules, attacker: spends.attacker },
        t,
        res,
        !!live,
        index,
        whole ? (actor as ActorDoc) : null,
      ),
      canUndo: !!live && undoVerdict !== "deny",
      applyVia: applyVerdict,
      undoVia: undoVerdict,
      error: null,
    };
  });
  // Fudge §1.36: the attack roll is every target's, seen once each defence is rolled, altered before any wound is applied.
  const attackOffer =
    spends.attacker.may && !spends.attacker.spend && targets.every((t) => t.resolved && !t.waiting && !t.isApplied);
  for (const t of targets) {
    t.canSpendAttackFudgePoint = attackOffer;
    // Each offer sits on the line of the roll it alters.
    for (const r of t.rolls) {
      if (r.slot === "attack" && attackOffer) r.offer = { side: "attacker", name: attackerName };
      if (SLOT_TOTAL[r.slot] === "defenderTotal" && t.canSpendDefenceFudgePoint)
        r.offer = { side: "defender", name: t.name };
    }
  }
  const situation = Object.entries(card.situation ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== 0 && v !== "")
    .map(([key, v]) => ({
      key,
      labelKey: `FUDGE.Situation.${key}`,
      value: typeof v === "number" ? signed(v) : typeof v === "boolean" ? "" : String(v),
    }));
  return {
    messageId,
    preset: card.preset,
    presetLabelKey: `FUDGE.Preset.${card.preset}`,
    attackerName,
    weaponName: card.weaponName,
    situation,
    targets,
    canApplySelected: rules.applyTo === "selected" && targets.some((t) => t.canApply),
    canApplyAll: targets.filter((t) => t.canApply).length > 1,
    // Miniatures: Guts — a friend shot into the melee: the GM runs the friends' checks for the tokens he selects (chat.ts gutsForFriends).
    canGutsFriends:
      viewer.user.isGM &&
      card.preset === "miniatures" &&
      card.targets.some((t) => ((t.resolution as AttackResolution | null)?.followUps ?? []).some(friendsInMelee)),
    cssClass: `fudge-wounds fudge-card preset-${card.preset}`,
    error: null,
  };
}

interface SideSpend {
  /** The viewer owns this side's character, in a world and card that take Fudge Points. */
  may: boolean;
  spend: { from: number; to: number } | null;
  name: string;
}

/** The attacker's spend on this card from his own live log, and whether the viewer is his owner. */
function fudgePointSpends(
  card: AttackCardData,
  messageId: string,
  rules: WorldRules,
  viewer: CardViewer,
): { attacker: SideSpend } {
  const a = viewer.actor(card.attackerId);
  return {
    attacker: sideSpend(card, a && "system" in a ? (a as ActorDoc) : null, messageId, "attacker", rules, viewer),
  };
}

function sideSpend(
  card: AttackCardData,
  actor: ActorDoc | null,
  messageId: string,
  side: AttackSide,
  rules: WorldRules,
  viewer: CardViewer,
): SideSpend {
  if (!actor || !hasFudgePoints(actor, rules) || !attackTakesFudgePoint(card, rules))
    return { may: false, spend: null, name: actor?.name ?? "" };
  const s = attackSpendOf(actor, messageId, side, rules);
  return {
    may: isOwner(viewer.user, actor),
    spend: s ? { from: s.change.from, to: s.change.to } : null,
    name: actor.name,
  };
}

/**
 * A target's Fudge Point lines (Fudge §1.36): each side's spend with this target's result before
 * and after it (the attacker's total differs per target: a defender's shield), and the defender's
 * own offer once his defence is rolled and before his wound is applied. The attacker's Undo sits
 * on the first target's line (his one roll is every target's).
 */
function targetFudgePoints(
  ctx: { card: AttackCardData; messageId: string; viewer: CardViewer; rules: WorldRules; attacker: SideSpend },
  t: AttackCardTarget,
  res: AttackResolution | null,
  applied: boolean,
  index: number,
  defender: ActorDoc | null,
): Pick<TargetView, "fudgePoints" | "canSpendDefenceFudgePoint" | "canSpendAttackFudgePoint"> {
  const { card, messageId, viewer, rules } = ctx;
  const defence = sideSpend(card, defender, messageId, "defender", rules, viewer);
  const ladder = ladderOf(rules);
  const spendLine = (key: "attackerTotal" | "defenderTotal", s: SideSpend, side: AttackSide, undo: boolean) => {
    if (!s.spend) return [];
    const to = res?.numbers[key] ?? s.spend.to;
    const from = res?.numbers[key] !== undefined ? to - (s.spend.to - s.spend.from) : s.spend.from;
    const view: AttackFudgePointView = {
      side,
      labelKey: side === "attacker" ? "FUDGE.FudgePoint.OnAttackRoll" : "FUDGE.FudgePoint.OnDefenceRoll",
      params: { name: s.name },
      from: levelView(from, ladder),
      to: levelView(to, ladder),
      canUndo: undo && s.may && !applied,
    };
    return [view];
  };
  return {
    fudgePoints: [
      ...spendLine("attackerTotal", ctx.attacker, "attacker", index === 0),
      ...spendLine("defenderTotal", defence, "defender", true),
    ],
    canSpendDefenceFudgePoint: defence.may && !defence.spend && t.defend !== "pending" && !!res && !applied,
    canSpendAttackFudgePoint: false,
  };
}

/**
 * The GM's choices on a GM-judgement card (Fudge §4.55): no wound, then each level of the
 * defender's track — the live actor's when at hand (the GM's client), else the card's request's.
 */
function judgeLevels(actor: Partial<ActorDoc>, t: AttackCardTarget, rules: WorldRules): TargetView["judgeLevels"] {
  const picked = typeof t.gmLevel === "string" && t.gmLevel !== "" ? t.gmLevel : "none";
  const none = { value: "none", labelKey: "FUDGE.Card.GmJudgement.None", labelParams: {}, selected: picked === "none" };
  let rows: { key: string; labelKey: string; labelParams: Record<string, string | number> }[] = [];
  try {
    const track =
      "system" in actor && actor.system
        ? trackFor(actor as ActorDoc, rules)
        : parseTrack((t.request as { defender?: { track?: unknown } })?.defender?.track, "card.track");
    rows = renderTrack(track).rows;
  } catch (e) {
    if (!isRulesError(e)) throw e;
  }
  return [
    none,
    ...rows.map((r) => ({
      value: r.key,
      labelKey: r.labelKey,
      labelParams: { ...r.labelParams },
      selected: r.key === picked,
    })),
  ];
}

/** The offer is only a button: a shown wound the live track cannot take (a forged one) offers nothing. */
function offersFudgePoint(card: AttackCardData, t: AttackCardTarget, actor: ActorDoc, rules: WorldRules): boolean {
  const offer = checked(() => fudgePointOffer(card, t, actor, rules));
  return offer === true;
}

export interface RollCardContext {
  actorName: string;
  traitLabelKey: string;
  traitName: string;
  level: LevelView | null;
  penaltyText: string;
  hasPenalty: boolean;
  dice: string;
  formula: string;
  faces: FaceView[];
  /** Fudge §3.5: an opposed roll's other side, or null. */
  opposed: OpposedView | null;
  /** Fudge §1.36: the Fudge Point spent on the roll (who, the result before and after; an automatic success), or null. */
  fudgePoint: {
    params: { name: string };
    from: LevelView;
    to: LevelView;
    autoSuccess: boolean;
    canUndo: boolean;
  } | null;
  /** Fudge §1.36: the viewer may spend his character's Fudge Point on this roll (one level up or down). */
  canSpendFudgePoint: boolean;
  /** Fudge §1.36: ... or for an automatic success (a failed unopposed roll, where the world allows it after the dice). */
  canAutoSuccess: boolean;
  result: LevelView | null;
  resultText: string;
  success: boolean;
  difficulty: LevelView;
  /** A datacard stat's roll (Miniatures: numbers, not ladder names): the stat and the Difficulty as numbers; "" otherwise. */
  statText: string;
  difficultyText: string;
  steps: StepView[];
  volt: boolean;
  cssClass: string;
  error: CardError | null;
}

/** The trait roll card (from rollTrait's data; stored data is checked first, as an attack card's is). */
/** The opponent's side of an opposed roll card (Fudge §3.5), as the card shows it; null: unopposed. */
export interface OpposedView {
  name: string;
  traitLabelKey: string;
  traitName: string;
  pending: boolean;
  /** The viewer may roll it (the opponent's owner, or a GM). */
  canRoll: boolean;
  formula: string;
  faces: FaceView[];
  result: LevelView | null;
  resultText: string;
  outcome: { key: string; params: Record<string, string> } | null;
}

function opposedView(roll: RollCardData, rules: WorldRules, viewer?: CardViewer): OpposedView | null {
  const o = roll.opposed;
  if (!o) return null;
  const actor = viewer?.actor(o.actorId);
  const numeric = isDatacardStat(roll.traitKey);
  // Both sides of an opposed roll are thrown with the card's dice (Fudge §3.21–3.22).
  const formula = roll.diceOption ? DICE_OPTION_FORMULAS[roll.diceOption] : "4dF";
  return {
    name: actor?.name ?? o.actorName,
    traitLabelKey: o.traitLabelKey,
    traitName: o.traitName,
    pending: !o.dice,
    canRoll: !o.dice && !!viewer && !!actor && isOwner(viewer.user, actor),
    formula,
    faces: o.dice ? faceViews(o.dice, formula) : [],
    result: o.dice && !numeric ? levelView(o.result, ladderOf(rules)) : null,
    resultText: numeric ? signed(o.result) : String(o.result),
    outcome: opposedOutcome(roll),
  };
}

export function rollCardContext(
  stored: RollCardData | unknown,
  rules: WorldRules,
  viewer?: CardViewer,
  messageId = "",
): RollCardContext {
  const checkedRoll = checked(() => checkRollCard(stored));
  // Fudge §1.36: a Fudge Point spent on the card is read from the spender's live log (the card's record only shows it).
  const roll = "traitKey" in checkedRoll ? withLiveSpend(checkedRoll, viewer, messageId) : checkedRoll;
  if (!("traitKey" in roll)) {
    const none = levelView(0, ladderOf(rules));
    return {
      actorName: "",
      traitLabelKey: "",
      traitName: "",
      level: null,
      penaltyText: "",
      hasPenalty: false,
      dice: "",
      formula: "",
      faces: [],
      result: null,
      resultText: "",
      success: false,
      difficulty: none,
      statText: "",
      difficultyText: "",
      steps: [],
      volt: false,
      cssClass: "fudge-wounds fudge-card roll-card",
      opposed: null,
      fudgePoint: null,
      canSpendFudgePoint: false,
      canAutoSuccess: false,
      error: roll,
    };
  }
  const ladder = ladderOf(rules);
  const volt = roll.traitKey.startsWith("volt.");
  // Miniatures: the datacard says "Strength +2", so its roll card does too (not "Great (+2)").
  const numeric = isDatacardStat(roll.traitKey);
  const onLadder = !volt && !numeric;
  // Fudge §3.21–3.22: a roll thrown with the world's other dice shows their faces (3d6's numbers, not Fudge faces).
  const formula = volt ? "2d20" : roll.diceOption ? DICE_OPTION_FORMULAS[roll.diceOption] : "4dF";
  return {
    actorName: roll.actorName,
    traitLabelKey: roll.traitLabelKey,
    traitName: roll.traitName,
    level: onLadder ? levelView(roll.level, ladder) : null,
    penaltyText: signed(roll.penalty),
    hasPenalty: roll.penalty !== 0,
    dice: facesText(roll.dice, formula),
    // Drawn as the attack card draws its dice (templates/parts/dice-faces.hbs).
    formula,
    faces: faceViews(roll.dice, formula),
    result: onLadder ? levelView(roll.result, ladder) : null,
    resultText: numeric ? signed(roll.result) : String(roll.result),
    success: roll.success,
    difficulty: levelView(roll.difficulty, ladder),
    statText: numeric ? signed(roll.level) : "",
    difficultyText: numeric ? signed(roll.difficulty) : "",
    steps: roll.steps.map(stepView),
    volt,
    cssClass: `fudge-wounds fudge-card roll-card preset-${roll.preset}`,
    opposed: opposedView(roll, rules, viewer),
    ...fudgePointView(roll, rules, viewer),
    error: null,
  };
}

/**
 * The card as the spender's live log makes it (Fudge §1.36): the log's spend on this card sets its
 * result and record; without one, the card's own record (a spend since evicted from the log) stays.
 */
function withLiveSpend(roll: RollCardData, viewer: CardViewer | undefined, messageId: string) {
  const actor = messageId ? viewer?.actor(roll.actorId) : undefined;
  const spend = actor?.system && actor._id ? rollSpendOf(actor as ActorDoc, messageId) : null;
  if (!spend) return roll;
  const to = spend.change.to;
  const record: RollCardFudgePoint = {
    spendId: spend.id,
    actorName: actor?.name ?? "",
    from: spend.change.from,
    to,
    by: roll.fudgePoint?.by ?? "",
    ...(spend.use === "unopposedSuccess" ? { use: "unopposedSuccess" as const } : {}),
  };
  return { ...roll, result: to, success: to >= roll.difficulty, fudgePoint: record };
}

/** Fudge §1.36 on a trait roll's card: the spend it records, and whether the viewer (the roller's owner) may spend or undo. */
function fudgePointView(
  roll: RollCardData,
  rules: WorldRules,
  viewer?: CardViewer,
): Pick<RollCardContext, "fudgePoint" | "canSpendFudgePoint" | "canAutoSuccess"> {
  const actor = viewer?.actor(roll.actorId);
  const owner = !!viewer && !!actor && isOwner(viewer.user, actor);
  const f = roll.fudgePoint;
  const name = (n: number) => levelView(n, ladderOf(rules));
  const canSpend = !f && owner && actor?.type === "character" && rollTakesFudgePoint(roll, rules);
  return {
    fudgePoint: f
      ? {
          params: { name: actor?.name ?? f.actorName },
          from: name(f.from),
          to: name(f.to),
          autoSuccess: f.use === "unopposedSuccess",
          canUndo: owner,
        }
      : null,
    canSpendFudgePoint: canSpend,
    canAutoSuccess: canSpend && !roll.opposed && !roll.success && autoSuccessOffered(roll, rules),
  };
}

/** Fudge §1.36 after the dice: where the world allows it, and within the text's limits unless the GM waives her veto. */
function autoSuccessOffered(roll: RollCardData, rules: WorldRules): boolean {
  if (!rules.fudgePoints.autoSuccessAfterRoll) return false;
  const beyond =
    roll.difficulty > character.AUTO_SUCCESS_MAX_DIFFICULTY ||
    roll.difficulty - roll.level > character.AUTO_SUCCESS_MAX_ABOVE_TRAIT;
  return !beyond || rules.fudgePoints.autoSuccessPastLimits;
}

/**
 * A roll note's HTML (healing, Volt recovery, Guts, Near Death: a roll that changed a track or a
 * state without an attack card): who, what, one paragraph per outcome line. `esc` is the host's
 * HTML escape (every name and line is text).
 */
export function rollNoteHtml(
  actorName: string,
  title: string,
  lines: readonly string[],
  esc: (s: string) => string,
): string {
  return `<div class="fudge-wounds fudge-card fudge-roll-note"><p><strong>${esc(actorName)}</strong>: ${esc(title)}</p>${lines.map((l) => `<p>${esc(l)}</p>`).join("")}</div>`;
}
