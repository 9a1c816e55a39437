/**
 * The GM's store of records about actors (`{ [actor ref]: { killedFrom?, experience? } }`): the
 * automatic death's record (actions/kill.ts) and the EP awards (experience.ts). Only a GM writes
 * it (Foundry: a hidden world setting, src/foundry/gm-records.ts; the playground: its store), so
 * every record in it is the GM's own. Each record is checked on every read and write; a malformed
 * one is dropped.
 */
import { KILL_RECORD_FLAG, KILL_RECORD_LIMIT, parseKillRecord, type KillRecord } from "./actions/kill";
import { AWARD_RECORD_KEY, parseAwardRecord, type AwardRecord } from "./experience";

export interface GmRecords {
  killedFrom?: KillRecord;
  experience?: AwardRecord;
}

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseRecords(v: unknown): GmRecords {
  const out: GmRecords = {};
  if (!isRec(v)) return out;
  const kill = parseKillRecord(v[KILL_RECORD_FLAG]);
  if (kill) out.killedFrom = kill;
  const awards = parseAwardRecord(v[AWARD_RECORD_KEY]);
  if (awards) out.experience = awards;
  return out;
}

/**
 * The store after `change` to one actor's records (`key: record` sets it, `-=key: null` removes
 * it): malformed records are dropped, and only the newest KILL_RECORD_LIMIT kill records kept.
 */
export function withGmRecords(store: unknown, ref: string, change: Record<string, unknown>): Record<string, GmRecords> {
  const out: Record<string, GmRecords> = {};
  if (isRec(store))
    for (const [k, v] of Object.entries(store)) {
      const r = parseRecords(v);
      if (Object.keys(r).length) out[k] = r;
    }
  const mine: GmRecords = { ...(out[ref] ?? {}) };
  if (`-=${KILL_RECORD_FLAG}` in change) delete mine.killedFrom;
  if (`-=${AWARD_RECORD_KEY}` in change) delete mine.experience;
  const set = parseRecords(change);
  if (set.killedFrom) mine.killedFrom = structuredClone(set.killedFrom);
  if (set.experience) mine.experience = structuredClone(set.experience);
  if (Object.keys(mine).length) out[ref] = mine;
  else delete out[ref];
  const kills = Object.entries(out)
    .filter(([, r]) => r.killedFrom)
    .sort((a, b) => b[1].killedFrom!.at - a[1].killedFrom!.at);
  for (const [k, r] of kills.slice(KILL_RECORD_LIMIT)) {
    delete r.killedFrom;
    if (!Object.keys(r).length) delete out[k];
  }
  return out;
}
