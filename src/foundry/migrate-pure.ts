/**
 * Migration of stored `system` data from older shapes (pre-release 0.0.x builds), as pure
 * functions: TypeDataModel.migrateData calls them on every load, and the world migration
 * (migration.ts) uses `planWorldMigration` to persist the result once. They never mutate
 * their input and never invent data: unknown fields are left for the schema to drop, and
 * values out of range are left for the schema to reject.
 */
import { levelValue } from "../rules/ladder";
import type { ActorType, ItemType } from "../system/data";

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

/** A ladder value stored as a word ("Good") or numeric text ("+1") becomes its number (Fudge §1.3). */
export function ladderNumber(v: unknown): unknown {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return v;
  const s = v.trim().replace("\u2212", "-");
  if (/^[+-]?\d+$/.test(s)) return Number.parseInt(s, 10);
  return levelValue(s) ?? v;
}

function moveInto(src: Rec, from: string, target: Rec, to: string, map: (v: unknown) => unknown = (v) => v): void {
  if (from in src) {
    if (!(to in target)) target[to] = map(src[from]);
    delete src[from];
  }
}

/** Old preset names of the box track. */
const TRACK_PRESET_RENAMES: Record<string, string> = { normal: "standard", default: "standard", heroic: "cinematic" };

/**
 * 0.1.0 drew the cinematic track 4/2/2/1/1 (and epic with 2 + extra Very Hurt boxes); Fudge
 * §4.57 (the full text, RULES.md §2.3) has one Very Hurt box: 4/2/1/1/1, epic 1 + extra. A stored
 * Very Hurt mark that no longer has a box moves up by the overflow rule to the next open
 * Incapacitated / Near Death box, keeping its real level; with none open the character is dead.
 */
function fitVeryHurtBoxes(track: Rec): void {
  const preset = track.preset;
  if ((preset !== "cinematic" && preset !== "epic") || !isRec(track.state) || !isRec(track.state.marks)) return;
  const marks = track.state.marks;
  const vh = marks.veryHurt;
  const boxes = preset === "cinematic" ? 1 : 1 + (typeof track.epicExtraVeryHurt === "number" ? track.epicExtraVeryHurt : 1);
  if (!Array.isArray(vh) || vh.length <= boxes) return;
  const extra = vh.slice(boxes).filter((m) => m !== null);
  marks.veryHurt = vh.slice(0, boxes);
  for (const m of extra) {
    const level = ["incapacitated", "nearDeath"].find((k) => {
      const row = Array.isArray(marks[k]) ? (marks[k] as unknown[]) : [];
      return row.length < 1 || row.some((x) => x === null);
    });
    if (!level) {
      track.state.dead = true;
      continue;
    }
    const row = Array.isArray(marks[level]) ? [...(marks[level] as unknown[])] : [];
    const open = row.indexOf(null);
    if (open >= 0) row[open] = m;
    else row.push(m);
    marks[level] = row;
  }
}

export function migrateActorSystem(type: ActorType, source: unknown): unknown {
  if (!isRec(source)) return source;
  const s = clone(source);
  if (type === "character" || type === "npc") {
    // 0.0.x kept the three attributes at the top level.
    const attributes: Rec = isRec(s.attributes) ? s.attributes : {};
    moveInto(s, "strength", attributes, "strength", ladderNumber);
    moveInto(s, "damageCapacity", attributes, "damageCapacity", ladderNumber);
    moveInto(s, "dc", attributes, "damageCapacity", ladderNumber);
    moveInto(s, "willpower", attributes, "willpower", ladderNumber);
    for (const k of ["strength", "damageCapacity", "willpower"]) if (k in attributes) attributes[k] = ladderNumber(attributes[k]);
    if (Object.keys(attributes).length) s.attributes = attributes;
    // 0.0.x had a single `scale` number: Strength and Mass Scale alike (Fudge §4.58).
    if (typeof s.scale === "number") s.scale = { strength: s.scale, mass: s.scale };
    if (typeof s.fudgePoints === "string" && /^\d+$/.test(s.fudgePoints)) s.fudgePoints = Number(s.fudgePoints);
    // 0.0.x: `wounds` held the track state and `trackPreset` its shape.
    const track: Rec = isRec(s.woundTrack) ? s.woundTrack : {};
    moveInto(s, "wounds", track, "state");
    moveInto(s, "trackPreset", track, "preset");
    if (typeof track.preset === "string" && track.preset in TRACK_PRESET_RENAMES) track.preset = TRACK_PRESET_RENAMES[track.preset];
    fitVeryHurtBoxes(track);
    if (Object.keys(track).length) s.woundTrack = track;
    moveInto(s, "biography", s, "notes");
    if (type === "npc" && typeof s.pawn === "string") s.pawn = s.pawn === "true";
  } else if (type === "miniature") {
    moveInto(s, "str", s, "strength");
    moveInto(s, "dex", s, "dexterity");
    moveInto(s, "move", s, "movement");
    if (isRec(s.woundTrack) === false && "wounds" in s) {
      s.woundTrack = { state: s.wounds };
      delete s.wounds;
    }
    if (typeof s.terrifying === "boolean") s.terrifying = s.terrifying ? 1 : 0;
    moveInto(s, "biography", s, "notes");
  }
  return s;
}

/** 0.0.x weapon sizes. */
const WEAPON_SIZE_RENAMES: Record<string, string> = { unarmed: "none", martial: "martialArt", twohanded: "twoHanded", "two-handed": "twoHanded", light: "small" };
const SHIELD_SIZE_RENAMES: Record<string, string> = { buckler: "small", round: "medium", kite: "medium", tower: "large", pavise: "large" };

export function migrateItemSystem(type: ItemType, source: unknown): unknown {
  if (!isRec(source)) return source;
  const s = clone(source);
  switch (type) {
    case "weapon": {
      if (typeof s.size === "string" && s.size.toLowerCase() in WEAPON_SIZE_RENAMES) s.size = WEAPON_SIZE_RENAMES[s.size.toLowerCase()];
      if (s.twoHanded === true && s.hands === undefined) s.hands = 2;
      delete s.twoHanded;
      if (typeof s.hands === "string") s.hands = Number(s.hands);
      // 0.0.x: power "gun" / "beam" meant the weapon's own Strength (Fudge §4.54).
      if (s.power === "gun" || s.power === "beam") s.power = "fixed";
      if (s.range !== undefined && s.ranged === undefined && typeof s.range === "number") s.ranged = s.range > 0;
      moveInto(s, "damage", s, "miniaturesDamage");
      // 0.0.x: scalePiercing was a yes/no; yes meant "halve" (Fudge §4.58, the milder reading).
      if (typeof s.scalePiercing === "boolean") s.scalePiercing = s.scalePiercing ? "halve" : "none";
      break;
    }
    case "armor":
      moveInto(s, "armor", s, "value");
      moveInto(s, "bonus", s, "magic");
      break;
    case "shield":
      if (typeof s.size === "string" && s.size.toLowerCase() in SHIELD_SIZE_RENAMES) s.size = SHIELD_SIZE_RENAMES[s.size.toLowerCase()];
      break;
    case "skill":
      moveInto(s, "value", s, "level");
      if ("level" in s) s.level = ladderNumber(s.level);
      break;
    case "gift":
    case "fault":
      if (typeof s.effect === "string" && s.effect === "") s.effect = "none";
      break;
  }
  return s;
}

// ─── World migration ───────────────────────────────────────────────────────────────────

export interface StoredDoc {
  /** Where the update goes: a world actor/item uuid, or an embedded item's uuid. */
  uuid: string;
  documentName: "Actor" | "Item";
  type: string;
  /** The raw stored `system` (as the database holds it, before migrateData). */
  system: unknown;
}

export interface MigrationUpdate {
  uuid: string;
  system: unknown;
}

/** Older worlds have a lower version; 0 = never migrated. */
export function needsMigration(stored: unknown, current: number): boolean {
  const v = typeof stored === "number" ? stored : typeof stored === "string" ? Number.parseFloat(stored) : 0;
  return !(Number.isFinite(v) && v >= current);
}

/** The `system` updates that persist the migrated shape; documents already current are skipped. */
export function planWorldMigration(docs: readonly StoredDoc[]): MigrationUpdate[] {
  const updates: MigrationUpdate[] = [];
  for (const d of docs) {
    const migrated =
      d.documentName === "Actor" ? migrateActorSystem(d.type as ActorType, d.system) : migrateItemSystem(d.type as ItemType, d.system);
    if (JSON.stringify(migrated) !== JSON.stringify(d.system)) updates.push({ uuid: d.uuid, system: migrated });
  }
  return updates;
}
