/**
 * Migration of stored `system` data from every earlier shape, as pure functions.
 *
 * Foundry v13 calls `TypeDataModel.migrateData(source)` on every load and keeps `source`, ignoring
 * the return value; cleaning then drops every key the schema lacks, in place, before `ready`
 * (FOUNDRY-V13.md). So these functions **change `source` in place**: that is the only moment a
 * renamed or removed field is still there. They never invent data: values out of range are left
 * for the schema to clamp or reject; a stored document that fails validation is repaired by the
 * world migration (`repairSystem`, migration.ts).
 *
 * Stored shapes handled (tests/foundry-host/fixtures.ts holds one of each):
 * - 0.0.x pre-release builds: top-level attributes, `wounds`/`trackPreset`, `biography`, weapon
 *   sizes and powers by other names, yes/no scale piercing, Miniatures `str`/`dex`/`move`.
 * - 0.1.0 (first Foundry adapter): the token bar's `openBoxes` stored in the actor (now derived
 *   only). Its notes and descriptions were HTML, as they are again now, and stay as they are.
 * - MIGRATION_VERSION 3 (session 2): notes and descriptions stored as plain text. They become
 *   HTML again (`storedRichText`: escaped, blank lines → paragraphs, line breaks → `<br>`);
 *   a value that is HTML already is left alone, so running it twice changes nothing.
 * - MIGRATION_VERSION 5 (session 7): a miniature gets `gutsStanding` (defending the King, a
 *   peasant, a follower: all off, as the Guts checks before it read them). A stored value is
 *   kept; yes/no text ("true", "on") from an import becomes a boolean, anything else is left for
 *   the schema to reject and the repair to reset.
 * - MIGRATION_VERSION 6 (session 14): everything a player can store is bounded (bounds.ts). A
 *   stored value over its bound (a flood of Guts failures, a huge note, an over-long card) no
 *   longer validates; the world migration clamps it (clampSystem, clampCard, and the actor logs:
 *   log-clamps.ts) and reports what it cut.
 * - MIGRATION_VERSION 7 (session 15): the wound log's `before`/`after` track states take the
 *   track's current shape too (woundLogStateChanges), so an Undo after the load restores a state
 *   that reads. No stored shape changed with the one writer (issue 28).
 * - MIGRATION_VERSION 8 (session 16): EP awards are the GM's own record (the GM's store), no
 *   longer entries of the actor's log, which its owner writes. The world migration moves them
 *   once (experience.ts adoptedAwards; src/foundry/migration.ts) and drops the actor's `ep` count.
 */
import { levelValue, PRESETS } from "../rules";
import { GUTS_REASONS } from "../rules/miniatures";
import { storedRichText } from "./rich-text";
import { clampCard, clampSystem, type Cut } from "./bounds";
import {
  ACTOR_DEFAULTS,
  defaultGutsStanding,
  GUTS_STANDING_KEYS,
  ITEM_DEFAULTS,
  SHIELD_SIZES,
  STAT_BASES,
  TRACK_PRESETS,
  TRAIT_EFFECTS,
  WEAPON_SIZES,
  type ActorType,
  type ItemType,
} from "./data";

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

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
  const boxes =
    preset === "cinematic" ? 1 : 1 + (typeof track.epicExtraVeryHurt === "number" ? track.epicExtraVeryHurt : 1);
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

/**
 * MIGRATION_VERSION 7: the track states a wound log keeps (each record's `before` and `after`, what
 * Undo restores and compares) in the shape the actor's track reads now — the Very Hurt boxes above,
 * which the load migrates in the track itself but never reached the log in the actor's flags. The
 * changed records' states as a flags update (`{ woundLog: { [messageId]: { before?, after? } } }`), or null.
 */
export function woundLogStateChanges(system: unknown, flags: unknown): Rec | null {
  const track = isRec(system) && isRec(system.woundTrack) ? system.woundTrack : null;
  const scope = isRec(flags) ? flags["fudge-wounds"] : undefined;
  const log = isRec(scope) ? scope.woundLog : undefined;
  if (!track || !isRec(log)) return null;
  const out: Rec = {};
  for (const [id, rec] of Object.entries(log)) {
    const changed = isRec(rec) ? fittedStates(track, rec) : null;
    if (changed) out[id] = changed;
  }
  return Object.keys(out).length ? { woundLog: out } : null;
}

/** A record's `before` / `after` states fitted to the track (fitVeryHurtBoxes): the changed ones, or null. */
function fittedStates(track: Rec, rec: Rec): Rec | null {
  const changed: Rec = {};
  for (const k of ["before", "after"]) {
    const t: Rec = { preset: track.preset, epicExtraVeryHurt: track.epicExtraVeryHurt, state: structuredClone(rec[k]) };
    fitVeryHurtBoxes(t);
    if (JSON.stringify(t.state) !== JSON.stringify(rec[k])) changed[k] = t.state;
  }
  return Object.keys(changed).length ? changed : null;
}

/**
 * MIGRATION_VERSION 7: the GM's kill record of an actor (`killedFrom`: the track before and after
 * the automatic death, which Undo restores and compares) in the shape the actor's track reads now;
 * the whole record changed, or null. A `killedFrom` an older build kept in the actor's own flags is
 * not carried over: its owner could write it, and the GM's Undo restores only what a GM recorded.
 */
export function killRecordStateChanges(system: unknown, record: unknown): Rec | null {
  const track = isRec(system) && isRec(system.woundTrack) ? system.woundTrack : null;
  const changed = track && isRec(record) ? fittedStates(track, record) : null;
  return changed && isRec(record) ? { ...structuredClone(record), ...changed } : null;
}

/** Seed 004 "Sample characters": a miniature's standing Guts circumstances, all off where an older version stored none. */
function migrateGutsStanding(v: unknown): unknown {
  if (v !== undefined && !isRec(v)) return v;
  const out: Rec = { ...defaultGutsStanding(), ...(v ?? {}) };
  for (const k of GUTS_STANDING_KEYS) {
    const x = out[k];
    if (typeof x === "string" && /^(true|false|on|off|yes|no)$/i.test(x.trim()))
      out[k] = /^(true|on|yes)$/i.test(x.trim());
  }
  return out;
}

/** Migrates an actor's stored `system` in place (and returns it). */
export function migrateActorSystem(type: ActorType, source: unknown): unknown {
  if (!isRec(source)) return source;
  const s = source;
  if (type === "character" || type === "npc") {
    // 0.0.x kept the three attributes at the top level.
    const attributes: Rec = isRec(s.attributes) ? s.attributes : {};
    moveInto(s, "strength", attributes, "strength", ladderNumber);
    moveInto(s, "damageCapacity", attributes, "damageCapacity", ladderNumber);
    moveInto(s, "dc", attributes, "damageCapacity", ladderNumber);
    moveInto(s, "willpower", attributes, "willpower", ladderNumber);
    for (const k of ["strength", "damageCapacity", "willpower"])
      if (k in attributes) attributes[k] = ladderNumber(attributes[k]);
    if (Object.keys(attributes).length) s.attributes = attributes;
    // 0.0.x had a single `scale` number: Strength and Mass Scale alike (Fudge §4.58).
    if (typeof s.scale === "number") s.scale = { strength: s.scale, mass: s.scale };
    if (typeof s.fudgePoints === "string" && /^\d+$/.test(s.fudgePoints)) s.fudgePoints = Number(s.fudgePoints);
    // 0.0.x: `wounds` held the track state and `trackPreset` its shape.
    const track: Rec = isRec(s.woundTrack) ? s.woundTrack : {};
    moveInto(s, "wounds", track, "state");
    moveInto(s, "trackPreset", track, "preset");
    if (typeof track.preset === "string" && track.preset in TRACK_PRESET_RENAMES)
      track.preset = TRACK_PRESET_RENAMES[track.preset];
    fitVeryHurtBoxes(track);
    if (Object.keys(track).length) s.woundTrack = track;
    moveInto(s, "biography", s, "notes");
    if (type === "npc" && typeof s.pawn === "string") s.pawn = s.pawn === "true";
    s.notes = storedRichText(s.notes);
  } else if (type === "miniature") {
    moveInto(s, "str", s, "strength");
    moveInto(s, "dex", s, "dexterity");
    moveInto(s, "move", s, "movement");
    if (isRec(s.woundTrack) === false && "wounds" in s) {
      s.woundTrack = { state: s.wounds };
      delete s.wounds;
    }
    if (typeof s.terrifying === "boolean") s.terrifying = s.terrifying ? 1 : 0;
    s.gutsStanding = migrateGutsStanding(s.gutsStanding);
    moveInto(s, "biography", s, "notes");
    s.notes = storedRichText(s.notes);
  }
  // 0.1.0 stored the token bar's open boxes; it is derived now (not editable, not stored).
  delete s.openBoxes;
  return s;
}

/** 0.0.x weapon sizes. */
const WEAPON_SIZE_RENAMES: Record<string, string> = {
  unarmed: "none",
  martial: "martialArt",
  twohanded: "twoHanded",
  "two-handed": "twoHanded",
  light: "small",
};
const SHIELD_SIZE_RENAMES: Record<string, string> = {
  buckler: "small",
  round: "medium",
  kite: "medium",
  tower: "large",
  pavise: "large",
};

/** Migrates an item's stored `system` in place (and returns it). */
export function migrateItemSystem(type: ItemType, source: unknown): unknown {
  if (!isRec(source)) return source;
  const s = source;
  switch (type) {
    case "weapon": {
      if (typeof s.size === "string" && s.size.toLowerCase() in WEAPON_SIZE_RENAMES)
        s.size = WEAPON_SIZE_RENAMES[s.size.toLowerCase()];
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
      if (typeof s.size === "string" && s.size.toLowerCase() in SHIELD_SIZE_RENAMES)
        s.size = SHIELD_SIZE_RENAMES[s.size.toLowerCase()];
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
  if ("description" in s) s.description = storedRichText(s.description);
  return s;
}

// ─── Repair and the world migration ──────────────────────────────────────────────────────

/** Fields with a fixed list of values, by document subtype and path ("[]" = every array element). */
const CHOICES: Record<string, Record<string, readonly unknown[]>> = {
  character: { "woundTrack.preset": TRACK_PRESETS, "woundTrack.customLevels[].effect": ["", "cannotAct", "dying"] },
  npc: { "woundTrack.preset": TRACK_PRESETS, "woundTrack.customLevels[].effect": ["", "cannotAct", "dying"] },
  miniature: { "gutsState.pending[].reason": GUTS_REASONS },
  weapon: {
    size: WEAPON_SIZES,
    power: ["muscle", "fixed"],
    statBasis: STAT_BASES,
    scalePiercing: ["none", "halve", "ignore"],
  },
  shield: { size: SHIELD_SIZES },
  gift: { effect: TRAIT_EFFECTS },
  fault: { effect: TRAIT_EFFECTS },
  attackCard: { preset: PRESETS },
  rollCard: { preset: PRESETS },
};

function walk(node: unknown, parts: string[], fix: (holder: Rec, key: string) => void): void {
  if (!parts.length || !isRec(node)) return;
  const [head, ...rest] = parts;
  const arr = head.endsWith("[]");
  const key = arr ? head.slice(0, -2) : head;
  if (!rest.length) return void fix(node, key);
  const next = node[key];
  if (arr && Array.isArray(next)) for (const el of next) walk(el, rest, fix);
  else walk(next, rest, fix);
}

/**
 * Repairs what stops a stored `system` from validating (a document Foundry did not load): a
 * value outside its field's list, or a number that is not one, takes the default. In place;
 * returns the paths it reset (for the report). Everything else is kept.
 */
export function repairSystem(documentName: "Actor" | "Item", type: string, system: unknown): string[] {
  if (!isRec(system)) return [];
  const reset: string[] = [];
  const defaults = (
    documentName === "Actor"
      ? (ACTOR_DEFAULTS as Record<string, () => unknown>)[type]
      : (ITEM_DEFAULTS as Record<string, () => unknown>)[type]
  )?.() as Rec | undefined;
  for (const [path, allowed] of Object.entries(CHOICES[type] ?? {})) {
    walk(system, path.split("."), (holder, key) => {
      if (key in holder && !allowed.includes(holder[key])) {
        const d = defaultAt(defaults, path);
        if (d !== undefined) holder[key] = d;
        else delete holder[key];
        reset.push(path);
      }
    });
  }
  // Numbers that are not numbers (NaN, text) take the default; out-of-range ones the schema clamps.
  const fixNumbers = (node: Rec, def: Rec | undefined, prefix: string) => {
    if (!def) return;
    for (const [k, d] of Object.entries(def)) {
      const v = node[k];
      if (
        typeof d === "number" &&
        k in node &&
        (typeof v !== "number" || !Number.isFinite(v)) &&
        !(typeof v === "string" && Number.isFinite(Number(v)) && v.trim() !== "")
      ) {
        node[k] = d;
        reset.push(prefix + k);
      } else if (isRec(d) && isRec(v)) fixNumbers(v, d, `${prefix}${k}.`);
    }
  };
  fixNumbers(system, defaults, "");
  return reset;
}

function defaultAt(defaults: Rec | undefined, path: string): unknown {
  if (path.includes("[]")) return undefined;
  return path.split(".").reduce<unknown>((o, k) => (isRec(o) ? o[k] : undefined), defaults);
}

/** Older worlds have a lower version; 0 = never migrated. */
export function needsMigration(stored: unknown, current: number): boolean {
  const v = typeof stored === "number" ? stored : typeof stored === "string" ? Number.parseFloat(stored) : 0;
  return !(Number.isFinite(v) && v >= current);
}

/**
 * The update that brings a stored `system` to the current shape: only the fields that change
 * (so a migration cannot overwrite what a player changed meanwhile), with `-=key` deletions for
 * keys that go away; null when nothing changes. `repair` also resets invalid values.
 */
export function systemChanges(
  documentName: "Actor" | "Item",
  type: string,
  stored: unknown,
  opts: { repair?: boolean } = {},
): { changes: Rec | null; reset: string[]; clamped: Cut[] } {
  if (!isRec(stored)) return { changes: null, reset: [], clamped: [] };
  const next = structuredClone(stored);
  if (documentName === "Actor") migrateActorSystem(type as ActorType, next);
  else migrateItemSystem(type as ItemType, next);
  const clamped = clampSystem(type, next);
  const reset = opts.repair ? repairSystem(documentName, type, next) : [];
  const changes = diffWithDeletions(stored, next);
  return { changes: Object.keys(changes).length ? changes : null, reset, clamped };
}

/** The update that clamps a stored card's `system` to the card limits (arrays whole), or null; and what it cut. */
export function cardChanges(type: string, stored: unknown): { changes: Rec | null; clamped: Cut[] } {
  if (!isRec(stored)) return { changes: null, clamped: [] };
  const next = structuredClone(stored);
  const clamped = clampCard(type, next);
  if (!clamped.length) return { changes: null, clamped };
  const changes = diffWithDeletions(stored, next);
  return { changes: Object.keys(changes).length ? changes : null, clamped };
}

/**
 * What differs from `before` in `after` (arrays whole), with `-=key: null` for removed keys (the
 * Foundry layer puts them in the running core's terms: src/system/updates.ts forCore).
 */
export function diffWithDeletions(before: Rec, after: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(after)) {
    const b = before[k];
    if (isRec(v) && isRec(b)) {
      const d = diffWithDeletions(b, v);
      if (Object.keys(d).length) out[k] = d;
    } else if (JSON.stringify(b) !== JSON.stringify(v)) out[k] = structuredClone(v);
  }
  for (const k of Object.keys(before)) if (!(k in after)) out[`-=${k}`] = null;
  return out;
}
