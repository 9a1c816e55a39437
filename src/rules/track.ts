/**
 * One interface for every wound track: the kinds by `config.kind` (TRACK_KINDS), and functions
 * that dispatch on it, so sheets, chat cards, odds and the duel forecast never need to know which
 * kind they hold. What a kind implements is in track-kind.ts.
 *
 * All functions are pure: they return new states and never mutate their input.
 */
import { RulesError } from "./errors";
import type { Step } from "./explain";
import type { ApplyResult, StunSnapshot, Track, TrackKind, TrackRender, TrackStatus } from "./track-kind";
import { boxTrack } from "./fudge/box-track";
import { dcTrack } from "./fudge/dc-track";
import { fateTrack } from "./fate/track";
import { voltTrackKind } from "./volt/track";

export * from "./track-kind";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every track kind, each typed in its own module
type AnyKind = TrackKind<any, any, any, any>;
/**
 * Every track kind by its `config.kind`: Fudge's boxes (Miniatures uses them too), FATE's ladder,
 * Fudge's Damage Capacity, Volt's rows (in the order an unknown kind's refusal lists them).
 */
const KINDS = new Map<string, AnyKind>([
  [boxTrack.kind, boxTrack],
  [fateTrack.kind, fateTrack],
  [dcTrack.kind, dcTrack],
  [voltTrackKind.kind, voltTrackKind],
]);

/** Adds a track kind beside the built-in ones (a test's toy kind; a module's own kind). */
export function registerTrackKind(kind: AnyKind): void {
  KINDS.set(kind.kind, kind);
}

export function trackKind(kind: string, path = "track.config.kind"): AnyKind {
  const k = KINDS.get(kind);
  if (!k)
    throw new RulesError(
      path,
      "FUDGE.Error.UnknownTrackKind",
      `unknown track kind ${JSON.stringify(kind)} (known: ${[...KINDS.keys()].join(", ")})`,
    );
  return k;
}

export function trackKinds(): string[] {
  return [...KINDS.keys()];
}

function kindOf(track: { config: { kind: string } }): AnyKind {
  return trackKind(track?.config?.kind);
}

/** The kind the last parse found (a world, a card, a request: nearly always the same kind). */
let lastKind: AnyKind | undefined;

/**
 * A track's path and its config's and state's, made once by a caller that parses tracks at the
 * same path again and again (a request's attacker and defender): they serve only errors, and
 * building them on every parse was a tenth of a request's parse.
 */
export interface TrackPaths {
  track: string;
  config: string;
  state: string;
}

export function trackPaths(path: string): TrackPaths {
  return { track: path, config: `${path}.config`, state: `${path}.state` };
}

/** Parses a track; `path` (or the paths made by trackPaths) names its fields in errors. */
export function parseTrack(input: unknown, path: string | TrackPaths = "track"): Track {
  const p = typeof path === "string" ? null : path;
  const trackPath = p === null ? (path as string) : p.track;
  if (typeof input !== "object" || input === null)
    throw new RulesError(trackPath, "FUDGE.Error.NotObject", "must be an object");
  const o = input as Record<string, unknown>;
  const cfgIn = o.config as { kind?: unknown } | undefined;
  const kindIn = cfgIn?.kind;
  // The paths are built for the error only when the kind is unknown (a click parses a track).
  const k =
    (kindIn === lastKind?.kind ? lastKind : undefined) ??
    (lastKind = KINDS.get(String(kindIn))) ??
    trackKind(String(kindIn), `${trackPath}.config.kind`);
  const config = k.parseConfig(o.config, p === null ? `${trackPath}.config` : p.config);
  const state =
    o.state === undefined
      ? k.initial(config)
      : k.parseState(config, o.state, p === null ? `${trackPath}.state` : p.state);
  return { config, state };
}

export function newTrack(config: { kind: string }): Track {
  const k = kindOf({ config });
  const c = k.parseConfig(config, "config");
  return { config: c, state: k.initial(c) };
}

/*
 * Configs and states are immutable values (no function here mutates its input), so what is
 * derived from a (config, state) pair is memoized by object identity. Odds, the duel forecast and
 * chat cards ask the same questions of the same tracks thousands of times. Results are frozen:
 * callers share them.
 */
type Applied = ApplyResult<unknown> & { track: Track };
/**
 * By state object: the config it was asked with and what was derived. A state is nearly always
 * asked about with one config, so one weak lookup answers; a state seen with a second config
 * keeps its answers for that config in `others` (config → answers). One WeakMap entry per state,
 * not a WeakMap per config: a chat card parses fresh tracks every time, and a new WeakMap per
 * track (and its ephemerons) made the garbage collector half of a card's work.
 */
interface Memo<V> {
  config: object;
  value: V;
  others: WeakMap<object, V> | null;
}
const statusMemo = new WeakMap<object, Memo<TrackStatus>>();
const applyMemo = new WeakMap<object, Memo<Map<string, Applied>>>();

function memoGet<V>(memo: WeakMap<object, Memo<V>>, track: Track): V | undefined {
  const m = memo.get(track.state as object);
  if (m === undefined) return undefined;
  return m.config === track.config ? m.value : m.others?.get(track.config);
}

function memoSet<V>(memo: WeakMap<object, Memo<V>>, track: Track, value: V): void {
  const m = memo.get(track.state as object);
  if (m === undefined) memo.set(track.state as object, { config: track.config, value, others: null });
  else if (m.config === track.config) m.value = value;
  else (m.others ??= new WeakMap()).set(track.config, value);
}

const memoizable = (track: Track): boolean => typeof track.state === "object" && track.state !== null;

function freezeStatus(s: TrackStatus): TrackStatus {
  Object.freeze(s.steps);
  Object.freeze(s.effects);
  return Object.freeze(s);
}

/**
 * Memo key of a wound: a flat record of strings, numbers, booleans and nulls (every wound the
 * pipelines build) is keyed field by field, length-prefixed so that no two differ only in how
 * they split; anything else by its JSON ("~" keeps the two kinds of key apart).
 */
export function woundMemoKey(wound: unknown): string {
  if (typeof wound !== "object" || wound === null || Array.isArray(wound)) return JSON.stringify(wound) ?? "undefined";
  let key = "~";
  const w = wound as Record<string, unknown>;
  for (const f in w) {
    const v = w[f];
    if (typeof v === "string") key += `${f.length}${f}s${v.length}:${v}`;
    else if (typeof v === "number" || typeof v === "boolean" || v === null)
      key += `${f.length}${f}${typeof v === "number" ? "n" : "b"}${String(v)};`;
    else if (v !== undefined) return JSON.stringify(wound);
  }
  return key;
}

export function applyWound(track: Track, wound: unknown): ApplyResult<unknown> & { track: Track } {
  const memo = memoizable(track);
  const wKey = woundMemoKey(wound);
  const byWound = memo ? memoGet(applyMemo, track) : undefined;
  const cached = byWound?.get(wKey);
  if (cached) return cached;
  const k = kindOf(track);
  const w = k.parseWound(track.config, wound, "wound");
  const r = k.apply(track.config, track.state, w);
  Object.freeze(r.steps);
  freezeStatus(r.status);
  const result = Object.freeze({ ...r, track: { config: track.config, state: r.state } });
  if (memo) {
    if (byWound) byWound.set(wKey, result);
    else memoSet(applyMemo, track, new Map([[wKey, result]]));
  }
  return result;
}

export function trackStatus(track: Track): TrackStatus {
  const memo = memoizable(track);
  const cached = memo ? memoGet(statusMemo, track) : undefined;
  if (cached) return cached;
  const s = freezeStatus(kindOf(track).status(track.config, track.state));
  if (memo) memoSet(statusMemo, track, s);
  return s;
}

export function healTrack(track: Track, healing: unknown): { track: Track; steps: Step[] } {
  const k = kindOf(track);
  const h = k.parseHealing(track.config, healing, "healing");
  const r = k.heal(track.config, track.state, h);
  return { track: { config: track.config, state: r.state }, steps: r.steps };
}

export function toggleBox(track: Track, ref: string): Track {
  return { config: track.config, state: kindOf(track).toggle(track.config, track.state, ref) };
}

export function renderTrack(track: Track): TrackRender {
  return kindOf(track).render(track.config, track.state);
}

export function trackStateKey(track: Track): string {
  return kindOf(track).stateKey(track.config, track.state);
}

/**
 * Undo of an applied wound. The applied record keeps the exact track before and after; undo
 * restores `before` when the track is still as the wound left it, and refuses otherwise
 * (something else changed the track since: the GM must sort it out by hand or force it).
 */
export interface AppliedRecord {
  before: unknown;
  after: unknown;
}

export function undoApplied(track: Track, applied: AppliedRecord, force = false): Track {
  const k = kindOf(track);
  const current = k.stateKey(track.config, track.state);
  const after = k.stateKey(track.config, k.parseState(track.config, applied.after, "applied.after"));
  if (!force && current !== after)
    throw new RulesError("applied", "FUDGE.Error.UndoConflict", "the track has changed since this wound was applied");
  return { config: track.config, state: k.parseState(track.config, applied.before, "applied.before") };
}

/**
 * A wound whose level holds only until the battle is over (Fudge §4.52 (4) "This can be
 * temporary - until the battle is over"): `from` is the level recorded, `to` the level the wound
 * has once the battle is over. The pipelines return it as a `battleLapse` follow-up.
 */
export interface BattleLapse {
  from: string;
  to: string;
}

/** The stun in force that counts down by the stunned one's turns (Fudge §4.62): the kind's hook, null without one. */
export function trackStunInForce(track: Track): StunSnapshot | null {
  return kindOf(track).stunInForce?.(track.config, track.state) ?? null;
}

/** A wound level's name on this track: the kind's own (a custom level's label), else its i18n key `FUDGE.Wound.<key>`. */
export function woundLevelName(track: Track, key: string): string {
  return kindOf(track).levelName?.(track.config, key) ?? `FUDGE.Wound.${key}`;
}

/**
 * A lapse as stored (actor flags, CLI input): both levels must be wound levels of the track, one
 * adjustment apart. A stored lapse is the applier's claim (a player may apply wounds to his own
 * character); the adjustment it undoes is one level or one point (Fudge §4.52 (1), which (4)
 * follows: "This adjustment can either be one wound *level*, or simply one damage point").
 */
export function parseBattleLapse(track: Track, input: unknown, path: string): BattleLapse {
  if (typeof input !== "object" || input === null)
    throw new RulesError(path, "FUDGE.Error.NotObject", "must be an object");
  const o = input as Record<string, unknown>;
  const k = kindOf(track);
  for (const f of ["from", "to"] as const) {
    if (typeof o[f] !== "string")
      throw new RulesError(`${path}.${f}`, "FUDGE.Error.NotString", "must be a wound level key");
    k.parseWound(track.config, { level: o[f] }, `${path}.${f}`);
  }
  const from = o.from as string;
  const to = o.to as string;
  if (k.oneLevelApart && !k.oneLevelApart(track.config, from, to))
    throw new RulesError(
      `${path}.to`,
      "FUDGE.Error.BattleLapseOneLevel",
      `${JSON.stringify(to)} is not one level (or one damage point) from ${JSON.stringify(from)}: the Willpower adjustment that lapses is one level or one point (Fudge §4.52)`,
      {
        from: woundLevelName(track, from),
        to: woundLevelName(track, to),
      },
    );
  return { from, to };
}

/**
 * The battle is over (Fudge §4.52 (4)): each lapse, in order, takes its wound off at the level
 * recorded and applies it again at the level it has without the adjustment (placed by the track's
 * own rules, overflow included). A wound no longer on the track (healed, cleared by hand) or a
 * dead character is left as it is: that lapse is skipped, with a step saying so. A lapse that
 * names no level of the track, or two levels more than one adjustment apart, is refused
 * (RulesError naming the field; see parseBattleLapse).
 */
export function endBattle(
  track: Track,
  lapses: readonly BattleLapse[],
): { track: Track; steps: Step[]; outcomes: BattleLapseOutcome[] } {
  const k = kindOf(track);
  let current = track;
  const steps: Step[] = [];
  const outcomes: BattleLapseOutcome[] = [];
  lapses.forEach((l, i) => {
    const lapse = parseBattleLapse(current, l, `lapses[${i}]`);
    const params = { from: woundLevelName(current, lapse.from), to: woundLevelName(current, lapse.to) };
    const dead = trackStatus(current).condition === "dead";
    const removed = dead ? null : (k.removeWound?.(current.config, current.state, lapse.from) ?? null);
    outcomes.push({ ...lapse, lapsed: removed !== null });
    if (removed === null) {
      steps.push({ key: "FUDGE.Step.Track.BattleLapseGone", rule: "Fudge §4.52", params });
      return;
    }
    steps.push({ key: "FUDGE.Step.Track.BattleLapse", rule: "Fudge §4.52", params });
    const r = applyWound({ config: current.config, state: removed }, { level: lapse.to });
    steps.push(...r.steps);
    current = r.track;
  });
  return { track: current, steps, outcomes };
}

/** What endBattle did with one lapse: `lapsed` false when the wound was no longer there (or the character dead). */
export interface BattleLapseOutcome extends BattleLapse {
  lapsed: boolean;
}
