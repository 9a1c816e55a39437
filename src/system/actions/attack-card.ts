/** The attack card: start, defend, apply, GM judgement, undo, Fudge Points, the battle's end. */
import {
  RulesError,
  isRulesError,
  type Step,
  checkRecordedDice,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
  pipelineFor,
  applyWound,
  endBattle,
  healTrack,
  undoApplied,
  woundLevelName,
  type BattleLapse,
} from "../../rules";
import type { Rng } from "../../rules";
import { willpowerEasedPenalty, fudgeDiceSlot } from "../../rules/fudge";
import { attacksOfAction, parseDatacard } from "../../rules/miniatures";
import {
  usesDiceOption,
  type ActorDoc,
  type AttackCardData,
  type AttackCardTarget,
  type CharacterData,
  type ItemDoc,
  type WorldRules,
} from "../data";
import {
  actorRef,
  attackRequest,
  defenderSituation,
  equippedOf,
  findItem,
  miniatureDatacard,
  trackFor,
  type RoundStart,
  type Situation,
} from "../combatant";
import { ladderOf } from "../view";
import { roleLevel } from "../attributes";
import { checkWoundLogHolds, liveRecord, logUpdate, woundLogOf, type WoundRecord } from "../actor-logs";
import type { GmPick } from "../integrity";
import { GM_SLOT, isDefenderSlot, liveApplied } from "../card-target";
import type { LapseNote } from "../battle-end";
import { errorView } from "../error-text";
import { defenceSettledClipped } from "../clipped";
import type { SlotDice } from "../rolling";
import { UserRef, isOwner, ActOptions, allowed, checkAllowed, refuseUnless, type Check } from "../permissions";
import { liveTrack } from "./wound-track";
import { defenceShown, hasChoice, requestWithChoice, type DefenceChoice } from "../defence";
import { ActorUpdate, trackUpdate } from "../updates";

/**
 * Recorded dice, a random source that rolls each slot, or faces per slot and target rolled
 * beforehand by the host (src/system/rolling.ts: Foundry Rolls, the playground's dice).
 */
export type DiceSource = Rng | Record<string, number[]> | SlotDice;

const isSlotDice = (s: DiceSource): s is SlotDice => typeof (s as Partial<SlotDice>).faces === "function";

function rollSlot(slot: DiceSlot, source: DiceSource, targetIndex: number): number[] {
  if (typeof source === "function") return slot.roll(source);
  if (isSlotDice(source)) return [...source.faces(slot, targetIndex)];
  const v = source[slot.id];
  if (v === undefined)
    throw new RulesError(
      `dice.${slot.id}`,
      "FUDGE.Error.MissingDice",
      `this attack needs the ${slot.formula} roll "${slot.id}"`,
      { slot: slot.id },
    );
  if (!Array.isArray(v)) throw new RulesError(`dice.${slot.id}`, "FUDGE.Error.NotArray", "must be a list of die faces");
  return [...v];
}

function reader(record: Record<string, number[]>): DiceReader {
  return (id) => {
    const v = record[id];
    if (v === undefined)
      throw new RulesError(`dice.${id}`, "FUDGE.Error.MissingDice", `missing dice "${id}"`, { slot: id });
    return v;
  };
}

/**
 * Fudge §4.51: the Willpower roll (Willpower + 4dF, recorded) against the world's Difficulty eases
 * the wound penalty (rules core willpowerEasedPenalty). Without its dice the roll cannot be read:
 * refused, as a missing Legendary re-roll is.
 */
export function willpowerEase(
  actor: ActorDoc,
  penalty: number,
  dice: number[] | undefined,
  rules: WorldRules,
): { penalty: number; dice: number[]; step: Step } {
  if (dice === undefined)
    throw new RulesError(
      "willpowerDice",
      "FUDGE.Error.WillpowerRollMissing",
      "the Willpower roll against the wound penalty is missing",
    );
  const r = willpowerEasedPenalty(
    roleLevel((actor.system as CharacterData).attributes, rules.attributeSet, "willpower"),
    dice,
    rules.fudgeTrack.willpowerDifficulty,
    penalty,
    ladderOf(rules),
  );
  return { penalty: r.penalty, dice: [...dice], step: r.step };
}

/** Resolves a target's recorded request and dice (re-derivable at any time). */
export function resolveTarget(target: Pick<AttackCardTarget, "request" | "dice">): AttackResolution {
  const p = pipelineFor((target.request as { preset?: unknown })?.preset, "request.preset");
  const req = p.parseRequest(target.request);
  // The card's recorded dice, each slot known and its faces valid before any is read.
  checkRecordedDice(target.dice, p.slots(req));
  return p.resolve(req, reader(target.dice));
}

export const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * Miniatures: "Melee attack with all wielded melee weapons" / "Shoot all wielded ranged weapons"
 * — one attack per weapon (Miniatures: Melee Combat, Ranged Combat). Returns the weapon item ids
 * of the action, in datacard order. An equipped weapon is one the model carries ready; the action
 * wields those of its kind (the bow to shoot, the dagger to stab), and those must fit the model's
 * two hands (Miniatures: Melee Combat, "A model cannot wield more weapons than will fit in its
 * available hands"): Yanni's 2h Shortbow and 1h Dagger are each an action of their own.
 */
export function wieldedAttacks(actor: ActorDoc, kind: "melee" | "ranged", rules: WorldRules): string[] {
  if (actor.type !== "miniature")
    throw new RulesError(
      "actor.type",
      "FUDGE.Error.NotAMiniature",
      "only a miniature attacks with all wielded weapons",
    );
  const card = parseDatacard(miniatureDatacard(actor, rules), "actor");
  const equipped = equippedOf(actor, "weapon");
  // The datacard's weapons are the equipped ones, in the same order (combatant.ts miniatureDatacard).
  const wielded = card.weapons.map((w, i) => (w.kind === kind ? i : -1)).filter((i) => i >= 0);
  const indices = attacksOfAction(card, wielded, kind, 2, "weapons");
  if (!indices.length)
    throw new RulesError("weapons", "FUDGE.Error.NoWieldedWeapon", `no wielded ${kind} weapon`, { kind });
  return indices.map((i) => equipped[i]._id);
}

/** One target of a planned attack: its request as the rules core parsed it, and the dice it rolls. */
export interface PlannedTarget {
  doc: ActorDoc;
  request: Record<string, unknown>;
  slots: DiceSlot[];
  /** What the table measured for this target (its range, gang-up, contact), over the dialog's situation. */
  own: Situation;
  /** An opposed card waits for the defender's roll (Fudge and FATE). */
  waits: boolean;
}

/**
 * An attack before any die is rolled: each target's request built and checked (permission, the
 * weapon, the attacker's own refusals), and the dice each needs. `attackDice` lists them in rolling
 * order, the attack roll once for every target (attackCard reads them back in that order).
 */
export interface AttackPlan {
  attacker: ActorDoc;
  weapon: ItemDoc<"weapon"> | null;
  situation: Situation;
  rules: WorldRules;
  user: UserRef;
  targets: PlannedTarget[];
}

/**
 * Plans an attack: builds each target's request and finds its dice, refusing before any die is
 * rolled (permission, no target, not a weapon; the attacker's own refusals: Fudge §4.57, §4.62,
 * FATE Taken Out — an opposed card waits for Defend, which would otherwise be the first to refuse it).
 */
/** May `user` attack with this actor (his owner or a GM)? The attacker's own refusals (stunned, out of action) come with the plan. */
export function canAttack(attacker: ActorDoc, user: UserRef): Check {
  return allowed("attack", user, attacker);
}

export function planAttack(
  attacker: ActorDoc,
  weaponId: string | null,
  targets: ActorDoc[],
  situation: Situation,
  rules: WorldRules,
  user: UserRef,
  perTarget: readonly Situation[] = [],
  opts: { roundStart?: (target: ActorDoc) => RoundStart | null } = {},
): AttackPlan {
  refuseUnless(canAttack(attacker, user));
  if (!targets.length) throw new RulesError("targets", "FUDGE.Error.NoTargets", "select at least one target");
  const weapon = weaponId ? (findItem(attacker, weaponId, "weaponId") as ItemDoc<"weapon">) : null;
  if (weapon && weapon.type !== "weapon")
    throw new RulesError("weaponId", "FUDGE.Error.NotAWeapon", `${weapon.name} is not a weapon`, { name: weapon.name });
  const pipeline = pipelineFor(rules.preset);
  const planned = targets.map((t, index): PlannedTarget => {
    // What the table measured for this target over the dialog's situation; Fudge §4.64: whether
    // this defender began the round Incapacitated is the table's, not the attacker's.
    const own = perTarget[index] ?? {};
    const request = plain(
      attackRequest(
        attacker,
        weapon,
        t,
        rules,
        defenderSituation({ ...situation, ...own }, t, rules, opts.roundStart?.(t) ?? null),
      ),
    ) as Record<string, unknown>;
    const parsed = pipeline.parseRequest(request);
    pipeline.checkAttacker?.(parsed);
    const slots = pipeline.slots(parsed);
    const waits = pipeline.exchange === "opposed" && slots.some((s) => isDefenderSlot(s.id));
    return { doc: t, request, slots, own, waits };
  });
  return { attacker, weapon, situation, rules, user, targets: planned };
}

/** The dice an attack rolls, in rolling order: per target its own slots; the attack roll once, for every target. */
export function attackDice(plan: AttackPlan): { slot: DiceSlot; target: number }[] {
  const out: { slot: DiceSlot; target: number }[] = [];
  plan.targets.forEach((t, target) => {
    for (const slot of t.slots) {
      if (isDefenderSlot(slot.id) || slot.id === GM_SLOT) continue;
      if (slot.id === "attack" && out.some((d) => d.slot.id === "attack")) continue;
      out.push({ slot, target });
    }
  });
  return out;
}

/**
 * The attack card of a plan with its dice (recorded, a random source, or faces rolled by the host
 * per slot and target), resolved at once unless the defender rolls. One attack roll is shared by
 * every target.
 */
export function attackCard(plan: AttackPlan, dice: DiceSource): AttackCardData {
  const shared: Record<string, number[]> = {};
  const cardTargets: AttackCardTarget[] = plan.targets.map((p, index) => {
    const record: Record<string, number[]> = {};
    for (const s of p.slots) {
      if (isDefenderSlot(s.id) || s.id === GM_SLOT) continue;
      // The attack roll itself is shared by all targets; other dice are per target.
      if (s.id === "attack") record[s.id] = shared[s.id] ??= rollSlot(s, dice, index);
      else record[s.id] = rollSlot(s, dice, index);
    }
    const target: AttackCardTarget = {
      actorId: actorRef(p.doc),
      name: p.doc.name,
      defend: p.waits ? "pending" : "none",
      defendDice: null,
      defendUserId: null,
      request: plain(p.request),
      dice: record,
      resolution: null,
      applied: [],
    };
    if (Object.keys(p.own).length) target.situation = plain(p.own);
    if (!p.waits) target.resolution = plain(resolveTarget(target));
    return target;
  });
  return {
    preset: plan.rules.preset,
    userId: plan.user.id,
    attackerId: actorRef(plan.attacker),
    attackerName: plan.attacker.name,
    weaponId: plan.weapon?._id ?? "",
    weaponName: plan.weapon?.name ?? "",
    situation: plain(plan.situation),
    attackDice: shared,
    diceOption: usesDiceOption(plan.rules.preset) && plan.rules.dice !== "4dF" ? plan.rules.dice : "",
    targets: cardTargets,
  };
}

/**
 * Starts an attack: plans it (planAttack: every refusal before any die), then rolls (or reads)
 * its dice and builds the card (attackCard).
 */
export function startAttack(
  attacker: ActorDoc,
  weaponId: string | null,
  targets: ActorDoc[],
  situation: Situation,
  dice: DiceSource,
  rules: WorldRules,
  user: UserRef,
  perTarget: readonly Situation[] = [],
  opts: { roundStart?: (target: ActorDoc) => RoundStart | null } = {},
): AttackCardData {
  return attackCard(planAttack(attacker, weaponId, targets, situation, rules, user, perTarget, opts), dice);
}

export interface CardUpdate {
  system: { targets: AttackCardTarget[] };
}

function targetIndex(card: AttackCardData, actor: ActorDoc): number {
  const ref = actorRef(actor);
  const i = card.targets.findIndex((t) => t.actorId === ref);
  if (i < 0)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${actor.name} is not a target of this attack`, {
      name: actor.name,
    });
  return i;
}

function withTarget(card: AttackCardData, i: number, t: AttackCardTarget): CardUpdate {
  const targets = card.targets.map((x, j) => (j === i ? t : structuredClone(x)));
  return { system: { targets } };
}

/** May `user` roll this defender's defence on this card now (before the die is rolled)? His owner, while it waits for him. */
export function canDefend(card: AttackCardData, defender: ActorDoc, user: UserRef, opts: ActOptions = {}): Check {
  const i = card.targets.findIndex((t) => t.actorId === actorRef(defender));
  if (i < 0)
    return new RulesError("target", "FUDGE.Error.NotATarget", `${defender.name} is not a target of this attack`, {
      name: defender.name,
    });
  const t = card.targets[i];
  const denied = allowed("defend", user, defender, opts, card, t);
  if (denied) return denied;
  if (t.defend !== "pending")
    return new RulesError(
      "defend",
      t.defend === "rolled" ? "FUDGE.Error.AlreadyDefended" : "FUDGE.Error.NoDefenseRoll",
      "this target does not roll to defend now",
      { name: t.name },
    );
  return null;
}

/** The defender's opposed roll (Fudge §3.5, FATE): records the faces and resolves the card. */
export function defend(
  card: AttackCardData,
  defender: ActorDoc,
  faces: number[],
  user: UserRef,
  opts: ActOptions & { choice?: DefenceChoice; rules?: WorldRules } = {},
): CardUpdate {
  const i = targetIndex(card, defender);
  const t = card.targets[i];
  refuseUnless(canDefend(card, defender, user, opts));
  const next: AttackCardTarget = {
    ...structuredClone(t),
    defend: "rolled",
    defendDice: [...faces],
    defendUserId: user.id,
    dice: { ...structuredClone(t.dice), defense: [...faces] },
  };
  // The defender's own choices (his Defend dialog): shown on his side, and in the result shown now.
  if (opts.choice && opts.rules && defender.type !== "miniature") {
    if (hasChoice(opts.choice))
      next.request = requestWithChoice(t.request as Record<string, unknown>, defender, opts.choice, opts.rules);
    next.defence = defenceShown(defender, opts.choice, opts.rules);
  }
  next.resolution = plain(resolveTarget(next)); // throws (nothing changed) on bad faces
  return withTarget(card, i, next);
}

/**
 * Apply: marks the target's live track with the wound and records the exact before/after states
 * in the target's wound log (flags), which alone decides "applied once", Undo and Fudge Point
 * refunds. The wound is `opts.resolution` — on Foundry the result src/foundry re-derived from the
 * live actors (src/system/integrity.ts) — else the card's recorded request and dice resolved
 * again here; the card's stored resolution is never applied.
 */
export function applyDamage(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  opts: ActOptions & { resolution?: AttackResolution; differs?: boolean } = {},
): { actorUpdate: ActorUpdate; cardUpdate: CardUpdate; steps: Step[]; ended: boolean } {
  const i = targetIndex(card, target);
  const t = card.targets[i];
  const messageId = opts.messageId ?? "";
  checkAllowed("apply", user, target, opts, card, t);
  const log = woundLogOf(target);
  if (liveRecord(log, messageId))
    throw new RulesError("applied", "FUDGE.Error.AlreadyApplied", `this wound is already applied to ${target.name}`, {
      name: target.name,
    });
  checkWoundLogHolds(target, log, messageId, opts.posted);
  if (!opts.resolution && !t.resolution)
    throw new RulesError(
      "resolution",
      "FUDGE.Error.NotResolved",
      "the attack is not resolved yet (waiting for the defence roll)",
      { name: target.name },
    );
  const res = opts.resolution ?? resolveTarget(t);
  if (res.wound === null || res.wound === undefined)
    throw new RulesError("resolution.wound", "FUDGE.Error.NothingToApply", "this attack dealt no wound", {
      name: target.name,
    });
  let track = trackFor(target, rules);
  const before = structuredClone(track.state);
  const steps: Step[] = [];
  // Follow-ups the result names for the defender's track (FATE: Clipped used up by the defence roll,
  // unless that roll's record says it already was — src/system/clipped.ts — and a Clipped taken since stays).
  const settled = defenceSettledClipped(target, messageId);
  for (const f of res.followUps ?? []) {
    if (
      f.target === "defender" &&
      typeof f.params?.healing === "string" &&
      !(f.type === "clippedConsumed" && settled)
    ) {
      const h = healTrack(track, { type: f.params.healing });
      track = h.track;
      steps.push(...h.steps);
    }
  }
  const spend = opts.spendFudgePoint === true;
  if (spend) {
    // Fudge §4.64: the defender's own choice, for a wound that would kill, while he has a point.
    if (!isOwner(user, target))
      throw new RulesError(
        "user",
        "FUDGE.Error.FudgePointNotYours",
        "only the defender's owner spends his Fudge Points",
        { name: target.name },
      );
    if (card.preset !== "fudge" || !fudgePointSaves(res.wound, target, rules))
      throw new RulesError(
        "fudgePoints",
        "FUDGE.Error.NoFudgePointSave",
        `${target.name} cannot spend a Fudge Point on this wound`,
        { name: target.name },
      );
  }
  let r = applyWound(track, spend ? { ...(res.wound as object), spendFudgePoint: true } : res.wound);
  steps.push(...r.steps);
  // A second wound the result names for the defender (Miniatures: a flying model's crash wound).
  for (const f of res.followUps ?? []) {
    if (f.target === "defender" && f.type === "crashWound" && typeof f.params?.level === "string" && !r.ended) {
      r = applyWound(r.track, { level: f.params.level });
      steps.push(...r.steps);
    }
  }
  const after = structuredClone(r.track.state);
  const at = opts.now ?? Date.now();
  const spent = spend && steps.some((s) => s.key.startsWith("FUDGE.Step.Box.Safeguard.FudgePoint"));
  const record: WoundRecord = {
    messageId,
    by: user.id,
    at,
    ...(opts.posted !== undefined ? { posted: opts.posted } : {}),
    before,
    after,
    fudgePointSpent: spent,
    undone: false,
    undoneBy: "",
  };
  // Fudge §4.52 (4): a Willpower adjustment that holds until the battle is over (endBattleFor).
  const lapses = (res.followUps ?? [])
    .filter((f) => f.target === "defender" && f.type === "battleLapse")
    .map((f) => ({ from: String(f.params.from), to: String(f.params.to) }));
  if (lapses.length > 0 && !r.ended) record.lapses = lapses;
  const next: AttackCardTarget = structuredClone(t);
  next.resolution = plain(res);
  if (opts.differs !== undefined) next.differs = opts.differs;
  next.applied.push({
    userId: user.id,
    at,
    before,
    after,
    undone: false,
    steps: plain(steps),
    ended: r.ended,
    ...(spent ? { fudgePointSpent: true } : {}),
  });
  next.applied = next.applied.slice(-12);
  const actorUpdate = withFudgePoints(trackUpdate(after), target, spent ? -1 : 0);
  return {
    actorUpdate: { ...actorUpdate, flags: logUpdate(target, log, record) },
    cardUpdate: withTarget(card, i, next),
    steps,
    ended: r.ended,
  };
}

/**
 * GM judgement (Fudge §4.55: "the GM assesses the factors and announces the wound"): the GM's
 * pick — a level of the defender's track or "none" — and, when the world rolls it, the
 * Situational 4dF his own client rolled after the pick ("-1 to +1 … no change … +3 or +4 adds a
 * wound level or two"). Only a GM picks: the level is not the attacker's claim (integrity.ts
 * CLAIMABLE_SITUATION) nor the defender's. The wound is `opts.resolution` — on Foundry and in the
 * playground the result rederiveTarget derived from the live actors with `gm: pick` — else the
 * card's recorded request resolved with the pick. A wound is applied as Apply does (wound log,
 * Undo); "no wound" writes no actor. Either way the card records the pick (`gmLevel`), the GM's
 * roll (dice.situational) and the result, so it renders as the GM ruled.
 */
export function judgeWound(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  pick: GmPick,
  opts: ActOptions & { resolution?: AttackResolution; differs?: boolean } = {},
): { actorUpdate: ActorUpdate | null; cardUpdate: CardUpdate; steps: Step[]; ended: boolean } {
  if (!user.isGM)
    throw new RulesError("user", "FUDGE.Error.GmJudgement.GmOnly", "only the GM picks the wound in GM judgement", {
      name: target.name,
    });
  const i = targetIndex(card, target);
  const t = card.targets[i];
  const log = woundLogOf(target);
  if (liveRecord(log, opts.messageId ?? ""))
    throw new RulesError("applied", "FUDGE.Error.AlreadyApplied", `this wound is already applied to ${target.name}`, {
      name: target.name,
    });
  checkWoundLogHolds(target, log, opts.messageId ?? "", opts.posted);
  if (!opts.resolution && !t.resolution)
    throw new RulesError(
      "resolution",
      "FUDGE.Error.NotResolved",
      "the attack is not resolved yet (waiting for the defence roll)",
      { name: target.name },
    );
  const res = opts.resolution ?? judgedOnCard(t, pick, target.name);
  const recorded = (next: AttackCardTarget): AttackCardTarget => {
    next.gmLevel = pick.level;
    if (pick.situational) next.dice = { ...next.dice, [GM_SLOT]: [...pick.situational] };
    return next;
  };
  if (res.wound === null || res.wound === undefined) {
    const next: AttackCardTarget = structuredClone(t);
    next.resolution = plain(res);
    if (opts.differs !== undefined) next.differs = opts.differs;
    return { actorUpdate: null, cardUpdate: withTarget(card, i, recorded(next)), steps: [], ended: false };
  }
  const r = applyDamage(card, target, user, rules, { ...opts, resolution: res });
  recorded(r.cardUpdate.system.targets[i]);
  return r;
}

/** Without live documents (pure callers): the card's recorded request and dice with the GM's pick; the target must await the pick. */
function judgedOnCard(t: AttackCardTarget, pick: GmPick, name: string): AttackResolution {
  if (resolveTarget(t).outcome !== "gmJudgement")
    throw new RulesError(
      "gmLevel",
      "FUDGE.Error.GmJudgement.NotPending",
      `${name}'s wound is not the GM's to judge on this card`,
      { name },
    );
  const request = structuredClone(t.request) as { situation?: Record<string, unknown> };
  request.situation = { ...(request.situation ?? {}), gmLevel: pick.level };
  const dice = { ...t.dice };
  delete dice[GM_SLOT];
  if (pick.situational) dice[GM_SLOT] = [...pick.situational];
  return resolveTarget({ request, dice });
}

/** The dice the GM's client rolls with his pick: Fudge §4.55's Situational 4dF, when the world's option rolls it; else null. */
export function gmRollSlot(rules: WorldRules): DiceSlot | null {
  if (rules.preset !== "fudge" || rules.fudge.woundMode !== "gmJudgement" || !rules.fudge.gmSituationalRoll)
    return null;
  return fudgeDiceSlot(GM_SLOT, 4, "FUDGE.Dice.Fudge.situational");
}

/** The update plus a change of the actor's Fudge Points (spent on a wound, or given back by Undo). */
function withFudgePoints(update: ActorUpdate, actor: ActorDoc, delta: number): ActorUpdate {
  if (delta === 0) return update;
  const points = (actor.system as { fudgePoints?: number }).fudgePoints ?? 0;
  return { system: { ...(update.system as Record<string, unknown>), fudgePoints: Math.max(0, points + delta) } };
}

/**
 * The battle is over (a combat ended): the Willpower adjustments of the wounds this actor took
 * that hold "until the battle is over" (Fudge §4.52 (4)) lapse — each such wound goes to the
 * level it would have had (rules: endBattle, which also refuses a lapse of more than one level or
 * one point). Reads only the actor's own wound log (records the applier wrote: claims) and its
 * live track; undone records are skipped. A record the rules refuse (malformed, or claiming more
 * than the adjustment) is left as it is — none of its lapses apply — and the others still apply.
 * Null when nothing lapses. The records are marked lapsed, so a second call changes nothing.
 * `notes`: what happened to each lapse, for the battle's-end chat note (src/system/battle-end.ts).
 */
export function endBattleFor(
  actor: ActorDoc,
  rules: WorldRules,
): { update: ActorUpdate; steps: Step[]; notes: LapseNote[] } | null {
  const pending = woundLogOf(actor).filter(
    (r) => !r.undone && r.lapsed !== true && Array.isArray(r.lapses) && r.lapses.length > 0,
  );
  if (pending.length === 0) return null;
  let track = liveTrack(actor, rules);
  const steps: Step[] = [];
  const notes: LapseNote[] = [];
  const marked: Record<string, WoundRecord> = {};
  for (const rec of pending) {
    try {
      const r = endBattle(track, rec.lapses as unknown[] as BattleLapse[]);
      const name = (key: string) => woundLevelName(track, key);
      notes.push(
        ...r.outcomes.map((o): LapseNote => ({
          result: o.lapsed ? "lapsed" : "gone",
          from: name(o.from),
          to: name(o.to),
        })),
      );
      track = r.track;
      steps.push(...r.steps);
    } catch (e) {
      if (!isRulesError(e)) throw e; // refused by the rules: the record is left as it is
      notes.push({ result: "refused", from: "", to: "", reason: errorView(e) });
    }
    marked[rec.messageId] = { ...structuredClone(rec), lapsed: true };
  }
  return { update: { ...trackUpdate(track.state), flags: { "fudge-wounds": { woundLog: marked } } }, steps, notes };
}

/** Fudge §4.64: would this wound kill the defender, on a track that lets a Fudge Point save him, while he has one? */
function fudgePointSaves(wound: unknown, target: ActorDoc, rules: WorldRules): boolean {
  if (wound === null || wound === undefined) return false;
  if (
    (target.system as { fudgePoints?: number }).fudgePoints === undefined ||
    ((target.system as { fudgePoints: number }).fudgePoints ?? 0) < 1
  )
    return false;
  const track = trackFor(target, rules);
  const config = track.config as { kind: string; safeguards?: { fudgePointSaves?: boolean } };
  if (config.kind !== "box" || !config.safeguards?.fudgePointSaves) return false;
  return applyWound(track, wound).status.condition === "dead";
}

/**
 * Fudge §4.64 (PC safeguard, a world setting): may the defender spend a Fudge Point on this card's
 * wound? Yes when the track allows it, the wound as it stands would kill him, and he has a point.
 * (The card's offer; Apply checks again against the re-derived wound.)
 */
export function fudgePointOffer(
  card: AttackCardData,
  t: AttackCardTarget,
  target: ActorDoc,
  rules: WorldRules,
): boolean {
  if (card.preset !== "fudge" || liveApplied(t) || !t.resolution) return false;
  return fudgePointSaves((t.resolution as AttackResolution).wound, target, rules);
}

/**
 * Undo: restores the exact track before the wound, from the record in the target's wound log
 * (never from the card), when the track is still as the wound left it; refuses
 * (FUDGE.Error.UndoConflict) when something changed it since, unless a GM forces it. A Fudge
 * Point comes back only when that record says one was spent.
 */
export function undoDamage(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  opts: ActOptions & { force?: boolean } = {},
): { actorUpdate: ActorUpdate; cardUpdate: CardUpdate } {
  const i = targetIndex(card, target);
  const t = card.targets[i];
  const messageId = opts.messageId ?? "";
  const log = woundLogOf(target);
  const live = liveRecord(log, messageId);
  checkAllowed("undo", user, target, opts, card, t, messageId);
  if (!live)
    throw new RulesError("applied", "FUDGE.Error.NothingToUndo", `nothing applied to ${target.name} to undo`, {
      name: target.name,
    });
  if (opts.force && !user.isGM)
    throw new RulesError("force", "FUDGE.Error.NotPermitted", "only a GM may force an undo", {
      action: "undo",
      name: target.name,
    });
  const restored = undoApplied(trackFor(target, rules), live, opts.force ?? false);
  const next: AttackCardTarget = structuredClone(t);
  const shown = [...next.applied].reverse().find((a) => !a.undone);
  if (shown) Object.assign(shown, { undone: true, undoneBy: user.id });
  const done: WoundRecord = { ...structuredClone(live), undone: true, undoneBy: user.id };
  const actorUpdate = withFudgePoints(trackUpdate(restored.state), target, live.fudgePointSpent ? 1 : 0);
  return {
    actorUpdate: { ...actorUpdate, flags: logUpdate(target, log, done) },
    cardUpdate: withTarget(card, i, next),
  };
}
