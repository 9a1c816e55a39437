/**
 * View models shared by the sheet and chat-card context builders: a wound track as the sheet
 * draws it (from the track kind's own render model, nothing recomputed), trait levels with their
 * ladder names, and explanation steps.
 */
import { errorView } from "./error-text";
import {
  describeLevel,
  levelWithNumber,
  standardLadder,
  type Ladder,
  signed,
  type Step,
  renderTrack,
  type RenderBox,
  type Track,
  type TrackRender,
  isRulesError,
} from "../rules";
import type { WorldRules } from "./data";
import { KEY_PATTERN } from "./i18n";

export interface BoxView extends RenderBox {
  /** Label key of the real level of an overflow mark ("" otherwise). */
  realLevelLabelKey: string;
  /** CSS classes of the box button. */
  css: string;
  /** Disabled for the viewer (not editable or not markable). */
  locked: boolean;
}

export interface RowView {
  key: string;
  labelKey: string;
  labelParams: Record<string, string | number>;
  range: string;
  /** "−1", "0" or "" (no numeric penalty). */
  penaltyText: string;
  effectKey: string;
  circled: boolean;
  /** Row holds the worst marked level. */
  current: boolean;
  /** Number of marks that overflowed into this row (tags shown). */
  overflowCount: number;
  boxes: BoxView[];
}

/** Volt: a run of rows with the same penalty and effect, stated once (e.g. "11–15: cannot act"). */
export interface BandView {
  index: number;
  range: string;
  penaltyText: string;
  effectKey: string;
  /** False for a band with neither penalty nor effect (nothing to state). */
  shown: boolean;
}

export interface TrackView {
  kind: string;
  /** Volt's compact grid: the rows lowest first (reading order) and their bands; null otherwise. */
  grid: { rows: (RowView & { number: string; band: number })[]; bands: BandView[] } | null;
  /** Track label: an i18n key or user text (rendered with `fudgeText`). */
  label: string;
  rows: RowView[];
  /** The penalty a roll takes now (after `forCombat`: in or out of combat). */
  penalty: number;
  penaltyText: string;
  /** Fudge §4.51 Light Wound: the penalty outside combat when it differs from the combat one; else null. */
  afterCombatPenalty: number | null;
  /** Beside the penalty, when it differs in and out of combat: "0 in combat" / "−1 after combat". */
  penaltyNote: { key: string; params: Record<string, string | number> } | null;
  condition: string;
  conditionKey: string;
  canAct: boolean;
  levelKey: string | null;
  /** Label key of the worst level reached ("" when unhurt). */
  levelLabelKey: string;
  effects: { key: string; labelKey: string }[];
  steps: StepView[];
  editable: boolean;
  /** Set when the stored state no longer fits the track (e.g. the preset changed): the sheet offers a reset. */
  error: { key: string; params: Record<string, string | number> } | null;
}

export interface StepView {
  key: string;
  params: Record<string, string | number>;
  rule: string;
  value: number | null;
  valueText: string;
}

export function stepView(s: Step): StepView {
  return {
    key: s.key,
    params: { ...(s.params ?? {}), value: s.value ?? "" },
    rule: s.rule,
    value: s.value ?? null,
    valueText: s.value === undefined ? "" : signed(s.value),
  };
}

export const penaltyText = (n: number | null): string => (n === null ? "" : signed(n));

/** Track effects have their own labels under FUDGE.TrackEffect.* (stunned, clipped …). */
export const effectLabelKey = (e: string): string => `FUDGE.TrackEffect.${e}`;
/** Fudge wound level keys whose labels (FUDGE.Wound.*) the box track's lang part holds (Fudge §4.51). */
export const FUDGE_LEVELS: readonly string[] = [
  "undamaged",
  "scratch",
  "hurt",
  "veryHurt",
  "incapacitated",
  "nearDeath",
  "dead",
  "out",
];

/** Label of a level key that is not a row of the track: a Fudge level, else this layer's own FUDGE.Level.*. */
export const levelLabelKey = (key: string): string =>
  FUDGE_LEVELS.includes(key) ? `FUDGE.Wound.${key}` : `FUDGE.Level.${key}`;

/**
 * A condition in the preset's words. A miniature Near Death "falls to the ground … and cannot do
 * anything else" until its Guts roll (Miniatures: Wounds): out of action, not dying.
 */
export const conditionLabelKey = (c: string, preset = ""): string =>
  preset === "miniatures" && c === "dying" ? "FUDGE.Condition.outOfAction" : `FUDGE.Condition.${c}`;

/**
 * A row's effect in the preset's words. Miniatures' Near Death is not Fudge's "dying without
 * help": the model falls, cannot act, and rolls Guts from its next turn (Miniatures: Wounds).
 */
function rowEffectKey(effectKey: string, preset: string): string {
  return preset === "miniatures" && effectKey === "FUDGE.Effect.dying"
    ? "FUDGE.Miniatures.Effect.nearDeath"
    : effectKey;
}

export function trackViewFromRender(r: TrackRender, editable: boolean, preset = ""): TrackView {
  const st = r.status;
  // A row's name: a custom level's own label (plain text), else its i18n key.
  const nameOf = (key: string | undefined): string | undefined => {
    const row = r.rows.find((x) => x.key === key);
    return row ? (typeof row.labelParams.name === "string" ? row.labelParams.name : row.labelKey) : undefined;
  };
  const rows: RowView[] = r.rows.map((row) => {
    const boxes: BoxView[] = row.boxes.map((b) => {
      // A level param that is a bare level key ("hurt") is shown by its row's label.
      const lp = { ...b.labelParams };
      if (typeof lp.level === "string" && !KEY_PATTERN.test(lp.level)) lp.level = nameOf(lp.level) ?? lp.level;
      const realLevelLabelKey = b.overflow ? (nameOf(b.realLevelKey) ?? "") : "";
      const css = [
        "fudge-box",
        b.marked ? "marked" : "open",
        b.overflow ? "overflow" : "",
        b.stun ? "stun" : "",
        b.disabled ? "blacked" : "",
      ]
        .filter(Boolean)
        .join(" ");
      return { ...b, labelParams: lp, realLevelLabelKey, css, locked: !editable || b.disabled };
    });
    return {
      key: row.key,
      labelKey: row.labelKey,
      labelParams: row.labelParams,
      range: row.range,
      penaltyText: penaltyText(row.penalty),
      effectKey: rowEffectKey(row.effectKey, preset),
      circled: row.circled,
      current: st.levelKey !== null && row.key === st.levelKey,
      overflowCount: boxes.filter((b) => b.overflow).length,
      boxes,
    };
  });
  const current = r.rows.find((row) => row.key === st.levelKey);
  return {
    kind: r.kind,
    grid: r.kind === "volt" ? voltGrid(rows) : null,
    label: r.label,
    rows,
    penalty: st.penalty,
    penaltyText: signed(st.penalty),
    afterCombatPenalty: st.afterCombatPenalty ?? null,
    penaltyNote: null,
    condition: st.condition,
    conditionKey: conditionLabelKey(st.condition, preset),
    canAct: st.canAct,
    levelKey: st.levelKey,
    // A level that is not a row of the track (Volt "wounded", "dyingCanAct") has its own label.
    levelLabelKey: current ? current.labelKey : st.levelKey ? levelLabelKey(st.levelKey) : "",
    effects: st.effects.map((e) => ({ key: e, labelKey: effectLabelKey(e) })),
    steps: st.steps.map(stepView),
    editable,
    error: null,
  };
}

/**
 * The track as a roll now reads it (Fudge §4.51 Light Wound, penaltyFor): in combat the combat
 * penalty with "−1 after combat" beside it, outside combat the after-combat one with "0 in combat".
 */
export function forCombat(view: TrackView, inCombat: boolean): TrackView {
  if (view.afterCombatPenalty === null) return view;
  const [now, other] = inCombat ? [view.penalty, view.afterCombatPenalty] : [view.afterCombatPenalty, view.penalty];
  const note = {
    key: inCombat ? "FUDGE.Track.PenaltyAfterCombat" : "FUDGE.Track.PenaltyInCombat",
    params: { penalty: signed(other) },
  };
  return { ...view, penalty: now, penaltyText: signed(now), penaltyNote: note };
}

/** Volt rows lowest first, grouped into bands of equal penalty and effect (each effect stated once). */
function voltGrid(rows: RowView[]): NonNullable<TrackView["grid"]> {
  const asc = [...rows].reverse();
  const bands: BandView[] = [];
  const out = asc.map((row, i) => {
    const prev = asc[i - 1];
    const number = String(row.labelParams.row ?? i + 1);
    if (!prev || prev.penaltyText !== row.penaltyText || prev.effectKey !== row.effectKey)
      bands.push({
        index: bands.length,
        range: number,
        penaltyText: row.penaltyText === "0" ? "" : row.penaltyText,
        effectKey: row.effectKey,
        shown: (!!row.penaltyText && row.penaltyText !== "0") || !!row.effectKey,
      });
    else {
      const b = bands[bands.length - 1];
      b.range = `${b.range.split("\u2013")[0]}\u2013${number}`;
    }
    return { ...row, number, band: bands.length - 1 };
  });
  return { rows: out, bands };
}

/** A track view, or an error view when the stored state does not fit the track config. */
export function trackView(build: () => Track, editable: boolean, preset = ""): TrackView {
  try {
    return trackViewFromRender(renderTrack(build()), editable, preset);
  } catch (e) {
    if (!isRulesError(e)) throw e;
    return {
      kind: "",
      grid: null,
      label: "",
      rows: [],
      penalty: 0,
      penaltyText: signed(0),
      afterCombatPenalty: null,
      penaltyNote: null,
      condition: "able",
      conditionKey: conditionLabelKey("able"),
      canAct: true,
      levelKey: null,
      levelLabelKey: "",
      effects: [],
      steps: [],
      editable,
      error: errorView(e),
    };
  }
}

/**
 * An attack outcome's name in the preset's words, for the odds and the card. FATE's ladder calls a
 * margin of 0 "Scratched" ("a near miss, or a hit with no real impact"), not a standoff.
 */
export function outcomeLabelKey(preset: string, outcome: string): string {
  return preset === "fate" && outcome === "standoff" ? "FUDGE.Fate.Outcome.scratched" : `FUDGE.Card.Outcome.${outcome}`;
}

/**
 * A miniature's datacard stat ("strength", "dexterity", "guts"; characters' traits are
 * "attributes.…", "volt.…" or "skill:…"). Miniatures: the datacard gives numbers, not ladder names.
 */
export const isDatacardStat = (traitKey: string): boolean => !traitKey.includes(".") && !traitKey.includes(":");

/** The world's ladder (Fudge §1.3: Legendary optional). Names are localized by the caller. */
export function ladderOf(rules: WorldRules, names: Partial<Record<string, string>> = {}): Ladder {
  return standardLadder(names, rules.legendary, rules.lowerEnd);
}

export interface LevelView {
  value: number;
  valueText: string;
  /** "Good", "Superb +2" (English rung names; the template shows the localized rung via rungKey). */
  name: string;
  rungKey: string;
  beyond: number;
  beyondText: string;
  /** "Good (+1)". */
  label: string;
}

/** A trait level with its ladder name (Fudge §1.3: names and numbers together). */
export function levelView(value: number, ladder: Ladder): LevelView {
  const d = describeLevel(value, ladder);
  return {
    value,
    valueText: signed(value),
    name: d.label,
    rungKey: `FUDGE.Ladder.${d.rungId}`,
    beyond: d.beyond,
    beyondText: d.beyond === 0 ? "" : signed(d.beyond),
    label: levelWithNumber(value, ladder),
  };
}

/** One segment of the token's wound bar: a level, its width by its boxes, marked and open in two shades. */
export interface BarSegment {
  key: string;
  labelKey: string;
  labelParams: Record<string, string | number>;
  boxes: number;
  marked: number;
  overflow: number;
  /** Share of the bar's width, in percent (two decimals). */
  width: string;
  /** Share of the segment that is marked, in percent. */
  fill: string;
  /**
   * The level's severity on a seven-step ramp (0 the mildest, 6 the worst level of the track;
   * Volt: by its tier of penalty and effect), so a mark shows how bad it is by its shade, not only
   * by where it sits (sheet: `sev-N`, the token bar: TOKEN_SEVERITY).
   */
  tier: number;
}

/** Steps of the severity ramp the wound bar shades its marks with (0…SEVERITY_STEPS − 1). */
export const SEVERITY_STEPS = 7;

/** Place `i` of `n` ordered severities on the ramp: the mildest at 0, the worst at the top. */
export const severityTier = (i: number, n: number): number =>
  n <= 1 ? SEVERITY_STEPS - 1 : Math.round((i * (SEVERITY_STEPS - 1)) / (n - 1));

/**
 * The segmented wound bar of a token (and the sheet's portrait): one segment per level, lowest
 * first, its width by the level's boxes, its mark shaded by the level's severity; Volt as its
 * Stun/Injury rows. The Foundry Token subclass draws the same segments on the canvas.
 */
export function woundBar(track: TrackView): BarSegment[] {
  const rows = track.kind === "volt" ? [...track.rows].reverse() : track.rows;
  const total = rows.reduce((n, r) => n + r.boxes.length, 0) || 1;
  // Volt: a row's severity is its tier (band of equal penalty and effect); else its level's place.
  const bands = track.grid?.bands.length ?? 0;
  const bandOf = new Map(track.grid?.rows.map((r) => [r.key, r.band]) ?? []);
  const tierOf = (key: string, i: number): number =>
    bands ? severityTier(bandOf.get(key) ?? 0, bands) : severityTier(i, rows.length);
  return rows.map((r, i) => {
    const marked = r.boxes.filter((b) => b.marked).length;
    return {
      key: r.key,
      labelKey: r.labelKey,
      labelParams: r.labelParams,
      boxes: r.boxes.length,
      marked,
      overflow: r.boxes.filter((b) => b.overflow).length,
      width: ((r.boxes.length / total) * 100).toFixed(2),
      fill: r.boxes.length ? ((marked / r.boxes.length) * 100).toFixed(2) : "0",
      tier: tierOf(r.key, i),
    };
  });
}

/**
 * Feedback after a heal, rest or recover: one sentence naming the actor and what changed (the
 * last step of the track's own explanation), or "nothing to heal". Hosts show it as a toast.
 */
export function healFeedback(name: string, steps: Step[]): { key: string; params: Record<string, string | number> } {
  const last = steps[steps.length - 1];
  if (!last) return { key: "FUDGE.Feedback.NothingToHeal", params: { name } };
  return {
    key: "FUDGE.Feedback.Healed",
    params: { name, what: last.key, ...(last.params ?? {}), value: last.value ?? "" },
  };
}

/**
 * The Token HUD's wound controls: for each level, the box a "+" marks (its first open box) and
 * the box a "−" clears (its last marked one), as refs for the same toggleWoundBox action (and
 * permission check) the sheet's boxes use. Null where there is nothing to mark or clear.
 */
export function hudWoundControls(track: TrackView): {
  /** The sheet action each of its buttons is (src/system/flows/tables.ts), with the box ref. */
  action: "toggleWoundBox";
  key: string;
  labelKey: string;
  labelParams: Record<string, string | number>;
  addRef: string | null;
  clearRef: string | null;
}[] {
  const rows = track.kind === "volt" ? [...track.rows].reverse() : track.rows;
  return rows.map((r) => {
    const open = r.boxes.filter((b) => !b.marked && !b.disabled);
    const marked = r.boxes.filter((b) => b.marked);
    return {
      action: "toggleWoundBox",
      key: r.key,
      labelKey: r.labelKey,
      labelParams: r.labelParams,
      addRef: open[0]?.ref ?? null,
      clearRef: marked[marked.length - 1]?.ref ?? null,
    };
  });
}
