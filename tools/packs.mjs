/**
 * Compendium packs: JSON sources in packs/src/<pack>/ (one document per file, with `_id` and
 * `_key`, embedded items inline) compiled by @foundryvtt/foundryvtt-cli into LevelDB packs.
 * `readPack` opens a compiled pack again so tests can compare it with its sources.
 */
import fs from "node:fs";
import path from "node:path";
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { ClassicLevel } from "classic-level";

export const PACKS_SRC = "packs/src";

/** Names of the pack source folders. */
export function packNames(srcRoot = PACKS_SRC) {
  return fs
    .readdirSync(srcRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Source documents of one pack: [{ file, doc }]. */
export function readSources(pack, srcRoot = PACKS_SRC) {
  const dir = path.join(srcRoot, pack);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: path.join(dir, f), doc: JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) }));
}

/**
 * The LevelDB keys a source document must produce: its own `_key` and one key per embedded
 * document ("!actors.items!<actorId>.<itemId>", "!journal.pages!<entryId>.<pageId>").
 */
export function expectedKeys(doc) {
  const keys = [doc._key];
  const [, collection] = String(doc._key ?? "").split("!");
  const embedded = { actors: ["items", "effects"], items: ["effects"], journal: ["pages"] }[collection] ?? [];
  for (const field of embedded) {
    for (const child of doc[field] ?? []) keys.push(`!${collection}.${field}!${doc._id}.${child._id}`);
  }
  return keys;
}

/** Compile every pack under srcRoot into destRoot/<pack>; throws on a source without `_key`. */
export async function compileAll(srcRoot = PACKS_SRC, destRoot = "dist/packs", { log = false } = {}) {
  const out = {};
  for (const pack of packNames(srcRoot)) {
    for (const { file, doc } of readSources(pack, srcRoot)) {
      // The CLI silently skips a file without _key: refuse instead.
      if (typeof doc._key !== "string" || !doc._key.startsWith("!"))
        throw new Error(`${file}: missing or malformed _key`);
      if (typeof doc._id !== "string" || !/^[A-Za-z0-9]{16}$/.test(doc._id))
        throw new Error(`${file}: _id must be 16 letters or digits`);
    }
    const dest = path.join(destRoot, pack);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    await compilePack(path.join(srcRoot, pack), dest, { log });
    out[pack] = dest;
  }
  return out;
}

/** Every entry of a compiled LevelDB pack: key → value. */
export async function readPack(dir) {
  const db = new ClassicLevel(dir, { keyEncoding: "utf8", valueEncoding: "json" });
  const entries = new Map();
  try {
    for await (const [k, v] of db.iterator()) entries.set(k, v);
  } finally {
    await db.close();
  }
  return entries;
}
