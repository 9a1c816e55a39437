/**
 * World migration: when the world's `systemMigrationVersion` is older than MIGRATION_VERSION,
 * the active GM persists the migrated `system` of every world actor, embedded item and world
 * item (migrateData already migrates on load; this writes it back once so older shapes go away).
 */
import { MIGRATION_SETTING, MIGRATION_VERSION, SYSTEM_ID } from "./registry";
import { needsMigration, planWorldMigration, type StoredDoc } from "./migrate-pure";

type RawDoc = { _id: string; type: string; system?: unknown; items?: RawDoc[] };

export async function migrateWorld(): Promise<void> {
  if (!game.user?.isActiveGM) return;
  const stored = game.settings!.get(SYSTEM_ID as never, MIGRATION_SETTING as never);
  if (!needsMigration(stored, MIGRATION_VERSION)) return;
  // game.data holds the world's documents as stored, before migrateData.
  const data = game.data as unknown as { actors?: RawDoc[]; items?: RawDoc[] };
  const docs: StoredDoc[] = [];
  for (const a of data.actors ?? []) {
    docs.push({ uuid: `Actor.${a._id}`, documentName: "Actor", type: a.type, system: a.system ?? {} });
    for (const i of a.items ?? []) docs.push({ uuid: `Actor.${a._id}.Item.${i._id}`, documentName: "Item", type: i.type, system: i.system ?? {} });
  }
  for (const i of data.items ?? []) docs.push({ uuid: `Item.${i._id}`, documentName: "Item", type: i.type, system: i.system ?? {} });
  const updates = planWorldMigration(docs);
  if (updates.length) ui.notifications!.info(game.i18n!.format("FUDGE.Migration.Start", { version: String(MIGRATION_VERSION), count: String(updates.length) }));
  let failed = 0;
  for (const u of updates) {
    try {
      const doc = fromUuidSync(u.uuid) as { update(data: object, options?: object): Promise<unknown> } | null;
      // recursive: false replaces `system` whole, so renamed fields do not linger.
      await doc?.update({ system: u.system }, { recursive: false, diff: false });
    } catch (e) {
      failed++;
      console.error(`${SYSTEM_ID} | migration of ${u.uuid} failed`, e);
    }
  }
  if (failed === 0) await game.settings!.set(SYSTEM_ID as never, MIGRATION_SETTING as never, MIGRATION_VERSION as never);
  if (updates.length) ui.notifications![failed ? "warn" : "info"](game.i18n!.format(failed ? "FUDGE.Migration.Failed" : "FUDGE.Migration.Done", { version: String(MIGRATION_VERSION), failed: String(failed) }));
}
