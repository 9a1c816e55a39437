/**
 * Fudge Points on an attack card (Fudge §1.36: "alter a die roll one level, up or down as
 * desired"): the attacker's owner alters the attack roll, the defender's owner his defence roll,
 * each from his own character's points. The spend lives only in the spender's own bounded log
 * (`system.fudgePointLog`, id `<card>.<side>`, src/system/fudge-point-spend.ts); Apply re-derives
 * each side's result with it from the live actors (integrity.ts rederiveTarget), never from the
 * card. One spend per side per card, as on a trait roll's card. A spend and its Undo are refused
 * once the wound is applied (Undo the wound first: the spend then counts again on the next Apply),
 * and an Undo is refused once the spend has left the bounded log (evicted: it no longer counts).
 */
import { RulesError, character, isRulesError } from "../rules";
import type { ActorDoc, AttackCardData, AttackCardTarget, WorldRules } from "./data";
import { actorRef } from "./combatant";
import { isOwner, type UserRef } from "./permissions";
import { attackSpendId, fudgePointPool, hasFudgePoints, poolUpdate, type AttackSide } from "./fudge-point-spend";

/** Fudge §1.36 applies to attack cards of a world with Fudge Points whose rolls are on the ladder (Fudge, FATE). */
export const attackTakesFudgePoint = (card: AttackCardData, rules: WorldRules): boolean =>
  (rules.preset === "fudge" || rules.preset === "fate") && card.preset === rules.preset;

/** The targets whose result a side's spend moves: the attacker's roll is every target's; the defender's his own. */
export function spendTargets(card: AttackCardData, actor: ActorDoc, side: AttackSide): AttackCardTarget[] {
  if (side === "attacker") return card.attackerId === actorRef(actor) ? card.targets : [];
  return card.targets.filter((t) => t.actorId === actorRef(actor));
}

/** What a spend (or its Undo) needs from the live table: the wound applied to any target it moves. */
export interface SpendState {
  /** A target this side's roll moves holds a live wound record of this card (its wound log). */
  applied: boolean;
}

/**
 * May `user` spend (or undo) a Fudge Point of `actor` on this side of the card? His owner (a GM
 * owns every actor), a character of a world with Fudge Points, his side of this card, each of its
 * defences rolled (the roll is seen before it is altered), no wound applied yet.
 */
function refuseUnlessMay(
  actor: ActorDoc,
  card: AttackCardData,
  side: AttackSide,
  rules: WorldRules,
  user: UserRef,
  state: SpendState,
): AttackCardTarget[] {
  const name = actor.name;
  if (!isOwner(user, actor))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NotYours", "one spends only one's own Fudge Points", {
      who: name,
    });
  if (!hasFudgePoints(actor, rules))
    throw new RulesError("actor", "FUDGE.Error.FudgePoints.NoPoints", "no Fudge Points here", { name });
  const targets = spendTargets(card, actor, side);
  if (!targets.length || !attackTakesFudgePoint(card, rules))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NotThisRoll", "not this character's roll", { name });
  if (targets.some((t) => t.defend === "pending" || !t.resolution))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NotRolled", "the defence is not rolled yet", { name });
  if (state.applied)
    throw new RulesError("card", "FUDGE.Error.FudgePoints.Applied", "the wound is applied: undo it first", { name });
  return targets;
}

/**
 * Fudge §1.36: the owner spends a point to move his side's roll one level (`direction` ±1).
 * `from`: his side's result as re-derived now (kept in his log), asked once the spend is allowed.
 * Returns his actor's write.
 */
export function spendOnAttack(
  actor: ActorDoc,
  card: AttackCardData,
  messageId: string,
  side: AttackSide,
  direction: number,
  from: () => number,
  rules: WorldRules,
  user: UserRef,
  state: SpendState,
  at: string,
) {
  refuseUnlessMay(actor, card, side, rules, user, state);
  const pool = fudgePointPool(actor);
  const id = attackSpendId(messageId, side);
  if (pool.log.some((s) => s.id === id))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.AlreadySpent", "a Fudge Point is already spent on it", {
      name: actor.name,
    });
  const r = character.spendFudgePoint(pool, {
    id,
    at,
    by: actor._id,
    use: "alterRoll",
    target: messageId,
    from: from(),
    direction,
  });
  return { actor: poolUpdate(r.pool), spend: r.spend };
}

/** The card's Undo of a side's spend: refunded from the owner's log while it holds it and no wound is applied. */
export function refundOnAttack(
  actor: ActorDoc,
  card: AttackCardData,
  messageId: string,
  side: AttackSide,
  rules: WorldRules,
  user: UserRef,
  state: SpendState,
) {
  refuseUnlessMay(actor, card, side, rules, user, state);
  const pool = fudgePointPool(actor);
  if (!pool.log.some((s) => s.id === attackSpendId(messageId, side)))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.Evicted", "the spend is no longer in the log", {
      name: actor.name,
    });
  const r = character.refundFudgePoint(pool, attackSpendId(messageId, side));
  return { actor: poolUpdate(r.pool), spend: r.spend };
}

/** The spend a side's owner made on this card, from his own live log (shown and undone on the card); null: none. */
export function attackSpendOf(
  actor: ActorDoc,
  messageId: string,
  side: AttackSide,
  rules: WorldRules,
): character.FudgePointSpend | null {
  if (!hasFudgePoints(actor, rules)) return null;
  try {
    return fudgePointPool(actor).log.find((s) => s.id === attackSpendId(messageId, side)) ?? null;
  } catch (e) {
    if (isRulesError(e)) return null;
    throw e;
  }
}
