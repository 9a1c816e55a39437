/**
 * A message-keyed log in an actor's flags (the wound, defence and Clipped logs): an object of
 * records keyed by the card's message id, so an update sends one record, not the whole log; the
 * oldest records go past the log's limit. Flags have no data model, so the bound is kept here,
 * where the logs are read and written:
 *  - reading keeps only well-formed records of their own key (anything else is ignored);
 *  - writing drops the oldest records beyond the limit, and a log that holds more keys than that
 *    or anything malformed (a forged flood) is rewritten whole with one forced replacement;
 *  - the world migration clamps a stored log the same way (clampedLog);
 *  - a dropped record moves the log's **horizon** past the card it was for: the newest card time
 *    among dropped records (`flags.fudge-wounds.logHorizon.<log>`). A card posted at or before
 *    the horizon with no record left is one whose record may have gone: it is refused rather than
 *    applied or defended a second time (cardBeyondLog), so "once" survives the eviction.
 */
import { RulesError } from "../rules";
import type { ActorDoc } from "./data";

const SCOPE = "fudge-wounds";
type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** What every log record has: its card's message id, when it was written, and when its card was posted. */
export interface LogRecord {
  messageId: string;
  at: number;
  /**
   * When the card was posted, as Foundry's server stamped it (the message's `_stats.createdTime`,
   * read from the live message by the client that writes the record); absent in older records.
   */
  posted?: number;
}

/**
 * JSON characters one record may take: a wound record holds the track before and after (each at
 * most STORE_BOUNDS.trackState); a larger one is not read.
 */
export const LOG_RECORD_CHARS = 50_000;

/** Where the logs' horizons are kept: `flags.fudge-wounds.logHorizon.<log flag>` (a card time in ms). */
export const LOG_HORIZON_FLAG = "logHorizon";

const rawLog = (actor: Pick<ActorDoc, "flags">, flag: string): unknown =>
  (actor.flags?.[SCOPE] as Rec | undefined)?.[flag];

/** The log under `flags["fudge-wounds"][flag]`, oldest first; entries that are not `valid` records of their key are ignored. */
export function messageLogOf<T extends LogRecord>(
  actor: Pick<ActorDoc, "flags">,
  flag: string,
  valid: (r: Rec) => boolean,
): T[] {
  const raw = rawLog(actor, flag);
  if (!isRec(raw)) return [];
  return Object.entries(raw)
    .filter(
      ([k, r]) =>
        isRec(r) &&
        r.messageId === k &&
        typeof r.at === "number" &&
        Number.isFinite(r.at) &&
        (r.posted === undefined || (typeof r.posted === "number" && Number.isFinite(r.posted))) &&
        valid(r) &&
        JSON.stringify(r).length <= LOG_RECORD_CHARS,
    )
    .map(([, r]) => r as unknown as T)
    .sort((a, b) => a.at - b.at);
}

/** The log's horizon: the newest card time among the records it has dropped (0: none dropped). */
export function logHorizon(actor: Pick<ActorDoc, "flags">, flag: string): number {
  const h = ((actor.flags?.[SCOPE] as Rec | undefined)?.[LOG_HORIZON_FLAG] as Rec | undefined)?.[flag];
  return typeof h === "number" && Number.isFinite(h) ? h : 0;
}

/** A dropped record's card time: when its card was posted, else (older records) when it was written, which is later. */
const cardTime = (r: LogRecord): number => (typeof r.posted === "number" ? r.posted : r.at);

/**
 * The scope update (`flags["fudge-wounds"]`) that writes `entry` into the log `flag` (replacing its
 * message's record), drops the oldest others beyond `limit` and moves the horizon past them. The
 * log is rewritten whole (`==flag`, a forced replacement) when it holds more keys than the limit or
 * anything `log` did not read as a record, so a flood costs one small write.
 */
export function logWrite<T extends LogRecord>(
  actor: Pick<ActorDoc, "flags">,
  flag: string,
  log: readonly T[],
  entry: T,
  limit: number,
): Rec {
  const others = log.filter((r) => r.messageId !== entry.messageId);
  const cut = Math.max(0, others.length + 1 - limit);
  const dropped = others.slice(0, cut);
  const kept = others.slice(cut);
  const raw = rawLog(actor, flag);
  const rawKeys = isRec(raw) ? Object.keys(raw) : [];
  const known = new Set(log.map((r) => r.messageId));
  const junk = rawKeys.some((k) => !known.has(k)) || rawKeys.length > limit;
  const out: Rec = {};
  if (junk) {
    const whole: Rec = {};
    for (const r of kept) whole[r.messageId] = structuredClone(r);
    whole[entry.messageId] = entry;
    out[`==${flag}`] = whole;
  } else {
    const entries: Rec = { [entry.messageId]: entry };
    for (const r of dropped) entries[`-=${r.messageId}`] = null;
    out[flag] = entries;
  }
  const horizon = Math.max(logHorizon(actor, flag), ...dropped.map(cardTime));
  if (horizon > logHorizon(actor, flag)) out[LOG_HORIZON_FLAG] = { [flag]: horizon };
  return out;
}

/**
 * Whether the card `messageId`, posted at `posted` (server time), may have had a record in this
 * log that was dropped since: it has none now and was posted at or before the horizon. Unknown
 * posting time (`undefined`: no server stamp, the playground): false.
 */
export function cardBeyondLog(
  actor: Pick<ActorDoc, "flags">,
  flag: string,
  log: readonly LogRecord[],
  messageId: string,
  posted: number | undefined,
): boolean {
  if (posted === undefined || log.some((r) => r.messageId === messageId)) return false;
  return posted <= logHorizon(actor, flag);
}

/** The refusal for such a card: too old for its target's log — attack again. */
export const cardTooOld = (name: string): RulesError =>
  new RulesError(
    "messageId",
    "FUDGE.Error.CardBeyondLog",
    `${name}'s log no longer holds this card's record; attack again`,
    { name },
  );

/**
 * A log bounded as its reader reads it, for the world migration: the well-formed newest `limit`
 * records (null when the stored log already is exactly that) and how many entries were dropped.
 */
export function clampedLog(
  actor: Pick<ActorDoc, "flags">,
  flag: string,
  valid: (r: Rec) => boolean,
  limit: number,
): { log: Rec | null; dropped: number; horizon: number } {
  const raw = rawLog(actor, flag);
  if (raw === undefined) return { log: null, dropped: 0, horizon: logHorizon(actor, flag) };
  const rawKeys = isRec(raw) ? Object.keys(raw) : [];
  const all = messageLogOf<LogRecord>(actor, flag, valid);
  const kept = all.slice(-limit);
  const dropped = rawKeys.length - kept.length + (isRec(raw) ? 0 : 1);
  if (dropped === 0) return { log: null, dropped: 0, horizon: logHorizon(actor, flag) };
  const gone = all.slice(0, all.length - kept.length);
  const horizon = Math.max(logHorizon(actor, flag), ...gone.map(cardTime));
  return { log: Object.fromEntries(kept.map((r) => [r.messageId, r])), dropped, horizon };
}
