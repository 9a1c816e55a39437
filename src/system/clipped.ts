/**
 * FATE wound ladder, Clipped at the table (seed 003): "Loser is -1 penalty to their next action …
 * Box resets after that action. Penalty only taken once". Every roll on an attack card is such an
 * action for the side that makes it, hit or miss, so the box resets right after that roll:
 *  - the attacker's, once his card is posted — by his own client (he owns the attacker);
 *  - the defender's, with the Defend roll — by whoever records that roll on the defender (his
 *    owner, or the GM's client through the relay), in the same write as the defence record.
 * A trait roll from the sheet is such an action too: its roller's own client resets his box once the
 * roll card is posted (`traitClippedUpdate`; nothing re-derives a trait roll, so no record).
 * What decides it is the roller's live track at the roll (the rules core's `fate.rollsClipped`,
 * the test its pipeline uses), never the card. Each such roll leaves a record on the roller's own
 * actor (attacker: `clippedLog`; defender: the defence record's `clipped`), so that re-deriving
 * the card later (Apply, src/system/integrity.ts) counts that side as Clipped, as it rolled, and
 * Apply does not use up a Clipped taken since. Records on an actor are written by its owners or a
 * GM; one can only make its own side roll worse.
 */
import { rollsClipped } from "../rules/fate";
import { applyWound, healTrack } from "../rules";
import { isOwner, type UserRef } from "./permissions";
import { REPLACE_STATE_KEY, type ActorUpdate } from "./updates";
import { trackFor } from "./combatant";
import type { ActorDoc, WorldRules } from "./data";
import { checkDefendable, defenceLogUpdate, defenceRecordOf, type DefenceRecord } from "./actor-logs";
import { logWrite, messageLogOf, type LogRecord } from "./message-log";

const SCOPE = "fudge-wounds";
/** Attack rolls that used up this actor's Clipped box, keyed by the card's message id. */
export const CLIPPED_LOG_FLAG = "clippedLog";
/** Combat: Clipped was on the track when this actor's turn began (src/foundry/combat.ts burns it at the turn's end). */
export const CLIPPED_NOTE_FLAG = "clippedAtTurnStart";
/** Records kept per actor (a card that old can no longer be applied as it rolled). */
export const CLIPPED_LOG_LIMIT = 40;

export interface ClippedRecord extends LogRecord {
  messageId: string;
  by: string;
  at: number;
}

/** The actor's clipped log, oldest first; malformed entries are ignored. */
export function clippedLogOf(actor: Pick<ActorDoc, "flags">): ClippedRecord[] {
  return messageLogOf<ClippedRecord>(actor, CLIPPED_LOG_FLAG, isClippedRecord);
}

export const isClippedRecord = (r: Record<string, unknown>): boolean =>
  typeof r.by === "string" && typeof r.at === "number";

/** Is the actor Clipped, so that a roll it makes now is its "next action" (FATE worlds only)? */
export function rollsWhileClipped(actor: ActorDoc, rules: WorldRules): boolean {
  return rules.preset === "fate" && rollsClipped(trackFor(actor, rules));
}

/** The box reset, and the turn-start note dropped: the turn's end must not burn a Clipped taken after this roll. */
function spent(actor: ActorDoc, rules: WorldRules): { system: ActorUpdate["system"]; note: Record<string, unknown> } {
  const state = healTrack(trackFor(actor, rules), { type: "consumeClipped" }).track.state;
  return {
    system: { woundTrack: { [REPLACE_STATE_KEY]: structuredClone(state) } },
    note: { [CLIPPED_NOTE_FLAG]: false },
  };
}

/**
 * After `user` posted an attack card (message `messageId`) for `attacker`: the update that resets
 * his Clipped box and records the roll, or null — not a FATE world, not Clipped, already recorded
 * for this card, or `user` may not write the attacker (only its owner posts its attacks).
 */
export function attackClippedUpdate(
  attacker: ActorDoc,
  rules: WorldRules,
  user: UserRef,
  messageId: string,
  now: number,
  posted?: number,
): ActorUpdate | null {
  if (!messageId || !isOwner(user, attacker) || !rollsWhileClipped(attacker, rules)) return null;
  const log = clippedLogOf(attacker);
  if (log.some((r) => r.messageId === messageId)) return null;
  const rec: ClippedRecord = { messageId, by: user.id, at: now, ...(posted !== undefined ? { posted } : {}) };
  const entries = logWrite(attacker, CLIPPED_LOG_FLAG, log, rec, CLIPPED_LOG_LIMIT);
  const s = spent(attacker, rules);
  return { system: s.system, flags: { [SCOPE]: { ...entries, ...s.note } } };
}

/**
 * After `user` posted a trait roll for `actor` made while Clipped (`rollsWhileClipped` at the roll):
 * the update that resets his box, or null — no longer Clipped (nothing to reset), not a FATE world,
 * or `user` may not write the actor (only its owner rolls its traits).
 */
export function traitClippedUpdate(actor: ActorDoc, rules: WorldRules, user: UserRef): ActorUpdate | null {
  if (!isOwner(user, actor) || !rollsWhileClipped(actor, rules)) return null;
  const s = spent(actor, rules);
  return { system: s.system, flags: { [SCOPE]: s.note } };
}

/**
 * The defender's write for his Defend roll on a card: the defence record, saying whether the roll
 * was made while Clipped, and then the box reset (in one update, so nobody reads one without the other).
 */
export function defenceRollUpdate(
  defender: ActorDoc,
  rules: WorldRules,
  rec: Omit<DefenceRecord, "clipped">,
): ActorUpdate {
  checkDefendable(defender, rec.messageId, rec.posted);
  const clipped = rollsWhileClipped(defender, rules);
  const log = defenceLogUpdate(defender, { ...rec, clipped });
  if (!clipped) return { system: {}, flags: log };
  const s = spent(defender, rules);
  return { system: s.system, flags: { [SCOPE]: { ...log[SCOPE], ...s.note } } };
}

/** Did this roll of the defender's already reset his Clipped box (a defence record that says either way)? */
export const defenceSettledClipped = (defender: Pick<ActorDoc, "flags">, messageId: string): boolean =>
  typeof defenceRecordOf(defender, messageId)?.clipped === "boolean";

/** The actor with its Clipped box marked again, as it was for a roll that used it up (a free Clipped box needed). */
function asClipped(actor: ActorDoc, rules: WorldRules): ActorDoc {
  const track = trackFor(actor, rules);
  if (rollsClipped(track)) return actor;
  const boxes = (track.state as { marks?: { clipped?: unknown[] } }).marks?.clipped?.length ?? 0;
  if (boxes === 0) return actor;
  const state = applyWound(track, { level: "clipped" }).track.state;
  const system = actor.system as unknown as { woundTrack: Record<string, unknown> };
  return { ...actor, system: { ...system, woundTrack: { ...system.woundTrack, state } } } as ActorDoc;
}

/**
 * The two sides as they rolled on card `messageId`: a side whose roll there used up its Clipped
 * box (its own record says so) counts as Clipped again. For re-deriving the card (integrity.ts).
 */
export function asRolledOn(
  attacker: ActorDoc | null,
  defender: ActorDoc,
  messageId: string,
  rules: WorldRules,
): { attacker: ActorDoc | null; defender: ActorDoc } {
  if (rules.preset !== "fate") return { attacker, defender };
  const a =
    attacker && clippedLogOf(attacker).some((r) => r.messageId === messageId) ? asClipped(attacker, rules) : attacker;
  const d = defenceRecordOf(defender, messageId)?.clipped === true ? asClipped(defender, rules) : defender;
  return { attacker: a, defender: d };
}
