/**
 * World migration, run by the active GM at `ready` when the world's `systemMigrationVersion` is
 * older than MIGRATION_VERSION — as Foundry v13 loads documents (FOUNDRY-V13.md):
 * - valid documents were already migrated in memory by each model's in-place `migrateData`; they
 *   are read with `toObject()` and updated with only the fields that still change;
 * - documents that failed validation are not in the collections: they are read through
 *   `collection.getInvalid(id)` (world actors and items, and actors' embedded items),
 *   migrated, repaired (`repairSystem`) and updated with only what changed;
 * - stored data over its bound (bounds.ts: a system field, an actor's logs in its flags, a chat
 *   card) is clamped, and what was cut is reported per document;
 * - every failure is counted and reported; the version is bumped only when all migrated.
 */
import { MIGRATION_SETTING, MIGRATION_VERSION, SYSTEM_ID } from "../system/registry";
import {
  cardChanges,
  killRecordStateChanges,
  needsMigration,
  systemChanges,
  woundLogStateChanges,
} from "../system/migrate";
import { KILL_RECORD_FLAG } from "../system/flows";
import { gmRecordsStored, writeGmRecords } from "./gm-records";
import { AWARD_RECORD_KEY } from "../system/experience";
import { adoptedAwards } from "../system/advancement";
import { clampActorLogs } from "../system/log-clamps";
import type { Cut } from "../system/bounds";
import { toCore } from "./v14";

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
interface Doc {
  uuid: string;
  flags?: Record<string, unknown>;
  name: string | null;
  type: string;
  documentName: string;
  toObject(source?: boolean): unknown;
  update(data: object, options?: object): Promise<unknown>;
}
interface Coll {
  contents: Doc[];
  invalidDocumentIds: Set<string>;
  getInvalid(id: string, options?: { strict?: boolean }): Doc | undefined;
}

export interface MigrationReport {
  version: number;
  /** Documents updated (valid ones still changing, and repaired invalid ones). */
  updated: string[];
  /** Invalid documents repaired: uuid → the fields reset to their defaults. */
  repaired: Record<string, string[]>;
  failed: { uuid: string; error: string }[];
  /** Documents with stored data over a bound: uuid → what was cut (characters or entries, per field). */
  clamped: Record<string, Cut[]>;
  /** True when the world's version was bumped. */
  complete: boolean;
}

/** The chat cards this system stores (its ChatMessage sub-types); other messages are not its to migrate. */
const CARD_TYPES = new Set(["attackCard", "rollCard"]);

/** The clamp's log update with the states' changes: into its replacement (`==woundLog`) when there is one. */
function mergeLogChanges(clamp: Rec | null, states: Rec): Rec {
  if (!clamp) return states;
  const replaced = clamp["==woundLog"];
  if (!isRecord(replaced)) return { ...clamp, ...states };
  const log = structuredClone(replaced);
  for (const [id, change] of Object.entries(states.woundLog as Rec))
    if (isRecord(log[id])) Object.assign(log[id], change);
  return { ...clamp, "==woundLog": log };
}

async function migrateDoc(doc: Doc, invalid: boolean, report: MigrationReport): Promise<void> {
  if (doc.documentName === "ChatMessage" && !CARD_TYPES.has(doc.type)) return;
  try {
    const src = doc.toObject() as Rec;
    const { changes, reset, clamped } =
      doc.documentName === "ChatMessage"
        ? { ...cardChanges(doc.type, src.system), reset: [] as string[] }
        : systemChanges(doc.documentName === "Actor" ? "Actor" : "Item", doc.type, src.system, { repair: invalid });
    const clampedLogs = doc.documentName === "Actor" ? clampActorLogs(doc as never) : { update: null, cuts: [] };
    // The wound log's states in the track's shape now (data version 7), over the clamp's log when both change.
    const states = doc.documentName === "Actor" ? woundLogStateChanges(src.system, src.flags) : null;
    const logs = states ? { ...clampedLogs, update: mergeLogChanges(clampedLogs.update, states) } : clampedLogs;
    if (invalid && doc.documentName !== "ChatMessage") report.repaired[doc.uuid] = reset;
    const cuts = [...clamped, ...logs.cuts];
    if (cuts.length) report.clamped[doc.uuid] = cuts;
    if (!changes && !logs.update) {
      if (invalid) throw new Error("no repair makes it valid");
      return;
    }
    const update: Rec = {};
    if (changes) update.system = changes;
    if (logs.update) update.flags = { [SYSTEM_ID]: logs.update };
    // Only the changed fields: a player's edit since the world loaded is not overwritten.
    // An invalid document's update is not diffed against its invalid source.
    await doc.update(toCore(update), invalid ? { diff: false } : {});
    report.updated.push(doc.uuid);
  } catch (e) {
    report.failed.push({ uuid: doc.uuid, error: String((e as Error)?.message ?? e) });
    console.error(`${SYSTEM_ID} | migration of ${doc.uuid} (${doc.name}) failed`, e);
  }
}

async function migrateCollection(
  coll: Coll,
  report: MigrationReport,
  embedded: (doc: Doc) => Coll | null,
): Promise<void> {
  for (const doc of coll.contents) {
    await migrateDoc(doc, false, report);
    const items = embedded(doc);
    if (items) await migrateCollection(items, report, () => null);
  }
  for (const id of coll.invalidDocumentIds) {
    let doc: Doc | undefined;
    try {
      doc = coll.getInvalid(id);
    } catch {
      doc = undefined;
    }
    if (!doc) {
      report.failed.push({ uuid: id, error: "not found" });
      continue;
    }
    await migrateDoc(doc, true, report);
  }
}

/** The GM's kill records (a world setting) whose track states an actor's track no longer reads (data version 7). */
async function migrateKillRecords(report: MigrationReport): Promise<void> {
  for (const [ref, records] of Object.entries(gmRecordsStored())) {
    try {
      const actor = fromUuidSync(ref) as { toObject(): { system: unknown } } | null;
      const next = actor ? killRecordStateChanges(actor.toObject().system, records[KILL_RECORD_FLAG]) : null;
      if (!next) continue;
      await writeGmRecords(ref, { [KILL_RECORD_FLAG]: next });
      report.updated.push(`${ref} (${KILL_RECORD_FLAG})`);
    } catch (e) {
      report.failed.push({ uuid: ref, error: String((e as Error)?.message ?? e) });
    }
  }
}

/**
 * Data version 8: each world actor's EP awards move from its log into the GM's record (adoptedAwards,
 * src/system/experience.ts), the record written before the actor's log loses them.
 */
async function migrateExperienceAwards(report: MigrationReport): Promise<void> {
  for (const actor of (game.actors?.contents ?? []) as Actor.Implementation[]) {
    try {
      const stored = (actor.toObject() as unknown as { system: { experience?: unknown } }).system.experience;
      const moved = adoptedAwards(stored, gmRecordsStored()[actor.uuid]?.[AWARD_RECORD_KEY]);
      if (!moved) continue;
      await writeGmRecords(actor.uuid, { [AWARD_RECORD_KEY]: moved.record });
      await actor.update(toCore({ system: { experience: moved.experience } }) as never);
      report.updated.push(`${actor.uuid} (${AWARD_RECORD_KEY})`);
    } catch (e) {
      report.failed.push({ uuid: actor.uuid, error: String((e as Error)?.message ?? e) });
    }
  }
}

/** Runs the world migration if needed (active GM only); returns its report, or null when not run. */
export async function migrateWorld(): Promise<MigrationReport | null> {
  if (!game.user?.isActiveGM) return null;
  const stored = game.settings!.get(SYSTEM_ID as never, MIGRATION_SETTING as never);
  if (!needsMigration(stored, MIGRATION_VERSION)) return null;
  const report: MigrationReport = {
    version: MIGRATION_VERSION,
    updated: [],
    repaired: {},
    failed: [],
    clamped: {},
    complete: false,
  };
  const itemsOf = (actor: Doc) => (actor as unknown as { items?: Coll }).items ?? null;
  await migrateCollection(game.actors as unknown as Coll, report, itemsOf);
  await migrateCollection(game.items as unknown as Coll, report, () => null);
  await migrateCollection(game.messages as unknown as Coll, report, () => null);
  await migrateKillRecords(report);
  await migrateExperienceAwards(report);
  const notify = (type: "info" | "warn", key: string) =>
    ui.notifications![type](
      game.i18n!.format(key, {
        version: String(MIGRATION_VERSION),
        count: String(report.updated.length),
        failed: String(report.failed.length),
        clamped: String(Object.keys(report.clamped).length),
      }),
      { permanent: type === "warn" } as never,
    );
  if (report.failed.length) {
    // The version stays: the next start tries again, and nothing is lost meanwhile.
    notify("warn", "FUDGE.Migration.Failed");
    return report;
  }
  await game.settings!.set(SYSTEM_ID as never, MIGRATION_SETTING as never, MIGRATION_VERSION as never);
  report.complete = true;
  if (report.updated.length) notify("info", "FUDGE.Migration.Done");
  if (Object.keys(report.clamped).length) {
    notify("warn", "FUDGE.Migration.Clamped");
    console.warn(`${SYSTEM_ID} | stored data over its bounds was clamped`, report.clamped);
  }
  return report;
}
