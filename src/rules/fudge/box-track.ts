/**
 * Track kind "box": the Fudge wound record of boxes (Fudge §4.57, RULES §2.3), also used by
 * Fudge Miniatures Battles (seed 004) and the NPC pawn track. Levels run mildest first; a wound
 * marks a box of its level, overflows to the next more severe level with an open box, and the
 * mark remembers the wound's real level (an "H" in an Incapacitated box), because healing
 * follows the real wound.
 *
 * Pure functions: every function returns new objects and never mutates its input.
 */
import { FUDGE_HEALING_TYPES, parseFudgeHealing, type FudgeHealing } from "./healing";
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import { stunSnapshot } from "./stun";
import {
  type ApplyResult,
  type Condition,
  type RenderBox,
  type RenderRow,
  type TrackKind,
  type TrackRender,
  type TrackStatus,
} from "../track-kind";
import {
  array,
  at,
  bool,
  boolAt,
  boolField,
  int,
  intField,
  isRecord,
  oneOf,
  oneOfAt,
  oneOfField,
  optIntAt,
  record,
  str,
  strAt,
  strField,
} from "../validate";

export const BOX_RULE = "Fudge §4.57";

/** i18n key of a wound level's name; step and box-label params carry keys the adapter localizes. */
export const woundLabel = (key: string): string => `FUDGE.Wound.${key}`;

/** Levels with a name of their own in lang (FUDGE.Wound.*). */
const NAMED_LEVELS = new Set(["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath", "dead", "undamaged", "out"]);

/**
 * A level's name in steps and labels: a custom level's own label, else its i18n key
 * (FUDGE.Wound.*); a level of the GM's own with neither is named by its key, as the sheet shows it.
 */
export function levelName(config: BoxTrackConfig, key: string): string {
  // A loop, not find(): every explained wound and status names levels (the forecast applies hundreds).
  const levels = config.levels;
  for (let i = 0; i < levels.length; i++)
    if (levels[i].key === key) return levels[i].label ?? (NAMED_LEVELS.has(key) ? woundLabel(key) : key);
  return woundLabel(key);
}

export type BoxEffect = "none" | "penalty" | "cannotAct" | "dying" | "dead" | "out";
export const BOX_EFFECTS: readonly BoxEffect[] = ["none", "penalty", "cannotAct", "dying", "out", "dead"];

export interface BoxLevel {
  /** "scratch" | "hurt" | "veryHurt" | "incapacitated" | "nearDeath" | "dead" | "out" | custom. */
  key: string;
  /** Number of boxes (0 allowed for a level that only exists as a threshold). */
  boxes: number;
  /** 0, −1, −2 …: penalty while this is the highest marked level (levels that stop action carry the last one). */
  penalty: number;
  effect: BoxEffect;
  /** Lowest damage number that reaches this level; null = not reachable by number. */
  min: number | null;
  /** A custom level's own name (Fudge §4.57 custom tracks); the standard levels are named by key. */
  label?: string;
  /** One-letter real-level tag drawn in an overflow box: "S", "H", "V", "I", "N". */
  tag: string;
  /**
   * Fudge §4.51 "maybe a Light Wound causes no penalty during combat … but after combat the
   * character will be at -1 to all skills until it's healed": the penalty outside combat, while
   * this is the highest marked level (absent: `penalty`, in and out of combat).
   */
  afterCombatPenalty?: number;
}

export interface BoxTrackConfig {
  kind: "box";
  label: string;
  /** Mildest first. */
  levels: BoxLevel[];
  /** Fudge §4.57 option: Scratches never push beyond Very Hurt (the last level with a numeric penalty). */
  scratchCap: boolean;
  /** −1 High Pain Threshold / Pain Tolerance, +1 Low Pain Threshold / Pain Intolerant (Fudge §4.51). */
  painShift: number;
  /** Fudge §4.64, PCs only; all false = off. */
  safeguards: { maxThreeLevels: boolean; nearDeathNeedsIncapacitated: boolean; fudgePointSaves: boolean };
  /** Damage number that kills outright (Miniatures Dead 9+); null for Fudge (no number for Dead, §4.55). */
  deadAt: number | null;
}

/** A mark in a box: the wound's real level (may be milder than the box's level after overflow). */
export interface BoxMark {
  level: string;
  stun?: boolean;
}

export type StunEffect = "stunned" | "veryStunned" | "knockedOut";
export const STUN_EFFECTS: readonly StunEffect[] = ["stunned", "veryStunned", "knockedOut"];

/** A running stun effect (Fudge §4.62). rounds: rounds left; knockedOut keeps 0 = until the stun marks heal. */
export interface BoxStun {
  effect: StunEffect;
  rounds: number;
}

export interface BoxTrackState {
  /** By level key, one entry per box: null = open. */
  marks: Record<string, (BoxMark | null)[]>;
  stun: BoxStun | null;
  /** Dead (no open box left for a wound, automatic death, or a marked Dead box). */
  dead: boolean;
}

export interface BoxWound {
  /** Real level key of the wound; "dead" = a deadly wound (always accepted). */
  level: string;
  /** Stun attack (Fudge §4.62). */
  stun?: boolean;
  /** Automatic death (Fudge §4.51, GM only, no roll). */
  kill?: boolean;
  /** Fudge §4.64 safeguard input: the victim began this round Incapacitated (or worse). */
  beganRoundIncapacitated?: boolean;
  /** Fudge §4.64 safeguard input: the player spends a Fudge Point to survive a deadly wound. */
  spendFudgePoint?: boolean;
}

export type BoxHealing = FudgeHealing | { type: "recover"; to: string };

export const BOX_HEALING_TYPES = [...FUDGE_HEALING_TYPES, "recover"] as const;

export type BoxTrackPreset = "standard" | "cinematic" | "epic" | "pawn" | "miniatures" | "custom";
export const BOX_TRACK_PRESETS: readonly BoxTrackPreset[] = [
  "standard",
  "cinematic",
  "epic",
  "pawn",
  "miniatures",
  "custom",
];

/** Mins for scratch..nearDeath (Fudge §4.55): single RD and double RD. */
export const DEFAULT_THRESHOLDS: { single: number[]; double: number[] } = {
  single: [1, 3, 5, 7, 9],
  double: [1, 4, 7, 10, 13],
};

/** Largest box count of one level (a sheet has to draw it). */
export const BOX_MAX_BOXES = 20;
const MAX_LEVELS = 12;
const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** Keys of the built-in levels, which KEY_RE accepts (checked without the regex). */
const STANDARD_KEYS: ReadonlySet<string> = new Set([
  "scratch",
  "hurt",
  "veryHurt",
  "incapacitated",
  "nearDeath",
  "dead",
  "out",
]);

const EFFECT_RANK: Record<BoxEffect, number> = { none: 0, penalty: 1, cannotAct: 2, dying: 3, out: 4, dead: 5 };
const EFFECT_CONDITION: Record<BoxEffect, Condition> = {
  none: "able",
  penalty: "able",
  cannotAct: "cannotAct",
  dying: "dying",
  out: "takenOut",
  dead: "dead",
};
const STUN_RANK: Record<StunEffect, number> = { stunned: 1, veryStunned: 2, knockedOut: 3 };
/** Fudge §4.62: Stunned one round, Very Stunned two rounds; knocked out until the stun heals. */
const STUN_ROUNDS: Record<StunEffect, number> = { stunned: 1, veryStunned: 2, knockedOut: 0 };
/** Fudge §4.62: Very Stunned is −2 to all actions. */
const VERY_STUNNED_PENALTY = -2;

// ---------------------------------------------------------------------------------------------
// Presets

function lvl(
  key: string,
  boxes: number,
  penalty: number,
  effect: BoxEffect,
  min: number | null,
  tag: string,
): BoxLevel {
  return { key, boxes, penalty, effect, min, tag };
}

/** Fudge §4.57 standard levels with given box counts and mins (scratch..nearDeath). */
function fudgeLevels(boxes: number[], mins: number[]): BoxLevel[] {
  return [
    lvl("scratch", boxes[0], 0, "none", mins[0], "S"), // Fudge §4.51: Scratch, no penalty
    lvl("hurt", boxes[1], -1, "penalty", mins[1], "H"), // Fudge §4.51: Hurt −1
    lvl("veryHurt", boxes[2], -2, "penalty", mins[2], "V"), // Fudge §4.51: Very Hurt −2
    lvl("incapacitated", boxes[3], -2, "cannotAct", mins[3], "I"), // Fudge §4.51: Incapacitated, cannot act
    lvl("nearDeath", boxes[4], -2, "dying", mins[4], "N"), // Fudge §4.51: Near Death, dies without help
  ];
}

function intOpt(v: unknown, path: string, fallback: number, min: number, max: number): number {
  return v === undefined ? fallback : int(v, path, min, max);
}

/**
 * A ready track config. Presets: standard 3/1/1/1/1 (Fudge §4.57); cinematic 4/2/1/1/1;
 * epic = cinematic + `epicExtraHurt` / `epicExtraVeryHurt` (0–2 each, default 1); pawn
 * (Undamaged / Hurt / Out); miniatures (seed 004); custom (`levels` required).
 */
export function boxTrackConfig(
  preset: BoxTrackPreset,
  opts: {
    doubleRd?: boolean;
    epicExtraHurt?: number;
    epicExtraVeryHurt?: number;
    levels?: BoxLevel[];
    scratchCap?: boolean;
    painShift?: number;
    safeguards?: Partial<BoxTrackConfig["safeguards"]>;
    label?: string;
  } = {},
): BoxTrackConfig {
  oneOf(preset, "preset", BOX_TRACK_PRESETS);
  if (opts.levels !== undefined && preset !== "custom")
    throw new RulesError(
      "opts.levels",
      "FUDGE.Error.Track.LevelsOnlyCustom",
      "levels can only be given with the custom preset",
    );
  const mins = bool(opts.doubleRd, "opts.doubleRd", false) ? DEFAULT_THRESHOLDS.double : DEFAULT_THRESHOLDS.single; // Fudge §4.55
  let levels: BoxLevel[];
  let deadAt: number | null = null; // Fudge §4.55: deliberately no number for Dead
  switch (preset) {
    case "standard":
      levels = fudgeLevels([3, 1, 1, 1, 1], mins); // Fudge §4.57
      break;
    case "cinematic":
      // Fudge §4.57 cinematic: "add an extra box for Scratch, Hurt, and …" (the seed's sentence is
      // cut off); the full 1995 text draws the sheet as nine circles — Scratch 4, Hurt 2, Very Hurt 1,
      // Incapacitated 1, Near Death 1 — as RULES.md §2.3 says (see docs/rules-api/tracks.md).
      levels = fudgeLevels([4, 2, 1, 1, 1], mins);
      break;
    case "epic": {
      const h = intOpt(opts.epicExtraHurt, "opts.epicExtraHurt", 1, 0, 2);
      const v = intOpt(opts.epicExtraVeryHurt, "opts.epicExtraVeryHurt", 1, 0, 2);
      levels = fudgeLevels([4, 2 + h, 1 + v, 1, 1], mins); // RULES §2.3: cinematic + up to two more on Hurt and Very Hurt
      break;
    }
    case "pawn":
      // Fudge §4.57 NPC pawn: Undamaged / Hurt / Out of the battle. A Scratch has no box and no
      // effect (Undamaged); Hurt range reaches Hurt; anything Very Hurt or worse takes it out.
      levels = [
        lvl("scratch", 0, 0, "none", mins[0], "S"),
        lvl("hurt", 1, -1, "penalty", mins[1], "H"),
        lvl("out", 1, -1, "out", mins[2], "O"),
      ];
      break;
    case "miniatures":
      // Miniatures: Scratch 2 boxes 0–2, Hurt 3–4 −1, Very Hurt 5–6 −2, Near Death 7–8, Dead 9+.
      levels = [
        lvl("scratch", 2, 0, "none", 0, "S"),
        lvl("hurt", 1, -1, "penalty", 3, "H"),
        lvl("veryHurt", 1, -2, "penalty", 5, "V"),
        lvl("nearDeath", 1, -2, "dying", 7, "N"),
        lvl("dead", 1, -2, "dead", 9, "D"),
      ];
      deadAt = 9; // Miniatures: Dead 9+
      break;
    case "custom":
      if (opts.levels === undefined)
        throw new RulesError("opts.levels", "FUDGE.Error.Track.LevelsRequired", "the custom preset needs levels");
      levels = opts.levels.map((l) => ({ ...l }));
      break;
  }
  const config = {
    kind: "box" as const,
    label: opts.label ?? "",
    levels,
    scratchCap: opts.scratchCap ?? false,
    painShift: opts.painShift ?? 0,
    safeguards: {
      maxThreeLevels: opts.safeguards?.maxThreeLevels ?? false,
      nearDeathNeedsIncapacitated: opts.safeguards?.nearDeathNeedsIncapacitated ?? false,
      fudgePointSaves: opts.safeguards?.fudgePointSaves ?? false,
    },
    deadAt,
  };
  return validateBoxConfig(config, "config");
}

// ---------------------------------------------------------------------------------------------
// Level lookups

/** Index of a level key; "dead" without a Dead level is one past the last level. Throws on unknown. */
export function levelIndex(config: BoxTrackConfig, key: string, path = "level"): number {
  const levels = config.levels;
  for (let i = 0; i < levels.length; i++) if (levels[i].key === key) return i;
  if (key === "dead") return config.levels.length;
  throw new RulesError(
    path,
    "FUDGE.Error.Track.UnknownLevel",
    `unknown wound level ${JSON.stringify(key)} (known: ${config.levels.map((l) => l.key).join(", ")}, dead)`,
    {
      level: String(key),
    },
  );
}

function keyAt(config: BoxTrackConfig, i: number): string {
  return i >= config.levels.length ? "dead" : config.levels[i].key;
}

/** Threshold lookup (Fudge §4.55, Miniatures wound track): null = no damage; "dead" when ≥ deadAt. */
export function levelForDamage(config: BoxTrackConfig, damageNumber: number): string | null {
  if (!Number.isFinite(damageNumber))
    throw new RulesError("damageNumber", "FUDGE.Error.NotNumber", `must be a number (got ${damageNumber})`);
  if (config.deadAt !== null && damageNumber >= config.deadAt) return "dead"; // Miniatures: Dead 9+
  let found: string | null = null;
  for (const l of config.levels) if (l.min !== null && damageNumber >= l.min) found = l.key; // Fudge §4.55: 0 or less, no damage
  return found;
}

/** One level more (by > 0) or less severe; null below the mildest level, "dead" past the worst. */
export function shiftLevel(config: BoxTrackConfig, key: string | null, by: number): string | null {
  const i = key === null ? -1 : levelIndex(config, key);
  const j = i + by;
  if (j < 0) return null;
  return keyAt(config, Math.min(j, config.levels.length));
}

/** Index of the last level with a numeric penalty (effect none/penalty): Very Hurt in Fudge. */
function lastNumericIndex(config: BoxTrackConfig): number {
  const levels = config.levels;
  for (let i = levels.length - 1; i >= 0; i--)
    if (levels[i].effect === "none" || levels[i].effect === "penalty") return i;
  return -1;
}

function firstIndexOf(config: BoxTrackConfig, effect: BoxEffect): number {
  const levels = config.levels;
  for (let i = 0; i < levels.length; i++) if (levels[i].effect === effect) return i;
  return -1;
}

/**
 * A Scratch-like level: no penalty and no effect. A level with an after-combat penalty is a wound
 * (Fudge §4.51: a Light Wound stays "until it's healed"), not a Scratch that clears after the fight.
 */
function isScratchLevel(l: BoxLevel): boolean {
  return l.effect === "none" && l.afterCombatPenalty === undefined;
}

/** Index of the first level that is a wound level for healing (Scratch is not a level, §2.5). */
function firstWoundIndex(config: BoxTrackConfig): number {
  const i = config.levels.findIndex((l) => !isScratchLevel(l));
  return i < 0 ? config.levels.length : i;
}

/**
 * Penalty of each level as this character feels it (Fudge §4.51 pain threshold shift). A shift of
 * +1 gives each numeric level the penalty of the next one, extrapolating −1 per level past the last
 * numeric penalty (Low Pain Threshold: Scratch −1, Hurt −2, Very Hurt −3); −1 gives it the
 * penalty of the previous one, 0 below the first (High Pain Threshold: Hurt 0, Very Hurt −1).
 * Levels that stop action move by the same amount as the last numeric level.
 */
export function effectivePenalties(config: BoxTrackConfig): number[] {
  const s = config.painShift;
  const base = config.levels.map((l) => l.penalty);
  if (s === 0) return base;
  const n = lastNumericIndex(config) + 1;
  const num = base.slice(0, n);
  const at = (j: number): number => (j < 0 ? 0 : j < n ? num[j] : (n > 0 ? num[n - 1] : 0) - (j - n + 1));
  const out = base.map((p, i) => (i < n ? at(i + s) : p));
  const delta = n > 0 ? out[n - 1] - base[n - 1] : 0;
  for (let i = n; i < base.length; i++) out[i] = Math.min(0, base[i] + delta);
  return out;
}

/**
 * Optional Willpower roll against a GM-set Difficulty Level to ease a wound penalty (Fudge §4.51).
 * This system's reading: below the DL nothing; meet it (or beat it by 1) → the penalty is one
 * less; beat it by 2 or more → cancelled. Returns the relief in penalty points (Infinity = cancel).
 */
export function willpowerPainRelief(willpowerRolledDegree: number, difficulty: number): number {
  int(willpowerRolledDegree, "willpowerRolledDegree", -20, 20);
  int(difficulty, "difficulty", -20, 20);
  const margin = willpowerRolledDegree - difficulty;
  if (margin < 0) return 0;
  if (margin < 2) return 1;
  return Infinity;
}

/** A penalty after Willpower relief: never above 0. */
export function relievedPenalty(penalty: number, relief: number): number {
  return Math.min(0, penalty + relief);
}

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * One level of a track with levels of its own, field by field. Its path (`levels[i]`) is built
 * only for an error, and its fields are read by name (see validate.ts): a chat card parses every
 * level of both tracks.
 */
function parseLevel(input: unknown, lp: () => string, i: number): BoxLevel {
  const path = (): string => at(lp(), i);
  const o = (isRecord(input) ? input : record(input, path())) as {
    key?: unknown;
    boxes?: unknown;
    penalty?: unknown;
    effect?: unknown;
    min?: unknown;
    tag?: unknown;
    label?: unknown;
  };
  const keyIn = o.key;
  const key = typeof keyIn === "string" ? keyIn : strField(keyIn, path(), "key");
  if (!STANDARD_KEYS.has(key) && !KEY_RE.test(key))
    throw new RulesError(
      at(path(), "key"),
      "FUDGE.Error.Track.BadKey",
      "must be a word of letters and digits starting with a letter",
    );
  const effectIn = o.effect;
  const effect =
    typeof effectIn === "string" && (BOX_EFFECTS as readonly string[]).includes(effectIn)
      ? (effectIn as BoxEffect)
      : oneOfField(effectIn, path(), "effect", BOX_EFFECTS);
  const minIn = o.min;
  const min =
    minIn === null || minIn === undefined
      ? null
      : typeof minIn === "number" && Number.isInteger(minIn) && minIn >= -100 && minIn <= 1000
        ? minIn
        : intField(minIn, path(), "min", -100, 1000);
  const tagIn = o.tag;
  const tag =
    tagIn === undefined
      ? key.charAt(0).toUpperCase()
      : typeof tagIn === "string"
        ? tagIn
        : strField(tagIn, path(), "tag");
  if (tag.length < 1 || tag.length > 3)
    throw new RulesError(at(path(), "tag"), "FUDGE.Error.Track.BadTag", "must be 1 to 3 characters");
  const boxesIn = o.boxes;
  const boxes =
    typeof boxesIn === "number" && Number.isInteger(boxesIn) && boxesIn >= 0 && boxesIn <= BOX_MAX_BOXES
      ? boxesIn
      : intField(boxesIn, path(), "boxes", 0, BOX_MAX_BOXES);
  const penaltyIn = o.penalty;
  const penalty =
    penaltyIn === undefined || penaltyIn === null
      ? 0
      : typeof penaltyIn === "number" && Number.isInteger(penaltyIn) && penaltyIn >= -10 && penaltyIn <= 0
        ? penaltyIn
        : intField(penaltyIn, path(), "penalty", -10, 0);
  const level: BoxLevel = { key, boxes, penalty, effect, min, tag };
  const labelIn = o.label;
  const label =
    labelIn === undefined || labelIn === ""
      ? ""
      : (typeof labelIn === "string" ? labelIn : strField(labelIn, path(), "label")).trim();
  if (label.length > 60)
    throw new RulesError(at(path(), "label"), "FUDGE.Error.Track.BadLabel", "must be at most 60 characters");
  if (label) level.label = label;
  const afterIn = (o as { afterCombatPenalty?: unknown }).afterCombatPenalty;
  if (afterIn !== undefined && afterIn !== null)
    level.afterCombatPenalty = intField(afterIn, path(), "afterCombatPenalty", -10, 0);
  return level;
}

/**
 * The configs of the built-in presets (every preset but custom, single and double thresholds,
 * every epic extra), as the field-by-field validation below returns them; filled on first use.
 */
let presetConfigs: BoxTrackConfig[] | null = null;
function builtInConfigs(): BoxTrackConfig[] {
  if (presetConfigs) return presetConfigs;
  const out: BoxTrackConfig[] = [];
  for (const doubleRd of [false, true]) {
    out.push(
      boxTrackConfig("standard", { doubleRd }),
      boxTrackConfig("cinematic", { doubleRd }),
      boxTrackConfig("pawn", { doubleRd }),
    );
    for (let h = 0; h <= 2; h++)
      for (let v = 0; v <= 2; v++)
        out.push(boxTrackConfig("epic", { doubleRd, epicExtraHurt: h, epicExtraVeryHurt: v }));
  }
  out.push(boxTrackConfig("miniatures"));
  for (const c of out) for (const l of c.levels) Object.freeze(l);
  return (presetConfigs = out);
}

/**
 * A config whose levels are, field for field, those of a built-in preset (nearly every sheet's)
 * needs none of the level checks: the preset's levels passed them. The fields free in a preset
 * (label, scratchCap, painShift, safeguards) are checked as the full validation checks them.
 * Returns what `validateBoxConfig` returns for the same input (built from the input's own values),
 * or null: anything else, valid or not, goes through `validateBoxConfig` (and its errors).
 */
function presetConfig(input: unknown): BoxTrackConfig | null {
  if (typeof input !== "object" || input === null) return null;
  const o = input as Record<string, unknown>;
  const list = o.levels;
  if (o.kind !== "box" || !Array.isArray(list)) return null;
  const label = o.label === undefined ? "" : o.label;
  const scratchCap = o.scratchCap === undefined ? false : o.scratchCap;
  const painShift = o.painShift === undefined ? 0 : o.painShift;
  const deadAt = o.deadAt === undefined ? null : o.deadAt;
  if (
    typeof label !== "string" ||
    typeof scratchCap !== "boolean" ||
    typeof painShift !== "number" ||
    !Number.isInteger(painShift) ||
    painShift < -3 ||
    painShift > 3
  )
    return null;
  const sg = o.safeguards === undefined ? {} : o.safeguards;
  if (typeof sg !== "object" || sg === null || Array.isArray(sg)) return null;
  const g = sg as Record<string, unknown>;
  const maxThreeLevels = g.maxThreeLevels === undefined ? false : g.maxThreeLevels;
  const nearDeathNeedsIncapacitated =
    g.nearDeathNeedsIncapacitated === undefined ? false : g.nearDeathNeedsIncapacitated;
  const fudgePointSaves = g.fudgePointSaves === undefined ? false : g.fudgePointSaves;
  if (
    typeof maxThreeLevels !== "boolean" ||
    typeof nearDeathNeedsIncapacitated !== "boolean" ||
    typeof fudgePointSaves !== "boolean"
  )
    return null;
  const n = list.length;
  next: for (const preset of builtInConfigs()) {
    const known = preset.levels;
    if (known.length !== n || preset.deadAt !== deadAt) continue;
    for (let i = 0; i < n; i++) {
      const l = list[i] as Record<string, unknown> | null;
      const k = known[i];
      if (typeof l !== "object" || l === null || Array.isArray(l)) return null;
      // A level's own name: no preset has one (those levels are validated level by level).
      if (l.label !== undefined && l.label !== "") return null;
      // Nor an after-combat penalty (Fudge §4.51 Light Wound): validated level by level, kept.
      if (l.afterCombatPenalty !== undefined && l.afterCombatPenalty !== null) return null;
      if (
        l.key !== k.key ||
        l.boxes !== k.boxes ||
        l.penalty !== k.penalty ||
        l.effect !== k.effect ||
        l.min !== k.min ||
        l.tag !== k.tag
      )
        continue next;
    }
    // The preset's own level objects (frozen, shared: configs are immutable values), in a fresh
    // list; a level with a −0 (kept by the full validation, which copies the input's values) gets
    // its own object.
    const levels: BoxLevel[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const l = list[i] as Record<string, unknown>;
      const k = known[i];
      levels[i] =
        Object.is(l.boxes, k.boxes) && Object.is(l.penalty, k.penalty) && Object.is(l.min, k.min)
          ? k
          : {
              key: k.key,
              boxes: l.boxes as number,
              penalty: l.penalty as number,
              effect: k.effect,
              min: l.min as number | null,
              tag: k.tag,
            };
    }
    return {
      kind: "box",
      label,
      levels,
      scratchCap,
      painShift,
      safeguards: { maxThreeLevels, nearDeathNeedsIncapacitated, fudgePointSaves },
      deadAt: deadAt as number | null,
    };
  }
  return null;
}

function parseConfig(input: unknown, path: string): BoxTrackConfig {
  return presetConfig(input) ?? validateBoxConfig(input, path);
}

/** The full validation of a box track config, field by field (every error names its field). */
export function validateBoxConfig(input: unknown, path: string): BoxTrackConfig {
  const o = record(input, path) as {
    kind?: unknown;
    levels?: unknown;
    label?: unknown;
    scratchCap?: unknown;
    painShift?: unknown;
    safeguards?: unknown;
    deadAt?: unknown;
  };
  if (o.kind !== "box") oneOfField(o.kind, path, "kind", ["box"] as const);
  const lp = (): string => at(path, "levels");
  const listIn = o.levels;
  const list =
    Array.isArray(listIn) && listIn.length >= 1 && listIn.length <= MAX_LEVELS
      ? listIn
      : array(listIn, lp(), 1, MAX_LEVELS);
  const levels: BoxLevel[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) levels[i] = parseLevel(list[i], lp, i);
  let lastMin = -Infinity;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i];
    for (let j = 0; j < i; j++)
      if (levels[j].key === l.key)
        throw new RulesError(
          at(at(lp(), i), "key"),
          "FUDGE.Error.Track.DuplicateLevel",
          `level ${l.key} appears twice`,
          { level: l.key },
        );
    if (l.key === "dead" && l.effect !== "dead")
      throw new RulesError(
        at(at(lp(), i), "effect"),
        "FUDGE.Error.Track.DeadLevelEffect",
        "the dead level must have the effect dead",
      );
    if (i > 0) {
      const prev = levels[i - 1];
      // Levels run mildest first: a more severe level never has a milder penalty or effect.
      if (l.penalty > prev.penalty)
        throw new RulesError(
          at(at(lp(), i), "penalty"),
          "FUDGE.Error.Track.PenaltyOrder",
          "a more severe level cannot have a milder penalty",
        );
      if (EFFECT_RANK[l.effect] < EFFECT_RANK[prev.effect])
        throw new RulesError(
          at(at(lp(), i), "effect"),
          "FUDGE.Error.Track.EffectOrder",
          "a more severe level cannot have a milder effect",
        );
      if (prev.effect === "dead")
        throw new RulesError(
          at(at(lp(), i), "effect"),
          "FUDGE.Error.Track.AfterDead",
          "no level can follow a dead level",
        );
    }
    if (l.min !== null) {
      if (l.min <= lastMin)
        throw new RulesError(
          at(at(lp(), i), "min"),
          "FUDGE.Error.Track.MinOrder",
          "thresholds must increase from the mildest level",
          { min: l.min },
        );
      lastMin = l.min;
    }
  }
  if (!levels.some((l) => l.boxes > 0))
    throw new RulesError(lp(), "FUDGE.Error.Track.NoBoxes", "at least one level needs a box");
  const deadAt = o.deadAt === null || o.deadAt === undefined ? null : intField(o.deadAt, path, "deadAt", -100, 1000);
  if (deadAt !== null && deadAt <= lastMin && !(levels.at(-1)!.effect === "dead" && levels.at(-1)!.min === deadAt))
    throw new RulesError(at(path, "deadAt"), "FUDGE.Error.Track.DeadAtOrder", "must be above every level's threshold");
  const sgIn = o.safeguards;
  const sg = (sgIn === undefined ? {} : isRecord(sgIn) ? sgIn : record(sgIn, at(path, "safeguards"))) as {
    maxThreeLevels?: unknown;
    nearDeathNeedsIncapacitated?: unknown;
    fudgePointSaves?: unknown;
  };
  const label = typeof o.label === "string" ? o.label : strField(o.label, path, "label", "");
  const scratchCap =
    typeof o.scratchCap === "boolean" ? o.scratchCap : boolField(o.scratchCap, path, "scratchCap", false);
  const painShift = o.painShift === undefined ? 0 : intField(o.painShift, path, "painShift", -3, 3);
  // Three booleans read in order; the path only when one is refused.
  const sgBool = (v: unknown, key: string): boolean =>
    typeof v === "boolean" ? v : boolField(v, path ? `${path}.safeguards` : "safeguards", key, false);
  return {
    kind: "box",
    label,
    levels,
    scratchCap,
    painShift,
    safeguards: {
      maxThreeLevels: sgBool(sg.maxThreeLevels, "maxThreeLevels"),
      nearDeathNeedsIncapacitated: sgBool(sg.nearDeathNeedsIncapacitated, "nearDeathNeedsIncapacitated"),
      fudgePointSaves: sgBool(sg.fudgePointSaves, "fudgePointSaves"),
    },
    deadAt,
  };
}

function emptyMarks(config: BoxTrackConfig): Record<string, (BoxMark | null)[]> {
  const m: Record<string, (BoxMark | null)[]> = {};
  for (const l of config.levels) m[l.key] = Array.from({ length: l.boxes }, () => null);
  return m;
}

function initial(config: BoxTrackConfig): BoxTrackState {
  return { marks: emptyMarks(config), stun: null, dead: false };
}

function parseMark(config: BoxTrackConfig, boxLevel: number, input: unknown, path: string): BoxMark | null {
  if (input === null || input === undefined) return null;
  const o = record(input, path);
  const level = strAt(o, "level", path);
  const i = levelIndex(config, level, at(path, "level"));
  if (i > boxLevel)
    throw new RulesError(
      at(path, "level"),
      "FUDGE.Error.Track.MarkAboveBox",
      "a wound cannot sit in a box milder than its real level",
      { level },
    );
  const stun = boolAt(o, "stun", path, false);
  return stun ? { level, stun: true } : { level };
}

/**
 * Stored state. Lenient about the shape only where a config edit explains it: a level missing
 * from `marks`, or fewer entries than boxes, reads as open boxes. Extra marked boxes are errors.
 */
function parseState(config: BoxTrackConfig, input: unknown, path: string): BoxTrackState {
  const o = record(input, path) as { marks?: unknown; stun?: unknown; dead?: unknown };
  // Paths are built only for an error (a chat card and a click parse a state every time).
  const mp = (): string => at(path, "marks");
  const marksIn = o.marks;
  const mIn: Record<string, unknown> =
    marksIn === undefined ? NO_MARKS : isRecord(marksIn) ? marksIn : record(marksIn, mp());
  const levels = config.levels;
  // Marks usually list the levels in their order: each key's search starts after the last found.
  // Each level's entry is taken here, where `mIn[k]` is the for…in's own fast load (a lookup by
  // a level's key is a megamorphic one); `rows` holds it until its row replaces it.
  const rows: unknown[] = new Array(levels.length);
  let next = 0;
  for (const k in mIn) {
    let found = false;
    for (let t = 0; t < levels.length; t++) {
      const hit = levels[next].key === k;
      if (hit) {
        found = true;
        rows[next] = mIn[k];
      }
      next = next + 1 === levels.length ? 0 : next + 1;
      if (hit) break;
    }
    if (!found && Object.hasOwn(mIn, k))
      throw new RulesError(at(mp(), k), "FUDGE.Error.Track.UnknownLevel", `unknown wound level ${JSON.stringify(k)}`, {
        level: k,
      });
  }
  for (let li = 0; li < levels.length; li++) {
    const l = levels[li];
    // A level not listed reads as open boxes (a field for…in does not see is still read).
    const given = rows[li] !== undefined ? rows[li] : mIn[l.key];
    const arr = given === undefined ? NO_BOXES : Array.isArray(given) ? given : array(given, at(mp(), l.key));
    const boxes = l.boxes;
    // Every box open, then the marks given (an entry past the boxes must be open).
    const row = openBoxes(boxes);
    for (let j = 0; j < arr.length; j++) {
      const v = arr[j];
      // An open box (null) needs no path; a mark is read with its own.
      if (v === null || v === undefined) continue;
      const m = parseMark(config, li, v, at(at(mp(), l.key), j));
      if (j >= boxes) {
        if (m !== null)
          throw new RulesError(
            at(at(mp(), l.key), j),
            "FUDGE.Error.Track.TooManyMarks",
            `level ${l.key} has only ${l.boxes} boxes`,
            { level: l.key, boxes: l.boxes },
          );
        continue;
      }
      row[j] = m;
    }
    rows[li] = row;
  }
  const marks = marksOf(levels, rows as (BoxMark | null)[][]);
  let stun: BoxStun | null = null;
  if (o.stun !== null && o.stun !== undefined) {
    const sp = at(path, "stun");
    const s = record(o.stun, sp);
    stun = { effect: oneOfAt(s, "effect", sp, STUN_EFFECTS), rounds: optIntAt(s, "rounds", sp, 0, 0, 100) };
  }
  return { marks, stun, dead: boolField(o.dead, path, "dead", false) };
}
const NO_MARKS: Record<string, unknown> = Object.freeze({});

/**
 * A row of `n` open boxes at its exact length: a literal for the usual sizes (a list grown by
 * push starts with room for 17 entries, and a chat card parses ten rows).
 */
function openBoxes(n: number): (BoxMark | null)[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [null];
    case 2:
      return [null, null];
    case 3:
      return [null, null, null];
    case 4:
      return [null, null, null, null];
  }
  const row: (BoxMark | null)[] = [];
  for (let j = 0; j < n; j++) row.push(null);
  return row;
}

/**
 * The marks record, level by level in the track's order. The five standard levels in their order
 * (nearly every track) are one object literal: stores under keys known only at run time cost more.
 */
function marksOf(levels: BoxLevel[], rows: (BoxMark | null)[][]): Record<string, (BoxMark | null)[]> {
  if (
    levels.length === 5 &&
    levels[0].key === "scratch" &&
    levels[1].key === "hurt" &&
    levels[2].key === "veryHurt" &&
    levels[3].key === "incapacitated" &&
    levels[4].key === "nearDeath"
  )
    return { scratch: rows[0], hurt: rows[1], veryHurt: rows[2], incapacitated: rows[3], nearDeath: rows[4] };
  const marks: Record<string, (BoxMark | null)[]> = {};
  for (let li = 0; li < levels.length; li++) marks[levels[li].key] = rows[li];
  return marks;
}
const NO_BOXES: readonly unknown[] = Object.freeze([]);

function parseWound(config: BoxTrackConfig, input: unknown, path: string): BoxWound {
  const o = record(input, path);
  const kill = bool(o.kill, at(path, "kill"), false);
  const level = kill && o.level === undefined ? "dead" : str(o.level, at(path, "level"));
  levelIndex(config, level, at(path, "level"));
  const w: BoxWound = { level };
  if (bool(o.stun, at(path, "stun"), false)) w.stun = true;
  if (kill) w.kill = true;
  if (bool(o.beganRoundIncapacitated, at(path, "beganRoundIncapacitated"), false)) w.beganRoundIncapacitated = true;
  if (bool(o.spendFudgePoint, at(path, "spendFudgePoint"), false)) w.spendFudgePoint = true;
  return w;
}

function parseRef(config: BoxTrackConfig, ref: unknown, path: string): { level: number; box: number } | "dead" {
  const r = str(ref, path);
  if (r === "dead") return "dead";
  const m = /^([A-Za-z][A-Za-z0-9_-]*):(\d+)$/.exec(r);
  const li = m ? config.levels.findIndex((l) => l.key === m[1]) : -1;
  if (!m || li < 0 || Number(m[2]) >= config.levels[li].boxes)
    throw new RulesError(path, "FUDGE.Error.Track.UnknownBox", `no box ${JSON.stringify(r)} on this track`, { ref: r });
  return { level: li, box: Number(m[2]) };
}

function parseHealing(config: BoxTrackConfig, input: unknown, path: string): BoxHealing {
  const { healing, o } = parseFudgeHealing(input, path, (ref, p) => void parseRef(config, ref, p), ["recover"]);
  if (healing) return healing;
  // Miniatures: Guts (a Near Death model that rolls +2 or better becomes "merely Very Hurt").
  const to = str(o.to, at(path, "to"));
  const i = levelIndex(config, to, at(path, "to"));
  if (i >= config.levels.length || config.levels[i].effect === "dead" || config.levels[i].boxes === 0)
    throw new RulesError(at(path, "to"), "FUDGE.Error.Track.BadRecoverLevel", "must be a living level with a box", {
      level: to,
    });
  return { type: "recover", to };
}

// ---------------------------------------------------------------------------------------------
// Status

function cloneRow(row: (BoxMark | null)[]): (BoxMark | null)[] {
  const copy: (BoxMark | null)[] = new Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const x = row[i];
    copy[i] = x === null ? null : { ...x };
  }
  return copy;
}

/** The marks of the five standard levels in their order (nearly every track; see marksOf). */
function isStandard(marks: Record<string, (BoxMark | null)[]>): boolean {
  const keys = Object.keys(marks);
  return (
    keys.length === 5 &&
    keys[0] === "scratch" &&
    keys[1] === "hurt" &&
    keys[2] === "veryHurt" &&
    keys[3] === "incapacitated" &&
    keys[4] === "nearDeath"
  );
}

function cloneMarks(marks: Record<string, (BoxMark | null)[]>): Record<string, (BoxMark | null)[]> {
  // The standard levels: one object literal. Stores under keys known only at run time made this
  // copy most of an applied wound.
  if (isStandard(marks))
    return {
      scratch: cloneRow(marks.scratch),
      hurt: cloneRow(marks.hurt),
      veryHurt: cloneRow(marks.veryHurt),
      incapacitated: cloneRow(marks.incapacitated),
      nearDeath: cloneRow(marks.nearDeath),
    };
  const m: Record<string, (BoxMark | null)[]> = {};
  const keys = Object.keys(marks);
  for (let j = 0; j < keys.length; j++) m[keys[j]] = cloneRow(marks[keys[j]]);
  return m;
}

// The lookups below are plain loops, not some()/find() with closures: every status and every
// applied wound runs them, and the duel forecast applies hundreds of wounds per call.

/** Highest level index holding a mark (−1 none); `withStun` counts stun marks too. */
function highestMarked(config: BoxTrackConfig, marks: Record<string, (BoxMark | null)[]>, withStun: boolean): number {
  const levels = config.levels;
  for (let i = levels.length - 1; i >= 0; i--) {
    const row = marks[levels[i].key];
    for (let j = 0; j < row.length; j++) {
      const m = row[j];
      if (m != null && (withStun || !m.stun)) return i;
    }
  }
  return -1;
}

/** First level index in [from, to] with an open box; −1 when none. */
function firstOpen(
  config: BoxTrackConfig,
  marks: Record<string, (BoxMark | null)[]>,
  from: number,
  to: number,
): number {
  const levels = config.levels;
  for (let i = Math.max(0, from); i <= Math.min(to, levels.length - 1); i++) {
    const row = marks[levels[i].key];
    for (let j = 0; j < row.length; j++) if (row[j] === null) return i;
  }
  return -1;
}

function isDead(config: BoxTrackConfig, state: BoxTrackState): boolean {
  if (state.dead) return true;
  const levels = config.levels;
  for (let i = 0; i < levels.length; i++) {
    if (levels[i].effect !== "dead") continue;
    const row = state.marks[levels[i].key];
    for (let j = 0; j < row.length; j++) {
      const m = row[j];
      if (m != null && !m.stun) return true;
    }
  }
  return false;
}

function status(config: BoxTrackConfig, state: BoxTrackState): TrackStatus {
  return statusOf(config, state, true);
}

/** No explanation: a quiet status or applied wound (the duel forecast reads only the numbers). */
const NO_STEPS: Step[] = Object.freeze([]) as unknown as Step[];

/** `explain` false: the same status without its steps (`steps` is an empty frozen list). */
function statusOf(config: BoxTrackConfig, state: BoxTrackState, explain: boolean): TrackStatus {
  const steps: Step[] = explain ? [] : NO_STEPS;
  const h = highestMarked(config, state.marks, false);
  let penalty = 0;
  let condition: Condition = "able";
  let levelKey: string | null = null;
  if (h >= 0) {
    const l = config.levels[h];
    // Without a pain threshold shift each level's penalty is its own (no array of them to build).
    penalty = config.painShift === 0 ? l.penalty : effectivePenalties(config)[h];
    condition = EFFECT_CONDITION[l.effect];
    levelKey = l.key;
    // Fudge §4.57: only the highest marked level's penalty counts; they do not add up.
    if (explain)
      steps.push(
        step("FUDGE.Step.Box.Highest", BOX_RULE, penalty, {
          level: levelName(config, l.key),
          penalty: signed(penalty),
        }),
      );
    if (explain && config.painShift !== 0 && penalty !== l.penalty)
      steps.push(
        step(config.painShift < 0 ? "FUDGE.Step.Box.HighPain" : "FUDGE.Step.Box.LowPain", "Fudge §4.51", penalty, {
          from: signed(l.penalty),
          to: signed(penalty),
        }),
      );
    if (explain && l.effect !== "none" && l.effect !== "penalty")
      steps.push(step(`FUDGE.Step.Box.Effect.${l.effect}`, BOX_RULE, undefined, { level: levelName(config, l.key) }));
  }
  const effects: string[] = [];
  if (state.stun) {
    effects.push(state.stun.effect);
    // Fudge §4.62: stun effects.
    // Knocked out keeps Very Stunned's −2 (moot while out; it keeps the penalty from easing on a worse stun).
    if (state.stun.effect !== "stunned") penalty = Math.min(penalty, VERY_STUNNED_PENALTY);
    if (state.stun.effect === "knockedOut" && condition === "able") condition = "cannotAct";
    if (explain)
      steps.push(
        step(`FUDGE.Step.Box.Stun.${state.stun.effect}`, "Fudge §4.62", undefined, { rounds: state.stun.rounds }),
      );
  }
  if (isDead(config, state)) {
    condition = "dead";
    levelKey = "dead";
    if (explain) steps.push(step("FUDGE.Step.Box.Dead", BOX_RULE));
  }
  const st: TrackStatus = { penalty, condition, canAct: condition === "able", levelKey, effects, steps };
  const hl = h >= 0 ? config.levels[h] : null;
  if (hl && hl.afterCombatPenalty !== undefined && condition !== "dead") {
    // Fudge §4.51 (Light Wound): the level's own penalty once the combat is over, moved by a pain
    // threshold as its combat penalty was (never above 0); a stun's −2 still counts.
    const shift = (config.painShift === 0 ? hl.penalty : effectivePenalties(config)[h]) - hl.penalty;
    let after = Math.min(0, hl.afterCombatPenalty + shift);
    if (state.stun && state.stun.effect !== "stunned") after = Math.min(after, VERY_STUNNED_PENALTY);
    if (after !== penalty) {
      st.afterCombatPenalty = after;
      if (explain)
        steps.push(
          step("FUDGE.Step.Box.AfterCombat", "Fudge §4.51", after, {
            level: levelName(config, hl.key),
            penalty: signed(after),
          }),
        );
    }
  }
  return st;
}

// ---------------------------------------------------------------------------------------------
// Applying a wound

/**
 * The state with `mark` in the first open box of level `li`. `shared` (a quiet apply): only that
 * row is copied and the other rows are the input's own — the duel forecast never changes a state,
 * and copying every row and mark was most of its applied wound.
 */
function withMark(
  config: BoxTrackConfig,
  state: BoxTrackState,
  li: number,
  mark: BoxMark,
  shared = false,
): BoxTrackState {
  const key = config.levels[li].key;
  let marks: Record<string, (BoxMark | null)[]>;
  if (shared) {
    const m = state.marks;
    marks = isStandard(m)
      ? {
          scratch: m.scratch,
          hurt: m.hurt,
          veryHurt: m.veryHurt,
          incapacitated: m.incapacitated,
          nearDeath: m.nearDeath,
        }
      : { ...m };
    marks[key] = marks[key].slice();
  } else marks = cloneMarks(state.marks);
  const row = marks[key];
  row[row.indexOf(null)] = mark;
  return { marks, stun: state.stun ? { ...state.stun } : null, dead: state.dead };
}

const cloneState = (s: BoxTrackState): BoxTrackState => ({
  marks: cloneMarks(s.marks),
  stun: s.stun ? { ...s.stun } : null,
  dead: s.dead,
});

/**
 * The result of a wound; the state is always a fresh copy, so callers never share the input.
 * `fresh`: the state was just built by withMark (nothing in it is shared), so it is not copied again.
 * `quiet`: the status without its steps (see apply).
 */
function result(
  config: BoxTrackConfig,
  stateIn: BoxTrackState,
  steps: Step[],
  fresh = false,
  quiet = false,
): ApplyResult<BoxTrackState> {
  const state = fresh ? stateIn : cloneState(stateIn);
  const st = statusOf(config, state, !quiet);
  return { state, steps, status: st, ended: st.condition === "dead" || st.condition === "takenOut" };
}

function markStep(config: BoxTrackConfig, real: number, li: number, stun: boolean): Step {
  const params = { level: levelName(config, keyAt(config, real)), box: levelName(config, config.levels[li].key) };
  if (real === li)
    return step(stun ? "FUDGE.Step.Box.StunMarked" : "FUDGE.Step.Box.Marked", BOX_RULE, undefined, params);
  // Fudge §4.57: no open box → the next more severe level with one; the mark keeps the real level.
  return step(stun ? "FUDGE.Step.Box.StunOverflow" : "FUDGE.Step.Box.Overflow", BOX_RULE, undefined, params);
}

function applyStun(config: BoxTrackConfig, state: BoxTrackState, r: number, steps: Step[]): ApplyResult<BoxTrackState> {
  const n = config.levels.length;
  const deadIdx = firstIndexOf(config, "dead");
  const top = (deadIdx < 0 ? n : deadIdx) - 1; // a stun never marks a Dead box: it cannot kill
  const li = r > top ? -1 : firstOpen(config, state.marks, r, top);
  let next = state;
  let effect: StunEffect | null;
  if (li < 0) {
    effect = "knockedOut"; // Fudge §4.62: Incapacitated or worse → knocked out
    steps.push(
      step("FUDGE.Step.Box.StunNoBox", "Fudge §4.62", undefined, { level: levelName(config, keyAt(config, r)) }),
    );
  } else {
    next = withMark(config, state, li, { level: keyAt(config, r), stun: true });
    steps.push(markStep(config, r, li, true));
    const e = config.levels[li].effect;
    const firstPenalty = firstIndexOf(config, "penalty");
    // Fudge §4.62: Hurt → Stunned, Very Hurt → Very Stunned, Incapacitated or worse → knocked out.
    effect = e === "none" ? null : e === "penalty" ? (li === firstPenalty ? "stunned" : "veryStunned") : "knockedOut";
  }
  if (effect !== null) {
    const cur = state.stun;
    // Fudge §4.62: a second Stun while stunned → Very Stunned.
    if (effect === "stunned" && cur && cur.effect !== "knockedOut") {
      effect = "veryStunned";
      steps.push(step("FUDGE.Step.Box.SecondStun", "Fudge §4.62"));
    }
    const keep = cur !== null && STUN_RANK[cur.effect] > STUN_RANK[effect];
    const stun = keep ? { ...cur! } : { effect, rounds: STUN_ROUNDS[effect] };
    next = { ...next, stun };
    steps.push(step(`FUDGE.Step.Box.Stun.${stun.effect}`, "Fudge §4.62", undefined, { rounds: stun.rounds }));
  }
  return result(config, next, steps);
}

/** A wound a safeguard absorbs whole (Fudge §4.64): the track stays as it was. */
function absorbedBySafeguard(
  config: BoxTrackConfig,
  state: BoxTrackState,
  wound: BoxWound,
  steps: Step[],
  key: string,
): ApplyResult<BoxTrackState> {
  steps.push(step(key, "Fudge §4.64", undefined, { level: levelName(config, wound.level) }));
  return result(config, state, steps);
}

/**
 * Fudge §4.64: where a safeguard moved the wound — box `j` (its step explained), or, when the
 * safeguard found no open box (`j < 0`), the wound absorbed.
 */
function safeguardLanding(
  config: BoxTrackConfig,
  state: BoxTrackState,
  wound: BoxWound,
  steps: Step[],
  j: number,
  name: "MaxThree" | "NearDeath" | "FudgePoint",
): number | ApplyResult<BoxTrackState> {
  if (j < 0) return absorbedBySafeguard(config, state, wound, steps, `FUDGE.Step.Box.Safeguard.${name}Absorbed`);
  steps.push(
    step(`FUDGE.Step.Box.Safeguard.${name}`, "Fudge §4.64", undefined, {
      level: levelName(config, wound.level),
      to: levelName(config, config.levels[j].key),
    }),
  );
  return j;
}

// Apply runs for every wound a card places and hundreds of times per duel forecast: its
// conditions are written inline rather than as closures made per call.
/**
 * `quiet` (the duel forecast, which reads only the state and the status's numbers and never
 * changes a state): the common placement — a box marked, or no box left — and the status are not
 * explained (their steps are most of the work of an applied wound; the rarer paths still are),
 * and the new state shares the rows it does not change with the input.
 */
function apply(
  config: BoxTrackConfig,
  state: BoxTrackState,
  wound: BoxWound,
  quiet = false,
): ApplyResult<BoxTrackState> {
  const steps: Step[] = [];
  const n = config.levels.length;
  if (isDead(config, state)) {
    steps.push(step("FUDGE.Step.Box.AlreadyDead", BOX_RULE));
    return result(config, state, steps);
  }
  if (wound.kill) {
    // Fudge §4.51: automatic death, no roll (GM only).
    steps.push(step("FUDGE.Step.Box.Kill", "Fudge §4.51"));
    return result(config, { ...state, marks: cloneMarks(state.marks), dead: true }, steps);
  }
  const r = levelIndex(config, wound.level, "wound.level");
  if (r < n && config.levels[r].boxes === 0 && config.levels[r].effect === "none") {
    // A level without boxes and without effect cannot hurt (the pawn's Scratch: Undamaged).
    steps.push(step("FUDGE.Step.Box.NoEffect", BOX_RULE, undefined, { level: levelName(config, wound.level) }));
    return result(config, state, steps);
  }
  if (wound.stun) return applyStun(config, state, r, steps);

  const isScratch = r < n && isScratchLevel(config.levels[r]);
  const capTo = config.scratchCap && isScratch ? lastNumericIndex(config) : n - 1;
  let L = r >= n ? -1 : firstOpen(config, state.marks, r, capTo);
  if (L < 0 && isScratch && config.scratchCap) {
    // Fudge §4.57 option: a Scratch never pushes beyond Very Hurt.
    steps.push(step("FUDGE.Step.Box.ScratchCap", BOX_RULE, undefined, { level: levelName(config, wound.level) }));
    return result(config, state, steps);
  }
  let real = r;
  const deadIdx = firstIndexOf(config, "dead");
  const lastAlive = (deadIdx < 0 ? n : deadIdx) - 1;
  // (L < 0: no open box at the wound's level or above — the wound lands past the last level.)
  // Read by the safeguards only (Fudge §4.64): the worst marked level before this blow.
  const c =
    config.safeguards.maxThreeLevels || config.safeguards.nearDeathNeedsIncapacitated
      ? highestMarked(config, state.marks, true)
      : -1;

  // Fudge §4.64 safeguard: at most three wound levels from one blow.
  if (config.safeguards.maxThreeLevels) {
    // Dead counts as the level after the last living one: Hurt + 3 = Near Death, never Dead.
    const cap = c + 3;
    if ((L < 0 ? n : L) > cap) {
      const from = Math.min(r, cap);
      const j = firstOpen(config, state.marks, from, Math.min(cap, lastAlive));
      const landed = safeguardLanding(config, state, wound, steps, j, "MaxThree");
      if (typeof landed !== "number") return landed;
      L = landed;
      real = from;
    }
  }
  // Fudge §4.64 safeguard: nobody becomes Near Death unless they began the round Incapacitated.
  const nd = firstIndexOf(config, "dying");
  if (
    config.safeguards.nearDeathNeedsIncapacitated &&
    !wound.beganRoundIncapacitated &&
    nd > 0 &&
    c < nd &&
    (L < 0 ? n : L) >= nd
  ) {
    const from = Math.min(real, nd - 1);
    const j = firstOpen(config, state.marks, from, nd - 1);
    const landed = safeguardLanding(config, state, wound, steps, j, "NearDeath");
    if (typeof landed !== "number") return landed;
    L = landed;
    real = from;
  }
  // Fudge §4.64 safeguard: a Fudge Point turns a deadly wound into a serious one: Near Death if
  // that box is open, else the worst open level that stops action (Incapacitated).
  if ((L < 0 || config.levels[L].effect === "dead") && config.safeguards.fudgePointSaves && wound.spendFudgePoint) {
    let j = -1;
    if (nd >= 0 && firstOpen(config, state.marks, nd, nd) === nd) j = nd;
    const firstStop = config.levels.findIndex((l) => EFFECT_RANK[l.effect] >= EFFECT_RANK.cannotAct);
    for (let i = lastAlive; j < 0 && firstStop >= 0 && i >= firstStop; i--)
      if (firstOpen(config, state.marks, i, i) === i) j = i;
    const landed = safeguardLanding(config, state, wound, steps, j, "FudgePoint");
    if (typeof landed !== "number") return landed;
    L = landed;
    real = landed;
  }

  if (L < 0 || config.levels[L].effect === "dead") {
    // Fudge §4.57: no open box at the wound's level or above → dead (Miniatures: the Dead box).
    let next: BoxTrackState = { ...state, marks: cloneMarks(state.marks), dead: true };
    if (L >= 0) {
      next = { ...withMark(config, state, L, { level: keyAt(config, real) }, quiet), dead: true };
      if (!quiet) steps.push(markStep(config, real, L, false));
    } else if (!quiet)
      steps.push(step("FUDGE.Step.Box.NoBox", BOX_RULE, undefined, { level: levelName(config, wound.level) }));
    return result(config, next, steps, L >= 0, quiet);
  }
  const next = withMark(config, state, L, { level: keyAt(config, real) }, quiet);
  if (!quiet) steps.push(markStep(config, real, L, false));
  return result(config, next, steps, true, quiet);
}

// ---------------------------------------------------------------------------------------------
// Healing

interface Loose {
  level: number;
  stun: boolean;
}

function looseMarks(config: BoxTrackConfig, state: BoxTrackState): Loose[] {
  const out: Loose[] = [];
  for (const l of config.levels)
    for (const m of state.marks[l.key])
      if (m !== null) out.push({ level: levelIndex(config, m.level), stun: !!m.stun });
  return out;
}

/**
 * Re-places the wounds that remain after healing (this system's method): real wounds before stun
 * marks (a stun never pushes a real wound up the track), each group most severe first, each
 * wound in the first open box at or above its real level (Scratches under the Scratch cap stay
 * at or below Very Hurt). Placing the worst first keeps overflow tags to a minimum.
 */
function replace(config: BoxTrackConfig, wounds: Loose[], steps: Step[]): Record<string, (BoxMark | null)[]> {
  const marks = emptyMarks(config);
  const sorted = [...wounds].sort((a, b) => Number(a.stun) - Number(b.stun) || b.level - a.level);
  for (const w of sorted) {
    const isScratch = isScratchLevel(config.levels[w.level]);
    const to = config.scratchCap && isScratch ? lastNumericIndex(config) : config.levels.length - 1;
    const li = firstOpen(config, marks, w.level, to);
    if (li < 0) {
      steps.push(
        step("FUDGE.Step.Box.Heal.Dropped", BOX_RULE, undefined, {
          level: levelName(config, config.levels[w.level].key),
        }),
      );
      continue;
    }
    const row = marks[config.levels[li].key];
    row[row.indexOf(null)] = w.stun
      ? { level: config.levels[w.level].key, stun: true }
      : { level: config.levels[w.level].key };
  }
  return marks;
}

/** Levels healed by a healing roll (RULES §2.5): Good 1, Great 2, Superb 3, and one more per step beyond. */
export function levelsHealedByRoll(result: number): number {
  return Math.max(0, result);
}

/** Constitution needed for natural healing of a wound (RULES §2.5): Fair for Hurt, Good for Very Hurt, Great for Incapacitated, +1 per level beyond. */
function constitutionNeeded(config: BoxTrackConfig, level: number): number {
  return level - firstWoundIndex(config);
}

function heal(
  config: BoxTrackConfig,
  state: BoxTrackState,
  healing: BoxHealing,
): { state: BoxTrackState; steps: Step[] } {
  const steps: Step[] = [];
  if (healing.type === "box") {
    const ref = parseRef(config, healing.ref, "healing.ref");
    const next =
      ref === "dead" ? { ...state, marks: cloneMarks(state.marks), dead: false } : clearBox(config, state, ref);
    steps.push(step("FUDGE.Step.Box.Heal.Box", "RULES §2.5", undefined, { ref: healing.ref }));
    return { state: next, steps };
  }
  if (healing.type === "endRound") {
    const k = healing.rounds ?? 1;
    let stun = state.stun ? { ...state.stun } : null;
    if (stun && stun.effect !== "knockedOut") {
      stun.rounds = Math.max(0, stun.rounds - k); // Fudge §4.62: stun lasts one or two rounds
      if (stun.rounds === 0) {
        steps.push(step("FUDGE.Step.Box.Heal.StunEnds", "Fudge §4.62", undefined, { effect: stun.effect }));
        stun = null;
      }
    }
    return { state: { ...state, marks: cloneMarks(state.marks), stun }, steps };
  }
  if (isDead(config, state)) {
    steps.push(step("FUDGE.Step.Box.Heal.Dead", "RULES §2.5"));
    return { state: cloneState(state), steps };
  }
  if (healing.type === "recover") return { state: recover(config, state, healing.to, steps), steps };
  let wounds = looseMarks(config, state);
  let stun = state.stun ? { ...state.stun } : null;
  const fw = firstWoundIndex(config);
  const lower = (w: Loose, by: number): Loose | null => {
    const to = w.level - by;
    steps.push(
      step(to < fw ? "FUDGE.Step.Box.Heal.Gone" : "FUDGE.Step.Box.Heal.Lowered", "RULES §2.5", undefined, {
        level: levelName(config, config.levels[w.level].key),
        to: to < fw ? "" : levelName(config, config.levels[to].key),
      }),
    );
    return to < fw ? null : { level: to, stun: false }; // RULES §2.5: Scratch is not a level
  };
  switch (healing.type) {
    case "scratches": {
      // RULES §2.5: Scratches clear after the fight; Fudge §4.62: stun marks heal like Scratches.
      const before = wounds.length;
      wounds = wounds.filter((w) => !w.stun && !isScratchLevel(config.levels[w.level]));
      stun = null;
      steps.push(step("FUDGE.Step.Box.Heal.Scratches", "RULES §2.5", before - wounds.length));
      break;
    }
    case "roll": {
      const by = levelsHealedByRoll(healing.result);
      steps.push(step("FUDGE.Step.Box.Heal.Roll", "RULES §2.5", by, { result: signed(healing.result), levels: by }));
      if (by > 0) wounds = wounds.flatMap((w) => (w.stun || w.level < fw ? [w] : (lower(w, by) ?? [])));
      break;
    }
    case "natural": {
      const perWeek = healing.rapid ? 2 : 1; // RULES §2.5: Rapid Healing twice as fast
      steps.push(
        step("FUDGE.Step.Box.Heal.Natural", "RULES §2.5", healing.weeks * perWeek, {
          weeks: healing.weeks,
          levels: healing.weeks * perWeek,
        }),
      );
      for (let t = 0; t < healing.weeks * perWeek; t++)
        wounds = wounds.flatMap((w) => {
          if (w.stun || w.level < fw) return [w];
          if (healing.constitution !== undefined && healing.constitution < constitutionNeeded(config, w.level))
            return [w];
          return lower(w, 1) ?? [];
        });
      break;
    }
  }
  return { state: { marks: replace(config, wounds, steps), stun, dead: false }, steps };
}

/**
 * The wound level becomes exactly `to` (Miniatures: a Near Death model that makes its Guts roll
 * "becomes merely Very Hurt"): marks in boxes more severe than `to` are cleared, and when no
 * mark is left at `to`, one of that level is added.
 */
function recover(config: BoxTrackConfig, state: BoxTrackState, to: string, steps: Step[]): BoxTrackState {
  const t = levelIndex(config, to);
  const marks = cloneMarks(state.marks);
  config.levels.forEach((l, i) => {
    if (i > t) marks[l.key] = marks[l.key].map(() => null);
  });
  if (highestMarked(config, marks, false) < t) {
    // every mark left at `to` is a stun mark (or none): the wound takes an open box, else a stun mark's place
    const row = marks[to];
    const j = row.indexOf(null);
    row[j >= 0 ? j : 0] = { level: to };
  }
  const next: BoxTrackState = { ...state, marks, stun: state.stun ? { ...state.stun } : null };
  steps.push(
    step("FUDGE.Step.Box.Heal.Recover", "Miniatures: Near Death", undefined, { level: levelName(config, to) }),
  );
  return next;
}

function clearBox(config: BoxTrackConfig, state: BoxTrackState, ref: { level: number; box: number }): BoxTrackState {
  const marks = cloneMarks(state.marks);
  const l = config.levels[ref.level];
  marks[l.key][ref.box] = null;
  return {
    ...state,
    marks,
    stun: state.stun ? { ...state.stun } : null,
    dead: l.effect === "dead" ? false : state.dead,
  };
}

/** A click on a box: an open box gets a mark of its own level; a marked box is cleared. "dead" toggles death. */
function toggle(config: BoxTrackConfig, state: BoxTrackState, ref: string): BoxTrackState {
  const r = parseRef(config, ref, "ref");
  if (r === "dead") return { ...state, marks: cloneMarks(state.marks), dead: !state.dead };
  const l = config.levels[r.level];
  if (state.marks[l.key][r.box] !== null) return clearBox(config, state, r);
  const marks = cloneMarks(state.marks);
  marks[l.key][r.box] = { level: l.key };
  return {
    ...state,
    marks,
    stun: state.stun ? { ...state.stun } : null,
    dead: l.effect === "dead" ? true : state.dead,
  };
}

// ---------------------------------------------------------------------------------------------
// Render

/** Damage numbers that reach a level: "1–2", "9+", "" when not reachable by number. */
export function levelRange(config: BoxTrackConfig, i: number): string {
  const l = config.levels[i];
  if (l.min === null) return "";
  const next = config.levels.slice(i + 1).find((x) => x.min !== null);
  const hi = next ? next.min! - 1 : config.deadAt !== null && l.effect !== "dead" ? config.deadAt - 1 : null;
  if (hi === null) return `${l.min}+`;
  if (hi <= l.min) return `${l.min}`;
  return `${l.min}\u2013${hi}`;
}

/** Rows mildest first, as the Fudge sheet draws them left to right (Scratch … Near Death). */
function render(config: BoxTrackConfig, state: BoxTrackState): TrackRender {
  const eff = effectivePenalties(config);
  const rows: RenderRow[] = config.levels.map((l, i) => {
    const boxes: RenderBox[] = state.marks[l.key].map((m, j) => {
      const overflow = m !== null && m.level !== l.key;
      const tag = overflow ? config.levels[levelIndex(config, m!.level)].tag : "X";
      const b: RenderBox = {
        ref: `${l.key}:${j}`,
        marked: m !== null,
        mark: m === null ? "" : m.stun ? `~${overflow ? tag : ""}` : tag,
        overflow,
        stun: !!m?.stun,
        disabled: false,
        labelKey: "FUDGE.Track.BoxLabel",
        labelParams: { level: levelName(config, l.key), n: j + 1 },
      };
      if (overflow) b.realLevelKey = m!.level;
      return b;
    });
    const numeric = l.effect === "none" || l.effect === "penalty";
    return {
      key: l.key,
      labelKey: l.label ? "FUDGE.Track.LevelName" : `FUDGE.Wound.${l.key}`,
      labelParams: (l.label ? { name: l.label } : {}) as Record<string, string>,
      range: levelRange(config, i),
      penalty: numeric ? eff[i] : null,
      effectKey: numeric ? "" : `FUDGE.Effect.${l.effect}`,
      circled: false,
      boxes,
    };
  });
  return { kind: "box", label: config.label, rows, status: status(config, state) };
}

/** The JSON of [rows, stun, dead] (each row its marks joined by ","), built without the intermediate arrays (the forecast keys every state by it). */
function stateKey(config: BoxTrackConfig, state: BoxTrackState): string {
  // The JSON of the marks' levels row by row, the stun and the dead flag, written directly: level
  // keys are words (KEY_RE) and stun effects and rounds are words and integers, so nothing needs
  // JSON's escaping. The duel forecast builds one key per new track state.
  let key = "[[";
  for (let i = 0; i < config.levels.length; i++) {
    const row = state.marks[config.levels[i].key];
    key += i > 0 ? ',"' : '"';
    for (let j = 0; j < row.length; j++) {
      const x = row[j];
      if (j > 0) key += ",";
      if (x !== null) key += x.stun ? `~${x.level}` : x.level;
    }
    key += '"';
  }
  const stun = state.stun ? `["${state.stun.effect}",${state.stun.rounds}]` : "null";
  return `${key}],${stun},${state.dead}]`;
}

/**
 * Takes one (non-stun) wound of this real level off the track (endBattle, Fudge §4.52 (4)): the
 * mark placed worst (an overflowed one before one in its own box); null when there is none or
 * the character is dead.
 */
function removeWound(config: BoxTrackConfig, state: BoxTrackState, level: string): BoxTrackState | null {
  if (isDead(config, state)) return null;
  for (let i = config.levels.length - 1; i >= 0; i--) {
    const row = state.marks[config.levels[i].key];
    for (let j = row.length - 1; j >= 0; j--) {
      const m = row[j];
      if (m === null || m.stun || m.level !== level) continue;
      const next = cloneState(state);
      next.marks[config.levels[i].key][j] = null;
      return next;
    }
  }
  return null;
}

/**
 * Two levels one adjustment apart (endBattle; Fudge §4.52 "one wound *level*, or simply one damage
 * point"): next to each other on the track, or next to each other among the levels a damage number
 * reaches — one point moves the number past one threshold at most (§4.55), so it may pass over a
 * level without a number. "dead" counts where the track has a number for it (Miniatures: Dead 9+).
 */
function oneLevelApart(config: BoxTrackConfig, from: string, to: string): boolean {
  const all = config.levels.map((l) => l.key);
  const numbered = config.levels.filter((l) => l.min !== null).map((l) => l.key);
  if (config.deadAt !== null && !all.includes("dead")) {
    all.push("dead");
    numbered.push("dead");
  }
  return nextTo(all, from, to) || nextTo(numbered, from, to);
}

/** Whether two levels stand next to each other in `keys` (mildest first). */
export function nextTo(keys: readonly string[], from: string, to: string): boolean {
  const i = keys.indexOf(from);
  const j = keys.indexOf(to);
  return i >= 0 && j >= 0 && Math.abs(i - j) === 1;
}

export const boxTrack: TrackKind<BoxTrackConfig, BoxTrackState, BoxWound, BoxHealing> = {
  kind: "box",
  parseConfig,
  parseState,
  parseWound,
  parseHealing,
  initial,
  apply,
  status,
  heal,
  toggle,
  render,
  stateKey,
  removeWound,
  oneLevelApart,
  levelName,
  stunInForce: (_config, state) => stunSnapshot(state),
};
