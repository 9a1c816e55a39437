/**
 * What a wound track kind implements (Fudge boxes, Damage Capacity as a track, FATE ladder, Volt
 * rows), and the shapes every kind shares. A track is plain JSON: `{ config, state }`. The kinds
 * are listed in track.ts, which dispatches on `config.kind`.
 *
 * All functions are pure: they return new states and never mutate their input.
 */
import type { Step } from "./explain";

/** What a character can still do, in the order of severity used for statuses. */
export type Condition = "able" | "cannotAct" | "dying" | "dead" | "takenOut";

export const CONDITIONS: readonly Condition[] = ["able", "cannotAct", "dying", "dead", "takenOut"];

export interface TrackStatus {
  /** Penalty to every roll (or, in Miniatures, to every stat): 0 or negative. */
  penalty: number;
  condition: Condition;
  /** False when the condition forbids acting (a Volt circled-row Injury is dying but can act). */
  canAct: boolean;
  /** Key of the worst level reached (e.g. "hurt", "veryHurt", "nearDeath"), null when unhurt. Drives token statuses. */
  levelKey: string | null;
  /** Temporary effects currently on the track (e.g. "stunned", "veryStunned", "clipped"). */
  effects: string[];
  /** Why: the rules that produced penalty and condition. */
  steps: Step[];
  /**
   * The penalty outside combat when it differs from `penalty` (Fudge §4.51: a Light Wound "causes
   * no penalty during combat … but after combat the character will be at -1"); see penaltyFor.
   */
  afterCombatPenalty?: number;
}

/** The penalty a roll takes: in combat `penalty`, outside it the after-combat one (Fudge §4.51). */
export function penaltyFor(status: Pick<TrackStatus, "penalty" | "afterCombatPenalty">, inCombat: boolean): number {
  return inCombat || status.afterCombatPenalty === undefined ? status.penalty : status.afterCombatPenalty;
}

/** One box (or row circle) as the sheet shows it. `ref` is what a click sends back to `toggle`. */
export interface RenderBox {
  ref: string;
  marked: boolean;
  /** Short mark drawn in the box: "X", a real-level tag like "H", Volt "|", "−", "+". */
  mark: string;
  /** Key of the wound's real level when the mark overflowed from a lower level. */
  realLevelKey?: string;
  overflow: boolean;
  stun: boolean;
  /** Blacked-out (Volt Tough) or otherwise not markable. */
  disabled: boolean;
  /** Accessible label key + params, e.g. FUDGE.Track.BoxLabel {level, n}. */
  labelKey: string;
  labelParams: Record<string, string | number>;
}

export interface RenderRow {
  key: string;
  /** i18n key of the level / row name (FUDGE.Wound.hurt, FUDGE.Volt.Row …). */
  labelKey: string;
  labelParams: Record<string, string | number>;
  /** Damage numbers that reach this level ("3–4", "9+"), when the track has thresholds. */
  range: string;
  /** Penalty shown beside the level; null when the level's effect is not a number. */
  penalty: number | null;
  /** i18n key of a non-numeric effect ("FUDGE.Effect.cannotAct"), or "". */
  effectKey: string;
  circled: boolean;
  boxes: RenderBox[];
}

export interface TrackRender {
  kind: string;
  /** Label of the track (FATE tracks have a kind label, e.g. "Physical", "Social"). */
  label: string;
  rows: RenderRow[];
  status: TrackStatus;
}

export interface ApplyResult<S> {
  state: S;
  /** How the wound was placed (which box, overflow, ignored, killed). */
  steps: Step[];
  status: TrackStatus;
  /** The wound could not be recorded because it ended the fight (killed / taken out). */
  ended: boolean;
}

/**
 * A stun that counts down by the stunned one's own turns (Fudge §4.62): its effect, rounds left and
 * stun marks. Two snapshots differ when a new stun landed in between.
 */
export interface StunSnapshot {
  effect: string;
  rounds: number;
  marks: number;
}

/** A track kind. C: config, S: state, W: wound, H: healing request. */
export interface TrackKind<C, S, W, H = unknown> {
  kind: string;
  parseConfig(input: unknown, path: string): C;
  /** Validates stored state against the config (stored actor data, chat-card snapshots). */
  parseState(config: C, input: unknown, path: string): S;
  parseWound(config: C, input: unknown, path: string): W;
  parseHealing(config: C, input: unknown, path: string): H;
  initial(config: C): S;
  /**
   * `quiet`: the caller (the duel forecast) reads only the new state and the status's numbers,
   * and changes no state: a kind may leave out some or all explanation steps (the result's and
   * the status's), and the new state may share parts with the input.
   */
  apply(config: C, state: S, wound: W, quiet?: boolean): ApplyResult<S>;
  status(config: C, state: S): TrackStatus;
  heal(config: C, state: S, healing: H): { state: S; steps: Step[] };
  /** A click on a box of the sheet: mark it (with its own level) or clear it. */
  toggle(config: C, state: S, ref: string): S;
  render(config: C, state: S): TrackRender;
  /** Canonical string of a state, equal for equal states (memo key for the forecast). */
  stateKey(config: C, state: S): string;
  /**
   * Takes one wound of this real level off the track (for endBattle); null when the track holds
   * none (healed, cleared or already dead). Kinds without it keep their wounds.
   */
  removeWound?(config: C, state: S, level: string): S | null;
  /**
   * Two wound levels one adjustment apart (endBattle): Fudge §4.52 "This adjustment can either be
   * one wound *level*, or simply one damage point". Kinds without it remove no wounds either.
   */
  oneLevelApart?(config: C, from: string, to: string): boolean;
  /** The stun in force that counts down by turns (Fudge §4.62 on the box track); kinds without it have none. */
  stunInForce?(config: C, state: S): StunSnapshot | null;
  /** A wound level's name as the sheet shows it (a custom level's own label); absent: `FUDGE.Wound.<key>`. */
  levelName?(config: C, key: string): string;
}

/** A track as stored on an actor: its shape and what is marked on it. */
export interface Track<C extends { kind: string } = { kind: string } & Record<string, unknown>, S = unknown> {
  config: C;
  state: S;
}
