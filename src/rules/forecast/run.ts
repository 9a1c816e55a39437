/**
 * One duel as the forecast plays it: both sides' states, what each turn can do to them (the
 * preset pipeline's dice enumerated once per pair of statuses, the wound placed by the track
 * kind's own `apply`), and the preset's duel rules at each point they apply. The methods (chain,
 * forward, phases, sample, and a preset's own) read the duel only through this class.
 *
 * Contract with pipelines: the wound an attack deals may depend on the two tracks only through
 * their status (penalty, effects, whether the side can act), so each status pair is enumerated
 * once and reused for every state pair that shares it. What depends on the exact marks (overflow,
 * safeguards, Volt row collisions) belongs to the track's own `apply`, which sees the real state.
 */
import type { AttackPipeline, AttackRequest } from "../pipeline";
import { healTrack, trackKind, trackStateKey, type TrackStatus } from "../track";
import type { DuelForecast } from "./answer";
import { enumerateAttack } from "./attack-outcomes";
import { chainCap, memoryCap, memoryRefusal, tooManyStates, type ForecastStateKind } from "./budget";
import type { Chain } from "./chain";
import { SideChanges, type TurnOutcome } from "./changes";
import type { DuelOptions, DuelRequest, SideId } from "./request";
import type { DuelStartState, PresetDuel, SideMind, SideMinds } from "./rules";
import { cannotAct, Side, statusSignature } from "./side";

/** What a preset's duel rules see of a duel before it is played. */
export interface DuelStart {
  input: Record<string, unknown>;
  pipeline: AttackPipeline;
  /** `a`: a attacks b; `b`: b attacks a (each side's card is its attacker). */
  attacks: { a: AttackRequest; b: AttackRequest };
  first: SideId;
}

/** A side's next state after a change: one state, or a distribution (a check of its mind). */
export type NextState = number | Array<[number, number]>;

/** Visits one outcome of a turn: both sides' states after it, whose turn is next, its probability. */
export type TurnVisit = (a: number, b: number, next: SideId, q: number) => void;

export class DuelRun<M extends SideMind = SideMind> {
  readonly preset: string;
  readonly alternating: boolean;
  readonly minds: SideMinds<M> | null;
  readonly sides: { a: Side<M>; b: Side<M> };
  readonly changes = new SideChanges();
  /** The duel's start states. */
  readonly start: { a: number; b: number };
  /** The chain's node cap, within the memory budget (capChain). */
  chainStates: number;
  /** Distinct status pairs whose dice were enumerated. */
  enumerations = 0;
  /** The bounded methods' first threshold: a state holding less is not followed (`tighten` lowers it). */
  readonly firstThreshold: number;
  private readonly attackCache = new Map<number, TurnOutcome[]>();
  private readonly ownTurnCache = new Map<number, TurnOutcome[]>();
  /** Each side's turn-start outcomes flat, [state, p, state, p, …] (a large chain holds tens of thousands: one array of doubles each). */
  private readonly turnStartCache = new Map<number, number | number[]>();
  private startsMemo: DuelStartState[] | null = null;

  constructor(
    readonly chain: Chain,
    readonly request: DuelRequest,
    readonly pipeline: AttackPipeline,
    readonly attacks: { a: AttackRequest; b: AttackRequest },
    readonly rules: PresetDuel<M>,
    readonly options: DuelOptions,
    /** A run of the same duel whose states and enumerations this one reuses (DuelSetup: the stages of one request). */
    from?: DuelRun<M>,
  ) {
    this.preset = pipeline.preset;
    this.alternating = pipeline.exchange === "alternating";
    this.minds = rules.minds ?? null;
    this.chainStates = request.chainStates;
    this.capChain("chain");
    this.firstThreshold = request.tolerance * 1e-2;
    if (from) {
      // Everything a run keeps is of the duel, not of the method or the budget: states, changes, enumerations.
      this.sides = from.sides;
      this.start = from.start;
      this.changes = from.changes;
      this.enumerations = from.enumerations;
      this.attackCache = from.attackCache;
      this.ownTurnCache = from.ownTurnCache;
      this.turnStartCache = from.turnStartCache;
      this.startsMemo = from.startsMemo;
      return;
    }
    const signatures = new Map<string, number>();
    const side = (id: SideId, card = id === "a" ? attacks.a.attacker : attacks.a.defender): Side<M> =>
      new Side(id, card, signatures, {
        isOut: rules.isOut ?? cannotAct,
        signature: rules.signature ?? statusSignature,
        stateKey: rules.stateKey ?? trackStateKey,
        fleesAt: rules.fleesAt?.(id) ?? null,
        exactDefender: rules.statusReads !== "attacker" && (rules.exactDefender?.(id) ?? false),
        minds: this.minds,
      });
    this.sides = { a: side("a"), b: side("b") };
    const startMind = (id: SideId): M | null => this.minds?.start(id) ?? null;
    this.start = {
      a: this.sides.a.intern(attacks.a.attacker.track, startMind("a")),
      b: this.sides.b.intern(attacks.a.defender.track, startMind("b")),
    };
  }

  get first(): SideId {
    return this.request.first;
  }

  /** The side a side fights. */
  foe(side: SideId): SideId {
    return side === "a" ? "b" : "a";
  }

  /** The chain's cap within the memory budget too: past `memoryCap` its nodes are refused with MemoryBudget, not TooManyStates. */
  capChain(kind: ForecastStateKind): void {
    const { maxBytes } = this.request;
    const byMemory = memoryCap(kind, maxBytes);
    this.chain.tooMany =
      byMemory < this.chainStates
        ? ((this.chainStates = byMemory), () => memoryRefusal(maxBytes, byMemory, kind))
        : tooManyStates;
  }

  /** The chain's cap for a method's kind of node: the request's `maxStates`, else what that kind costs within chainBytes. */
  useChainKind(kind: "chain" | "flight" | "forward"): void {
    this.chainStates = this.request.ownCap ? this.request.maxStates : chainCap(kind, this.options.chainBytes);
    this.capChain(kind);
  }

  /** Where the duel starts: the preset's opening checks, else the two combatants with `first` to act. */
  starts(): DuelStartState[] {
    return (this.startsMemo ??= this.rules.openingChecks?.(this) ?? [
      { a: this.start.a, b: this.start.b, turn: this.first, w: 1, spent: false },
    ]);
  }

  /** The answer, its fields in the order every method gives them (the CLI prints them so). */
  answer(f: Omit<DuelForecast, "preset" | "enumerations" | "aFled" | "bFled">): DuelForecast {
    const answer: DuelForecast = {
      preset: this.preset,
      aOut: f.aOut,
      bOut: f.bOut,
      stalemate: f.stalemate,
      expectedExchanges: f.expectedExchanges,
      states: f.states,
      enumerations: this.enumerations,
      exact: f.exact,
      errorBound: f.errorBound,
      method: f.method,
    };
    if (f.estimate) answer.estimate = f.estimate;
    return answer;
  }

  /** The answer of a bounded method: whatever probability it dropped is its error bound. */
  boundedAnswer(
    method: "forward" | "phases",
    outcome: { aOut: number; bOut: number; stalemate: number },
    bound: number,
    attacks: number,
    states: number,
  ): DuelForecast {
    return this.answer({
      ...outcome,
      expectedExchanges: outcome.stalemate > 1e-12 ? null : attacks / 2,
      states,
      exact: bound === 0,
      errorBound: bound,
      method,
    });
  }

  /** Repeats a bounded forecast, leaving out less each time, until its bound is within `tolerance` (or the budget stops it). */
  tighten(once: (threshold: number) => DuelForecast): DuelForecast {
    for (let threshold = this.firstThreshold; ; threshold /= 30) {
      const r = once(threshold);
      if (r.errorBound <= this.request.tolerance) return r;
    }
  }

  /** The wounds of a change as the side's track kind parses them (once per change). */
  woundsOf(side: Side<M>, change: number): unknown[] {
    let w = side.wounds.get(change);
    if (!w) {
      const config = side.tracks[0].config;
      const kind = trackKind(config.kind);
      side.wounds.set(change, (w = this.changes.list[change].wounds!.map((x) => kind.parseWound(config, x, "wound"))));
    }
    return w;
  }

  /** A side's state after a change: the next state, or a distribution (a check of its mind). */
  apply(side: Side<M>, id: number, change: number): NextState {
    if (change === this.changes.nothing) return id;
    const row = (side.next[id] ??= []);
    let next = row[change];
    if (next === undefined) row[change] = next = this.applyOnce(side, id, change);
    return next;
  }

  private applyOnce(side: Side<M>, id: number, change: number): NextState {
    const c = this.changes.list[change];
    // The roll that consumed a follow-up (FATE Clipped) comes before the wound it dealt.
    let track = side.tracks[id];
    let status: TrackStatus | undefined;
    if (c.heal !== null) track = healTrack(track, c.heal).track;
    if (c.wounds !== null) {
      // The track kind's own apply, without applyWound's memo: each (state, wound) pair comes here once.
      const kind = trackKind(track.config.kind);
      for (const wound of this.woundsOf(side, change)) {
        const r = kind.apply(track.config, track.state, wound, true); // quiet: the forecast reads no step
        track = { config: track.config, state: r.state };
        status = r.status;
      }
    }
    const mind = side.minds[id];
    if (mind === null || this.minds === null) return side.intern(track, null, status);
    const after = this.minds.afterChange(
      mind,
      {
        side: side.id,
        before: side.tracks[id],
        beforeStatus: side.status[id],
        after: track,
        afterStatus: status,
        wounded: c.wounds !== null,
        healing: c.heal,
      },
      c.endsFreeAttack,
    );
    if (!Array.isArray(after)) return side.intern(track, after, status);
    return after.length === 1
      ? side.intern(track, after[0][0])
      : after.map(([m, q]) => [side.intern(track, m), q] as [number, number]);
  }

  /**
   * The attack request of `attacker` with both sides' states: only the tracks change (and the
   * minds, and the free attack's situation), so the pipeline reuses what it prepared from the rest.
   */
  attackRequest(attacker: SideId, attackerState: number, defenderState: number, free: boolean): AttackRequest {
    const sx = this.sides[attacker];
    const sy = this.sides[this.foe(attacker)];
    const req = this.attacks[attacker];
    const [xTrack, yTrack] = [sx.tracks[attackerState], sy.tracks[defenderState]];
    const [xMind, yMind] = [sx.minds[attackerState], sy.minds[defenderState]];
    const p = this.pipeline;
    if (!xMind && !yMind && !free && p.withTracks)
      return p.withTracks(req, xTrack, yTrack, sx.status[attackerState], sy.status[defenderState]);
    const minds = this.minds;
    const a = xMind && minds ? minds.combatant(req.attacker, xTrack, xMind) : { ...req.attacker, track: xTrack };
    const d = yMind && minds ? minds.combatant(req.defender, yTrack, yMind) : { ...req.defender, track: yTrack };
    const situation = free && minds ? minds.freeAttack(req.situation) : req.situation;
    return { ...req, attacker: a, defender: d, situation };
  }

  /** Every outcome of `attacker`'s attack from these states (enumerated once per pair of signatures). */
  attackOutcomes(attacker: SideId, attackerState: number, defenderState: number, free: boolean): TurnOutcome[] {
    const sx = this.sides[attacker];
    const sy = this.sides[this.foe(attacker)];
    const defenderKey =
      this.rules.statusReads === "attacker"
        ? 0
        : sy.rules.exactDefender
          ? sy.exact[defenderState]
          : sy.signature[defenderState];
    const key =
      ((sx.signature[attackerState] * 2 ** 20 + defenderKey) * 2 + (free ? 1 : 0)) * 2 + (attacker === "a" ? 0 : 1);
    let outcomes = this.attackCache.get(key);
    if (!outcomes) {
      this.enumerations++;
      outcomes = enumerateAttack({
        pipeline: this.pipeline,
        attack: this.attackRequest(attacker, attackerState, defenderState, free),
        counterAttack: this.attackRequest(this.foe(attacker), defenderState, attackerState, false),
        attackerStatus: sx.status[attackerState],
        defenderStatus: sy.status[defenderState],
        folding: this.rules.folding ?? null,
        opposedRound: this.rules.opposedRound,
        changes: this.changes,
        free,
      });
      this.attackCache.set(key, outcomes);
    }
    return outcomes;
  }

  /** The turn of a side that cannot act but is still in the fight (PresetDuel.ownTurn). */
  ownTurnOutcomes(side: SideId, state: number, foeState: number): TurnOutcome[] {
    const sx = this.sides[side];
    const mind = sx.minds[state];
    const readsMind = mind !== null && this.minds !== null && this.minds.changesOwnTurn(mind);
    const key = (sx.signature[state] * 2 + (readsMind ? 1 : 0)) * 2 + (side === "a" ? 0 : 1);
    let outcomes = this.ownTurnCache.get(key);
    if (!outcomes) {
      const req = this.attackRequest(side, state, foeState, false);
      outcomes = (this.rules.ownTurn!(req) ?? []).map((o) => ({
        self: this.changes.intern({
          wounds: o.wound === undefined ? null : [o.wound],
          heal: o.heal ?? null,
          endsFreeAttack: false,
        }),
        foe: this.changes.nothing,
        p: o.p,
      }));
      this.ownTurnCache.set(key, outcomes);
    }
    return outcomes;
  }

  /** The checks at the start of a side's turn: its state when there are none, else their outcomes flat ([state, p, …]). */
  turnStart(side: Side<M>, state: number): number | number[] {
    const mind = side.minds[state];
    if (!mind || !this.minds || !this.minds.checksAtTurnStart(mind)) return state;
    const key = state * 2 + (side.id === "a" ? 0 : 1);
    let r = this.turnStartCache.get(key);
    if (r === undefined) {
      const track = side.tracks[state];
      const flat: number[] = [];
      for (const [m, q] of this.minds.turnStart(side.id, mind, track)) flat.push(side.intern(track, m), q);
      this.turnStartCache.set(key, (r = flat));
    }
    return r;
  }

  mayAttack(side: Side<M>, state: number): boolean {
    const mind = side.minds[state];
    return mind === null || this.minds === null || this.minds.mayAttack(mind);
  }

  /** Whether a side owes its foe a free attack (it broke away in contact). */
  owes(side: Side<M>, state: number): boolean {
    return side.minds[state]?.owesFreeAttack === true;
  }

  /** Whether `attacker` declines to strike its foe in this state (its turn passes). */
  refuses(attacker: SideId, foeState: number): boolean {
    const sy = this.sides[this.foe(attacker)];
    return this.rules.refusesToStrike?.(attacker, sy.status[foeState], sy.minds[foeState]) ?? false;
  }

  /** A side's state once the free attack it owed is made or forgone. */
  withoutFreeAttack(side: Side<M>, state: number): number {
    return side.intern(side.tracks[state], this.minds!.withoutFreeAttack(side.id, side.minds[state]!));
  }

  /**
   * Every outcome of the turn of `turn` from (a, b). `take` (the sampled estimate): asked before
   * each branch of probability q is followed; a branch it declines is neither applied nor visited.
   */
  turn(a: number, b: number, turn: SideId, visit: TurnVisit, take?: (q: number) => boolean): void {
    const actor = turn;
    const target = this.foe(actor);
    const sx = this.sides[actor];
    const sy = this.sides[target];
    const x0 = actor === "a" ? a : b;
    const y0 = actor === "a" ? b : a;
    const emit: TurnVisit = (x2, y2, next, q) => (actor === "a" ? visit(x2, y2, next, q) : visit(y2, x2, next, q));
    // After an attack the turn passes (alternating) or stays (opposed), unless the defender broke and owes a free attack.
    const play = (x: number, outcomes: TurnOutcome[], q0: number): void => {
      for (let i = 0; i < outcomes.length; i++) {
        const o = outcomes[i];
        if (take && !take(q0 * o.p)) continue;
        const rx = this.apply(sx, x, o.self);
        const ry = this.apply(sy, y0, o.foe);
        if (typeof rx === "number" && typeof ry === "number")
          emit(rx, ry, !this.alternating || this.owes(sy, ry) ? actor : target, q0 * o.p);
        else
          forEachState(rx, (x2, qx) =>
            forEachState(ry, (y2, qy) =>
              emit(x2, y2, !this.alternating || this.owes(sy, y2) ? actor : target, q0 * o.p * qx * qy),
            ),
          );
      }
    };
    if (!this.alternating) return play(x0, this.attackOutcomes(actor, x0, y0, false), 1);
    if (this.owes(sy, y0)) {
      if (!this.refuses(actor, y0)) return play(x0, this.attackOutcomes(actor, x0, y0, true), 1);
      // A runner its foe declines to strike gets away unstruck.
      if (!take || take(1)) emit(x0, this.withoutFreeAttack(sy, y0), target, 1);
      return;
    }
    if (!sx.canAct[x0]) {
      if (this.rules.ownTurn) {
        for (const o of this.ownTurnOutcomes(actor, x0, y0))
          if (!take || take(o.p)) forEachState(this.apply(sx, x0, o.self), (x2, q) => emit(x2, y0, target, q * o.p));
      } else if (!take || take(1)) emit(x0, y0, target, 1);
      return;
    }
    const checks = this.turnStart(sx, x0);
    const refused = this.refuses(actor, y0);
    if (typeof checks === "number") {
      if (!refused) return play(x0, this.attackOutcomes(actor, x0, y0, false), 1);
      if (!take || take(1)) emit(x0, y0, target, 1); // the turn passes
      return;
    }
    for (let k = 0; k < checks.length; k += 2) {
      const x1 = checks[k];
      const q = checks[k + 1];
      // A check at the turn's start may leave the side unable to attack, or gone (out by flight).
      if (!sx.out[x1] && this.mayAttack(sx, x1) && !refused) play(x1, this.attackOutcomes(actor, x1, y0, false), q);
      else if (!take || take(q)) emit(x1, y0, target, q);
    }
  }
}

/** Calls `f` with each state of a next state and its probability. */
export function forEachState(next: NextState, f: (id: number, q: number) => void): void {
  if (typeof next === "number") f(next, 1);
  else for (const [id, q] of next) f(id, q);
}
