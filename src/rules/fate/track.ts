/**
 * Track kind "fate": the FATE wound ladder (seed 003, RULES §4). Lines of boxes from least to
 * most severe (Clipped, Hurt, Injured, Taken Out); a result marks a box of its line, and a full
 * line spills into the next worse line that has a box (the "death spiral"). Each box remembers
 * the result that really landed there.
 */
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import {
  type ApplyResult,
  type RenderBox,
  type RenderRow,
  type TrackKind,
  type TrackRender,
  type TrackStatus,
} from "../track-kind";
import { array, at, int, oneOf, record, str } from "../validate";

/** Lines in order of severity (FATE ladder). */
export const FATE_LINES = ["clipped", "hurt", "injured", "takenOut"] as const;
export type FateLine = (typeof FATE_LINES)[number];

export const FATE_RULE = "FATE ladder";

/** Default box counts of the seed's ladder: [ ][ ] [ ][ ] [ ][ ] X. */
export const FATE_DEFAULT_BOXES: Readonly<Record<FateLine, number>> = { clipped: 2, hurt: 2, injured: 2, takenOut: 1 };

/** Largest box count a line may have (a sheet has to draw it). */
export const FATE_MAX_BOXES = 20;

export interface FateTrackConfig {
  kind: "fate";
  /** Kind label of the track ("Physical", "Social", "Debate" …): the seed's ladder works for non-combat conflicts too. */
  label: string;
  lines: { key: FateLine; boxes: number }[];
}

/** Each line's boxes, in order: null = open, otherwise the key of the result that really landed there. */
export interface FateTrackState {
  marks: Record<FateLine, (FateLine | null)[]>;
}

/** A result: by margin of success (0 = Scratched, no effect) or by its line. */
export type FateWound = { margin: number } | { level: FateLine };

export type FateHealing =
  | { type: "consumeClipped" }
  | { type: "endScene" }
  | { type: "heal"; line: FateLine; boxes: number }
  | { type: "box"; ref: string };

const LINE_INDEX: Record<FateLine, number> = { clipped: 0, hurt: 1, injured: 2, takenOut: 3 };
/** One-letter tag drawn in a box whose result spilled over from a less severe line. */
const TAG: Record<FateLine, string> = { clipped: "C", hurt: "H", injured: "I", takenOut: "T" };
/** Margins of success that give each result (FATE ladder: +1; +2..+4; +5..+6; +7). */
const RANGE: Record<FateLine, string> = { clipped: "1", hurt: "2–4", injured: "5–6", takenOut: "7+" };

export function defaultFateConfig(label = "Physical"): FateTrackConfig {
  return { kind: "fate", label, lines: FATE_LINES.map((key) => ({ key, boxes: FATE_DEFAULT_BOXES[key] })) };
}

/** Result of a margin of success (FATE ladder). null = Scratched: a negligible result, no effect. */
export function fateResultForMargin(margin: number): FateLine | null {
  if (margin <= 0) return null; // FATE ladder: 0 Scratched
  if (margin === 1) return "clipped"; // FATE ladder: +1 Clipped
  if (margin <= 4) return "hurt"; // FATE ladder: +2..+4 Hurt
  if (margin <= 6) return "injured"; // FATE ladder: +5..+6 Injured
  return "takenOut"; // FATE ladder: +7 Taken Out
}

function boxesOf(config: FateTrackConfig): Record<FateLine, number> {
  const b = { clipped: 0, hurt: 0, injured: 0, takenOut: 0 };
  for (const l of config.lines) b[l.key] = l.boxes;
  return b;
}

function parseConfig(input: unknown, path: string): FateTrackConfig {
  const o = record(input, path);
  oneOf(o.kind, at(path, "kind"), ["fate"] as const);
  const label = str(o.label, at(path, "label"), "Physical");
  let lines: FateTrackConfig["lines"];
  if (o.lines === undefined) {
    lines = defaultFateConfig().lines;
  } else {
    const lp = at(path, "lines");
    const list = array(o.lines, lp, FATE_LINES.length, FATE_LINES.length);
    lines = list.map((l, i) => {
      const p = at(lp, i);
      const lr = record(l, p);
      const key = oneOf(lr.key, at(p, "key"), FATE_LINES);
      // The ladder's lines are fixed and ordered by severity; only their box counts are editable.
      if (key !== FATE_LINES[i])
        throw new RulesError(
          at(p, "key"),
          "FUDGE.Error.Fate.LineOrder",
          `line ${i} must be "${FATE_LINES[i]}" (lines run clipped, hurt, injured, takenOut)`,
          {
            expected: FATE_LINES[i],
          },
        );
      // Taken Out needs a box: it is where the death spiral ends.
      const boxes = int(lr.boxes, at(p, "boxes"), key === "takenOut" ? 1 : 0, FATE_MAX_BOXES);
      return { key, boxes };
    });
  }
  return { kind: "fate", label, lines };
}

function initial(config: FateTrackConfig): FateTrackState {
  const b = boxesOf(config);
  return {
    marks: {
      clipped: new Array<FateLine | null>(b.clipped).fill(null),
      hurt: new Array<FateLine | null>(b.hurt).fill(null),
      injured: new Array<FateLine | null>(b.injured).fill(null),
      takenOut: new Array<FateLine | null>(b.takenOut).fill(null),
    },
  };
}

function parseState(config: FateTrackConfig, input: unknown, path: string): FateTrackState {
  const o = record(input, path);
  const mp = at(path, "marks");
  const m = record(o.marks, mp);
  const b = boxesOf(config);
  const marks = {} as FateTrackState["marks"];
  for (const line of FATE_LINES) {
    const lp = at(mp, line);
    marks[line] = array(m[line], lp, b[line], b[line]).map((v, i) => {
      if (v === null) return null;
      const real = oneOf(v, at(lp, i), FATE_LINES);
      // A result only ever spills into a worse line, never a milder one.
      if (LINE_INDEX[real] > LINE_INDEX[line])
        throw new RulesError(
          at(lp, i),
          "FUDGE.Error.Fate.MarkTooSevere",
          `a ${real} result cannot sit in the ${line} line`,
          { real, line },
        );
      return real;
    });
  }
  return { marks };
}

function parseWound(_config: FateTrackConfig, input: unknown, path: string): FateWound {
  const o = record(input, path);
  if (o.margin !== undefined && o.level !== undefined)
    throw new RulesError(path, "FUDGE.Error.Fate.WoundShape", "give either margin or level, not both");
  if (o.margin !== undefined) return { margin: int(o.margin, at(path, "margin"), 0) };
  if (o.level !== undefined) return { level: oneOf(o.level, at(path, "level"), FATE_LINES) };
  throw new RulesError(
    path,
    "FUDGE.Error.Fate.WoundShape",
    "needs margin (a margin of success ≥ 0) or level (clipped, hurt, injured, takenOut)",
  );
}

const HEALING_TYPES = ["consumeClipped", "endScene", "heal", "box"] as const;

function parseRef(config: FateTrackConfig, ref: unknown, path: string): { line: FateLine; index: number } {
  const s = str(ref, path);
  const m = /^([a-zA-Z]+):(\d+)$/.exec(s);
  const b = boxesOf(config);
  if (!m || !(FATE_LINES as readonly string[]).includes(m[1]) || Number(m[2]) >= b[m[1] as FateLine])
    throw new RulesError(
      path,
      "FUDGE.Error.Fate.BadRef",
      `no box ${JSON.stringify(s)} on this track (form "line:index", e.g. "hurt:0")`,
      { ref: s },
    );
  return { line: m[1] as FateLine, index: Number(m[2]) };
}

function parseHealing(config: FateTrackConfig, input: unknown, path: string): FateHealing {
  const o = record(input, path);
  const type = oneOf(o.type, at(path, "type"), HEALING_TYPES);
  if (type === "heal") {
    const line = oneOf(o.line, at(path, "line"), FATE_LINES);
    return { type, line, boxes: int(o.boxes, at(path, "boxes"), 1, FATE_MAX_BOXES) };
  }
  if (type === "box") {
    parseRef(config, o.ref, at(path, "ref"));
    return { type, ref: o.ref as string };
  }
  return { type };
}

function cloneMarks(state: FateTrackState): FateTrackState["marks"] {
  return {
    clipped: [...state.marks.clipped],
    hurt: [...state.marks.hurt],
    injured: [...state.marks.injured],
    takenOut: [...state.marks.takenOut],
  };
}

function count(state: FateTrackState, line: FateLine): number {
  return state.marks[line].filter((m) => m !== null).length;
}

function status(_config: FateTrackConfig, state: FateTrackState): TrackStatus {
  const steps: Step[] = [];
  const clipped = count(state, "clipped");
  const hurt = count(state, "hurt");
  const injured = count(state, "injured");
  const out = count(state, "takenOut");
  let penalty = 0;
  const effects: string[] = [];
  if (clipped > 0) {
    // FATE ladder: Clipped is −1 on the next action only, however many Clipped boxes.
    penalty -= 1;
    effects.push("clipped");
    steps.push(step("FUDGE.Fate.Status.Clipped", FATE_RULE, -1, { boxes: clipped }));
  }
  if (hurt > 0) {
    // FATE ladder: any number of Hurt boxes is −1 for the rest of the scene.
    penalty -= 1;
    steps.push(step("FUDGE.Fate.Status.Hurt", FATE_RULE, -1, { boxes: hurt }));
  }
  if (injured > 0) {
    // FATE ladder: each Injured box is a further −1 until healed (Hurt and Injured stack).
    penalty -= injured;
    steps.push(step("FUDGE.Fate.Status.Injured", FATE_RULE, -injured, { boxes: injured }));
  }
  let levelKey: string | null = null;
  for (const line of FATE_LINES) if (count(state, line) > 0) levelKey = line;
  if (out > 0) {
    // FATE ladder: Taken Out — out of the scene, not necessarily dead.
    steps.push(step("FUDGE.Fate.Status.TakenOut", FATE_RULE));
    return { penalty, condition: "takenOut", canAct: false, levelKey, effects, steps };
  }
  if (steps.length === 0) steps.push(step("FUDGE.Fate.Status.Unhurt", FATE_RULE, 0));
  return { penalty, condition: "able", canAct: true, levelKey, effects, steps };
}

function resultOf(wound: FateWound): FateLine | null {
  return "margin" in wound ? fateResultForMargin(wound.margin) : wound.level;
}

function apply(config: FateTrackConfig, state: FateTrackState, wound: FateWound): ApplyResult<FateTrackState> {
  const steps: Step[] = [];
  const real = resultOf(wound);
  if ("margin" in wound)
    steps.push(step("FUDGE.Fate.Step.Margin", FATE_RULE, wound.margin, { margin: signed(wound.margin) }));
  if (real === null) {
    steps.push(step("FUDGE.Fate.Step.Scratched", FATE_RULE));
    const st = status(config, state);
    return { state, steps, status: st, ended: st.condition === "takenOut" };
  }
  steps.push(step("FUDGE.Fate.Step.Result", FATE_RULE, undefined, { result: real }));
  const marks = cloneMarks(state);
  let placed: FateLine | null = null;
  // FATE ladder: "when there's nothing left on that line, mark off the next worst box" (death spiral).
  for (let i = LINE_INDEX[real]; i < FATE_LINES.length; i++) {
    const line = FATE_LINES[i];
    const free = marks[line].indexOf(null);
    if (free >= 0) {
      marks[line][free] = real;
      placed = line;
      steps.push(
        line === real
          ? step("FUDGE.Fate.Step.Marked", FATE_RULE, undefined, { line, box: free + 1 })
          : step("FUDGE.Fate.Step.Spilled", FATE_RULE, undefined, { result: real, line, box: free + 1 }),
      );
      break;
    }
  }
  const next = { marks };
  if (placed === null) {
    // Nothing left on the ladder at or above this result: the character is out of the scene.
    steps.push(step("FUDGE.Fate.Step.NoRoom", FATE_RULE, undefined, { result: real }));
    const st = status(config, state);
    return { state, steps, status: { ...st, condition: "takenOut", canAct: false }, ended: true };
  }
  const st = status(config, next);
  return { state: next, steps, status: st, ended: st.condition === "takenOut" };
}

function heal(
  config: FateTrackConfig,
  state: FateTrackState,
  healing: FateHealing,
): { state: FateTrackState; steps: Step[] } {
  const marks = cloneMarks(state);
  const steps: Step[] = [];
  const clearLine = (line: FateLine): number => {
    const n = marks[line].filter((m) => m !== null).length;
    marks[line] = marks[line].map(() => null);
    return n;
  };
  switch (healing.type) {
    case "consumeClipped": {
      // FATE ladder: the Clipped box resets after the loser's next action.
      const n = clearLine("clipped");
      steps.push(step("FUDGE.Fate.Heal.ClippedConsumed", FATE_RULE, n));
      break;
    }
    case "endScene": {
      // FATE ladder: Hurt lasts "for the rest of the scene/battle" and is "patched up after the battle";
      // Clipped cannot outlast it either. Healing follows the real result the box remembers, so a
      // Hurt that spilled into an Injured or Taken Out box clears too.
      let c = 0;
      let h = 0;
      for (const line of FATE_LINES)
        marks[line] = marks[line].map((m) => {
          if (m === "clipped") c++;
          else if (m === "hurt") h++;
          else return m;
          return null;
        });
      steps.push(step("FUDGE.Fate.Heal.EndScene", FATE_RULE, c + h, { clipped: c, hurt: h }));
      break;
    }
    case "heal": {
      // Injured: "-1 per box until healed" — clears the given number of boxes, most recent first.
      let left = healing.boxes;
      for (let i = marks[healing.line].length - 1; i >= 0 && left > 0; i--) {
        if (marks[healing.line][i] !== null) {
          marks[healing.line][i] = null;
          left--;
        }
      }
      steps.push(step("FUDGE.Fate.Heal.Line", FATE_RULE, healing.boxes - left, { line: healing.line }));
      break;
    }
    case "box": {
      const { line, index } = parseRef(config, healing.ref, "healing.ref");
      const had = marks[line][index] !== null;
      marks[line][index] = null;
      steps.push(step("FUDGE.Fate.Heal.Box", FATE_RULE, had ? 1 : 0, { line, box: index + 1 }));
      break;
    }
  }
  return { state: { marks }, steps };
}

function toggle(config: FateTrackConfig, state: FateTrackState, ref: string): FateTrackState {
  const { line, index } = parseRef(config, ref, "ref");
  const marks = cloneMarks(state);
  // A click marks the box with its own line's result, or clears it.
  marks[line][index] = marks[line][index] === null ? line : null;
  return { marks };
}

function render(config: FateTrackConfig, state: FateTrackState): TrackRender {
  const rows: RenderRow[] = config.lines.map(({ key }) => {
    const boxes: RenderBox[] = state.marks[key].map((m, i) => {
      const overflow = m !== null && m !== key;
      const box: RenderBox = {
        ref: `${key}:${i}`,
        marked: m !== null,
        mark: m === null ? "" : overflow ? TAG[m] : "X",
        overflow,
        stun: false,
        disabled: false,
        labelKey: "FUDGE.Track.BoxLabel",
        labelParams: { level: `FUDGE.Fate.Line.${key}`, n: i + 1 },
      };
      if (overflow) box.realLevelKey = m!;
      return box;
    });
    return {
      key,
      labelKey: `FUDGE.Fate.Line.${key}`,
      labelParams: {},
      range: RANGE[key],
      penalty: key === "takenOut" ? null : -1,
      effectKey: `FUDGE.Fate.Effect.${key}`,
      circled: false,
      boxes,
    };
  });
  return { kind: "fate", label: config.label, rows, status: status(config, state) };
}

function stateKey(_config: FateTrackConfig, state: FateTrackState): string {
  return FATE_LINES.map((l) => state.marks[l].map((m) => (m === null ? "." : TAG[m])).join("")).join("|");
}

export const fateTrack: TrackKind<FateTrackConfig, FateTrackState, FateWound, FateHealing> = {
  kind: "fate",
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
