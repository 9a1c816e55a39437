/**
 * Duel forecast: the exact probability that each side is the first to be put out of the fight
 * (cannot act, dying, dead or taken out), and the expected number of exchanges, for two
 * combatants fighting with the rules of one preset.
 *
 * Method: an absorbing Markov chain over both wound tracks. A state is (A's track, B's track,
 * whose turn). Each step's distribution comes from exact enumeration of the preset pipeline's
 * dice (the same resolve function as a chat card). States are solved in reverse topological order
 * of their strongly connected components (Tarjan); a component with cycles (e.g. FATE Clipped
 * boxes that clear again) is solved exactly by Gaussian elimination.
 *
 * Contract with pipelines: the wound an attack deals may depend on the two tracks only through
 * their status (penalty, effects, whether the side can act); so each status pair is enumerated
 * once and reused for every state pair that shares it. What depends on the exact marks (overflow,
 * safeguards, Volt row collisions) belongs to the track's own `apply`, which sees the real state.
 */
import { RulesError } from "./errors";
import { enumerateDice, pipelineFor, type AttackPipeline, type AttackRequest, type AttackResolution, type DiceReader, type DiceSlot } from "./pipeline";
import { applyWound, healTrack, trackStateKey, trackStatus, type Track, type TrackStatus } from "./track";
import { bool, checkJsonShape, isRecord, num, oneOf, optInt } from "./validate";

export interface DuelForecast {
  preset: string;
  /** P(A is put out first) — B wins. */
  aOut: number;
  /** P(B is put out first) — A wins. */
  bOut: number;
  /** P(the fight can never end: no side can hurt the other any more). */
  stalemate: number;
  /** Expected exchanges until one side is out; null when a stalemate is possible. */
  expectedExchanges: number | null;
  /** Reachable states of the chain (both tracks and the turn). */
  states: number;
  /** Distinct status pairs whose dice were enumerated. */
  enumerations: number;
  /** True when every probability is exact; false when states below `errorBound`'s share were left out. */
  exact: boolean;
  /**
   * Largest possible error of aOut, bOut and stalemate (each): the probability mass of the duels
   * that were not followed to their end. 0 when exact. Never more than the request's `tolerance`.
   */
  errorBound: number;
  /** "chain": the absorbing chain solved exactly; "forward": rounds followed forward (Volt). */
  method: "chain" | "forward";
}

interface Step {
  toA: unknown[] | null; // wounds for A's track, in order (a Miniatures crash follows its blow), or null
  toB: unknown[] | null;
  healA: unknown; // healing a follow-up applies (FATE Clipped consumed, a Near Death roll recovered), or null
  healB: unknown;
  /** What happens to each side (wound and healing) as JSON: the apply cache's key. */
  kA: string;
  kB: string;
  p: number;
}

// What a pipeline may read of a track when it resolves an attack (see the contract above). The
// worst level itself is left out: two states with the same penalty and effects roll alike.
const statusSig = (s: TrackStatus): string => `${s.penalty}|${s.effects.join(",")}|${s.canAct ? 1 : 0}`;

/** Tracks are immutable values here, so what is derived from one is computed once per object. */
interface Derived {
  key: string;
  sig: string;
  out: boolean;
  canAct: boolean;
  dead: boolean;
  dying: boolean;
}
const derivedCache = new WeakMap<Track, Derived>();
function derived(t: Track): Derived {
  let d = derivedCache.get(t);
  if (!d) {
    const s = trackStatus(t);
    d = { key: trackStateKey(t), sig: statusSig(s), out: !s.canAct, canAct: s.canAct, dead: s.condition === "dead", dying: s.condition === "dying" };
    derivedCache.set(t, d);
  }
  return d;
}

function withTracks<R extends AttackRequest>(req: R, attacker: Track, defender: Track): R {
  return { ...req, attacker: { ...req.attacker, track: attacker }, defender: { ...req.defender, track: defender } };
}

function followHeal(r: AttackResolution | null, side: "attacker" | "defender"): unknown {
  const f = r?.followUps.find((x) => x.target === side && typeof x.params.healing === "string");
  return f ? { type: String(f.params.healing) } : null;
}

const NOTHING = "[null,null]";
/** The apply cache's key of what happens to one side: JSON, with a shortcut for the common plain `{level}` wound. */
function whatKey(wounds: unknown[] | null, heal: unknown): string {
  if (wounds === null && heal === null) return NOTHING;
  if (heal === null && wounds !== null && wounds.length === 1) {
    const w = wounds[0] as Record<string, unknown>;
    if (typeof w === "object" && w !== null && typeof w.level === "string") {
      let n = 0;
      for (const _ in w) n++;
      if (n === 1) return `L:${w.level}`;
    }
  }
  return JSON.stringify([wounds, heal]);
}

/** The wounds a resolution deals to its defender, in order: the blow, then a Miniatures crash (Miniatures: Wounds). */
function woundsOf(r: AttackResolution | null): unknown[] | null {
  if (!r || r.wound === null || r.wound === undefined) return null;
  const crash = r.followUps.find((x) => x.type === "crashWound" && x.target === "defender");
  return crash ? [r.wound, { level: crash.params.level }] : [r.wound];
}

// The forecast reads the wound and applies it to the real state itself.
const QUIET = { explain: false, preview: false } as const;

/** Enumerates one step: `first` attacks `second` (opposed: the loser of the roll is wounded). */
const END_ROUND = { type: "endRound" };
/** Fudge §4.62: a Stunned or Very Stunned fighter "cannot attack" — in an opposed round he only defends. */
const stunnedNow = (t: Track): boolean => trackStatus(t).effects.some((e) => e === "stunned" || e === "veryStunned");

function enumerateStep(p: AttackPipeline, reqFS: AttackRequest, reqSF: AttackRequest): Step[] {
  const slotsFS = p.slots(reqFS);
  const opposed = p.exchange === "opposed";
  const counter: DiceSlot[] = opposed ? p.slots(reqSF).map((s) => ({ ...s, id: `counter:${s.id}` })) : [];
  // A running stun wears off by rounds (Fudge §4.62: one round Stunned, two Very Stunned); an
  // opposed exchange is one round, so both tracks take the round's end before its wound.
  const fStunned = opposed && stunnedNow(reqFS.attacker.track);
  const sStunned = opposed && stunnedNow(reqSF.attacker.track);
  const tick = fStunned || sStunned;
  const merged = new Map<string, Step>();
  enumerateDice([...slotsFS, ...counter], (dice: DiceReader) => {
    // The other side's view of the same two 4dF (Fudge §4.3).
    const swapped: DiceReader = (id) => (id === "attack" ? dice("defense") : id === "defense" ? dice("attack") : dice(`counter:${id}`));
    let r1: AttackResolution | null = null;
    let r2: AttackResolution | null = null;
    if (!fStunned) {
      r1 = p.resolve(reqFS, dice, QUIET);
      // The defender won the opposed roll and strikes back, unless he is stunned.
      if (opposed && !sStunned && (r1.numbers.relativeDegree ?? 0) < 0) r2 = p.resolve(reqSF, swapped, QUIET);
    } else if (!sStunned) {
      // The first side is stunned: he only defends; the other strikes if he wins the roll.
      r2 = p.resolve(reqSF, swapped, QUIET);
    }
    return {
      toA: woundsOf(r2),
      toB: woundsOf(r1),
      healA: tick ? END_ROUND : (followHeal(r1, "attacker") ?? followHeal(r2, "defender")),
      healB: tick ? END_ROUND : (followHeal(r1, "defender") ?? followHeal(r2, "attacker")),
    };
  }, (s, prob) => {
    const kA = whatKey(s.toA, s.healA);
    const kB = whatKey(s.toB, s.healB);
    const key = `${kA}|${kB}`;
    const m = merged.get(key);
    if (m) m.p += prob;
    else merged.set(key, { ...s, kA, kB, p: prob });
  });
  return [...merged.values()];
}

export interface DuelOptions {
  maxStates?: number;
  /** Wall-time budget of the forecast in ms (default FORECAST_BUDGET.timeMs). */
  budgetMs?: number;
}

/**
 * Budgets of one forecast (docs/rules-api.md "Budgets"): past any of them the forecast stops
 * with a RulesError naming the field, instead of running unbounded.
 */
export const FORECAST_BUDGET = {
  /** Default and largest `maxStates`. */
  defaultStates: 200_000,
  maxStates: 1_000_000,
  /** Default and largest `budgetMs`. */
  timeMs: 10_000,
  maxTimeMs: 60_000,
  /** Largest strongly connected component solved by Gaussian elimination (its matrix is m² numbers). */
  maxComponent: 800,
  /** Default and smallest `tolerance` (the error bound allowed to a forward forecast). */
  tolerance: 1e-4,
  minTolerance: 1e-9,
};

function overBudget(field: string, what: string): RulesError {
  return new RulesError(field, "FUDGE.Error.ForecastBudget", `the duel forecast needs more than its budget (${what})`, { what });
}

/**
 * `input`: `{ preset, a, b, options?, situation?, first?: "a" | "b" }` — a and b are combatants
 * as the preset's attack request takes them. `first` matters for alternating presets.
 */
export function duelForecast(input: unknown, opts: DuelOptions = {}): DuelForecast {
  if (!isRecord(input)) throw new RulesError("", "FUDGE.Error.NotObject", "the duel request must be an object");
  checkJsonShape(input);
  const p = pipelineFor(input.preset);
  const maxStates = opts.maxStates ?? optInt(input.maxStates, "maxStates", FORECAST_BUDGET.defaultStates, 1, FORECAST_BUDGET.maxStates);
  const budgetMs = opts.budgetMs ?? optInt(input.budgetMs, "budgetMs", FORECAST_BUDGET.timeMs, 1, FORECAST_BUDGET.maxTimeMs);
  const tolerance = input.tolerance === undefined ? FORECAST_BUDGET.tolerance : num(input.tolerance, "tolerance", FORECAST_BUDGET.minTolerance, 0.01);
  const deadline = Date.now() + budgetMs;
  let ticks = 0;
  const checkTime = (): void => {
    if ((++ticks & 63) === 0 && Date.now() > deadline) throw overBudget("budgetMs", `${budgetMs} ms`);
  };
  const first = oneOf(input.first, "first", ["a", "b"] as const, "a");
  const base = { preset: input.preset, options: input.options, situation: input.situation ?? {} };
  let reqAB: AttackRequest, reqBA: AttackRequest;
  try {
    reqAB = p.parseRequest({ ...base, attacker: input.a, defender: input.b });
  } catch (e) {
    throw renamePaths(e, { attacker: "a", defender: "b" });
  }
  try {
    reqBA = p.parseRequest({ ...base, attacker: input.b, defender: input.a });
  } catch (e) {
    throw renamePaths(e, { attacker: "b", defender: "a" });
  }
  const alternating = p.exchange === "alternating";
  // Miniatures: a Near Death model is not out of the fight: it rolls Guts on its turns (default on).
  const nearDeathRolls = p.ownTurn !== undefined && bool(input.nearDeathRolls, "nearDeathRolls", true);
  const isOut = (t: Track): boolean => {
    const d = derived(t);
    return nearDeathRolls ? d.dead || (!d.canAct && !d.dying) : d.out;
  };

  // Transition cache by status pair (see the contract above).
  const stepCache = new Map<string, Step[]>();
  let enumerations = 0;
  const steps = (tA: Track, tB: Track, turn: "a" | "b"): Step[] => {
    const attackerOnly = p.statusReads === "attacker";
    const key = attackerOnly ? `${turn}|${derived(turn === "a" ? tA : tB).sig}` : `${turn}|${derived(tA).sig}|${derived(tB).sig}`;
    let s = stepCache.get(key);
    if (!s && nearDeathRolls && p.ownTurn && !derived(turn === "a" ? tA : tB).canAct) {
      // A side that cannot act but is still in the fight takes its own turn (Miniatures: the Near Death roll).
      const own = p.ownTurn(turn === "a" ? withTracks(reqAB, tA, tB) : withTracks(reqBA, tB, tA)) ?? [];
      s = own.map((o) => {
        const w = o.wound === undefined ? null : [o.wound];
        const h = o.heal ?? null;
        const k = whatKey(w, h);
        return turn === "a" ? { toA: w, toB: null, healA: h, healB: null, kA: k, kB: NOTHING, p: o.p } : { toA: null, toB: w, healA: null, healB: h, kA: NOTHING, kB: k, p: o.p };
      });
      stepCache.set(key, s);
    }
    if (!s) {
      enumerations++;
      if (turn === "a") s = enumerateStep(p, withTracks(reqAB, tA, tB), withTracks(reqBA, tB, tA));
      else {
        // B attacks A: swap the roles back so that toA/toB keep their meaning.
        s = enumerateStep(p, withTracks(reqBA, tB, tA), withTracks(reqAB, tA, tB)).map((x) => ({ toA: x.toB, toB: x.toA, healA: x.healB, healB: x.healA, kA: x.kB, kB: x.kA, p: x.p }));
      }
      stepCache.set(key, s);
    }
    return s;
  };
  // Each side's distinct track states get small integer ids (a state key identifies a state only
  // within its own track config), and each (state, step outcome) pair is applied once.
  interface Side {
    ids: Map<string, number>;
    tracks: Track[];
    next: Map<string, Map<number, number>>; // what happens (JSON) → state id → state id
  }
  const sides = { a: { ids: new Map(), tracks: [], next: new Map() } as Side, b: { ids: new Map(), tracks: [], next: new Map() } as Side };
  const intern = (side: Side, t: Track): number => {
    const key = derived(t).key;
    let id = side.ids.get(key);
    if (id === undefined) {
      id = side.tracks.length;
      side.tracks.push(t);
      side.ids.set(key, id);
    }
    return id;
  };
  const applyTo = (side: Side, id: number, what: string, wounds: unknown[] | null, heal: unknown): number => {
    if (wounds === null && heal === null) return id;
    let byId = side.next.get(what);
    if (!byId) side.next.set(what, (byId = new Map()));
    let r = byId.get(id);
    if (r === undefined) {
      // The roll that consumed a follow-up (FATE Clipped) comes before the wound it dealt.
      let t = side.tracks[id];
      if (heal !== null) t = healTrack(t, heal).track;
      if (wounds !== null) for (const w of wounds) t = applyWound(t, w).track;
      r = intern(side, t);
      byId.set(id, r);
    }
    return r;
  };

  // Explore the reachable chain.
  interface Node {
    a: number;
    b: number;
    turn: "a" | "b";
    absorbed: "a" | "b" | null; // which side is out
    edges: Array<[number, number]>; // [node index, p]
  }
  const nodes: Node[] = [];
  const index = new Map<number, number>();
  const nodeOf = (a: number, b: number, turn: "a" | "b"): number => {
    const aOut = isOut(sides.a.tracks[a]);
    const bOut = isOut(sides.b.tracks[b]);
    const absorbed = aOut ? "a" : bOut ? "b" : null;
    const key = absorbed === "a" ? -1 : absorbed === "b" ? -2 : (a * 2 ** 24 + b) * 2 + (turn === "a" ? 0 : 1);
    let i = index.get(key);
    if (i === undefined) {
      if (nodes.length >= maxStates) throw new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states`);
      i = nodes.length;
      nodes.push({ a, b, turn, absorbed, edges: [] });
      index.set(key, i);
    }
    return i;
  };
  const start = nodeOf(intern(sides.a, reqAB.attacker.track), intern(sides.b, reqAB.defender.track), first);
  // Volt duels are followed forward (their chain is too large to solve whole); "chain" forces the
  // exact chain (tests compare the two), "forward" is refused where wounds can heal (not monotone).
  const method = oneOf(input.method, "method", ["chain", "forward"] as const, p.preset === "volt" ? "forward" : "chain");
  if (method === "forward" && p.preset !== "volt")
    throw new RulesError("method", "FUDGE.Error.ForwardVoltOnly", "the forward method is for Volt duels (wounds there only ever add up)");
  if (method === "forward") return forward();
  for (let i = 0; i < nodes.length; i++) {
    checkTime();
    const n = nodes[i];
    if (n.absorbed) continue;
    const next = alternating ? (n.turn === "a" ? "b" : "a") : n.turn;
    const acc = new Map<number, number>();
    for (const s of steps(sides.a.tracks[n.a], sides.b.tracks[n.b], n.turn)) {
      const j = nodeOf(applyTo(sides.a, n.a, s.kA, s.toA, s.healA), applyTo(sides.b, n.b, s.kB, s.toB, s.healB), next);
      acc.set(j, (acc.get(j) ?? 0) + s.p);
    }
    n.edges = [...acc.entries()];
  }

  // Solve: bOut probability, aOut probability and expected steps, per node.
  const N = nodes.length;
  const pA = new Float64Array(N);
  const pB = new Float64Array(N);
  const eSteps = new Float64Array(N);
  const stuck = new Float64Array(N); // probability of never being absorbed
  for (let i = 0; i < N; i++) {
    if (nodes[i].absorbed === "a") pA[i] = 1;
    if (nodes[i].absorbed === "b") pB[i] = 1;
  }
  for (const comp of tarjan(N, (i) => (nodes[i].absorbed ? [] : nodes[i].edges.map((e) => e[0])))) {
    if (comp.length === 1 && nodes[comp[0]].absorbed) continue;
    checkTime();
    if (comp.length > FORECAST_BUDGET.maxComponent) throw overBudget("maxStates", `a cycle of ${comp.length} states`);
    solveComponent(comp, nodes, pA, pB, eSteps, stuck);
  }
  const stalemate = stuck[start];
  const exchanges = stalemate > 1e-12 ? null : alternating ? eSteps[start] / 2 : eSteps[start];
  return { preset: p.preset, aOut: pA[start], bOut: pB[start], stalemate, expectedExchanges: exchanges, states: N, enumerations, exact: true, errorBound: 0, method: "chain" };

  /**
   * Volt (alternating, wounds only ever add or worsen marks): the duel is followed forward attack
   * by attack, states in order of the marks on both sheets, so every state is finished before any
   * state it can lead to. Attacks that change nothing only pass the turn (a two-state cycle,
   * solved in closed form). A state reached with less than `eps` of
   * probability is not followed: its mass is added to the error bound. If the bound ends above
   * `tolerance`, the forecast is repeated with a smaller `eps` (within the budget).
   */
  function forward(): DuelForecast {
    const progressOf = { a: [] as number[], b: [] as number[] };
    const progress = (side: Side, id: number): number => {
      const memo = side === sides.a ? progressOf.a : progressOf.b;
      return (memo[id] ??= voltProgress(side.tracks[id]));
    };
    let eps = tolerance * 1e-2;
    for (;;) {
      const r = forwardOnce(eps);
      if (r.errorBound <= tolerance) return r;
      eps /= 30;
    }
    function forwardOnce(eps: number): DuelForecast {
      let aOut = 0;
      let bOut = 0;
      let stalemate = 0;
      let dropped = 0;
      let attacks = 0;
      let states = 0;
      // progress → (pair key → [mass with a to attack, mass with b to attack])
      const buckets = new Map<number, Map<number, [number, number]>>();
      const pairKey = (a: number, b: number): number => a * 2 ** 24 + b;
      const push = (a: number, b: number, turn: "a" | "b", m: number): void => {
        const pr = progress(sides.a, a) + progress(sides.b, b);
        let bucket = buckets.get(pr);
        if (!bucket) buckets.set(pr, (bucket = new Map()));
        const k = pairKey(a, b);
        let e = bucket.get(k);
        if (!e) bucket.set(k, (e = [0, 0]));
        e[turn === "a" ? 0 : 1] += m;
      };
      const outOf = (a: number, b: number): "a" | "b" | null => (isOut(sides.a.tracks[a]) ? "a" : isOut(sides.b.tracks[b]) ? "b" : null);
      /** One attack by `turn` from (a, b): P(nothing changes), and the other outcomes. */
      const attack = (a: number, b: number, turn: "a" | "b"): { same: number; moves: Array<[number, number, number]> } => {
        let same = 0;
        const moves: Array<[number, number, number]> = [];
        for (const st of steps(sides.a.tracks[a], sides.b.tracks[b], turn)) {
          const a2 = applyTo(sides.a, a, st.kA, st.toA, st.healA);
          const b2 = applyTo(sides.b, b, st.kB, st.toB, st.healB);
          if (a2 === a && b2 === b) same += st.p;
          else moves.push([a2, b2, st.p]);
        }
        return { same, moves };
      };
      const startA = intern(sides.a, reqAB.attacker.track);
      const startB = intern(sides.b, reqAB.defender.track);
      const startOut = outOf(startA, startB);
      if (startOut) return done(startOut === "a" ? 1 : 0, startOut === "b" ? 1 : 0, 0, 0, 0, 1);
      push(startA, startB, first, 1);
      while (buckets.size > 0) {
        let pr = Infinity;
        for (const k of buckets.keys()) if (k < pr) pr = k;
        const bucket = buckets.get(pr)!;
        buckets.delete(pr);
        for (const [k, [mA, mB]] of bucket) {
          checkTime();
          if (mA + mB < eps) {
            dropped += mA + mB;
            continue;
          }
          if (++states > maxStates) throw new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states`);
          const a = Math.floor(k / 2 ** 24);
          const b = k % 2 ** 24;
          // The same sheets with a to attack (X) and with b to attack (Y): an attack that changes
          // nothing passes the turn, so X and Y form a two-state cycle, solved in closed form.
          const x = attack(a, b, "a");
          const y = attack(a, b, "b");
          const loop = x.same * y.same;
          if (loop >= 1 - 1e-15) {
            stalemate += mA + mB;
            continue;
          }
          const vX = (mA + mB * y.same) / (1 - loop);
          const vY = (mB + mA * x.same) / (1 - loop);
          attacks += vX + vY;
          for (const [moves, v, next] of [[x.moves, vX, "b"], [y.moves, vY, "a"]] as const) {
            for (const [a2, b2, q] of moves) {
              const o = outOf(a2, b2);
              if (o === "a") aOut += v * q;
              else if (o === "b") bOut += v * q;
              else {
                if (progress(sides.a, a2) + progress(sides.b, b2) <= pr) throw new Error(`forecast: a Volt attack went back from progress ${pr}`); // a broken invariant, not bad input
                push(a2, b2, next, v * q);
              }
            }
          }
        }
      }
      return done(aOut, bOut, stalemate, dropped, attacks, states);
    }
    function done(aOut: number, bOut: number, stalemate: number, dropped: number, attacks: number, states: number): DuelForecast {
      return {
        preset: p.preset,
        aOut,
        bOut,
        stalemate,
        expectedExchanges: stalemate > 1e-12 ? null : attacks / 2,
        states,
        enumerations,
        exact: dropped === 0,
        errorBound: dropped,
        method: "forward",
      };
    }
  }
}

/** Volt: marks on the sheet plus Injuries among them — every wound that changes a sheet raises it. */
function voltProgress(t: Track): number {
  const marks = (t.state as { marks?: Record<string, string> }).marks ?? {};
  let n = 0;
  for (const m of Object.values(marks)) n += m === "stun" ? 1 : 2;
  return n;
}

/** Tarjan's strongly connected components, iterative; components come out in reverse topological order. */
function tarjan(n: number, succ: (i: number) => number[]): number[][] {
  const idx = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const comps: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (idx[root] !== -1) continue;
    const work: Array<[number, number]> = [[root, 0]];
    idx[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1];
      const [v, k] = top;
      const s = succ(v);
      if (k < s.length) {
        top[1]++;
        const w = s[k];
        if (idx[w] === -1) {
          idx[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], idx[w]);
      } else {
        work.pop();
        if (work.length) low[work[work.length - 1][0]] = Math.min(low[work[work.length - 1][0]], low[v]);
        if (low[v] === idx[v]) {
          const comp: number[] = [];
          let w: number;
          do {
            w = stack.pop()!;
            onStack[w] = 0;
            comp.push(w);
          } while (w !== v);
          comps.push(comp);
        }
      }
    }
  }
  return comps;
}

/**
 * Solves x = P_in x + P_out y for the component (all successors outside it are already solved).
 * Unknowns per node: pA, pB, expected steps (conditioned properly only when absorption is sure).
 */
function solveComponent(
  comp: number[],
  nodes: Array<{ edges: Array<[number, number]> }>,
  pA: Float64Array,
  pB: Float64Array,
  eSteps: Float64Array,
  stuck: Float64Array,
): void {
  const m = comp.length;
  if (m === 1) {
    // One state, perhaps with a self-loop (a miss): x = (Σ others + c) / (1 − p_self).
    const v = comp[0];
    let self = 0;
    let a = 0;
    let b = 0;
    let e = 1;
    let st = 0;
    for (const [w, p] of nodes[v].edges) {
      if (w === v) self += p;
      else {
        a += p * pA[w];
        b += p * pB[w];
        e += p * eSteps[w];
        st += p * stuck[w];
      }
    }
    if (self >= 1 - 1e-15) {
      stuck[v] = 1;
      eSteps[v] = Infinity;
      return;
    }
    const k = 1 / (1 - self);
    pA[v] = a * k;
    pB[v] = b * k;
    eSteps[v] = e * k;
    stuck[v] = st * k;
    return;
  }
  const local = new Map<number, number>();
  comp.forEach((v, i) => local.set(v, i));
  // (I − Q) x = b, four right-hand sides: pA, pB, steps, stuck.
  const A = Array.from({ length: m }, () => new Float64Array(m));
  const rhs = Array.from({ length: m }, () => new Float64Array(4));
  let exits = false;
  comp.forEach((v, i) => {
    A[i][i] += 1;
    rhs[i][2] = 1;
    for (const [w, p] of nodes[v].edges) {
      const j = local.get(w);
      if (j !== undefined) A[i][j] -= p;
      else {
        exits = true;
        rhs[i][0] += p * pA[w];
        rhs[i][1] += p * pB[w];
        rhs[i][2] += p * eSteps[w];
        rhs[i][3] += p * stuck[w];
      }
    }
  });
  if (!exits) {
    // A closed set of states that never reaches an end: a stalemate (nobody can hurt anybody).
    for (const v of comp) {
      stuck[v] = 1;
      eSteps[v] = Infinity;
    }
    return;
  }
  const x = gauss(A, rhs);
  comp.forEach((v, i) => {
    pA[v] = x[i][0];
    pB[v] = x[i][1];
    eSteps[v] = x[i][2];
    stuck[v] = x[i][3];
  });
}

function gauss(A: Float64Array[], B: Float64Array[]): Float64Array[] {
  const n = A.length;
  const a = A.map((r) => Float64Array.from(r));
  const b = B.map((r) => Float64Array.from(r));
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    [b[c], b[piv]] = [b[piv], b[c]];
    const d = a[c][c];
    for (let r = 0; r < n; r++) {
      if (r === c || a[r][c] === 0) continue;
      const f = a[r][c] / d;
      for (let k = c; k < n; k++) a[r][k] -= f * a[c][k];
      for (let k = 0; k < b[r].length; k++) b[r][k] -= f * b[c][k];
    }
  }
  return b.map((row, i) => row.map((x) => x / a[i][i]));
}

function renamePaths(e: unknown, map: Record<string, string>): unknown {
  if (!(e instanceof RulesError)) return e;
  const first = e.field.split(/[.[]/)[0];
  if (!(first in map)) return e;
  const field = map[first] + e.field.slice(first.length);
  return new RulesError(field, e.key, e.message.replace(/^[^:]*: /, ""), e.params);
}

