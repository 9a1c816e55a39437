/**
 * The GM's own records about actors (the automatic death's `killedFrom`, src/system/actions/kill.ts;
 * the EP awards, src/system/experience.ts),
 * kept in a hidden world setting: only users with SETTINGS_MODIFY (Assistant GM and up, by
 * default) may write a world setting (v13 BaseSetting: canUserCreate/#canModify), and the server
 * enforces it, so no player can plant or rewrite one, unlike the actor's flags, which its owner
 * writes. One setting for the world, keyed by actor uuid, bounded (KILL_RECORD_LIMIT), written by
 * one GM client at a time in its own write lane.
 */
import type { ActorDoc } from "../system/data";
import { withGmRecords } from "../system/flows";
import { SYSTEM_ID } from "../system/registry";
import { writeQueue } from "./write-queue";

export const GM_RECORDS_SETTING = "gmRecords";

/** `onChange` runs on every client when a GM writes the store (a sheet shows the records it reads: an award's EP). */
export function registerGmRecords(onChange: () => void): void {
  game.settings!.register(
    SYSTEM_ID as never,
    GM_RECORDS_SETTING as never,
    { scope: "world", config: false, type: Object, default: {}, onChange } as never,
  );
}

const stored = (): unknown => game.settings!.get(SYSTEM_ID as never, GM_RECORDS_SETTING as never);

/** The actor as the kill actions read it: with the GM's records about it (ActorDoc.gmRecords). */
export function withGmRecordsOf(doc: ActorDoc): ActorDoc {
  const ref = doc.uuid ?? doc._id;
  const mine = (withGmRecords(stored(), ref, {}) as Record<string, Record<string, unknown>>)[ref];
  return mine ? { ...doc, gmRecords: structuredClone(mine) } : doc;
}

/** Writes a change to one actor's GM records (src/system's `gmRecords` update): a GM's client only, the server refuses anyone else. */
export async function writeGmRecords(ref: string, change: Record<string, unknown>): Promise<void> {
  await writeQueue("gm-records", async () => {
    const next = withGmRecords(stored(), ref, change);
    await game.settings!.set(SYSTEM_ID as never, GM_RECORDS_SETTING as never, next as never);
  });
}

/** The GM's records as stored (actor uuid → records), for the world migration. */
export const gmRecordsStored = (): Record<string, Record<string, unknown>> =>
  withGmRecords(stored(), "", {}) as Record<string, Record<string, unknown>>;
