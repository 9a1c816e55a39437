/**
 * Fudge §1.36 from an attack card: the attacker's owner, or a defender's once his defence is
 * rolled, spends a Fudge Point to alter his side's roll one level, and its Undo refunds it
 * (src/system/attack-fudge-point.ts). Refused here first (a sentence, nothing written); the one
 * writer spends it again from the live actor in its turn, as the requesting user, then writes the
 * result each target it moves re-derives to (Apply re-derives it again, from the live logs).
 */
import { RulesError, describeLevel, isRulesError } from "../../rules";
import * as actions from "../actions";
import type { ActorDoc, AttackCardData, AttackCardTarget, WorldRules } from "../data";
import { refundOnAttack, spendOnAttack, spendTargets, type SpendState } from "../attack-fudge-point";
import type { AttackSide } from "../fudge-point-spend";
import { rederiveTarget } from "../rederive";
import { liveRecord, woundLogOf } from "../actor-logs";
import { readActor } from "../combatant";
import { ladderOf } from "../view";
import type { ActorTurn, HostPort, StoredCard } from "./port";
import { cardOf, ladderNames, liveActor, maybeActor, sidesOf, storedCard } from "./read";
import type { ActorWrite } from "./writes";

/** The spender's actor reference on the card: its attacker, or the target at `targetRef`. */
function spenderRef(card: AttackCardData, side: AttackSide, targetRef: string): string {
  return side === "attacker" ? card.attackerId : targetRef;
}

/** A target's live sides, with the spender as read in his turn on his side. */
function sides(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  t: AttackCardTarget,
  spender: ActorDoc,
  side: AttackSide,
) {
  const rules = port.rules();
  if (side === "defender") return sidesOf(port, stored, card, spender, rules);
  return { ...sidesOf(port, stored, card, liveActor(port, t.actorId, rules), rules), attacker: spender };
}

/** What a spend needs to know of the table: the spender's targets, whether a wound is applied, his side's result now. */
function spendContext(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  spender: ActorDoc,
  side: AttackSide,
  rules: WorldRules,
): { state: SpendState; from: () => number } {
  const targets = spendTargets(card, spender, side);
  const applied = targets.some((t) => {
    const doc = side === "defender" ? spender : maybeActor(port, t.actorId, rules);
    return !!doc && !!liveRecord(woundLogOf(doc), stored.id);
  });
  const key = side === "attacker" ? "attackerTotal" : "defenderTotal";
  const from = () => {
    const t = targets[0];
    return rederiveTarget(card, t, sides(port, stored, card, t, spender, side), rules).resolution.numbers[key] ?? 0;
  };
  return { state: { applied }, from };
}

/** The writer's turn of a spend or its Undo (writes.ts): the spender's points and log, then each target's result re-derived. */
export async function writeAttackFudgePoint(
  port: HostPort,
  turn: ActorTurn,
  doc: ActorDoc,
  w: Extract<ActorWrite, { kind: "attackFudgePoint" | "refundAttackFudgePoint" }>,
): Promise<null> {
  const rules = port.rules();
  const stored = storedCard(port, w.messageId);
  const card = cardOf(stored);
  const ctx = spendContext(port, stored, card, doc, w.side, rules);
  const r =
    w.kind === "attackFudgePoint"
      ? spendOnAttack(doc, card, stored.id, w.side, w.direction, ctx.from, rules, port.user, ctx.state, now())
      : refundOnAttack(doc, card, stored.id, w.side, rules, port.user, ctx.state);
  await turn.write(r.actor);
  const after = readActor(turn.read(), rules);
  for (const { actorId } of spendTargets(card, after, w.side)) {
    try {
      // The target as stored now (another target's Apply may have written the card since it was read).
      const now = cardOf(storedCard(port, stored.id));
      const t = now.targets.find((x) => x.actorId === actorId);
      if (!t) continue;
      const live = rederiveTarget(now, t, sides(port, stored, now, t, after, w.side), rules);
      await port.writeCardTarget(stored.id, { ...structuredClone(t), resolution: actions.plain(live.resolution) });
    } catch (e) {
      // A target whose result cannot be re-derived now keeps what it showed; Apply re-derives (and refuses) it.
      if (!isRulesError(e)) throw e;
    }
  }
  return null;
}

const now = () => new Date().toISOString();

/** The ladder name of a result, in the user's words. */
const levelName = (port: HostPort, rules: WorldRules, n: number) =>
  describeLevel(n, ladderOf(rules, ladderNames(port.i18n))).label;

/** The card's Fudge Point buttons: one level up or down on the clicking owner's side. */
export async function spendAttackFudgePoint(
  port: HostPort,
  messageId: string,
  side: AttackSide,
  targetRef: string,
  direction: 1 | -1,
): Promise<void> {
  const rules = port.rules();
  const stored = storedCard(port, messageId);
  const card = cardOf(stored);
  const ref = spenderRef(card, side, targetRef);
  const actor = liveActor(port, ref, rules);
  const ctx = spendContext(port, stored, card, actor, side, rules);
  const r = spendOnAttack(actor, card, stored.id, side, direction, ctx.from, rules, port.user, ctx.state, now());
  await port.changeActor(ref, { kind: "attackFudgePoint", messageId, side, direction });
  port.notify("FUDGE.FudgePoint.Spent", {
    name: actor.name,
    from: levelName(port, rules, r.spend.change.from),
    to: levelName(port, rules, r.spend.change.to),
  });
}

/** The card's Undo of a side's Fudge Point: refunded while the spender's log holds it and no wound is applied. */
export async function undoAttackFudgePoint(
  port: HostPort,
  messageId: string,
  side: AttackSide,
  targetRef: string,
): Promise<void> {
  const rules = port.rules();
  const stored = storedCard(port, messageId);
  const card = cardOf(stored);
  const ref = spenderRef(card, side, targetRef);
  const actor = liveActor(port, ref, rules);
  refundOnAttack(
    actor,
    card,
    stored.id,
    side,
    rules,
    port.user,
    spendContext(port, stored, card, actor, side, rules).state,
  );
  await port.changeActor(ref, { kind: "refundAttackFudgePoint", messageId, side });
  port.notify("FUDGE.FudgePoint.Refunded", { name: actor.name });
}

/** A side named by a button (data-side), or a RulesError. */
export function sideOf(v: string | undefined): AttackSide {
  if (v === "attacker" || v === "defender") return v;
  throw new RulesError("side", "FUDGE.Error.FudgePoints.NotThisRoll", "not this character's roll", { name: "" });
}
