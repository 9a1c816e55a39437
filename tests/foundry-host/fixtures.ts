/**
 * Stored data of every earlier shape this system has had (src/system/migrate.ts lists
 * them), as the database holds it — the input of a v13 world load. Each has what it must
 * become. Also used by the Quench migration batch (src/foundry/quench/migration.ts).
 */
export { STORED_SHAPES, type StoredShape } from "../../src/system/stored-shapes";
