/**
 * Track kind "dc": Damage Capacity used to record wounds (Fudge §4.57 first method, §4.52 way 3,
 * RULES §2.4 #4). Each hit worse than a Scratch lowers the DC attribute; the DC reached gives
 * the penalty (Mediocre Hurt −1, Poor Very Hurt −2, Terrible −3 or Incapacitated, below
 * Terrible Incapacitated). DC is then not a defensive factor.
 *
 * Pure functions: every function returns new objects and never mutates its input.
 */
import { parseFudgeHealing, type FudgeHealing } from "./healing";
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import { describeLevel } from "../ladder";
import {
  type ApplyResult,
  type Condition,
  type RenderBox,
  type RenderRow,
  type TrackKind,
  type TrackRender,
  type TrackStatus,
} from "../track-kind";
import { array, at, bool, int, oneOf, record, str } from "../validate";
import { DEFAULT_THRESHOLDS, levelsHealedByRoll, nextTo, woundLabel } from "./box-track";

export const DC_RULE = "Fudge §4.57";

/** Wound levels a DC track takes, mildest first (Fudge §4.51), and "dead" (a deadly wound). */
export const DC_WOUND_LEVELS = ["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath", "dead"] as const;
export type DcWoundLevel = (typeof DC_WOUND_LEVELS)[number];

/** Lowest DC a living character can have: Terrible −2 is Near Death; one more is Dead (this system's reading of "possibly worse"). */
export const DC_NEAR_DEATH = -5;
export const DC_DEAD = -6;

export interface DcTrackConfig {
  kind: "dc";
  label: string;
  /** Undamaged Damage Capacity, Terrible −3 .. Superb +3 (Fudge §4.52). */
  start: number;
  /** Scratches that make one hit (Fudge §4.57: "perhaps three"); 0 = Scratches never count. */
  scratchesPerHit: number;
  /** "one": every hit worse than a Scratch costs one level; "bySeverity": Hurt 1, Very Hurt 2, Incapacitated 3, Near Death 4. */
  levelsPerHit: "one" | "bySeverity";
  /** What Terrible DC means after damage (Fudge §4.57): −3 to all actions, or Incapacitated. */
  terrible: "penalty" | "incapacitated";
  /** Damage-number mins for scratch..nearDeath (Fudge §4.55); default 1/3/5/7/9. */
  thresholds: number[];
}

export interface DcTrackState {
  /** Current Damage Capacity: start (undamaged) down to −6 (dead). */
  dc: number;
  /** Scratches since the last one that made a hit: 0 .. scratchesPerHit − 1. */
  scratches: number;
}

export interface DcWound {
  level: DcWoundLevel;
  /** Automatic death (Fudge §4.51, GM only). */
  kill?: boolean;
}

export type DcHealing = FudgeHealing;

/** Levels lost per hit with levelsPerHit "bySeverity" (RULES §2.4 #4: "more if the GM says"). */
const SEVERITY_LOSS: Record<Exclude<DcWoundLevel, "scratch" | "dead">, number> = {
  hurt: 1,
  veryHurt: 2,
  incapacitated: 3,
  nearDeath: 4,
};

export function dcTrackConfig(
  start: number,
  opts: Partial<Omit<DcTrackConfig, "kind" | "start">> & { doubleRd?: boolean } = {},
): DcTrackConfig {
  const { doubleRd, ...rest } = opts;
  return parseConfig(
    {
      kind: "dc",
      start,
      ...rest,
      thresholds: rest.thresholds ?? (doubleRd ? DEFAULT_THRESHOLDS.double : DEFAULT_THRESHOLDS.single),
    },
    "config",
  );
}

function parseConfig(input: unknown, path: string): DcTrackConfig {
  const o = record(input, path);
  oneOf(o.kind, at(path, "kind"), ["dc"] as const);
  const tp = at(path, "thresholds");
  const thresholds =
    o.thresholds === undefined
      ? [...DEFAULT_THRESHOLDS.single]
      : array(o.thresholds, tp, 5, 5).map((v, i) => int(v, at(tp, i), -100, 1000));
  for (let i = 1; i < thresholds.length; i++)
    if (thresholds[i] <= thresholds[i - 1])
      throw new RulesError(at(tp, i), "FUDGE.Error.Track.MinOrder", "thresholds must increase from the mildest level");
  return {
    kind: "dc",
    label: str(o.label, at(path, "label"), ""),
    start: int(o.start, at(path, "start"), -3, 3), // Fudge §4.52: DC rated +3..−3
    scratchesPerHit: o.scratchesPerHit === undefined ? 3 : int(o.scratchesPerHit, at(path, "scratchesPerHit"), 0, 10),
    levelsPerHit: oneOf(o.levelsPerHit, at(path, "levelsPerHit"), ["one", "bySeverity"] as const, "one"),
    terrible: oneOf(o.terrible, at(path, "terrible"), ["penalty", "incapacitated"] as const, "penalty"),
    thresholds,
  };
}

const maxScratches = (config: DcTrackConfig): number => Math.max(0, config.scratchesPerHit - 1);

function initial(config: DcTrackConfig): DcTrackState {
  return { dc: config.start, scratches: 0 };
}

function parseState(config: DcTrackConfig, input: unknown, path: string): DcTrackState {
  const o = record(input, path);
  return {
    dc: int(o.dc, at(path, "dc"), DC_DEAD, config.start), // Fudge §4.57: healing never raises DC above its start
    scratches: o.scratches === undefined ? 0 : int(o.scratches, at(path, "scratches"), 0, maxScratches(config)),
  };
}

function parseWound(_config: DcTrackConfig, input: unknown, path: string): DcWound {
  const o = record(input, path);
  const kill = bool(o.kill, at(path, "kill"), false);
  const level = kill && o.level === undefined ? "dead" : oneOf(o.level, at(path, "level"), DC_WOUND_LEVELS);
  return kill ? { level, kill } : { level };
}

function parseRef(config: DcTrackConfig, ref: unknown, path: string): { type: "dc" | "scratch"; n: number } {
  const r = str(ref, path);
  const m = /^(dc|scratch):(-?\d+)$/.exec(r);
  const n = m ? Number(m[2]) : NaN;
  const ok = m && (m[1] === "dc" ? n >= DC_DEAD && n < config.start : n >= 0 && n < maxScratches(config));
  if (!ok)
    throw new RulesError(path, "FUDGE.Error.Track.UnknownBox", `no box ${JSON.stringify(r)} on this track`, { ref: r });
  return { type: m![1] as "dc" | "scratch", n };
}

function parseHealing(config: DcTrackConfig, input: unknown, path: string): DcHealing {
  return parseFudgeHealing(input, path, (ref, p) => void parseRef(config, ref, p)).healing as DcHealing;
}

/** Damage-number lookup for a DC track (Fudge §4.55 thresholds); null = no damage. */
export function dcLevelForDamage(config: DcTrackConfig, damageNumber: number): DcWoundLevel | null {
  let found: DcWoundLevel | null = null;
  config.thresholds.forEach((min, i) => {
    if (damageNumber >= min) found = DC_WOUND_LEVELS[i];
  });
  return found;
}

export interface DcStepEffect {
  levelKey: string | null;
  penalty: number;
  condition: Condition;
}

/**
 * What a DC value means once damaged (Fudge §4.57): Fair or better nothing; Mediocre Hurt −1;
 * Poor Very Hurt −2; Terrible −3 or Incapacitated; Terrible −1 Incapacitated; Terrible −2 Near
 * Death; Terrible −3 Dead (the last two are this system's reading of "possibly worse").
 * Levels that stop action keep the −3 for status.penalty.
 */
export function dcStepEffect(config: DcTrackConfig, dc: number): DcStepEffect {
  if (dc >= 0) return { levelKey: "scratch", penalty: 0, condition: "able" };
  if (dc === -1) return { levelKey: "hurt", penalty: -1, condition: "able" };
  if (dc === -2) return { levelKey: "veryHurt", penalty: -2, condition: "able" };
  if (dc === -3)
    return config.terrible === "penalty"
      ? { levelKey: "veryHurt", penalty: -3, condition: "able" }
      : { levelKey: "incapacitated", penalty: -3, condition: "cannotAct" };
  if (dc > DC_NEAR_DEATH) return { levelKey: "incapacitated", penalty: -3, condition: "cannotAct" };
  if (dc > DC_DEAD) return { levelKey: "nearDeath", penalty: -3, condition: "dying" };
  return { levelKey: "dead", penalty: -3, condition: "dead" };
}

function status(config: DcTrackConfig, state: DcTrackState): TrackStatus {
  const steps: Step[] = [];
  const name = describeLevel(state.dc).label;
  if (state.dc === config.start) {
    // Fudge §4.57: an undamaged character of Mediocre or worse DC is not penalised.
    steps.push(
      step(config.start < 0 ? "FUDGE.Step.Dc.UndamagedLow" : "FUDGE.Step.Dc.Undamaged", DC_RULE, state.dc, {
        value: signed(state.dc),
        name,
      }),
    );
    return {
      penalty: 0,
      condition: "able",
      canAct: true,
      levelKey: state.scratches > 0 ? "scratch" : null,
      effects: [],
      steps,
    };
  }
  const e = dcStepEffect(config, state.dc);
  steps.push(
    step(`FUDGE.Step.Dc.Level.${e.levelKey}`, DC_RULE, e.penalty, {
      value: signed(state.dc),
      name,
      penalty: signed(e.penalty),
    }),
  );
  return {
    penalty: e.penalty,
    condition: e.condition,
    canAct: e.condition === "able",
    levelKey: e.levelKey,
    effects: [],
    steps,
  };
}

function result(config: DcTrackConfig, state: DcTrackState, steps: Step[]): ApplyResult<DcTrackState> {
  const st = status(config, state);
  return { state: { dc: state.dc, scratches: state.scratches }, steps, status: st, ended: st.condition === "dead" };
}

function apply(config: DcTrackConfig, state: DcTrackState, wound: DcWound): ApplyResult<DcTrackState> {
  const steps: Step[] = [];
  if (state.dc <= DC_DEAD) {
    steps.push(step("FUDGE.Step.Dc.AlreadyDead", DC_RULE));
    return result(config, state, steps);
  }
  if (wound.kill || wound.level === "dead") {
    steps.push(wound.kill ? step("FUDGE.Step.Dc.Kill", "Fudge §4.51") : step("FUDGE.Step.Dc.Deadly", DC_RULE));
    return result(config, { dc: DC_DEAD, scratches: state.scratches }, steps);
  }
  let scratches = state.scratches;
  let loss: number;
  if (wound.level === "scratch") {
    if (config.scratchesPerHit === 0) {
      steps.push(step("FUDGE.Step.Dc.ScratchIgnored", DC_RULE));
      return result(config, state, steps);
    }
    scratches += 1; // Fudge §4.57: Scratches accumulate, perhaps three to a hit
    if (scratches < config.scratchesPerHit) {
      steps.push(step("FUDGE.Step.Dc.Scratch", DC_RULE, scratches, { scratches, perHit: config.scratchesPerHit }));
      return result(config, { dc: state.dc, scratches }, steps);
    }
    scratches = 0;
    loss = 1;
    steps.push(step("FUDGE.Step.Dc.ScratchesMakeHit", DC_RULE, 1, { perHit: config.scratchesPerHit }));
  } else {
    // Fudge §4.57: each hit greater than a Scratch lowers DC one level, or more if the GM deems it severe.
    loss = config.levelsPerHit === "one" ? 1 : SEVERITY_LOSS[wound.level];
  }
  const dc = Math.max(DC_DEAD, state.dc - loss);
  steps.push(
    step("FUDGE.Step.Dc.Lowered", DC_RULE, dc - state.dc, {
      level: woundLabel(wound.level),
      from: signed(state.dc),
      to: signed(dc),
      loss,
    }),
  );
  return result(config, { dc, scratches }, steps);
}

/** Wound-level rank of a DC for natural-healing Constitution rolls: Hurt 0 (Fair), Very Hurt 1 (Good), Incapacitated 2 (Great) … */
function constitutionNeeded(dc: number): number {
  return Math.max(0, -dc - 1);
}

function heal(config: DcTrackConfig, state: DcTrackState, healing: DcHealing): { state: DcTrackState; steps: Step[] } {
  const steps: Step[] = [];
  const raise = (by: number): DcTrackState => {
    const dc = Math.min(config.start, state.dc + by); // Fudge §4.57: never above the undamaged DC
    steps.push(step("FUDGE.Step.Dc.Raised", DC_RULE, dc - state.dc, { from: signed(state.dc), to: signed(dc) }));
    return { dc, scratches: state.scratches };
  };
  switch (healing.type) {
    case "endRound":
      return { state: { ...state }, steps };
    case "box": {
      const ref = parseRef(config, healing.ref, "healing.ref");
      steps.push(step("FUDGE.Step.Dc.HealBox", "RULES §2.5", undefined, { ref: healing.ref }));
      if (ref.type === "scratch")
        return { state: { dc: state.dc, scratches: Math.min(state.scratches, ref.n) }, steps };
      return { state: { dc: Math.max(state.dc, ref.n + 1), scratches: state.scratches }, steps };
    }
    case "scratches":
      steps.push(step("FUDGE.Step.Dc.HealScratches", "RULES §2.5", state.scratches));
      return { state: { dc: state.dc, scratches: 0 }, steps };
  }
  if (state.dc <= DC_DEAD) {
    steps.push(step("FUDGE.Step.Dc.HealDead", "RULES §2.5"));
    return { state: { ...state }, steps };
  }
  if (healing.type === "roll") {
    const by = levelsHealedByRoll(healing.result); // RULES §2.5: Good 1, Great 2, Superb 3
    steps.push(step("FUDGE.Step.Dc.HealRoll", "RULES §2.5", by, { result: signed(healing.result), levels: by }));
    return { state: raise(by), steps };
  }
  // RULES §2.5: one level per week (Rapid Healing twice as fast); optional Constitution roll.
  let dc = state.dc;
  const total = healing.weeks * (healing.rapid ? 2 : 1);
  for (let t = 0; t < total && dc < config.start; t++) {
    if (healing.constitution !== undefined && dc < 0 && healing.constitution < constitutionNeeded(dc)) break;
    dc += 1;
  }
  steps.push(
    step("FUDGE.Step.Dc.HealNatural", "RULES §2.5", dc - state.dc, { weeks: healing.weeks, levels: dc - state.dc }),
  );
  return { state: { dc, scratches: state.scratches }, steps };
}

/** Click: a DC step box marks the track down to it, or (marked) clears it and every worse step; scratch boxes likewise. */
function toggle(config: DcTrackConfig, state: DcTrackState, ref: string): DcTrackState {
  const r = parseRef(config, ref, "ref");
  if (r.type === "scratch") return { dc: state.dc, scratches: r.n < state.scratches ? r.n : r.n + 1 };
  return { dc: state.dc <= r.n ? r.n + 1 : r.n, scratches: state.scratches };
}

/** One row per DC step below the start, best first (the first hit marks the top row); Scratches first. */
function render(config: DcTrackConfig, state: DcTrackState): TrackRender {
  const rows: RenderRow[] = [];
  const box = (
    ref: string,
    marked: boolean,
    labelKey: string,
    labelParams: Record<string, string | number>,
  ): RenderBox => ({
    ref,
    marked,
    mark: marked ? "X" : "",
    overflow: false,
    stun: false,
    disabled: false,
    labelKey,
    labelParams,
  });
  if (maxScratches(config) > 0)
    rows.push({
      key: "scratches",
      labelKey: "FUDGE.Track.DcScratches",
      labelParams: { perHit: config.scratchesPerHit },
      range: "",
      penalty: 0,
      effectKey: "",
      circled: false,
      boxes: Array.from({ length: maxScratches(config) }, (_, i) =>
        box(`scratch:${i}`, i < state.scratches, "FUDGE.Track.BoxLabel", { level: woundLabel("scratch"), n: i + 1 }),
      ),
    });
  for (let v = config.start - 1; v >= DC_DEAD; v--) {
    const e = dcStepEffect(config, v);
    const d = describeLevel(v);
    const numeric = e.condition === "able";
    rows.push({
      key: `dc:${v}`,
      labelKey: "FUDGE.Track.DcStep",
      labelParams: {
        rung: `FUDGE.Ladder.${d.rungId}`,
        beyond: d.beyond === 0 ? "" : ` ${signed(d.beyond)}`,
        value: signed(v),
        name: d.label,
      },
      range: "",
      penalty: numeric ? e.penalty : null,
      effectKey: numeric ? "" : `FUDGE.Effect.${e.condition}`,
      circled: false,
      boxes: [box(`dc:${v}`, state.dc <= v, "FUDGE.Track.DcBoxLabel", { value: signed(v) })],
    });
  }
  return { kind: "dc", label: config.label, rows, status: status(config, state) };
}

/**
 * Takes one wound of this level back off the DC (endBattle, Fudge §4.52 (4)): what `apply` took,
 * given back — a Scratch from the count (or the hit three of them made), a hit's levels to DC.
 */
function removeWound(config: DcTrackConfig, state: DcTrackState, level: string): DcTrackState | null {
  if (state.dc <= DC_DEAD || level === "dead") return null;
  if (level === "scratch") {
    if (config.scratchesPerHit === 0) return { ...state }; // an ignored Scratch left nothing
    if (state.scratches > 0) return { dc: state.dc, scratches: state.scratches - 1 };
    if (state.dc >= config.start) return null;
    return { dc: state.dc + 1, scratches: maxScratches(config) };
  }
  if (state.dc >= config.start) return null;
  const loss = config.levelsPerHit === "one" ? 1 : SEVERITY_LOSS[level as keyof typeof SEVERITY_LOSS];
  return { dc: Math.min(config.start, state.dc + loss), scratches: state.scratches };
}

/**
 * Two levels one adjustment apart (endBattle; Fudge §4.52 "one wound *level*, or simply one damage
 * point"): next to each other among the levels a hit names (every one has a threshold, §4.55).
 */
function oneLevelApart(_config: DcTrackConfig, from: string, to: string): boolean {
  return nextTo(
    DC_WOUND_LEVELS.filter((k) => k !== "dead"),
    from,
    to,
  );
}

function stateKey(_config: DcTrackConfig, state: DcTrackState): string {
  return `${state.dc}|${state.scratches}`;
}

export const dcTrack: TrackKind<DcTrackConfig, DcTrackState, DcWound, DcHealing> = {
  kind: "dc",
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
};
