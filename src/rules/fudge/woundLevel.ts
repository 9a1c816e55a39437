/**
 * Wound levels as the defender's track knows them. A box track (Fudge §4.57) carries its own
 * levels and thresholds; a Damage-Capacity track (Fudge §4.57, first method) names the wound with
 * the standard levels and its own thresholds (§4.55, doubled with the double-RD option), and then
 * records it its own way.
 */
import { RulesError } from "../errors";
import type { Track } from "../track";
import { DEFAULT_THRESHOLDS, levelForDamage, type BoxTrackConfig } from "./box-track";
import { DC_WOUND_LEVELS, dcLevelForDamage, type DcTrackConfig } from "./dc-track";
import type { Path } from "../validate";
import type { GrazeRow } from "./options";

export interface LevelScale {
  /** Level keys from the least to the most severe. */
  keys: string[];
  /** Threshold lookup of a positive damage number (Fudge §4.55). */
  lookup: (damageNumber: number) => string | null;
  kind: "box" | "dc";
}

/** Level keys mildest first; a track with a number for Dead (deadAt) ends with "dead" (Miniatures: Dead 9+). */
function keysOf(config: BoxTrackConfig): string[] {
  const keys = config.levels.map((l) => l.key);
  if (config.deadAt !== null && !keys.includes("dead")) keys.push("dead");
  return keys;
}

const STANDARD_KEYS = ["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"];
const sameMins = (a: readonly (number | null)[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Fudge §4.55 double relative degree: "The numbers above the wound levels should be adjusted in
 * this case: 1-3 4-6 7-9 10-12 13+". A track that still carries the single-RD defaults
 * (1,2 3,4 5,6 7,8 9+) is read with the doubled ones whenever the option is on; a track with
 * thresholds of its own (custom, or edited by the GM) keeps them.
 */
function doubledBox(config: BoxTrackConfig): BoxTrackConfig | null {
  const std = config.levels.filter((l) => STANDARD_KEYS.includes(l.key));
  if (
    std.length !== STANDARD_KEYS.length ||
    !sameMins(
      std.map((l) => l.min),
      DEFAULT_THRESHOLDS.single,
    )
  )
    return null;
  return {
    ...config,
    levels: config.levels.map((l) => {
      const i = STANDARD_KEYS.indexOf(l.key);
      return i < 0 ? l : { ...l, min: DEFAULT_THRESHOLDS.double[i] };
    }),
  };
}

/** The wound levels and thresholds used against a defender's track (`doubleRd`: Fudge §4.55 option on). */
export function levelScaleFor(track: Track, path: Path, doubleRd = false): LevelScale {
  const kind = track.config.kind;
  if (kind === "box") {
    const given = track.config as unknown as BoxTrackConfig;
    const config = (doubleRd && doubledBox(given)) || given;
    return { keys: keysOf(config), lookup: (n) => levelForDamage(config, n), kind: "box" };
  }
  if (kind === "dc") {
    // Fudge §4.57: the DC track names wounds by the standard levels; "dead" only by overflow of DC.
    const given = track.config as unknown as DcTrackConfig;
    // Fudge §4.55: the doubled thresholds whenever the option is on (unless the track has its own).
    const config =
      doubleRd && sameMins(given.thresholds, DEFAULT_THRESHOLDS.single)
        ? { ...given, thresholds: [...DEFAULT_THRESHOLDS.double] }
        : given;
    return {
      keys: DC_WOUND_LEVELS.filter((k) => k !== "dead"),
      lookup: (n) => dcLevelForDamage(config, n),
      kind: "dc",
    };
  }
  throw new RulesError(
    path,
    "FUDGE.Error.Fudge.TrackKind",
    `the fudge preset needs a "box" or "dc" track (got ${JSON.stringify(kind)})`,
    { kind: String(kind) },
  );
}

/** Severity index: −1 for no wound, 0 for the least severe level. */
export function severity(scale: LevelScale, key: string | null): number {
  return key === null ? -1 : scale.keys.indexOf(key);
}

/** Level at a severity index, clamped to the track (below the first level: no wound). */
export function levelAt(scale: LevelScale, index: number): string | null {
  if (index < 0) return null;
  return scale.keys[Math.min(index, scale.keys.length - 1)];
}

/**
 * One or more levels more (by > 0) or less (by < 0) severe. Below the least severe level there
 * is no wound; above the most severe the wound stays at the top: a shift never reaches Dead on
 * its own (Fudge §4.55 gives no number for Dead, "to prevent accidental PC death"); the track's
 * overflow rule (§4.57) still kills when no box is open.
 */
export function shiftBy(scale: LevelScale, key: string | null, by: number): string | null {
  if (by === 0) return key;
  if (key === null && by < 0) return null;
  return levelAt(scale, severity(scale, key) + by);
}

/** Checks that a level key exists on the scale (named in an error otherwise). */
export function checkLevel(scale: LevelScale, key: string, path: Path): string {
  if (!scale.keys.includes(key))
    throw new RulesError(
      path,
      "FUDGE.Error.Fudge.UnknownLevel",
      `unknown wound level ${JSON.stringify(key)} (track levels: ${scale.keys.join(", ")})`,
      {
        level: key,
        known: scale.keys.join(", "),
      },
    );
  return key;
}

/** Fudge §4.55: the damage number looked up in the threshold table; 0 or less is no damage. */
export function levelForNumber(scale: LevelScale, damageNumber: number): string | null {
  if (damageNumber <= 0) return null;
  return scale.lookup(damageNumber);
}

/**
 * "At least Hurt" (Fudge §4.52 DC roll): the level is Hurt or worse; on a track without a
 * "hurt" level, anything worse than the least severe level.
 */
export function atLeastHurt(scale: LevelScale, key: string | null): boolean {
  if (key === null) return false;
  const hurt = scale.keys.indexOf("hurt");
  return severity(scale, key) >= (hurt >= 0 ? hurt : 1);
}

/**
 * A standard level (Fudge §4.51: Scratch, Hurt, Very Hurt, Incapacitated, Near Death) named by the
 * world's graze table, read on the defender's track. A track without it — a custom track whose GM
 * expanded "Hurt and Very Hurt to Light Wound, Moderate Wound and Severe Wound" (§4.51) — takes its
 * level at the same place, mildest first (Hurt → the track's second level), clamped to its worst
 * level: one world table serves every actor's track. **Choice** (the texts are silent).
 */
export function levelOnTrack(scale: LevelScale, key: string | null): string | null {
  if (key === null || scale.keys.includes(key)) return key;
  const i = STANDARD_KEYS.indexOf(key);
  return i < 0 ? key : levelAt(scale, i);
}

/** True for the standard level keys (Fudge §4.51), which every track can read (levelOnTrack). */
export const isStandardLevel = (key: string): boolean => STANDARD_KEYS.includes(key);

/** Fudge §4.56 graze severity table: the last row whose `min` the factor reaches; below the first row, Undamaged. */
export function grazeTableLevel(table: readonly GrazeRow[], factor: number): string | null {
  let level: string | null = null;
  for (const row of table) if (factor >= row.min) level = row.level;
  return level;
}
