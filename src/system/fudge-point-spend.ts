/**
 * Fudge Points spent where the text uses them (Fudge §1.36, src/rules/character/fudge-points.ts):
 * on a trait roll's card, "alter a die roll one level, up or down". The points and the bounded
 * spend log (`system.fudgePointLog`, each spend naming its card) are the spender's own actor's;
 * the writer computes both from the live actor in its turn, as the requesting user, who must own
 * him. The card records who spent and what changed, and its Undo refunds the spend while the log
 * still holds it (an evicted spend cannot be undone, and the refusal says so).
 */
import { RulesError, character, describeLevel } from "../rules";
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
  /** The result before and after (Fudge §1.36: one level). */
  from: number;
  to: number;
  /** The id of the user who spent it. */
  by: string;
}

/** The spender's pool as stored on his actor (a claim: parsed, every spend his own). */
export function fudgePointPool(actor: ActorDoc): character.FudgePointPool {
  const s = actor.system as { fudgePoints?: unknown; fudgePointLog?: unknown };
  return character.parseFudgePointPool(
    { actor: actor._id, points: s.fudgePoints ?? 0, log: s.fudgePointLog ?? [] },
    "system.fudgePointLog",
  );
}

const poolUpdate = (pool: character.FudgePointPool) => ({
  system: { fudgePoints: pool.points, fudgePointLog: pool.log },
});

/** A spend's id for a card: the card's own (one spend per card: Fudge §1.36 alters a roll one level). */
export const rollSpendId = (messageId: string): string => messageId;

/** Fudge §1.36 applies to ladder rolls of a world with Fudge Points (Fudge, FATE): not Volt's d20, not a datacard's numbers. */
export function rollTakesFudgePoint(card: RollCardData, rules: WorldRules): boolean {
  return (
    (rules.preset === "fudge" || rules.preset === "fate") &&
    card.preset === rules.preset &&
    !card.traitKey.startsWith("volt.") &&
    !isDatacardStat(card.traitKey)
  );
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
  if (!rollTakesFudgePoint(card, rules))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.NotThisRoll", "no Fudge Points on this roll", {
      name: actor.name,
    });
  if (card.fudgePoint)
    throw new RulesError("card", "FUDGE.Error.FudgePoints.AlreadySpent", "a Fudge Point is already spent on it", {
      name: card.fudgePoint.actorName,
    });
  const r = character.spendFudgePoint(fudgePointPool(actor), {
    id: rollSpendId(messageId),
    at,
    by: actor._id,
    use: "alterRoll",
    target: messageId,
    from: card.result,
    direction,
  });
  const fudgePoint: RollCardFudgePoint = {
    spendId: r.spend.id,
    actorName: actor.name,
    from: r.spend.change.from,
    to: r.spend.change.to,
    by: user.id,
  };
  return { actor: poolUpdate(r.pool), card: { ...cardResult(card, fudgePoint.to, rules), fudgePoint } };
}

/** The card's Undo: the spend refunded from the owner's log and the card's result as rolled. Refused when the log no longer holds it. */
export function refundOnRoll(actor: ActorDoc, card: RollCardData, rules: WorldRules, user: UserRef) {
  refuseUnlessOwner(actor, card, user);
  const spent = card.fudgePoint;
  if (!spent) throw new RulesError("card", "FUDGE.Error.FudgePoints.NoneSpent", "no Fudge Point spent on this roll");
  const pool = fudgePointPool(actor);
  if (!pool.log.some((s) => s.id === spent.spendId))
    throw new RulesError("card", "FUDGE.Error.FudgePoints.Evicted", "the spend is no longer in the log", {
      name: actor.name,
    });
  const r = character.refundFudgePoint(pool, spent.spendId);
  return { actor: poolUpdate(r.pool), card: { ...cardResult(card, r.spend.change.from, rules), fudgePoint: null } };
}
