/**
 * What a preset supplies to the duel forecast: its duel rules. The engine (run.ts and the
 * methods) knows wound tracks, statuses and the preset's attack pipeline; anything a preset's
 * duel adds — fields of the request, what an attack reads of a status, who is out, a side's own
 * turn, checks at the start of a turn, flight, refusals to strike, dice that fold, the default
 * method or methods of its own — comes from here. A preset without duel rules gets the defaults.
 */
import type { AttackPipeline, AttackRequest, Combatant, DiceSlot } from "../pipeline";
import type { Track, TrackStatus } from "../track";
import type { DuelForecast } from "./answer";
import type { DuelOptions, SideId } from "./request";
import type { DuelRun, DuelStart } from "./run";

/** A preset's duel rules: read once per request, then `duel` gives its part of that duel. */
export interface DuelRules<S = unknown, M extends SideMind = SideMind> {
  /** This preset's own fields of a duel request (any other field is refused by name). */
  readonly fields?: readonly string[];
  /** Methods this preset adds to the engine's (`method` takes their names in every preset; another preset refuses them). */
  readonly methods?: readonly string[];
  /** Checks this preset's fields in a request of another preset (a field that would turn one of its rules on is refused). */
  refuseElsewhere?(input: Record<string, unknown>, preset: string): void;
  /** Reads this preset's fields, before the combatants are parsed. */
  settings(input: Record<string, unknown>, pipeline: AttackPipeline): S;
  /** A combatant as this duel's attack requests take it (the request's own, when absent). */
  combatant?(input: unknown, settings: S): unknown;
  /** This preset's part of one duel, once its two attack requests are parsed. */
  duel(start: DuelStart, settings: S, options: DuelOptions): PresetDuel<M>;
  /**
   * Whether a request whose default method was refused for its states or memory is followed by
   * the bounded forward method instead, within what is left of its time.
   */
  forwardPastChain?(input: Record<string, unknown>): boolean;
}

/** A method of a preset's own: the answer, from the duel run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a method runs on any preset's duel, whatever its minds
export type DuelMethod = (run: DuelRun<any>) => DuelForecast;

/** One outcome of a side's own turn (PresetDuel.ownTurn): what happens to its own track. */
export interface OwnTurnOutcome {
  p: number;
  heal?: unknown;
  wound?: unknown;
}

/** One preset's part of one duel. Every member is optional: absent, the engine's default. */
export interface PresetDuel<M extends SideMind = SideMind> {
  /** What an attack by or on a side reads of its track's status (default: penalty, effects, whether it can act). */
  signature?(status: TrackStatus): string;
  /**
   * Which tracks' status an attack's dice and wound depend on: "both" (default) or "attacker"
   * (the defender's status changes nothing), which lets the engine enumerate far fewer pairs.
   */
  statusReads?: "both" | "attacker";
  /** Whether a side in this status is out of the fight (default: it cannot act). */
  isOut?(status: TrackStatus): boolean;
  /**
   * What a side that cannot act but is not out does on its turn: outcomes for its own track, from
   * its attack request (it the attacker). Null for this request, or absent: it does nothing.
   */
  ownTurn?(request: AttackRequest): OwnTurnOutcome[] | null;
  /** The key of a track state: states with one key act alike in every future of the duel (default: the track kind's). */
  stateKey?(track: Track): string;
  /** Whether an attack on this side reads its exact track state, not only its status. */
  exactDefender?(side: SideId): boolean;
  /** When a side leaves the duel by flight in a status (Miniatures: Self-interest); null: never. */
  fleesAt?(side: SideId): ((status: TrackStatus) => boolean) | null;
  /** The answer says how much of each side's `aOut`/`bOut` is flight (`aFled`, `bFled`). */
  flight?: boolean;
  /** What each side does in an opposed round given both statuses (default: both strike, no end of round). */
  opposedRound?(first: TrackStatus, second: TrackStatus): OpposedRound;
  /** Two dice slots an opposed round reads only through their difference, folded into one (default: none). */
  folding?: DiceFolding | null;
  /** Each side's state beside its track (default: none). */
  minds?: SideMinds<M> | null;
  /** Whether `attacker` declines to strike its foe in this state (its turn passes). */
  refusesToStrike?(attacker: SideId, foe: TrackStatus, foeMind: M | null): boolean;
  /** Where the duel starts when checks open it (default: the two combatants as given, `first` to act). */
  openingChecks?(run: DuelRun<M>): DuelStartState[];
  /** The method when the request names none (default "chain"). */
  defaultMethod?: string;
  /** Methods of this preset's own, by name; they take precedence over the engine's of the same name. */
  methods?: Record<string, DuelMethod>;
}

/** A start of the duel: both sides' states, whose turn, its probability; `spent`: one turn already taken. */
export interface DuelStartState {
  a: number;
  b: number;
  turn: SideId;
  w: number;
  spent: boolean;
}

/** Who strikes in an opposed round, and what ends with the round (a healing for both tracks). */
export interface OpposedRound {
  /** The side that rolls first strikes when it wins the roll. */
  firstStrikes: boolean;
  /** The other side strikes back when it wins the roll. */
  secondStrikes: boolean;
  /** A healing both tracks take at the round's end, before its wound (null: none). */
  roundEnd: unknown;
}

/**
 * Two dice slots that an opposed round reads only through their difference, as one slot of joint
 * classes: the resolution reads each half from the class's representative dice.
 */
export interface DiceFolding {
  /** The slots folded (each side's roll). */
  slots: readonly [string, string];
  /** The joint slot: one class per difference. */
  slot: DiceSlot;
  /** A class's dice for each of the two slots. */
  halves(classDice: number[]): readonly [number[], number[]];
  /** A class's difference (first slot's total − second's). */
  difference(classDice: number[]): number;
  /**
   * True when, with these two slots the only dice, the resolution's `relativeDegree` is the class's
   * difference plus a constant of the request: a class below the first one's miss is known to miss.
   */
  relativeDegreeIsDifference: boolean;
}

/** What a side carries beside its wound track through a duel (Miniatures: the checks it failed that are in force). */
export interface SideMind {
  /** Minds with one key act alike in every future of the duel. */
  readonly key: string;
  /** The side has left the duel by flight. */
  readonly fled: boolean;
  /** The side broke away in contact: its foe gets a free attack on it before the turn passes. */
  readonly owesFreeAttack: boolean;
}

/** A side's outcome for its mind: one mind, or a check's outcomes with their probabilities. */
export type MindOutcome<M> = M | Array<[M, number]>;

/** What happened to a side's track in one turn, for its mind. */
export interface TrackChange {
  side: SideId;
  before: Track;
  beforeStatus: TrackStatus;
  after: Track;
  /** The status after the wounds when a wound was placed; absent when none was. */
  afterStatus: TrackStatus | undefined;
  wounded: boolean;
  /** The healing applied first (before any wound), or null. */
  healing: unknown;
}

/** How each side's mind moves through a duel. */
export interface SideMinds<M extends SideMind> {
  /** Each side's mind as the duel starts. */
  start(side: SideId): M;
  /** The mind kept with a state of this status (a reduced one where the rest no longer counts). */
  settle(side: SideId, mind: M, status: TrackStatus): M;
  /** What an attack by or on the side reads of its mind (part of the state's signature). */
  signature(mind: M): string;
  /** The mind after its side's track changed (`endsFreeAttack`: the free attack it owed was made). */
  afterChange(mind: M, change: TrackChange, endsFreeAttack: boolean): MindOutcome<M>;
  /** Whether the side has checks to make at the start of its turn. */
  checksAtTurnStart(mind: M): boolean;
  /** Their outcomes, on the side's track as it is. */
  turnStart(side: SideId, mind: M, track: Track): Array<[M, number]>;
  /** Whether the side may attack with this mind. */
  mayAttack(mind: M): boolean;
  /** The mind once the free attack it owed is made or forgone. */
  withoutFreeAttack(side: SideId, mind: M): M;
  /** The side's combatant in an attack request, with this mind. */
  combatant(card: Combatant, track: Track, mind: M): Combatant;
  /** The situation of the free attack on a side that broke away. */
  freeAttack(situation: Record<string, unknown>): Record<string, unknown>;
  /** Whether the side's own turn (PresetDuel.ownTurn) reads its mind. */
  changesOwnTurn(mind: M): boolean;
  /** Whether states of one side with the same future may share one node (stand-ins). */
  merge: boolean;
  /** Whether no blow can call for another check on a side waiting for its turn in this state. */
  settled(track: Track, status: TrackStatus): boolean;
  /** What the foe's blows (and a fall) read of a waiting side's mind, as a short key. */
  waitingReads(side: SideId, mind: M): string;
}

/** The rules of a preset that supplies none: the engine's defaults throughout. */
export const DEFAULT_DUEL_RULES: DuelRules<undefined> = {
  settings: () => undefined,
  duel: () => ({}),
};
