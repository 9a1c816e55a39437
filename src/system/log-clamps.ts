/**
 * The world migration's clamp of an actor's stored logs (flags: the wound, defence and Clipped
 * logs). Flags have no data model, so a log stored before the bounds (or forged) may hold any
 * number of entries: it is cut to what its reader keeps (the newest well-formed records, up to
 * its limit), its horizon moved past what was cut, and the count reported.
 */
import { clampedLog } from "./message-log";
import { DEFENCE_LOG_FLAG, WOUND_LOG_FLAG, WOUND_LOG_LIMIT, isDefenceRecord, isWoundRecord } from "./actor-logs";
import { CLIPPED_LOG_FLAG, CLIPPED_LOG_LIMIT, isClippedRecord } from "./clipped";
import { LOG_HORIZON_FLAG } from "./message-log";
import type { ActorDoc } from "./data";
import type { Cut } from "./bounds";

type Rec = Record<string, unknown>;

const ACTOR_LOGS = [
  { flag: WOUND_LOG_FLAG, valid: isWoundRecord, limit: WOUND_LOG_LIMIT },
  { flag: DEFENCE_LOG_FLAG, valid: isDefenceRecord, limit: WOUND_LOG_LIMIT },
  { flag: CLIPPED_LOG_FLAG, valid: isClippedRecord, limit: CLIPPED_LOG_LIMIT },
] as const;

/**
 * The scope update (`flags["fudge-wounds"]`, legacy `==` keys for forCore) that replaces each
 * over-long or malformed log with what its reader keeps, or null; and what was cut, per log.
 */
export function clampActorLogs(actor: Pick<ActorDoc, "flags">): { update: Rec | null; cuts: Cut[] } {
  const update: Rec = {};
  const horizons: Rec = {};
  const cuts: Cut[] = [];
  for (const { flag, valid, limit } of ACTOR_LOGS) {
    const { log, dropped, horizon } = clampedLog(actor, flag, valid, limit);
    if (!dropped) continue;
    update[`==${flag}`] = log ?? {};
    horizons[flag] = horizon;
    cuts.push({ path: `flags.fudge-wounds.${flag}`, count: dropped });
  }
  if (!cuts.length) return { update: null, cuts };
  update[LOG_HORIZON_FLAG] = horizons;
  return { update, cuts };
}
