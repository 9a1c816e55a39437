/**
 * Fudge Points spent where the text uses them (Fudge §1.36, src/rules/character/fudge-points.ts):
 * on a trait roll's card, "alter a die roll one level, up or down". The points and the bounded
 * spend log (`system.fudgePointLog`, each spend naming its card) are the spender's own actor's;
 * the writer computes both from the live actor in its turn, as the requesting user, who must own
 * him. The card records who spent and what changed, and its Undo refunds the spend while the log
 * still holds it (an evicted spend cannot be undone, and the refusal says so).
 */
import { RulesError, character, describeLevel, isRulesError, renderTrack, toggleBox, type Track } from "../rules";
import { liveTrack } from "./actions/wound-track";
import { trackUpdate, type ActorUpdate } from "./updates";
import type { ActorDoc, WorldRules } from "./data";
import type { RollCardData } from "./actions/trait-roll";
import { actorRef } from "./combatant";
import { isOwner, type UserRef } from "./permissions";
import { isDatacardStat, ladderOf } from "./view";

/** What a trait roll's card records of a Fudge Point spent on it (shown; the spend itself is on the actor). */
export interface RollCardFudgePoint {
  /** The spend's id in the spender's log. */
  spendId: string;
  actorName: string;
  /** The result before and after (Fudge §1.36: one level, or the Difficulty met). */
  from: number;
  to: number;
  /** The id of the user who spent it. */
  by: string;
  /** Absent: "alter a die roll one level"; "unopposedSuccess": an automatic success. */
  use?: "unopposedSuccess";
}

/** The spender's pool as stored on his actor (a claim: parsed, every spend his own). */
export function fudgePointPool(actor: ActorDoc): character.FudgePointPool {
  const s = actor.system as { fudgePoints?: unknown; fudgePointLog?: unknown };
  return character.parseFudgePointPool(
    { actor: actor._id, points: s.fudgePoints ?? 0, log: s.fudgePointLog ?? [] },
    "system.fudgePointLog",
  );
}

export const poolUpdate = (pool: character.FudgePointPool) => ({
  system: { fudgePoints: pool.points, fudgePointLog: pool.log },
});

/** A spend's id for a card: the card's own (one spend per card: Fudge §1.36 alters a roll one level). */
export const rollSpendId = (messageId: string): string => messageId;

/**
 * The spend on a roll's card as the spender's live log holds it (the truth: the card's own record
 * is only shown), or null. A log that does not parse holds none.
 */
export function rollSpendOf(actor: ActorDoc, messageId: string): character.FudgePointSpend | null {
  let pool: character.FudgePointPool;
  try {
    pool = fudgePointPool(actor);
  } catch {
    return null;
  }
  const id = rollSpendId(messageId);
  return pool.log.find((s) => s.id === id && s.change.target === messageId) ?? null;
}

/** Fudge §1.36 applies to a world with Fudge Points (Fudge, FATE) and a ladder trait: not Volt's d20, not a datacard's numbers. */
export function traitTakesFudgePoint(traitKey: string, rules: WorldRules): boolean {
  return (
    (rules.preset === "fudge" || rules.preset === "fate") && !traitKey.startsWith("volt.") && !isDatacardStat(traitKey)
  );
}

/** Fudge §1.36 applies to ladder rolls of a world with Fudge Points (Fudge, FATE): not Volt's d20, not a datacard's numbers. */
export function rollTakesFudgePoint(card: RollCardData, rules: WorldRules): boolean {
  return card.preset === rules.preset && traitTakesFudgePoint(card.traitKey, rules);
}

function refuseUnlessOwner(actor: ActorDoc, card: RollCardData, user: UserRef): void {
  // The card's roller is a claim: the spender is the live actor the write names, and the card must be his roll.
  if (card.actorId !== actorRef(actor) && card.actorId !== actor._id)
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NotThisRoll", "not this character's roll", {
      name: actor.name,
    });
  if (!isOwner(user, actor))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NotYours", "one spends only one's own Fudge Points", {
      who: actor.name,
    });
}

/** The card's result as the level named `to` makes it: its name and success against the same Difficulty. */
function cardResult(card: RollCardData, to: number, rules: WorldRules) {
  return { result: to, resultName: describeLevel(to, ladderOf(rules)).label, success: to >= card.difficulty };
}

/** Refuses a spend on a card that has one: in the live log, or recorded on the card (a spend since evicted). */
function refuseUnlessFree(actor: ActorDoc, card: RollCardData, messageId: string, rules: WorldRules): void {
  if (!hasFudgePoints(actor, rules))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NoPoints", "no Fudge Points here", { name: actor.name });
  if (!rollTakesFudgePoint(card, rules))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NotThisRoll", "no Fudge Points on this roll", {
      name: actor.name,
    });
  if (rollSpendOf(actor, messageId) || card.fudgePoint)
    throw new RulesError("card", "FUDGE.Error.FudgePoints.AlreadySpent", "a Fudge Point is already spent on it", {
      name: card.fudgePoint?.actorName ?? actor.name,
    });
}

/** The actor's write and the card's record of a spend just made. */
function spent(
  actor: ActorDoc,
  card: RollCardData,
  r: ReturnType<typeof character.spendFudgePoint>,
  rules: WorldRules,
  user: UserRef,
) {
  const fudgePoint: RollCardFudgePoint = {
    spendId: r.spend.id,
    actorName: actor.name,
    from: r.spend.change.from,
    to: r.spend.change.to,
    by: user.id,
    ...(r.spend.use === "unopposedSuccess" ? { use: "unopposedSuccess" as const } : {}),
  };
  return { actor: poolUpdate(r.pool), card: { ...cardResult(card, fudgePoint.to, rules), fudgePoint } };
}

/**
 * Fudge §1.36: the owner spends a point to move the card's result one level (`direction` ±1).
 * Returns the actor's write and the card's. Refused: not his roll, not his character, a roll the
 * rule does not apply to, a card already altered, no points left.
 */
export function spendOnRoll(
  actor: ActorDoc,
  card: RollCardData,
  messageId: string,
  direction: number,
  rules: WorldRules,
  user: UserRef,
  at: string,
) {
  refuseUnlessOwner(actor, card, user);
  refuseUnlessFree(actor, card, messageId, rules);
  const r = character.spendFudgePoint(fudgePointPool(actor), {
    id: rollSpendId(messageId),
    at,
    by: actor._id,
    use: "alterRoll",
    target: messageId,
    from: card.result,
    direction,
  });
  return spent(actor, card, r, rules, user);
}

/**
 * Fudge §1.36, "accomplish an Unopposed action automatically": an unopposed roll (Fudge §3.4; an
 * opposed one is §3.5) that failed meets its Difficulty Level. The text's limits (past Superb, or
 * more than 3 levels above the trait rolled) are the GM's veto, a world setting. `atRoll`: spent
 * in place of the roll (the roll dialog); else after the dice, only where the world allows it.
 */
export function autoSuccessOnRoll(
  actor: ActorDoc,
  card: RollCardData,
  messageId: string,
  rules: WorldRules,
  user: UserRef,
  at: string,
  atRoll: boolean,
) {
  refuseUnlessOwner(actor, card, user);
  refuseUnlessFree(actor, card, messageId, rules);
  if (card.opposed)
    throw new RulesError("card", "FUDGE.Error.FudgePoints.Opposed", "an automatic success is for an Unopposed action");
  if (!atRoll && !rules.fudgePoints.autoSuccessAfterRoll)
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NotAfterRoll", "spent in place of the roll, not after it");
  const r = character.spendFudgePoint(fudgePointPool(actor), autoSuccessRequest(card, messageId, actor, rules, at));
  return spent(actor, card, r, rules, user);
}

const autoSuccessRequest = (
  card: Pick<RollCardData, "level" | "difficulty" | "result">,
  messageId: string,
  actor: ActorDoc,
  rules: WorldRules,
  at: string,
): character.FudgePointRequest => ({
  id: rollSpendId(messageId),
  at,
  by: actor._id,
  use: "unopposedSuccess",
  target: messageId,
  trait: card.level,
  difficulty: card.difficulty,
  from: card.result,
  gmAllows: rules.fudgePoints.autoSuccessPastLimits,
});

/**
 * Before the dice (the roll dialog): would an automatic success on this trait against `difficulty`
 * be allowed — his own character, a point left, within the text's limits? Throws the refusal.
 */
export function checkAutoSuccess(
  actor: ActorDoc,
  traitKey: string,
  level: number,
  difficulty: number,
  rules: WorldRules,
  user: UserRef,
): void {
  if (!isOwner(user, actor))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NotYours", "one spends only one's own Fudge Points", {
      who: actor.name,
    });
  if (!hasFudgePoints(actor, rules) || !traitTakesFudgePoint(traitKey, rules))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NoPoints", "no Fudge Points here", { name: actor.name });
  const request = autoSuccessRequest({ level, difficulty, result: difficulty - 1 }, "check", actor, rules, "check");
  character.spendFudgePoint(fudgePointPool(actor), request);
}

/** Whether the roll dialog offers an automatic success for this trait (his own Fudge or FATE character). */
export const offersAutoSuccess = (actor: ActorDoc, traitKey: string, rules: WorldRules, user: UserRef): boolean =>
  isOwner(user, actor) && hasFudgePoints(actor, rules) && traitTakesFudgePoint(traitKey, rules);

/**
 * The card's Undo: the spend refunded from the owner's live log and the card's result as rolled.
 * Refused when the log no longer holds it (evicted), or never did.
 */
export function refundOnRoll(actor: ActorDoc, card: RollCardData, messageId: string, rules: WorldRules, user: UserRef) {
  refuseUnlessOwner(actor, card, user);
  const spend = rollSpendOf(actor, messageId);
  if (!spend) {
    if (card.fudgePoint)
      throw new RulesError("card", "FUDGE.Error.FudgePoints.Evicted", "the spend is no longer in the log", {
        name: actor.name,
      });
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NoneSpent", "no Fudge Point spent on this roll");
  }
  const r = character.refundFudgePoint(fudgePointPool(actor), spend.id);
  return { actor: poolUpdate(r.pool), card: { ...cardResult(card, r.spend.change.from, rules), fudgePoint: null } };
}

/** Fudge Points are a player character's (Fudge §1.36), in a world whose preset has them (Fudge, FATE). */
export const hasFudgePoints = (actor: ActorDoc, rules: WorldRules): boolean =>
  (rules.preset === "fudge" || rules.preset === "fate") && actor.type === "character";

/** Fudge §1.36 on the wound track: the levels holding a wound one level less may take (each marked row; a Scratch goes to none). */
export function reducibleWounds(actor: ActorDoc, rules: WorldRules): { key: string; index: number }[] {
  if (!hasFudgePoints(actor, rules)) return [];
  const rows = renderTrack(liveTrack(actor, rules)).rows;
  return rows.flatMap((r, index) => (r.boxes.some((b) => b.marked) ? [{ key: r.key, index }] : []));
}

/**
 * Moves one wound of row `from` down to row `to` (−1: none): its last marked box cleared, the first
 * open box of the row below marked. Null when the track has no such wound or no room below
 * (the wound would climb again: Fudge §4.57 fills the next level up).
 */
function moveWound(track: Track, from: number, to: number): Track | null {
  const marked = renderTrack(track)
    .rows[from]?.boxes.filter((b) => b.marked)
    .at(-1);
  if (!marked) return null;
  const cleared = toggleBox(track, marked.ref);
  if (to < 0) return cleared;
  const open = renderTrack(cleared).rows[to]?.boxes.find((b) => !b.marked && !b.disabled);
  return open ? toggleBox(cleared, open.ref) : null;
}

function refuseUnlessOwnTrack(actor: ActorDoc, rules: WorldRules, user: UserRef): void {
  if (!isOwner(user, actor))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NotYours", "one spends only one's own Fudge Points", {
      who: actor.name,
    });
  if (!hasFudgePoints(actor, rules))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NoPoints", "no Fudge Points here", { name: actor.name });
}

/**
 * Fudge §1.36: "this reduces one wound by one level (a Hurt becomes a Scratch, etc.)" — the owner
 * spends a point on the wound track's level `levelKey`. Returns the actor's write (track, points, log).
 */
export function reduceWound(
  actor: ActorDoc,
  levelKey: string,
  rules: WorldRules,
  user: UserRef,
  at: string,
): ActorUpdate {
  refuseUnlessOwnTrack(actor, rules, user);
  const row = reducibleWounds(actor, rules).find((w) => w.key === levelKey);
  if (!row) throw new RulesError("level", "FUDGE.Error.FudgePoints.NoWound", "no wound there", { name: actor.name });
  const pool = fudgePointPool(actor);
  const r = character.spendFudgePoint(pool, {
    id: `wound.${pool.log.length}.${Date.parse(at) || 0}`,
    at,
    by: actor._id,
    use: "reduceWound",
    target: levelKey,
    from: row.index + 1,
  });
  const moved = moveWound(liveTrack(actor, rules), row.index, row.index - 1);
  if (!moved)
    throw new RulesError("level", "FUDGE.Error.FudgePoints.NoRoomBelow", "the level below is full", {
      name: actor.name,
    });
  return { system: { ...trackUpdate(moved.state).system, ...poolUpdate(r.pool).system } };
}

/** A wound's spend refunded: the wound back at its level and the point back, while the log holds the spend and the track allows it. */
export function refundWound(actor: ActorDoc, spendId: string, rules: WorldRules, user: UserRef): ActorUpdate {
  refuseUnlessOwnTrack(actor, rules, user);
  const pool = fudgePointPool(actor);
  const spend = pool.log.find((s) => s.id === spendId && s.use === "reduceWound");
  if (!spend)
    throw new RulesError("spend", "FUDGE.Error.FudgePoints.Evicted", "the spend is no longer in the log", {
      name: actor.name,
    });
  const rows = renderTrack(liveTrack(actor, rules)).rows;
  const from = spend.change.from - 1;
  const moved =
    rows[from]?.key === spend.change.target ? moveBack(liveTrack(actor, rules), spend.change.to - 1, from) : null;
  if (!moved)
    throw new RulesError("spend", "FUDGE.Error.FudgePoints.TrackChanged", "the track changed since", {
      name: actor.name,
    });
  const r = character.refundFudgePoint(pool, spendId);
  return { system: { ...trackUpdate(moved.state).system, ...poolUpdate(r.pool).system } };
}

/** The reverse of moveWound: a box of row `lower` cleared (none when −1), the first open box of row `upper` marked. */
function moveBack(track: Track, lower: number, upper: number): Track | null {
  let t = track;
  if (lower >= 0) {
    const marked = renderTrack(t)
      .rows[lower]?.boxes.filter((b) => b.marked)
      .at(-1);
    if (!marked) return null;
    t = toggleBox(t, marked.ref);
  }
  const open = renderTrack(t).rows[upper]?.boxes.find((b) => !b.marked && !b.disabled);
  return open ? toggleBox(t, open.ref) : null;
}

/** The side of an attack card whose roll a Fudge Point alters (Fudge §1.36): each spender alters his own. */
export type AttackSide = "attacker" | "defender";

/** A spend's id on an attack card: the card and the side (one spend per side per card, as on a trait roll's card). */
export const attackSpendId = (messageId: string, side: AttackSide): string => `${messageId}.${side}`;

/**
 * Fudge §1.36 on an attack card: the level (+1, −1; 0: none) a spend in the actor's own log moves
 * his side's roll on card `messageId`. Read from the live actor only (never from the card); a log
 * that does not parse, or a world without Fudge Points, counts as none.
 */
export function attackSpendLevel(
  actor: ActorDoc | null,
  messageId: string,
  side: AttackSide,
  rules: WorldRules,
): number {
  if (!actor || !hasFudgePoints(actor, rules)) return 0;
  let pool: character.FudgePointPool;
  try {
    pool = fudgePointPool(actor);
  } catch (e) {
    if (isRulesError(e)) return 0;
    throw e;
  }
  const id = attackSpendId(messageId, side);
  const spend = pool.log.find((x) => x.id === id && x.use === "alterRoll" && x.change.target === messageId);
  return spend ? Math.sign(spend.change.to - spend.change.from) : 0;
}
