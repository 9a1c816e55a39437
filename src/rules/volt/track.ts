/**
 * Volt 4.0 wound rows (seed 001, RULES.md §5): one circle per row, numbered from 1 at the bottom.
 * A wound of Damage N marks row N with an Injury "|" or a Stun "−"; a Stun under an Injury
 * becomes "+". Penalties come from the Willpower table, written downward from the top penalty
 * row (row 10 for ordinary humans, moved by Tough / Fragile).
 *
 * Registered as track kind "volt". Pure: every function returns new state.
 */
import { RulesError } from "../errors";
import { step, signed, type Step } from "../explain";
import {
  type ApplyResult,
  type Condition,
  type RenderRow,
  type TrackKind,
  type TrackRender,
  type TrackStatus,
} from "../track-kind";
import { array, at, bool, int, oneOf, optInt, record, str, type Path } from "../validate";
import { voltRoll, type VoltRollResult } from "./roll";

export const VOLT_RULE = {
  rolls: "Volt: Rolls",
  marking: "Volt: Marking Wounds",
  damageRoll: "Volt: The damage roll",
  effects: "Volt: The Immediate Effects",
  death: "Volt: Death and Dying",
  recovery: "Volt: Recovery",
  sheet: "Volt: Wound rows",
} as const;

/** "x" = the character cannot act when the highest mark is on this row. */
export type VoltPenaltyEntry = number | "x";

export interface VoltWillRow {
  minWill: number;
  /** Inclusive; Infinity for "12+". */
  maxWill: number;
  /** Penalties from the top penalty row downward (positive numbers, shown as −n). */
  penalties: readonly VoltPenaltyEntry[];
}

/**
 * Volt: Wound rows — the Willpower table. Will 1–3 is not in the table: they use the Will 0 row
 * (the nearest lower entry; documented choice).
 */
export const VOLT_WILL_TABLE: readonly VoltWillRow[] = [
  { minWill: 0, maxWill: 3, penalties: ["x", "x", 5, 5, 4, 4, 3, 3, 2, 2] },
  { minWill: 4, maxWill: 5, penalties: ["x", 5, 5, 4, 4, 3] },
  { minWill: 6, maxWill: 7, penalties: [5, 5, 4, 4, 3] },
  { minWill: 8, maxWill: 8, penalties: [5, 4, 3, 3] },
  { minWill: 9, maxWill: 9, penalties: [4, 4, 3, 2] },
  { minWill: 10, maxWill: 10, penalties: [4, 3, 3] },
  { minWill: 11, maxWill: 11, penalties: [4, 2, 2] },
  { minWill: 12, maxWill: Infinity, penalties: [4, 2] },
];

export function voltWillPenalties(willpower: number): readonly VoltPenaltyEntry[] {
  const row = VOLT_WILL_TABLE.find((r) => willpower >= r.minWill && willpower <= r.maxWill);
  if (!row)
    throw new RulesError("willpower", "FUDGE.Error.OutOfRange", `no Willpower row for ${willpower}`, {
      value: willpower,
    });
  return row.penalties;
}

/** The top penalty row of an ordinary human (Volt: Wound rows). */
export const VOLT_HUMAN_TOP_ROW = 10;
export const VOLT_TOUGH_MIN = -9;
export const VOLT_TOUGH_MAX = 20;
export const VOLT_MAX_ROWS = 100;
/** The highest row a wound may name (a damage roll's result can lie above the sheet: it is then clamped to the top row). */
export const VOLT_MAX_WOUND_ROW = 999;

export interface VoltTrackConfig {
  kind: "volt";
  label: string;
  willpower: number;
  /** Tough steps (negative = Fragile). */
  tough: number;
  /** Rows drawn, from 1 up; at least top + 6 so that a killing Injury has a row. */
  rows: number;
}

/** "injuryOnStun" is the "+": an Injury that replaced a Stun; it counts as Injury. */
export type VoltMark = "injury" | "stun" | "injuryOnStun";
export const VOLT_MARKS: readonly VoltMark[] = ["injury", "stun", "injuryOnStun"];
export const VOLT_MARK_GLYPH: Record<VoltMark, string> = { injury: "|", stun: "\u2212", injuryOnStun: "+" };

export interface VoltTrackState {
  /** Marked rows by row number ("12": "injury"); empty rows are absent. */
  marks: Record<string, VoltMark>;
}

export type VoltWoundType = "injury" | "stun";

export type VoltWound =
  | { row: number; type: VoltWoundType }
  /** A failed damage roll: the lowest unmarked row, unless it is above `damage`. */
  | { failedRoll: true; damage: number; type: VoltWoundType };

export type VoltHealing =
  | { type: "recover"; result: "success" | "failure" }
  | { type: "rest" }
  | { type: "injuryRecovery"; black: number; white: number; strength: number; medical: number }
  | { type: "box"; ref: string };

export const VOLT_RECOVERY_INTERVALS = ["monthly", "weekly", "nightly"] as const;
export type VoltRecoveryInterval = (typeof VOLT_RECOVERY_INTERVALS)[number];

// ---------------------------------------------------------------------------------------------
// Sheet geometry

export interface VoltGeometry {
  rows: number;
  /** Top penalty row: 10 + Tough (Volt: Wound rows). */
  top: number;
  /** Rows 1..blacked are blacked out (one per Tough step). */
  blacked: number;
  /** The 2nd and 4th rows from the top. */
  circled: number[];
  penalties: readonly VoltPenaltyEntry[];
  /** Worst numeric penalty of the table (as a positive number). */
  worst: number;
}

export function voltGeometry(config: VoltTrackConfig): VoltGeometry {
  const top = VOLT_HUMAN_TOP_ROW + config.tough; // Volt: Tough / Fragile raise or lower the top row
  const penalties = voltWillPenalties(config.willpower);
  const worst = Math.max(...penalties.filter((p): p is number => typeof p === "number"));
  return {
    rows: config.rows,
    top,
    blacked: Math.max(0, config.tough), // Volt: each Tough step blacks out one circle at the bottom
    circled: [top - 1, top - 3].filter((r) => r >= 1), // Volt: Death and Dying — 2nd and 4th rows
    penalties,
    worst,
  };
}

/** The penalty entry of a row: "above" the top row, a table entry, or 0 below the penalty rows. */
export function voltRowPenalty(g: VoltGeometry, row: number): VoltPenaltyEntry | "above" {
  if (row > g.top) return "above";
  const i = g.top - row;
  return i < g.penalties.length ? g.penalties[i] : 0;
}

const isInjury = (m: VoltMark | undefined): boolean => m === "injury" || m === "injuryOnStun";

function markedRows(state: VoltTrackState): number[] {
  return Object.keys(state.marks)
    .map(Number)
    .sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Parsing

export function defaultVoltRows(tough: number): number {
  return Math.max(20, VOLT_HUMAN_TOP_ROW + tough + 6);
}

function parseConfig(input: unknown, path: Path): VoltTrackConfig {
  const o = record(input, path);
  oneOf(o.kind, at(path, "kind"), ["volt"] as const);
  const label = str(o.label, at(path, "label"), "FUDGE.Volt.Track.Label");
  const willpower = int(o.willpower, at(path, "willpower"), 0, 99);
  const tough = optInt(o.tough, at(path, "tough"), 0, VOLT_TOUGH_MIN, VOLT_TOUGH_MAX);
  const top = VOLT_HUMAN_TOP_ROW + tough;
  const rows = optInt(o.rows, at(path, "rows"), defaultVoltRows(tough), top + 6, VOLT_MAX_ROWS);
  return { kind: "volt", label, willpower, tough, rows };
}

function parseState(config: VoltTrackConfig, input: unknown, path: Path): VoltTrackState {
  const o = record(input, path);
  const marksIn = record(o.marks ?? {}, at(path, "marks"));
  const g = voltGeometry(config);
  const marks: Record<string, VoltMark> = {};
  for (const [key, v] of Object.entries(marksIn)) {
    const p = at(at(path, "marks"), key);
    if (!/^[1-9][0-9]*$/.test(key))
      throw new RulesError(p, "FUDGE.Volt.Error.BadRow", `"${key}" is not a row number`, { row: key });
    const row = Number(key);
    if (row > g.rows)
      throw new RulesError(p, "FUDGE.Error.OutOfRange", `row ${row} is above the ${g.rows} rows of the sheet`, {
        min: 1,
        max: g.rows,
        value: row,
      });
    if (row <= g.blacked)
      throw new RulesError(p, "FUDGE.Volt.Error.BlackedRow", `row ${row} is blacked out (Tough)`, { row });
    marks[String(row)] = oneOf(v, p, VOLT_MARKS);
  }
  return { marks };
}

function parseOneWound(input: unknown, path: Path): VoltWound {
  const o = record(input, path);
  const type = oneOf(o.type, at(path, "type"), ["injury", "stun"] as const);
  if (o.failedRoll !== undefined && bool(o.failedRoll, at(path, "failedRoll"))) {
    if (o.row !== undefined)
      throw new RulesError(at(path, "row"), "FUDGE.Volt.Error.RowWithFailedRoll", "a failed damage roll has no row");
    return { failedRoll: true, damage: int(o.damage, at(path, "damage"), -99, VOLT_MAX_WOUND_ROW), type };
  }
  return { row: int(o.row, at(path, "row"), 1, VOLT_MAX_WOUND_ROW), type };
}

/** A wound, or a list of wounds applied in order (a stun weapon's Full Hit deals two). */
function parseWound(_config: VoltTrackConfig, input: unknown, path: Path): VoltWound[] {
  if (Array.isArray(input)) return array(input, path, 1, 10).map((w, i) => parseOneWound(w, at(path, i)));
  return [parseOneWound(input, path)];
}

function parseHealing(_config: VoltTrackConfig, input: unknown, path: Path): VoltHealing {
  const o = record(input, path);
  const type = oneOf(o.type, at(path, "type"), ["recover", "rest", "injuryRecovery", "box"] as const);
  switch (type) {
    case "recover":
      return { type, result: oneOf(o.result, at(path, "result"), ["success", "failure"] as const) };
    case "rest":
      return { type };
    case "injuryRecovery":
      return {
        type,
        black: int(o.black, at(path, "black"), 1, 20),
        white: int(o.white, at(path, "white"), 1, 20),
        strength: int(o.strength, at(path, "strength"), 0, 99),
        medical: optInt(o.medical, at(path, "medical"), 0, 0, 99),
      };
    case "box":
      return { type, ref: str(o.ref, at(path, "ref")) };
  }
}

function rowOfRef(config: VoltTrackConfig, ref: string, path: Path): number {
  const m = /^row-([1-9][0-9]*)$/.exec(ref);
  const row = m ? Number(m[1]) : NaN;
  if (!m || row > config.rows)
    throw new RulesError(
      path,
      "FUDGE.Volt.Error.BadRef",
      `"${ref}" is not a row of this sheet (row-1 … row-${config.rows})`,
      { ref },
    );
  return row;
}

// ---------------------------------------------------------------------------------------------
// Marking

function initial(_config: VoltTrackConfig): VoltTrackState {
  return { marks: {} };
}

/** Volt: Marking Wounds — nearest empty row to `row`; if two are equally close, the higher. */
function nearestEmpty(g: VoltGeometry, marks: Record<string, VoltMark>, row: number): number | null {
  const free = (r: number): boolean => r > g.blacked && r >= 1 && r <= g.rows && marks[String(r)] === undefined;
  for (let d = 1; d <= g.rows; d++) {
    if (free(row + d)) return row + d;
    if (free(row - d)) return row - d;
  }
  return null;
}

/** Lowest unmarked row (blacked-out circles are not markable, so they do not count). */
function lowestUnmarked(g: VoltGeometry, marks: Record<string, VoltMark>): number | null {
  for (let r = g.blacked + 1; r <= g.rows; r++) if (marks[String(r)] === undefined) return r;
  return null;
}

interface PlaceResult {
  marks: Record<string, VoltMark>;
  steps: Step[];
  ended: boolean;
  /** "marked" | "replaced" | "ignored" | "ended" */
  placement: string;
}

/** Put one mark on `row` with the collision rules of Volt: Marking Wounds. */
function placeOnRow(g: VoltGeometry, marks: Record<string, VoltMark>, row: number, type: VoltWoundType): PlaceResult {
  const steps: Step[] = [];
  let target = row;
  if (target > g.rows) {
    // Choice: the sheet has no higher row; rows ≥ top + 6, so the effect (dead / cannot act) is the same.
    steps.push(step("FUDGE.Volt.Step.BeyondSheet", VOLT_RULE.sheet, g.rows, { row, top: g.rows }));
    target = g.rows;
  }
  if (target <= g.blacked) {
    steps.push(step("FUDGE.Volt.Step.Blacked", VOLT_RULE.sheet, target, { row: target }));
    return { marks, steps, ended: false, placement: "ignored" };
  }
  const here = marks[String(target)];
  const next = { ...marks };
  if (here === undefined) {
    next[String(target)] = type;
    steps.push(step("FUDGE.Volt.Step.Marked", VOLT_RULE.marking, target, { row: target, mark: VOLT_MARK_GLYPH[type] }));
    return { marks: next, steps, ended: false, placement: "marked" };
  }
  if (here === "stun" && type === "injury") {
    // Volt: Marking Wounds — an Injury replaces a Stun: draw a "+"; it counts as Injury.
    next[String(target)] = "injuryOnStun";
    steps.push(step("FUDGE.Volt.Step.InjuryOnStun", VOLT_RULE.marking, target, { row: target, mark: "+" }));
    return { marks: next, steps, ended: false, placement: "replaced" };
  }
  // Volt: Marking Wounds — the row is taken (an Injury, or a Stun meeting a Stun): nearest empty row.
  const to = nearestEmpty(g, marks, target);
  if (to === null) {
    steps.push(step("FUDGE.Volt.Step.NoEmptyRow", VOLT_RULE.marking, target, { row: target }));
    return { marks, steps, ended: true, placement: "ended" };
  }
  next[String(to)] = type;
  steps.push(
    step("FUDGE.Volt.Step.Moved", VOLT_RULE.marking, to, { from: target, row: to, mark: VOLT_MARK_GLYPH[type] }),
  );
  return { marks: next, steps, ended: false, placement: "marked" };
}

function placeWound(g: VoltGeometry, marks: Record<string, VoltMark>, w: VoltWound): PlaceResult {
  if ("failedRoll" in w) {
    // Volt: The attack roll — a failed damage roll marks the lowest unmarked row, unless above the Damage.
    const low = lowestUnmarked(g, marks);
    if (low === null) {
      return {
        marks,
        steps: [step("FUDGE.Volt.Step.NoEmptyRow", VOLT_RULE.marking, g.rows, { row: g.rows })],
        ended: true,
        placement: "ended",
      };
    }
    if (low > w.damage) {
      return {
        marks,
        steps: [step("FUDGE.Volt.Step.FailedAboveDamage", VOLT_RULE.damageRoll, low, { row: low, damage: w.damage })],
        ended: false,
        placement: "ignored",
      };
    }
    const r = placeOnRow(g, marks, low, w.type);
    return {
      ...r,
      steps: [
        step("FUDGE.Volt.Step.FailedLowest", VOLT_RULE.damageRoll, low, { row: low, damage: w.damage }),
        ...r.steps,
      ],
    };
  }
  return placeOnRow(g, marks, w.row, w.type);
}

function apply(
  config: VoltTrackConfig,
  state: VoltTrackState,
  wounds: VoltWound[],
): ApplyResult<VoltTrackState> & { placements: string[] } {
  const g = voltGeometry(config);
  let marks = state.marks;
  const steps: Step[] = [];
  const placements: string[] = [];
  let ended = false;
  for (const w of wounds) {
    const r = placeWound(g, marks, w);
    marks = r.marks;
    steps.push(...r.steps);
    placements.push(r.placement);
    ended ||= r.ended;
  }
  const next = { marks };
  return { state: next, steps, status: status(config, next), ended, placements };
}

// ---------------------------------------------------------------------------------------------
// Effects

function status(config: VoltTrackConfig, state: VoltTrackState): TrackStatus {
  const g = voltGeometry(config);
  const rows = markedRows(state);
  if (rows.length === 0)
    return {
      penalty: 0,
      condition: "able",
      canAct: true,
      levelKey: null,
      effects: [],
      steps: [step("FUDGE.Volt.Step.Unhurt", VOLT_RULE.effects)],
    };
  const steps: Step[] = [];
  const high = rows[rows.length - 1];
  const entry = voltRowPenalty(g, high);
  let penalty: number;
  let cannotAct = false;
  if (entry === "above") {
    // Volt: The Immediate Effects — a mark above the worst penalty: unable to act.
    cannotAct = true;
    penalty = -g.worst;
    steps.push(step("FUDGE.Volt.Step.AboveTop", VOLT_RULE.effects, high, { row: high, top: g.top }));
  } else if (entry === "x") {
    cannotAct = true;
    penalty = -g.worst;
    steps.push(step("FUDGE.Volt.Step.CannotActRow", VOLT_RULE.effects, high, { row: high }));
  } else {
    // Volt: The Immediate Effects — the penalty of the highest Wound sustained.
    penalty = entry === 0 ? 0 : -entry;
    steps.push(step("FUDGE.Volt.Step.Penalty", VOLT_RULE.effects, penalty, { row: high, penalty: signed(penalty) }));
  }
  const injuries = rows.filter((r) => isInjury(state.marks[String(r)]));
  const highInjury = injuries.length ? injuries[injuries.length - 1] : 0;
  const dead = highInjury > g.top + 5; // Volt: Death and Dying — more than 5 rows above
  const dyingAbove = !dead && highInjury > g.top; // Volt: Death and Dying — dead in about an hour
  const circledInjury = injuries.filter((r) => g.circled.includes(r));
  let condition: Condition = cannotAct ? "cannotAct" : "able";
  const effects: string[] = [];
  if (dead) {
    condition = "dead";
    steps.push(step("FUDGE.Volt.Step.Dead", VOLT_RULE.death, highInjury, { row: highInjury, top: g.top }));
  } else if (dyingAbove) {
    condition = "dying";
    steps.push(step("FUDGE.Volt.Step.Dying", VOLT_RULE.death, highInjury, { row: highInjury, top: g.top }));
  } else if (circledInjury.length) {
    // Volt: Death and Dying — circled rows: dying, but capable of action for half an hour.
    condition = "dying";
    const row = circledInjury[circledInjury.length - 1];
    if (!cannotAct) effects.push("dyingCanAct");
    steps.push(
      step(cannotAct ? "FUDGE.Volt.Step.DyingCircledCannotAct" : "FUDGE.Volt.Step.DyingCanAct", VOLT_RULE.death, row, {
        row,
      }),
    );
  }
  const canAct = !cannotAct && !dead;
  const levelKey = condition === "dying" && canAct ? "dyingCanAct" : condition === "able" ? "wounded" : condition;
  return { penalty, condition, canAct, levelKey, effects, steps };
}

// ---------------------------------------------------------------------------------------------
// Healing

function highestWith(state: VoltTrackState, pred: (m: VoltMark) => boolean): number | null {
  const rows = markedRows(state).filter((r) => pred(state.marks[String(r)]));
  return rows.length ? rows[rows.length - 1] : null;
}

/** Volt: Recovery — the highest Injury ("+" counts), the value of the Injury recovery roll; null when there is none. */
export function highestInjury(state: VoltTrackState): number | null {
  return highestWith(state, isInjury);
}

function heal(
  config: VoltTrackConfig,
  state: VoltTrackState,
  h: VoltHealing,
): { state: VoltTrackState; steps: Step[]; roll?: VoltRollResult } {
  const g = voltGeometry(config);
  switch (h.type) {
    case "recover": {
      // Volt: Recovery — the Recover action requires being able to act; success clears the highest Stun.
      if (!status(config, state).canAct)
        return { state, steps: [step("FUDGE.Volt.Step.RecoverCannotAct", VOLT_RULE.recovery)] };
      if (h.result !== "success") return { state, steps: [step("FUDGE.Volt.Step.RecoverFailed", VOLT_RULE.recovery)] };
      const row = highestWith(state, (m) => m === "stun");
      if (row === null) return { state, steps: [step("FUDGE.Volt.Step.NoStun", VOLT_RULE.recovery)] };
      const marks = { ...state.marks };
      delete marks[String(row)];
      return { state: { marks }, steps: [step("FUDGE.Volt.Step.StunCleared", VOLT_RULE.recovery, row, { row })] };
    }
    case "rest": {
      // Volt: Recovery — a minute of rest clears all Stun ("+" counts as Injury and stays).
      const marks: Record<string, VoltMark> = {};
      let n = 0;
      for (const [k, m] of Object.entries(state.marks)) {
        if (m === "stun") n++;
        else marks[k] = m;
      }
      return { state: { marks }, steps: [step("FUDGE.Volt.Step.RestClearsStun", VOLT_RULE.recovery, n, { count: n })] };
    }
    case "box": {
      const row = rowOfRef(config, h.ref, "healing.ref");
      if (state.marks[String(row)] === undefined)
        return { state, steps: [step("FUDGE.Volt.Step.RowAlreadyEmpty", VOLT_RULE.sheet, row, { row })] };
      const marks = { ...state.marks };
      delete marks[String(row)];
      return { state: { marks }, steps: [step("FUDGE.Volt.Step.RowCleared", VOLT_RULE.sheet, row, { row })] };
    }
    case "injuryRecovery": {
      const high = highestWith(state, isInjury);
      if (high === null) return { state, steps: [step("FUDGE.Volt.Step.NoInjury", VOLT_RULE.recovery)] };
      const steps: Step[] = [];
      // Volt: Recovery — the highest Injury is the value; a successful medical roll lowers it for this roll.
      const value = high - h.medical;
      if (h.medical > 0)
        steps.push(
          step("FUDGE.Volt.Step.Medical", VOLT_RULE.recovery, value, { injury: high, medical: h.medical, value }),
        );
      const roll = voltRoll(value, h.black, h.white, "healing");
      steps.push(rollStep(roll, VOLT_RULE.recovery));
      if (roll.success && isInjury(state.marks[String(roll.result)])) {
        // Volt: Recovery — a result equal to an Injury: infected; mark it as a new Injury, no healing.
        steps.push(step("FUDGE.Volt.Step.Infected", VOLT_RULE.recovery, roll.result, { row: roll.result }));
        const r = placeOnRow(g, state.marks, roll.result, "injury");
        return { state: { marks: r.marks }, steps: [...steps, ...r.steps], roll };
      }
      if (roll.success && roll.result > h.strength) {
        // Volt: Recovery — a success higher than Strength: no healing this time.
        steps.push(
          step("FUDGE.Volt.Step.AboveStrength", VOLT_RULE.recovery, roll.result, {
            result: roll.result,
            strength: h.strength,
          }),
        );
        return { state, steps, roll };
      }
      // Volt: Recovery — the highest Injury drops five rows; Injuries along the way heal too.
      const to = high - 5;
      const marks = { ...state.marks };
      const healed: number[] = [];
      for (let r = Math.max(1, to); r <= high; r++) {
        if (isInjury(marks[String(r)])) {
          delete marks[String(r)];
          healed.push(r);
        }
      }
      steps.push(
        step("FUDGE.Volt.Step.InjuryDrops", VOLT_RULE.recovery, to, {
          from: high,
          row: Math.max(0, to),
          healed: healed.length - 1,
        }),
      );
      if (to < 1) return { state: { marks }, steps, roll };
      const r = placeOnRow(g, marks, to, "injury");
      return { state: { marks: r.marks }, steps: [...steps, ...r.steps], roll };
    }
  }
}

export function rollStep(roll: VoltRollResult, rule: string): Step {
  return step(roll.success ? "FUDGE.Volt.Step.RollSuccess" : "FUDGE.Volt.Step.RollFailure", rule, roll.result, {
    value: roll.value,
    black: roll.black.face,
    white: roll.white.face,
    result: roll.result,
  });
}

// ---------------------------------------------------------------------------------------------
// Sheet

/** A click on a row: empty → Stun → Injury → empty ("+" clears too). */
function toggle(config: VoltTrackConfig, state: VoltTrackState, ref: string): VoltTrackState {
  const row = rowOfRef(config, ref, "ref");
  if (row <= voltGeometry(config).blacked)
    throw new RulesError("ref", "FUDGE.Volt.Error.BlackedRow", `row ${row} is blacked out (Tough)`, { row });
  const marks = { ...state.marks };
  const here = marks[String(row)];
  if (here === undefined) marks[String(row)] = "stun";
  else if (here === "stun") marks[String(row)] = "injury";
  else delete marks[String(row)];
  return { marks };
}

function render(config: VoltTrackConfig, state: VoltTrackState): TrackRender {
  const g = voltGeometry(config);
  const rows: RenderRow[] = [];
  for (let row = g.rows; row >= 1; row--) {
    const entry = voltRowPenalty(g, row);
    const mark = state.marks[String(row)];
    const blacked = row <= g.blacked;
    let effectKey = "";
    if (entry === "above")
      effectKey = row > g.top + 5 ? "FUDGE.Volt.Effect.InjuryKills" : "FUDGE.Volt.Effect.InjuryDying";
    else if (entry === "x") effectKey = "FUDGE.Volt.Effect.CannotAct";
    rows.push({
      key: `row-${row}`,
      labelKey: "FUDGE.Volt.Row",
      labelParams: { row },
      range: row === g.rows ? `${row}+` : String(row),
      penalty: typeof entry === "number" ? (entry === 0 ? 0 : -entry) : null,
      effectKey,
      circled: g.circled.includes(row),
      boxes: [
        {
          ref: `row-${row}`,
          marked: mark !== undefined,
          mark: mark ? VOLT_MARK_GLYPH[mark] : "",
          overflow: false,
          stun: mark === "stun",
          disabled: blacked,
          labelKey: blacked ? "FUDGE.Volt.BoxBlacked" : "FUDGE.Volt.Box",
          labelParams: { row },
        },
      ],
    });
  }
  return { kind: "volt", label: config.label, rows, status: status(config, state) };
}

function stateKey(_config: VoltTrackConfig, state: VoltTrackState): string {
  return markedRows(state)
    .map((r) => `${r}:${VOLT_MARK_GLYPH[state.marks[String(r)]]}`)
    .join(",");
}

export const voltTrackKind: TrackKind<VoltTrackConfig, VoltTrackState, VoltWound[], VoltHealing> & {
  apply: typeof apply;
  heal: typeof heal;
} = {
  kind: "volt",
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
};
