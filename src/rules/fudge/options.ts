/**
 * World options of the `fudge` preset (Foundry settings). Every option has a default, so an
 * empty object (or none at all) is a valid options value. Defaults are what the Fudge text
 * suggests (RULES.md: "where a seed says the GM decides, the default is the value the text
 * suggests"); the choices the texts leave open are listed in docs/rules-api/fudge.md.
 */
import { parseDiceOption, type DiceOption } from "../dice-options";
import { RulesError } from "../errors";
import { DEFAULT_LADDER, parseLadder, type Ladder } from "../ladder";
import { array, at, boolField, int, oneOf, oneOfField, record, type Path, type Raw } from "../validate";
import { rejectUnknown } from "../validate";

export const DAMAGE_ROLLS = ["none", "dfNumber", "dfLevel", "evenOdd", "situational4dF"] as const;
export type DamageRollOption = (typeof DAMAGE_ROLLS)[number];

export const WOUND_MODES = ["factors", "minMidMax", "gmJudgement"] as const;
export type WoundMode = (typeof WOUND_MODES)[number];

export const DC_VARIANTS = ["factor", "roll", "gift", "track", "willpower"] as const;
export type DcVariant = (typeof DC_VARIANTS)[number];

export const DC_ADJUSTS = ["level", "point"] as const;
export type DcAdjust = (typeof DC_ADJUSTS)[number];

/** Fudge §4.52 (4): how long the Willpower adjustment lasts ("temporary - until the battle is over - or … permanent"). */
export const WILLPOWER_ADJUSTMENTS = ["permanent", "untilBattleEnds"] as const;
export type WillpowerAdjustment = (typeof WILLPOWER_ADJUSTMENTS)[number];

export const GRAZE_SCALE_RAISES = ["perPoint", "one", "none"] as const;
export type GrazeScaleRaise = (typeof GRAZE_SCALE_RAISES)[number];

export const MMM_DICE = ["min", "mid", "max"] as const;
export type MinMidMaxDie = (typeof MMM_DICE)[number];

/** One row of the graze table: a total damage factor of `min` or more grazes for `level` (null = Undamaged). */
export interface GrazeRow {
  min: number;
  level: string | null;
}

/** One row of the Min-Mid-Max reading table: a total bonus of `min` or more reads `die` + `add`. */
export interface MinMidMaxRow {
  min: number;
  die: MinMidMaxDie;
  add: number;
}

export interface FudgeOptions {
  /** Fudge §4.54 note: −1 on each muscle-powered weapon type (not on sharpness). */
  lessLethal: boolean;
  /** Fudge §4.55: damage number = 2 × RD + factor (use the double threshold table on the track). */
  doubleRd: boolean;
  graze: {
    /** Fudge §4.56 sample graze severity table, rows by ascending `min`; below the first row: Undamaged. */
    table: GrazeRow[];
    /**
     * Fudge §4.56 "plus any Scale difference … it should be minimized for such a narrow victory":
     * how a positive Scale difference raises a graze. Default "one" (one level for any positive
     * difference: the giant's glancing blow "might inflict a Very Hurt result, but not
     * necessarily Incapacitate"); "perPoint" raises one level per point of difference.
     */
    scaleRaise: GrazeScaleRaise;
  };
  /** Fudge §4.61 damage die roll. */
  damageRoll: DamageRollOption;
  /** Fudge §4.56: whether the damage roll also applies to grazes (then by at most one level). */
  grazeDamageRoll: boolean;
  /** Fudge §4.55 (factors / GM judgement) or §4.63 (Min-Mid-Max). */
  woundMode: WoundMode;
  minMidMax: {
    /** Fudge §4.63: bonus −2 (instead of −1) for a damage factor of −5 or worse (optional). */
    severeNegative: boolean;
    /** Total bonus → die read. The default is this system's own (the texts give no mapping). */
    table: MinMidMaxRow[];
  };
  /** Fudge §4.55: roll a Situational 4dF after the GM picks the level (GM judgement mode). */
  gmSituationalRoll: boolean;
  /** Fudge §4.52 / §4.57: how Damage Capacity works. */
  dcVariant: DcVariant;
  /** Fudge §4.52: DC roll / gift adjustments are one wound level or one damage point. */
  dcAdjust: DcAdjust;
  /** Ladder used to name rolled degrees (FUDGE.Ladder.*). */
  ladder: Ladder;
  /** Fudge §4.31: −1 to the side whose weapon + shield is 2 or more lower than the other's (melee). */
  weaponShieldMismatch: boolean;
  /** Fudge §4.58: a 1dF damage roll when Scale alone stands between a Scratch and no damage (+1: Scratch). */
  scaleDamageRoll: boolean;
  /** Fudge §4.58: a critical success (attack dice +4) lets one point through: at least a Scratch. */
  criticalLetsPointThrough: boolean;
  /** Fudge §4.62 GM option: a stun blow to the head of Good or better knocks out. */
  headBlowKnockout: boolean;
  /** Fudge §4.51: a Willpower roll against this Difficulty eases a wound penalty for the roll (null: off). */
  willpowerVsPenalty: { difficulty: number } | null;
  /** Fudge §4.52 (4), `dcVariant: "willpower"`: the adjustment is permanent, or lapses when the battle is over. */
  willpowerAdjustment: WillpowerAdjustment;
  /**
   * Fudge §3.21–3.22: the dice every four-Fudge-dice roll of an attack is thrown with (the opposed
   * roll, a Damage Capacity or Willpower roll, the situational roll); undefined: 4dF (left out of
   * the parsed request's JSON, as before the option).
   */
  dice: DiceOption | undefined;
}

/** Fudge §4.56 sample graze severity table: <0 Undamaged, 0–4 Scratch, 5+ Hurt. */
export const DEFAULT_GRAZE_TABLE: readonly GrazeRow[] = [
  { min: 0, level: "scratch" },
  { min: 5, level: "hurt" },
];

/**
 * Min-Mid-Max reading table (Fudge §4.63 gives the bonuses but not how a bonus turns into a die
 * read): THIS SYSTEM'S OWN default. Bonus ≤ −2 → lowest die − 1; −1 → lowest; 0 → median;
 * +1 → highest; +2 → highest + 1; +3 or more → highest + 2.
 */
export const DEFAULT_MIN_MID_MAX_TABLE: readonly MinMidMaxRow[] = [
  { min: -2, die: "min", add: -1 },
  { min: -1, die: "min", add: 0 },
  { min: 0, die: "mid", add: 0 },
  { min: 1, die: "max", add: 0 },
  { min: 2, die: "max", add: 1 },
  { min: 3, die: "max", add: 2 },
];

/** Fresh copies of the default tables (a caller may keep and change its options). */
const defaultGrazeTable = (): GrazeRow[] => DEFAULT_GRAZE_TABLE.map((r) => ({ min: r.min, level: r.level }));
const defaultMinMidMaxTable = (): MinMidMaxRow[] =>
  DEFAULT_MIN_MID_MAX_TABLE.map((r) => ({ min: r.min, die: r.die, add: r.add }));

/**
 * Fudge §4.55: with the double relative degree "the numbers above the wound levels should be
 * adjusted" (1-3 4-6 7-9 10-12 13+). Only the factor system doubles RD: Min-Mid-Max (§4.63) reads
 * its die "compared with the standard thresholds" (the option is not used there), and in GM
 * judgement no number is read. So the doubled thresholds go with `doubleRd` in `factors` mode only.
 */
export function usesDoubledThresholds(o: Pick<FudgeOptions, "doubleRd" | "woundMode">): boolean {
  return o.doubleRd && o.woundMode === "factors";
}

export function defaultFudgeOptions(): FudgeOptions {
  return defaultsWith(defaultGrazeTable(), defaultMinMidMaxTable());
}

/** The default options around the given default tables. */
function defaultsWith(grazeTable: GrazeRow[], minMidMaxTable: MinMidMaxRow[]): FudgeOptions {
  return {
    lessLethal: false,
    doubleRd: false,
    graze: { table: grazeTable, scaleRaise: "one" },
    damageRoll: "none",
    grazeDamageRoll: false,
    woundMode: "factors",
    minMidMax: { severeNegative: false, table: minMidMaxTable },
    gmSituationalRoll: false,
    dcVariant: "factor",
    dcAdjust: "level",
    ladder: DEFAULT_LADDER,
    weaponShieldMismatch: false,
    scaleDamageRoll: false,
    criticalLetsPointThrough: false,
    headBlowKnockout: false,
    willpowerVsPenalty: null,
    willpowerAdjustment: "permanent",
    dice: undefined,
  };
}

const KNOWN_OPTIONS = [
  "lessLethal",
  "doubleRd",
  "graze",
  "damageRoll",
  "grazeDamageRoll",
  "woundMode",
  "minMidMax",
  "gmSituationalRoll",
  "dcVariant",
  "dcAdjust",
  "ladder",
  "weaponShieldMismatch",
  "scaleDamageRoll",
  "criticalLetsPointThrough",
  "headBlowKnockout",
  "willpowerVsPenalty",
  "willpowerAdjustment",
  "dice",
] as const;

const GRAZE_ROW_FIELDS = ["min", "level"];
const MMM_ROW_FIELDS = ["min", "die", "add"];
const GRAZE_FIELDS = ["table", "scaleRaise"] as const;
const MMM_FIELDS = ["severeNegative", "table"] as const;
const WILLPOWER_FIELDS = ["difficulty"];

/** Rows must run by strictly ascending `min`. */
function checkAscending(rows: { min: number }[], path: Path): void {
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].min <= rows[i - 1].min)
      throw new RulesError(
        at(at(path, i), "min"),
        "FUDGE.Error.Fudge.TableOrder",
        "rows must be in strictly ascending order of min",
      );
  }
}

export function parseGrazeTable(input: unknown, path: Path): GrazeRow[] {
  const rows = array(input, path, 1, 20).map((r, i) => {
    const p = at(path, i);
    const o = record(r, p);
    rejectUnknown(o, GRAZE_ROW_FIELDS, p);
    const level = o.level;
    if (level !== null && (typeof level !== "string" || level === ""))
      throw new RulesError(at(p, "level"), "FUDGE.Error.NotString", "must be a wound level key or null (Undamaged)");
    return { min: int(o.min, at(p, "min"), -100, 100), level: level === "undamaged" ? null : (level as string | null) };
  });
  checkAscending(rows, path);
  return rows;
}

export function parseMinMidMaxTable(input: unknown, path: Path): MinMidMaxRow[] {
  const rows = array(input, path, 1, 20).map((r, i) => {
    const p = at(path, i);
    const o = record(r, p);
    rejectUnknown(o, MMM_ROW_FIELDS, p);
    return {
      min: int(o.min, at(p, "min"), -100, 100),
      die: oneOf(o.die, at(p, "die"), MMM_DICE),
      add: int(o.add ?? 0, at(p, "add"), -20, 20),
    };
  });
  checkAscending(rows, path);
  return rows;
}

/** Parses world options; anything omitted takes its default. */
export function parseFudgeOptions(input: unknown, path: Path = "options"): FudgeOptions {
  // Fields read by name (see validate.ts), paths built only for an error; the defaults are
  // defaultFudgeOptions()'s, checked against it in tests/rules/fudge-factors.test.ts. A default
  // table is a fresh list of shared, frozen rows (a parsed request is an immutable value).
  // No options at all: the defaults, built at once (no field to read or refuse).
  if (input === undefined || input === null) return defaultsWith(SHARED_GRAZE_ROWS.slice(), SHARED_MMM_ROWS.slice());
  const o = record(input, path) as Raw<(typeof KNOWN_OPTIONS)[number]>;
  rejectUnknown(o, KNOWN_OPTIONS, path);
  // Absent sub-objects read as empty ones (shared: nothing is built for them); their paths are
  // built only when they are given (an absent one has no field to refuse).
  const gp = o.graze === undefined ? path : at(path, "graze");
  const graze = (o.graze === undefined ? NO_OPTIONS : record(o.graze, gp)) as Raw<(typeof GRAZE_FIELDS)[number]>;
  rejectUnknown(graze, GRAZE_FIELDS, gp);
  const mp = o.minMidMax === undefined ? path : at(path, "minMidMax");
  const mmm = (o.minMidMax === undefined ? NO_OPTIONS : record(o.minMidMax, mp)) as Raw<(typeof MMM_FIELDS)[number]>;
  rejectUnknown(mmm, MMM_FIELDS, mp);
  return {
    lessLethal: boolField(o.lessLethal, path, "lessLethal", false),
    doubleRd: boolField(o.doubleRd, path, "doubleRd", false),
    graze: {
      table: graze.table === undefined ? SHARED_GRAZE_ROWS.slice() : parseGrazeTable(graze.table, at(gp, "table")),
      scaleRaise: oneOfField(graze.scaleRaise, gp, "scaleRaise", GRAZE_SCALE_RAISES, "one"),
    },
    damageRoll: oneOfField(o.damageRoll, path, "damageRoll", DAMAGE_ROLLS, "none"),
    grazeDamageRoll: boolField(o.grazeDamageRoll, path, "grazeDamageRoll", false),
    woundMode: oneOfField(o.woundMode, path, "woundMode", WOUND_MODES, "factors"),
    minMidMax: {
      severeNegative: boolField(mmm.severeNegative, mp, "severeNegative", false),
      table: mmm.table === undefined ? SHARED_MMM_ROWS.slice() : parseMinMidMaxTable(mmm.table, at(mp, "table")),
    },
    gmSituationalRoll: boolField(o.gmSituationalRoll, path, "gmSituationalRoll", false),
    dcVariant: oneOfField(o.dcVariant, path, "dcVariant", DC_VARIANTS, "factor"),
    dcAdjust: oneOfField(o.dcAdjust, path, "dcAdjust", DC_ADJUSTS, "level"),
    ladder: o.ladder === undefined || o.ladder === null ? DEFAULT_LADDER : parseLadder(o.ladder, at(path, "ladder")),
    weaponShieldMismatch: boolField(o.weaponShieldMismatch, path, "weaponShieldMismatch", false),
    scaleDamageRoll: boolField(o.scaleDamageRoll, path, "scaleDamageRoll", false),
    criticalLetsPointThrough: boolField(o.criticalLetsPointThrough, path, "criticalLetsPointThrough", false),
    headBlowKnockout: boolField(o.headBlowKnockout, path, "headBlowKnockout", false),
    willpowerVsPenalty:
      o.willpowerVsPenalty === undefined || o.willpowerVsPenalty === null || o.willpowerVsPenalty === false
        ? null
        : parseWillpowerVsPenalty(o.willpowerVsPenalty, at(path, "willpowerVsPenalty")),
    willpowerAdjustment: oneOfField(
      o.willpowerAdjustment,
      path,
      "willpowerAdjustment",
      WILLPOWER_ADJUSTMENTS,
      "permanent",
    ),
    dice: parseFudgeDice(o.dice, path),
  };
}

/** The dice option (src/rules/dice-options.ts): `"4dF"`, absent or null are the default (undefined). */
function parseFudgeDice(input: unknown, path: Path): DiceOption | undefined {
  if (input === undefined || input === null || input === "4dF") return undefined;
  const option = parseDiceOption(input, at(path, "dice"));
  return option.id === "4dF" ? undefined : option;
}

const NO_OPTIONS: Record<string, unknown> = Object.freeze({});
const SHARED_GRAZE_ROWS: readonly GrazeRow[] = defaultGrazeTable().map((r) => Object.freeze(r));
const SHARED_MMM_ROWS: readonly MinMidMaxRow[] = defaultMinMidMaxTable().map((r) => Object.freeze(r));

function parseWillpowerVsPenalty(input: unknown, path: Path): { difficulty: number } | null {
  if (input === undefined || input === null || input === false) return null;
  const o = record(input, path);
  rejectUnknown(o, WILLPOWER_FIELDS, path);
  return { difficulty: int(o.difficulty ?? 0, at(path, "difficulty"), -10, 10) };
}
