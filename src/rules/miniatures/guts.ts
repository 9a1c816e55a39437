/**
 * Guts checks of Fudge Miniatures Battles (seed 004 "Guts", RULES §3): targets, the effect of a
 * failure by its margin, and the re-check each later turn with a cumulative bonus.
 */
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import { array, at, bool, int, oneOf, record } from "../validate";
import { traitValue, traitWith, type MiniTrait } from "./datacard";
import { legendaryTotal } from "./legendary";
import { applyWound, healTrack, parseTrack, trackStatus, type Track } from "../track";
import type { BoxTrackConfig } from "../fudge/box-track";

export const GUTS_RULE = "Miniatures: Guts";

/** Miniatures: Guts — target numbers of the circumstances that call for a check. */
export const GUTS_TARGETS = {
  /** Model takes a new Wound Level (Scratch to Hurt, Hurt to Very Hurt …). */
  newWoundLevel: 1,
  /** Model suffers two wound levels in a single attack (Scratch to Very Hurt). */
  twoWoundLevels: 2,
  /** Model is in a combat and a friend shoots into the combat. */
  friendShoots: 0,
} as const;

/** Miniatures: Guts — charging or being charged by a Terrifying foe: 0 plus its number of Terrifying gifts. */
export function terrifyingTarget(terrifyingGifts: number): number {
  return 0 + int(terrifyingGifts, "terrifying", 0);
}

/**
 * Effect of a failed check by margin of failure:
 * 0 acts normally; 1 −1 to rolls (not stats); 2 may not attack; 3 runs at least half its
 * Movement toward safety, enemies in base contact get a free attack at +1; 4 falls down
 * terrified and counts as helpless. Failures by more than 4 count as 4.
 */
export type GutsEffect = 0 | 1 | 2 | 3 | 4;

/**
 * Which rolls a failure by 1 lowers (Miniatures: Guts — "1 Model is at a -1 to rolls (Rolls only,
 * not stats)"): `allRolls` (default, the text read literally) — every roll the model makes while
 * the failure is in force: its attack rolls, its Guts checks and re-checks (the re-check of that
 * very failure too), its Near Death Guts roll and its stat checks; `attackRolls` — its attack rolls only.
 */
export const GUTS_ROLL_PENALTY_RULES = ["allRolls", "attackRolls"] as const;
export type GutsRollPenaltyRule = (typeof GUTS_ROLL_PENALTY_RULES)[number];

/** The world's rules for a model's Guts rolls (the Miniatures request's `options`). */
export interface GutsRules {
  /** Default "allRolls". */
  gutsRollPenalty?: GutsRollPenaltyRule;
}

/** The rule of `rules.gutsRollPenalty`, validated (error at `options.gutsRollPenalty`). */
export function gutsRollPenaltyRule(rules: GutsRules | undefined): GutsRollPenaltyRule {
  return oneOf(rules?.gutsRollPenalty, "options.gutsRollPenalty", GUTS_ROLL_PENALTY_RULES, "allRolls");
}

/**
 * Miniatures: Guts — "1 Model is at a -1 to rolls (Rolls only, not stats)": −1 while a failure by 1
 * is in force (whatever other failures are in force too: each effect lasts until its own re-check
 * passes), else 0. Not cumulative: two failures by 1 are still −1. Read from the model's own state.
 */
export function gutsRollPenalty(state: GutsState | undefined): number {
  return (state?.pending ?? []).some((p) => p.effect === 1) ? -1 : 0;
}

/**
 * The −1 a roll (Guts check, re-check, Near Death roll, stat check) takes from the model's state under the
 * world's rule, with its step; 0 and no step when none applies.
 */
export function gutsRollPenaltyOf(
  state: GutsState | undefined,
  rules: GutsRules | undefined,
): { penalty: number; steps: Step[] } {
  const penalty = gutsRollPenaltyRule(rules) === "allRolls" ? gutsRollPenalty(state) : 0;
  // Miniatures: Guts — "−1 to rolls (Rolls only, not stats)": the Guts roll is a roll, Guts (the stat) stays.
  return { penalty, steps: penalty ? [step("FUDGE.Miniatures.Step.GutsRollPenalty", GUTS_RULE, penalty)] : [] };
}

export interface GutsEffectInfo {
  effect: GutsEffect;
  /** Added to the model's rolls (effect 1 only). */
  rollPenalty: number;
  mayAttack: boolean;
  /** Runs at least this fraction of its Movement toward safety (effect 3). */
  flees: boolean;
  /** Free attack bonus of enemies in base contact when it flees. */
  freeAttackBonus: number;
  /** Enemies treat it as a helpless target (HDDF). */
  helpless: boolean;
  labelKey: string;
}

export function gutsEffectInfo(effect: GutsEffect): GutsEffectInfo {
  return {
    effect,
    rollPenalty: effect === 1 ? -1 : 0,
    // A model that runs or cowers does not attack either.
    mayAttack: effect < 2,
    flees: effect === 3,
    freeAttackBonus: effect === 3 ? 1 : 0,
    helpless: effect === 4,
    labelKey: `FUDGE.Miniatures.Guts.Effect${effect}`,
  };
}

/**
 * Who checks and in what situation, for the gifts and faults with a rule (seed 004 "Sample
 * characters"; docs/rules-api.md). All optional; without them a check is the plain one.
 */
export interface GutsSituation {
  /** The checking model's gift and fault (a datacard has both fields). */
  gift?: MiniTrait;
  fault?: MiniTrait;
  /** Reason "terrifying": this model is being charged (Steadfast), not charging. Default false. */
  beingCharged?: boolean;
  /** The model is defending the King (Faithful). Default false. */
  defendingKing?: boolean;
  /** A peasant in melee with a model of Noble presence: −1 (the King's "Noble presence"). Default false. */
  nobleInMelee?: boolean;
  /** A follower whose Leader has fallen: −1 (the King's "Leader"). Default false. */
  leaderFallen?: boolean;
}

const TRAITS = "Miniatures: Sample characters";

/** Validates a GutsSituation's flags (the traits are validated where they are parsed). */
function situationFlags(
  s: GutsSituation,
): Required<Pick<GutsSituation, "beingCharged" | "defendingKing" | "nobleInMelee" | "leaderFallen">> {
  return {
    beingCharged: bool(s.beingCharged, "beingCharged", false),
    defendingKing: bool(s.defendingKing, "defendingKing", false),
    nobleInMelee: bool(s.nobleInMelee, "nobleInMelee", false),
    leaderFallen: bool(s.leaderFallen, "leaderFallen", false),
  };
}

/**
 * The modifiers gifts, faults and the King's presence give a Guts check, with their steps:
 * Steadfast (+value, a "terrifying" check while being charged), Faithful (+value, defending the
 * King), a peasant in melee with Noble presence (−1), a follower whose Leader fell (−1).
 */
export function gutsTraitModifiers(reason: GutsReason | null, s: GutsSituation): { modifier: number; steps: Step[] } {
  const f = situationFlags(s);
  let modifier = 0;
  const steps: Step[] = [];
  const add = (key: string, value: number, name?: string): void => {
    modifier += value;
    steps.push(step(key, TRAITS, value, { name: name ?? "", value: signed(value) }));
  };
  const steadfast = traitWith(s, "steadfast");
  // "+1 to Guts check when being charged by Terrifying opponent": being charged only, not charging.
  if (steadfast && reason === "terrifying" && f.beingCharged)
    add("FUDGE.Miniatures.Step.Trait.steadfast", traitValue(steadfast), steadfast.name);
  const faithful = traitWith(s, "faithful");
  // "+1 to Guts checks when defending the King": every check made while defending him.
  if (faithful && f.defendingKing) add("FUDGE.Miniatures.Step.Trait.faithful", traitValue(faithful), faithful.name);
  // "peasants make Guts checks at -1 when in melee with the King" / "all followers make Guts checks at -1 if the King has fallen".
  if (f.nobleInMelee) add("FUDGE.Miniatures.Step.Trait.noblePresence", -1);
  if (f.leaderFallen) add("FUDGE.Miniatures.Step.Trait.leader", -1);
  return { modifier, steps };
}

export interface GutsCheckResult {
  /** Dice total (Legendary roll). */
  dice: number;
  /** Guts + modifiers + dice. */
  total: number;
  target: number;
  /** Meets or beats the target. */
  passed: boolean;
  /** Margin of failure, 0 when passed. */
  margin: number;
  effect: GutsEffect;
  /** Mercenary: "will flee the combat on any failed Guts check" — this check failed. */
  fleesCombat: boolean;
  steps: Step[];
}

/**
 * One Guts check: Guts (already lowered by wound penalties, it is a stat) + modifiers + 4dF
 * (Legendary) against the target. Meeting the target passes; a failure by 0 would have the same
 * effect ("act normally"), so the two readings agree.
 */
export function gutsCheck(
  guts: number,
  modifiers: number,
  faces: unknown,
  target: number,
  path = "faces",
  situation: GutsSituation & { reason?: GutsReason } = {},
): GutsCheckResult {
  int(guts, "guts", -50, 50);
  int(modifiers, "modifiers", -50, 50);
  int(target, "target", -50, 50);
  const traits = gutsTraitModifiers(situation.reason ?? null, situation);
  modifiers += traits.modifier;
  const dice = legendaryTotal(faces, path).total;
  const total = guts + modifiers + dice;
  const margin = Math.max(0, target - total);
  const effect = Math.min(4, margin) as GutsEffect;
  const steps = [
    ...traits.steps,
    step("FUDGE.Miniatures.Step.GutsRoll", GUTS_RULE, total, {
      guts: signed(guts),
      modifiers: signed(modifiers),
      dice: signed(dice),
      total: signed(total),
      target: signed(target),
    }),
    step(margin === 0 ? "FUDGE.Miniatures.Step.GutsPassed" : "FUDGE.Miniatures.Step.GutsFailed", GUTS_RULE, margin, {
      effect: `FUDGE.Miniatures.Guts.Effect${effect}`,
    }),
  ];
  const passed = total >= target;
  // Miniatures: Sample characters — Mercenary: "will flee the combat on any failed Guts check".
  const mercenary = !passed && traitWith(situation, "mercenary");
  if (mercenary) steps.push(step("FUDGE.Miniatures.Step.Trait.mercenary", TRAITS, margin, { name: mercenary.name }));
  return { dice, total, target, passed, margin, effect, fleesCombat: !!mercenary, steps };
}

// ---------------------------------------------------------------- the re-check state machine

export const GUTS_REASONS = ["newWoundLevel", "twoWoundLevels", "friendShoots", "terrifying", "other"] as const;
export type GutsReason = (typeof GUTS_REASONS)[number];

/** A failed check still in force, re-checked each later turn until passed. */
export interface GutsPending {
  reason: GutsReason;
  target: number;
  /** Turn of the failed check (the turn the wound level was taken). */
  sinceTurn: number;
  /** Cumulative bonus earned so far (used by the last re-check). */
  bonus: number;
  /** How many of the next +1 bonuses are lost (one per new wound level taken since). */
  forfeitNext: number;
  /** Turn of the last check of this failure. */
  lastTurn: number;
  /** Effect of the failure; it lasts until a re-check passes ("or continue to suffer the effects of the previous failure"). */
  effect: GutsEffect;
}

/**
 * Failed checks one model may have in force at once: far more than a battle gives (each is
 * re-checked every turn until passed), and the bound on what the table rolls for it each turn.
 * A failure beyond it puts aside the mildest (the oldest of those): the worst effect stays in force.
 */
export const GUTS_PENDING_MAX = 16;

/** The failures kept under GUTS_PENDING_MAX: the mildest (oldest first) put aside, order kept. */
export function boundedPending<T extends { effect?: unknown }>(pending: readonly T[]): T[] {
  const out = [...pending];
  const mildness = (p: T) => (typeof p?.effect === "number" ? p.effect : 0);
  while (out.length > GUTS_PENDING_MAX) {
    let drop = 0;
    for (let i = 1; i < out.length; i++) if (mildness(out[i]) < mildness(out[drop])) drop = i;
    out.splice(drop, 1);
  }
  return out;
}

export interface GutsState {
  pending: GutsPending[];
  /** Worst effect in force (0 when nothing is pending). */
  effect: GutsEffect;
}

export function initialGutsState(): GutsState {
  return { pending: [], effect: 0 };
}

const worst = (pending: GutsPending[]): GutsEffect =>
  pending.reduce<GutsEffect>((m, p) => (p.effect > m ? p.effect : m), 0);

export function parseGutsState(input: unknown, path: string): GutsState {
  if (input === undefined || input === null) return initialGutsState();
  const o = record(input, path);
  const pending = array(o.pending ?? [], at(path, "pending"), 0, GUTS_PENDING_MAX).map((e, i) => {
    const p = at(at(path, "pending"), i);
    const r = record(e, p);
    const sinceTurn = int(r.sinceTurn, at(p, "sinceTurn"), 0);
    const entry: GutsPending = {
      reason: oneOf(r.reason, at(p, "reason"), GUTS_REASONS, "other"),
      target: int(r.target, at(p, "target"), -50, 50),
      sinceTurn,
      bonus: int(r.bonus ?? 0, at(p, "bonus"), 0),
      forfeitNext:
        typeof r.forfeitNext === "boolean" ? (r.forfeitNext ? 1 : 0) : int(r.forfeitNext ?? 0, at(p, "forfeitNext"), 0),
      lastTurn: int(r.lastTurn ?? sinceTurn, at(p, "lastTurn"), sinceTurn),
      effect: int(r.effect, at(p, "effect"), 1, 4) as GutsEffect,
    };
    return entry;
  });
  return { pending, effect: worst(pending) };
}

export interface GutsTrigger extends GutsSituation {
  /** The model's Guts (already lowered by its wound penalty). */
  guts: number;
  modifiers?: number;
  faces: unknown;
  target: number;
  turn: number;
  reason: GutsReason;
}

/**
 * An immediate check (a new wound level, a friend shooting into the melee, a Terrifying charge).
 * A new wound level also makes every failure still pending lose its next +1 (Miniatures: Guts).
 * A failure by 1 already in force lowers the check by 1 under `rules.gutsRollPenalty` "allRolls"
 * (the default); the new failure's own effect starts after this check.
 */
export function gutsTrigger(
  state: GutsState,
  t: GutsTrigger,
  rules: GutsRules = {},
): { state: GutsState; check: GutsCheckResult; fleesCombat: boolean; steps: Step[] } {
  const turn = int(t.turn, "turn", 0);
  const reason = oneOf(t.reason, "reason", GUTS_REASONS);
  const shaken = gutsRollPenaltyOf(state, rules);
  const check = gutsCheck(
    t.guts,
    int(t.modifiers ?? 0, "modifiers", -50, 50) + shaken.penalty,
    t.faces,
    t.target,
    "faces",
    { ...t, reason },
  );
  const steps = [...shaken.steps, ...check.steps];
  const woundLevel = reason === "newWoundLevel" || reason === "twoWoundLevels";
  let pending = state.pending.map((p) => ({ ...p }));
  if (woundLevel && pending.length > 0) {
    // Miniatures: Guts — "it loses the next +1 bonus to the check for the first wound".
    pending = pending.map((p) => ({ ...p, forfeitNext: p.forfeitNext + 1 }));
    steps.push(step("FUDGE.Miniatures.Step.GutsForfeit", GUTS_RULE, pending.length));
  }
  if (!check.passed && check.effect > 0)
    pending.push({
      reason,
      target: t.target,
      sinceTurn: turn,
      bonus: 0,
      forfeitNext: 0,
      lastTurn: turn,
      effect: check.effect,
    });
  pending = boundedPending(pending);
  return { state: { pending, effect: worst(pending) }, check, fleesCombat: check.fleesCombat, steps };
}

/**
 * The re-check of a pending failure (by index, default the oldest) on a later turn: the bonus
 * grows by +1 per turn since its last check, starting the turn after the wound, less any
 * forfeited +1. A pass ends that failure; a failure keeps its old effect in force.
 * `guts` is passed here because wounds may have lowered it since the first check. Under
 * `rules.gutsRollPenalty` "allRolls" (the default) a failure by 1 in force — this one too — lowers
 * the re-check by 1.
 */
export function gutsRecheck(
  state: GutsState,
  faces: unknown,
  turn: number,
  guts: number,
  modifiers = 0,
  index = 0,
  situation: GutsSituation = {},
  rules: GutsRules = {},
): { state: GutsState; check: GutsCheckResult; fleesCombat: boolean; steps: Step[] } {
  if (state.pending.length === 0)
    throw new RulesError("state.pending", "FUDGE.Error.Miniatures.NoGutsPending", "no failed Guts check to re-check");
  int(index, "index", 0, state.pending.length - 1);
  const entry = state.pending[index];
  int(turn, "turn", entry.lastTurn + 1);
  let gained = turn - entry.lastTurn;
  const forfeited = Math.min(gained, entry.forfeitNext);
  gained -= forfeited;
  const bonus = entry.bonus + gained;
  const shaken = gutsRollPenaltyOf(state, rules);
  const check = gutsCheck(
    guts,
    int(modifiers, "modifiers", -50, 50) + bonus + shaken.penalty,
    faces,
    entry.target,
    "faces",
    { ...situation, reason: entry.reason },
  );
  const steps = [
    step("FUDGE.Miniatures.Step.GutsBonus", GUTS_RULE, bonus, { bonus: signed(bonus), forfeited }),
    ...shaken.steps,
    ...check.steps,
  ];
  const pending = state.pending.map((p) => ({ ...p }));
  if (check.passed) pending.splice(index, 1);
  else pending[index] = { ...entry, bonus, lastTurn: turn, forfeitNext: entry.forfeitNext - forfeited };
  return { state: { pending, effect: worst(pending) }, check, fleesCombat: check.fleesCombat, steps };
}

/** Near Death turn roll: ≥ +2 recovers to Very Hurt; ≤ −1 dies; otherwise still Near Death. */
export type NearDeathResult = "veryHurt" | "dead" | "nearDeath";

/**
 * `gutsState`: the model's failed Guts checks in force (a failure by 1 lowers the roll by 1 under
 * `rules.gutsRollPenalty` "allRolls", the default); none by default.
 */
export function nearDeathRoll(
  guts: number,
  faces: unknown,
  modifiers = 0,
  path = "faces",
  gutsState: GutsState = initialGutsState(),
  rules: GutsRules = {},
): { result: NearDeathResult; total: number; steps: Step[] } {
  int(guts, "guts", -50, 50);
  int(modifiers, "modifiers", -50, 50);
  const shaken = gutsRollPenaltyOf(gutsState, rules);
  modifiers += shaken.penalty;
  const dice = legendaryTotal(faces, path).total;
  const total = guts + modifiers + dice;
  // Miniatures: Wounds — "If the modified roll is a +2 or better, it becomes merely Very Hurt … −1 or less, it becomes Dead".
  const result: NearDeathResult = total >= 2 ? "veryHurt" : total <= -1 ? "dead" : "nearDeath";
  return {
    result,
    total,
    steps: [
      ...shaken.steps,
      step("FUDGE.Miniatures.Step.NearDeathRoll", "Miniatures: Wounds", total, {
        guts: signed(guts),
        modifiers: signed(modifiers),
        dice: signed(dice),
        total: signed(total),
      }),
      step(`FUDGE.Miniatures.Step.NearDeath.${result}`, "Miniatures: Wounds"),
    ],
  };
}

/**
 * The Near Death turn roll on the model's box track: Guts + modifiers + 4dF (Legendary).
 * ≥ +2 → "merely Very Hurt" (box track healing `{type:"recover", to:"veryHurt"}`: worse boxes
 * clear, Very Hurt is marked if it was not), and the model acts normally; ≤ −1 → Dead (the Dead box); otherwise still Near Death.
 * Pass `guts` as the datacard shows it with the wound penalty (datacard(card, penalty).guts):
 * wounds lower every stat (Miniatures: Wounds). `gutsState` and `rules` as nearDeathRoll's: a
 * failure by 1 still in force lowers the roll by 1 (default "allRolls").
 */
export function nearDeathGuts(
  track: Track,
  guts: number,
  faces: unknown,
  modifiers = 0,
  gutsState: GutsState = initialGutsState(),
  rules: GutsRules = {},
): { result: NearDeathResult; total: number; track: Track; steps: Step[] } {
  const t = parseTrack(track, "track");
  if (t.config.kind !== "box")
    throw new RulesError(
      "track.config.kind",
      "FUDGE.Error.Miniatures.TrackKind",
      "a Miniatures model needs a box track",
    );
  if (trackStatus(t).condition !== "dying")
    throw new RulesError("track", "FUDGE.Error.Miniatures.NotNearDeath", "only a Near Death model makes this roll");
  const r = nearDeathRoll(guts, faces, modifiers, "faces", gutsState, rules);
  if (r.result === "nearDeath") return { ...r, track: t };
  if (r.result === "dead") {
    const d = applyWound(t, { level: "dead" });
    return { ...r, track: d.track, steps: [...r.steps, ...d.steps] };
  }
  // "Merely Very Hurt": the box track's recover request clears the worse boxes and marks Very Hurt if needed.
  const config = t.config as unknown as BoxTrackConfig;
  const vh = [...config.levels].reverse().find((l) => l.effect === "penalty");
  if (!vh)
    throw new RulesError(
      "track.config.levels",
      "FUDGE.Error.Miniatures.NoVeryHurt",
      "this track has no level to recover to",
    );
  const h = healTrack(t, { type: "recover", to: vh.key });
  return { ...r, track: h.track, steps: [...r.steps, ...h.steps] };
}
