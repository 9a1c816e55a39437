/**
 * The wound and defence logs kept on actors (flags): who applied which card's wound and who
 * rolled which card's defence, keyed by the card's message id and bounded (message-log.ts).
 */
import type { ActorDoc } from "./data";
import { cardBeyondLog, cardTooOld, logWrite, messageLogOf, type LogRecord } from "./message-log";
import { RulesError } from "../rules";
import { hasChoice, readDefenceChoice, type DefenceChoice } from "./defence";

/** One applied wound, written into the target actor's flags by whoever applied it. */
export interface WoundRecord extends LogRecord {
  /** The chat message (card) the wound came from; also the record's key in the log. */
  messageId: string;
  /** Who asked for the wound (server-vouched on the GM's client). */
  by: string;
  at: number;
  before: unknown;
  after: unknown;
  fudgePointSpent: boolean;
  undone: boolean;
  /** Who undid it ("" while live). */
  undoneBy: string;
  /** Fudge §4.52 (4): levels that hold only until the battle is over (the result's `battleLapse` follow-ups). */
  lapses?: { from: string; to: string }[];
  /** The battle ended and `lapses` were applied (src/system/actions/attack-card.ts endBattleFor). */
  lapsed?: boolean;
}

export const WOUND_LOG_FLAG = "woundLog";
/** Records kept per actor (the oldest go first; a wound that old can no longer be undone from its card). */
export const WOUND_LOG_LIMIT = 40;

/** The wound log of an actor (its `flags["fudge-wounds"].woundLog`), oldest first; malformed entries are ignored. */
export function woundLogOf(actor: Pick<ActorDoc, "flags">): WoundRecord[] {
  return messageLogOf<WoundRecord>(actor, WOUND_LOG_FLAG, isWoundRecord);
}

/** A wound record's own fields (its key and times are checked by messageLogOf). */
export const isWoundRecord = (r: Record<string, unknown>): boolean =>
  typeof r.by === "string" &&
  typeof r.at === "number" &&
  typeof r.undone === "boolean" &&
  typeof r.fudgePointSpent === "boolean" &&
  "before" in r &&
  "after" in r;

/** The live (not undone) record of a card's wound on this actor. */
export function liveRecord(log: readonly WoundRecord[], messageId: string): WoundRecord | undefined {
  return log.find((r) => r.messageId === messageId && !r.undone);
}

/** The flags update that writes one record (the oldest beyond the limit dropped, the log's horizon moved past them). */
export function logUpdate(
  actor: Pick<ActorDoc, "flags">,
  log: readonly WoundRecord[],
  rec: WoundRecord,
): { "fudge-wounds": Record<string, unknown> } {
  return { "fudge-wounds": logWrite(actor, WOUND_LOG_FLAG, log, structuredClone(rec), WOUND_LOG_LIMIT) };
}

/**
 * Apply (and the GM's ruling) refuse a card posted at `posted` (server time) that has no record in
 * the target's wound log but may have had one that the log dropped since (its horizon): applied
 * once stays once after 40 more wounds (src/system/message-log.ts).
 */
export function checkWoundLogHolds(
  target: Pick<ActorDoc, "flags" | "name">,
  log: readonly WoundRecord[],
  messageId: string,
  posted: number | undefined,
): void {
  if (cardBeyondLog(target, WOUND_LOG_FLAG, log, messageId, posted)) throw cardTooOld(target.name);
}

/** A defence roll, written into the defender actor's flags by whoever rolled it (his owner, or the GM's client for him). */
export interface DefenceRecord extends LogRecord {
  messageId: string;
  faces: number[];
  by: string;
  at: number;
  /**
   * FATE: the roll was made while Clipped and used the box up (src/system/clipped.ts); false: it
   * was not. Absent in records written before the defence roll settled Clipped (Apply does then).
   */
  clipped?: boolean;
  /** The defender's own choices for this roll (defence.ts); absent in records written before he chose. */
  choice?: DefenceChoice;
}

export const DEFENCE_LOG_FLAG = "defenceLog";

export function defenceLogOf(actor: Pick<ActorDoc, "flags">): DefenceRecord[] {
  return messageLogOf<DefenceRecord>(actor, DEFENCE_LOG_FLAG, isDefenceRecord);
}

/** A defence record's own fields (a 4dF roll, with a few Legendary re-rolls at most). */
export const isDefenceRecord = (r: Record<string, unknown>): boolean =>
  typeof r.by === "string" &&
  typeof r.at === "number" &&
  Array.isArray(r.faces) &&
  r.faces.length <= 64 &&
  r.faces.every((f) => Number.isInteger(f)) &&
  (r.clipped === undefined || typeof r.clipped === "boolean") &&
  (r.choice === undefined || (typeof r.choice === "object" && r.choice !== null && !Array.isArray(r.choice)));

/** The defender's record of his defence roll on a card, or undefined. */
export function defenceRecordOf(actor: Pick<ActorDoc, "flags">, messageId: string): DefenceRecord | undefined {
  return defenceLogOf(actor).find((r) => r.messageId === messageId);
}

/**
 * May the defender roll his defence on this card now? Not twice (FUDGE.Error.AlreadyDefended), and
 * not on a card posted at or before his defence log's horizon with no record left (its record may
 * have been dropped: FUDGE.Error.CardBeyondLog). Checked before any die is rolled.
 */
export function checkDefendable(
  defender: Pick<ActorDoc, "flags" | "name">,
  messageId: string,
  posted: number | undefined,
): void {
  const log = defenceLogOf(defender);
  if (log.some((r) => r.messageId === messageId))
    throw new RulesError("defend", "FUDGE.Error.AlreadyDefended", `${defender.name} has already defended`, {
      name: defender.name,
    });
  if (cardBeyondLog(defender, DEFENCE_LOG_FLAG, log, messageId, posted)) throw cardTooOld(defender.name);
}

/** The defence faces the defender rolled on a card, or null. */
export function defenceFacesOf(actor: Pick<ActorDoc, "flags">, messageId: string): number[] | null {
  return defenceRecordOf(actor, messageId)?.faces.slice() ?? null;
}

/** The defender's own choices recorded with his defence roll on a card (bounded as a claim), or null when none. */
export function defenceChoiceOf(actor: Pick<ActorDoc, "flags">, messageId: string): DefenceChoice | null {
  const c = defenceRecordOf(actor, messageId)?.choice;
  return hasChoice(c) ? readDefenceChoice(c as Record<string, unknown>) : null;
}

/** The flags update that records a defence roll on the defender (capped like the wound log). */
export function defenceLogUpdate(
  actor: Pick<ActorDoc, "flags">,
  rec: DefenceRecord,
): { "fudge-wounds": Record<string, unknown> } {
  const entry: DefenceRecord = {
    messageId: rec.messageId,
    faces: [...rec.faces],
    by: rec.by,
    at: rec.at,
    ...(typeof rec.posted === "number" ? { posted: rec.posted } : {}),
    ...(typeof rec.clipped === "boolean" ? { clipped: rec.clipped } : {}),
    ...(hasChoice(rec.choice) ? { choice: readDefenceChoice(rec.choice as Record<string, unknown>) } : {}),
  };
  return { "fudge-wounds": logWrite(actor, DEFENCE_LOG_FLAG, defenceLogOf(actor), entry, WOUND_LOG_LIMIT) };
}
