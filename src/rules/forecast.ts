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
import { fudgeOutcomes, fudgeTotal, type DiceOutcome } from "./dice";
import {
  enumerateDice,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type Combatant,
  type DiceReader,
  type DiceSlot,
} from "./pipeline";
import { pipelineFor } from "./presets";
import { healTrack, trackKind, trackStateKey, trackStatus, type Track, type TrackStatus } from "./track";
import { bool, checkJsonShape, isRecord, num, oneOf, optInt } from "./validate";
import { rejectUnknown } from "./fudge/util";
import type { DatacardOptions, MiniDatacard } from "./miniatures/datacard";
import type { MiniOptions } from "./miniatures/pipeline";
import { gutsEffectInfo, gutsRollPenalty, type GutsState } from "./miniatures/guts";
import {
  fleesWhenWounded,
  mayFlee,
  nearDeathMind,
  gutsAfterWound,
  gutsAtCharge,
  gutsCheckFor,
  gutsMind,
  gutsSettled,
  gutsStat,
  gutsTurnStart,
  mindSpace,
  refusesToStrike,
  withoutFreeAttack,
  type DuelGutsSituation,
  type GutsMind,
  type MindSpace,
} from "./miniatures/forecast";
import type { BoxTrackConfig } from "./fudge/box-track";
import { voltProductDuel, voltSampledDuel, type VoltCountStats, type VoltLaw, type VoltStep } from "./volt/duel";
import { isBudgetRefusal, parseFallback, parseSampleRequest, sampleDuels, type SampleEstimate } from "./duel-sample";
import type { VoltTrackConfig, VoltTrackState, VoltWound } from "./volt/track";

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
  /**
   * "chain": the absorbing chain solved exactly; "forward": rounds followed forward (bounded);
   * "phases": sums of per-side products (Volt, bounded); "product": the exact backward programme
   * over both Volt sheets (src/rules/volt/duel.ts); "sample": an estimate from simulated duels
   * (src/rules/duel-sample.ts), `exact` false and `errorBound` 1 — no bound, an interval in `estimate`.
   */
  method: "chain" | "forward" | "phases" | "product" | "sample";
  /** Only with method "sample": duels played, seed, confidence and each probability's interval. */
  estimate?: SampleEstimate;
  /**
   * Miniatures, only when a side can flee (a Mercenary with Guts checks on, a Self-interest model):
   * P(A leaves the duel by flight) — part of `aOut` — and the same for B (0 for a side that cannot
   * flee). Exact with "chain", within `errorBound` with "forward", an estimate with "sample".
   */
  aFled?: number;
  bFled?: number;
}

/**
 * What one step does to one side: wounds in order (a Miniatures crash follows its blow), a
 * healing a follow-up applies (FATE Clipped consumed, a Near Death roll recovered, a stun's round
 * ending), and the end of an owed free attack (Miniatures: Guts).
 */
interface What {
  wounds: unknown[] | null;
  heal: unknown;
  clearOwed: boolean;
}

/** The level of a What that is one plain `{level}` wound and nothing else (the common case), else null. */
function plainLevel(w: What): string | null {
  if (w.heal !== null || w.clearOwed || w.wounds === null || w.wounds.length !== 1) return null;
  const x = w.wounds[0] as Record<string, unknown>;
  if (typeof x !== "object" || x === null || typeof x.level !== "string") return null;
  let n = 0;
  for (const _ in x) n++;
  return n === 1 ? x.level : null;
}

/** The intern key of any other What: JSON ("" for nothing at all). */
function whatKey(w: What): string {
  return w.heal === null && !w.clearOwed && w.wounds === null ? "" : JSON.stringify(w);
}

/** One outcome of a step, with the interned `What` ids for the attacker's and the defender's side. */
interface Step {
  x: number;
  y: number;
  p: number;
}

// What a pipeline may read of a track when it resolves an attack (see the contract above). The
// worst level itself is left out: two states with the same penalty and effects roll alike.
const statusSig = (s: TrackStatus): string => `${s.penalty}|${s.effects.join(",")}|${s.canAct ? 1 : 0}`;
/** Volt: "only the attacker's penalty moves the roll" (Guard, distance and armor are fixed numbers); its effects (dying but able to act) change no die. */
const voltSig = (s: TrackStatus): string => `${s.penalty}|${s.canAct ? 1 : 0}`;

function withSides<R extends AttackRequest>(
  p: AttackPipeline<R>,
  req: R,
  attacker: Track,
  aMind: GutsMind | null,
  defender: Track,
  dMind: GutsMind | null,
  free: boolean,
  aStatus?: TrackStatus,
  dStatus?: TrackStatus,
): R {
  // Only the tracks change: the pipeline reuses what it prepared from the rest of the request.
  if (!aMind && !dMind && !free && p.withTracks) return p.withTracks(req, attacker, defender, aStatus, dStatus);
  const a = aMind ? { ...req.attacker, track: attacker, gutsState: aMind.state } : { ...req.attacker, track: attacker };
  const d = dMind ? { ...req.defender, track: defender, gutsState: dMind.state } : { ...req.defender, track: defender };
  // Miniatures: Guts — the free attack on a model that breaks and runs is "at +1"; it leaves base
  // contact, so it is a disengagement attack too (a Poor melee combatant gives +1 more).
  const situation = free
    ? { ...req.situation, modifier: Number(req.situation.modifier ?? 0) + 1, disengaging: true }
    : req.situation;
  return { ...req, attacker: a, defender: d, situation };
}

function followHeal(r: AttackResolution | null, side: "attacker" | "defender"): unknown {
  // Nearly every resolution has no follow-up: no search (and no closure) for those.
  if (r === null || r.followUps.length === 0) return null;
  const f = r.followUps.find((x) => x.target === side && typeof x.params.healing === "string");
  return f ? { type: String(f.params.healing) } : null;
}

/** The wounds a resolution deals to its defender, in order: the blow, then a Miniatures crash (Miniatures: Wounds). */
function woundsOf(r: AttackResolution | null): unknown[] | null {
  if (!r || r.wound === null || r.wound === undefined) return null;
  if (r.followUps.length === 0) return [r.wound];
  const crash = r.followUps.find((x) => x.type === "crashWound" && x.target === "defender");
  return crash ? [r.wound, { level: crash.params.level }] : [r.wound];
}

// The forecast reads the wound and applies it to the real state itself.
const QUIET = { explain: false, preview: false } as const;

const END_ROUND = { type: "endRound" };
/** Fudge §4.62: a Stunned or Very Stunned fighter "cannot attack" — in an opposed round he only defends. */
const stunnedNow = (s: TrackStatus): boolean => s.effects.some((e) => e === "stunned" || e === "veryStunned");

/**
 * Fudge §4.5: the opposed roll's two 4dF enter the resolution only through the relative degree
 * (attacker total − defender total), unless an option reads a roll itself (§4.58 critical success:
 * all four dice +; §4.61 even/odd damage roll). Then the 81 pairs of totals fold into 17 classes
 * of their difference, resolved once each with one representative pair.
 */
function differenceSlot(): DiceSlot {
  const o = fudgeOutcomes(4);
  const byDiff = new Map<number, DiceOutcome>();
  for (const a of o)
    for (const d of o) {
      const k = fudgeTotal(a.dice, "attack") - fudgeTotal(d.dice, "defense");
      const e = byDiff.get(k);
      if (e) e.p += a.p * d.p;
      else byDiff.set(k, { dice: [...a.dice, ...d.dice], p: a.p * d.p });
    }
  const outcomes = [...byDiff.values()];
  // Each class's two rolls, split once (frozen: resolutions may keep them), not sliced per read.
  for (const o of outcomes)
    PAIR_HALVES.set(o.dice, [
      Object.freeze(o.dice.slice(0, 4)) as number[],
      Object.freeze(o.dice.slice(4, 8)) as number[],
    ]);
  for (const [k, o] of byDiff) PAIR_DIFF.set(o.dice, k);
  return { id: "pair", formula: "8dF", labelKey: "", roll: () => [], outcomes: () => outcomes };
}
/** The attack and defence halves of each class of the difference slot, and the class's difference. */
const PAIR_HALVES = new Map<number[], [number[], number[]]>();
const PAIR_DIFF = new Map<number[], number>();
let differenceSlotMemo: DiceSlot | null = null;

/** Enumerates one step: `first` attacks `second` (opposed: the loser of the roll is wounded). */
/** The interned What of one side of a leaf: the wounds `r` deals it, the healing, the end of an owed free attack. */
type InternOutcome = (r: AttackResolution | null, heal: unknown, clearOwed: boolean) => number;

function enumerateStep(
  p: AttackPipeline,
  reqFS: AttackRequest,
  reqSF: AttackRequest,
  fStatus: TrackStatus,
  sStatus: TrackStatus,
  byDifference: boolean,
  intern: InternOutcome,
  clearOwed: boolean,
): Step[] {
  const opposed = p.exchange === "opposed";
  let slotsFS = p.slots(reqFS);
  if (byDifference)
    slotsFS = [
      (differenceSlotMemo ??= differenceSlot()),
      ...slotsFS.filter((s) => s.id !== "attack" && s.id !== "defense"),
    ];
  const counter: DiceSlot[] = opposed
    ? p
        .slots(reqSF)
        .filter((s) => !byDifference || (s.id !== "attack" && s.id !== "defense"))
        .map((s) => ({ ...s, id: counterId(s.id) }))
    : [];
  // A running stun wears off by rounds (Fudge §4.62: one round Stunned, two Very Stunned); an
  // opposed exchange is one round, so both tracks take the round's end before its wound.
  const fStunned = opposed && stunnedNow(fStatus);
  const sStunned = opposed && stunnedNow(sStatus);
  const tick = fStunned || sStunned;
  // The readers of one leaf, made once per step: `dice` is the enumeration's reader (the same object for every leaf).
  let dice: DiceReader = () => [];
  const pair = (id: string): number[] => PAIR_HALVES.get(dice("pair"))![id === "attack" ? 0 : 1];
  const direct: DiceReader = byDifference
    ? (id) => (id === "attack" || id === "defense" ? pair(id) : dice(id))
    : (id) => dice(id);
  // The other side's view of the same two 4dF (Fudge §4.3).
  const swapped: DiceReader = (id) =>
    id === "attack" ? direct("defense") : id === "defense" ? direct("attack") : dice(counterId(id));
  // Fudge §3.5: when the two 4dF are the only dice, the relative degree is the class's difference
  // plus a constant of the request (as fudgePairedOutcomes reads it). Once a resolution has shown
  // that constant, a class where the first side loses the roll is known to be its miss, which
  // deals and heals nothing ("the pipeline returns before the damage step"): only the strike
  // back is resolved (a third of the resolutions of a step).
  const onlyPair = byDifference && opposed && slotsFS.length === 1 && counter.length === 0;
  let rdBase: number | null = null;
  const merged = new Map<number, Step>();
  const leaf = (reader: DiceReader): number => {
    dice = reader;
    let r1: AttackResolution | null = null;
    let r2: AttackResolution | null = null;
    if (!fStunned) {
      const diff = onlyPair ? PAIR_DIFF.get(dice("pair"))! : 0;
      let rd: number;
      if (rdBase !== null && rdBase + diff < 0) rd = rdBase + diff;
      else {
        r1 = p.resolve(reqFS, direct, QUIET);
        rd = r1.numbers.relativeDegree ?? 0;
        if (onlyPair && r1.numbers.relativeDegree !== undefined) rdBase = rd - diff;
      }
      // The defender won the opposed roll and strikes back, unless he is stunned.
      if (opposed && !sStunned && rd < 0) r2 = p.resolve(reqSF, swapped, QUIET);
    } else if (!sStunned) {
      // The first side is stunned: he only defends; the other strikes if he wins the roll.
      r2 = p.resolve(reqSF, swapped, QUIET);
    }
    const x = intern(r2, tick ? END_ROUND : (followHeal(r1, "attacker") ?? followHeal(r2, "defender")), false);
    const y = intern(r1, tick ? END_ROUND : (followHeal(r1, "defender") ?? followHeal(r2, "attacker")), clearOwed);
    return x * 2 ** 20 + y;
  };
  const add = (k: number, prob: number): void => {
    const m = merged.get(k);
    if (m) m.p += prob;
    else merged.set(k, { x: Math.floor(k / 2 ** 20), y: k % 2 ** 20, p: prob });
  };
  if (onlyPair && !tick) {
    // The folded classes one by one, in enumerateDice's order and with its probabilities (every
    // leaf reads the pair: no search for the slots it reads, no walk), so the same sums.
    let current: number[] = [];
    const reader: DiceReader = (id) => {
      if (id === "pair") return current;
      throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
    };
    for (const o of slotsFS[0].outcomes()) {
      if (o.p === 0) continue;
      current = o.dice;
      add(leaf(reader), 1 * o.p);
    }
  } else enumerateDice([...slotsFS, ...counter], leaf, add);
  return [...merged.values()];
}

/** `counter:<slot>`, the other side's slots in an opposed step, built once per slot id. */
const COUNTER_IDS = new Map<string, string>();
const counterId = (id: string): string => {
  let c = COUNTER_IDS.get(id);
  if (c === undefined) COUNTER_IDS.set(id, (c = `counter:${id}`));
  return c;
};

export interface DuelOptions {
  maxStates?: number;
  /** Wall-time budget of the forecast in ms (default FORECAST_BUDGET.timeMs). */
  budgetMs?: number;
  /**
   * Miniatures Guts minds: "reduced" (default) keys failures that act alike as one; "plain" keys
   * them as they are, which only the bounded forward method can follow (tests compare the two).
   */
  gutsMinds?: "reduced" | "plain";
  /** Volt: the product method's largest number of sheet pairs (default maxStates × productPairsPerState); tests lower it to reach the bounded forward. */
  maxProductPairs?: number;
  /** The bytes the chain's nodes may take when the request gives no maxStates (default FORECAST_BUDGET.chainBytes; tests lower it to reach the caps: chainCap). */
  chainBytes?: number;
  /** The forecast's memory budget in bytes, whatever `maxStates` allows (default: the request's `maxBytes`, else FORECAST_BUDGET.maxBytes; memoryCap). */
  maxBytes?: number;
  /** Volt, method "sample": false plays the duels through the general turns (`moves`) instead of the integer sheets; tests compare the two. */
  voltSheetSampler?: boolean;
  /** Filled with what the forecast held (ForecastMemoryStats); tests read it. */
  memoryStats?: ForecastMemoryStats;
  /** Volt: filled with the work of the forward method's pre-count (voltForwardExceeds) when it runs; tests read it. */
  voltCountStats?: VoltCountStats;
  /**
   * Miniatures Guts minds: true (default) lets states with the same future share one node of the
   * chain (duelForecast's standIn); false keeps every state as reached (tests compare the two).
   */
  mergeMinds?: boolean;
}

/** What a forecast held, added up over its methods (a Miniatures request may try the chain, then the forward method). */
export interface ForecastMemoryStats {
  /** Chains taken (node arrays): the forward method after a refused chain runs on that chain's arrays, emptied. */
  chains: number;
  /** Miniatures, Guts: the stand-in keys kept (states with the same future) and their characters in all. */
  standInKeys: number;
  standInKeyChars: number;
}

/**
 * Budgets of one forecast (docs/rules-api.md "Budgets"): past any of them the forecast stops
 * with a RulesError naming the field, instead of running unbounded.
 */
export const FORECAST_BUDGET = {
  /** Default and largest `maxStates` (the Volt methods' budgets below derive from it). */
  defaultStates: 200_000,
  maxStates: 1_000_000,
  /**
   * Default `maxStates` of the chain (the exact method, and the turn-by-turn forward method over
   * the same nodes) when the request gives none: `chainBytes / bytesPerState`, the exact chain's
   * cap when no side can flee (`chainCap` gives each kind of chain its own). Its nodes are typed
   * arrays with shared rows of probabilities (`Chain`): at most `bytesPerState` each at peak,
   * measured as the peak resident memory of one forecast less the process's own (Miniatures,
   * Brutas the Brute vs Yanni the Yeoman, 230,460 nodes: ≈ 88 MB, 380 bytes a node; session 7,
   * tracks enlarged to 376,609 nodes: 116–118 MB, ≤ 330 bytes a node), so ≤ 160 MB at the default
   * — what 200,000 nodes took before (≈ 740 bytes each: 265 MB for 357,000).
   */
  chainStates: 400_000,
  bytesPerState: 400,
  /** What the chain's nodes may take in all when the request gives no `maxStates` (each kind of chain is charged its own bytes a node: `chainCap`). */
  chainBytes: 160_000_000,
  /**
   * Miniatures, a side that can flee (aFled, bFled): the exact chain keeps four more Float64 a
   * node and solves twice, so a node is charged `bytesPerState` + 32. Measured (session 7, Brutas a
   * Mercenary vs Yanni, tracks enlarged): 404,139–408,104 nodes took 142–146 MB (≈ 370 bytes a
   * node), the cap of 370,370 nodes so ≤ 160 MB.
   */
  bytesPerFlightState: 432,
  /**
   * The turn-by-turn forward method over the chain's nodes (Miniatures past the exact chain's cap,
   * or `method: "forward"`): each pass keeps its live states per turn and the chain's nodes grow with
   * each tighter pass. Measured (session 7, Brutas vs Yanni, tracks enlarged): up to 1,163 bytes a
   * node at peak (120,453 nodes: 134 MB; 217,726 nodes: 177–193 MB), so it is charged 1,200: at
   * most 133,333 nodes by default, ≤ 160 MB. Session 8 (live states in typed arrays, LiveNodes):
   * 120,453 nodes 82–85 MB; the charge is kept, so a request that tries the chain first stays
   * within 160 MB with the refused chain's garbage (docs/rules-api.md "Budgets").
   */
  bytesPerForwardState: 1_200,
  /**
   * The memory budget of one forecast (request field `maxBytes`, default and largest), whatever
   * `maxStates` allows: each method's states are charged what one costs at peak (`bytesPerState`,
   * `bytesPerFlightState`, `bytesPerForwardState`, `bytesPerVoltForwardState`) and a method is
   * refused with FUDGE.Error.MemoryBudget before it holds more than `maxBytes` of them
   * (`memoryCap`). Before it, only `maxStates` bounded a request that gave its own: Volt Leroy vs
   * Leroy forward at `maxStates` 1,000,000 grew to 1.24 GB. 600 MB keeps every request that gives
   * no `maxStates` as it was (the most such a request holds is the Volt forward method's 200,000
   * states, 520 MB), and a forecast within the CLI worker's 1 GiB heap with room to spare; the
   * table's forecast worker (src/foundry/forecast-worker.ts) runs `duelForecast` with this default.
   */
  maxBytes: 600_000_000,
  /** Smallest `maxBytes` a request may give (1 MB: a forecast's fixed structures). */
  minBytes: 1_000_000,
  /**
   * Volt's own forward method (`method: "forward"`, or past the product's budget): what one state
   * it follows costs at peak — its buckets of sheet pairs, the sheets each side met (interned
   * tracks) and the progress memo. Measured (session 9, Leroy vs Leroy, tolerance 1e-9, one
   * forecast per child process, peak resident memory less the process's own ≈ 88 MB): refused at
   * 100,000 states 257 MB, 200,000 states 390 MB, 400,000 states 878 MB (1,950–2,570 bytes a
   * state; on a quiet machine 252 MB and 358 MB at 100,000 and 200,000), so it is charged 2,600:
   * at most 230,769 states within 600 MB.
   */
  bytesPerVoltForwardState: 2_600,
  /**
   * Volt "product": what one pair of sheets held at once costs at peak, the successor tables
   * included (the window's 16 or 24 bytes a pair, plus the tables). Measured (session 9, the
   * CLI, peak resident memory less a Fudge forecast's): Leroy vs Theodora, 6.9 million pairs
   * held, 180 MB, 26 bytes a pair. The window is capped at `maxBytes` / 26 (23 million at the
   * default, above `productMaxWindow`: the default changes nothing).
   */
  bytesPerVoltProductPair: 26,
  /**
   * Volt "phases": what one entry of its products costs (session 8: 400,000 entries took 75 MB,
   * ≈ 190 bytes each); its entries are capped at `maxBytes` / 190 as well as `maxStates`.
   */
  bytesPerVoltPhasesEntry: 190,
  /** Default and largest `budgetMs`. */
  timeMs: 10_000,
  maxTimeMs: 60_000,
  /**
   * Volt "product" method: at most `maxStates × productPairsPerState` sheet pairs solved (each for
   * both turns), and at most `maxStates × productWindowPerState` pairs (16 or 24 bytes each) held
   * at once, never more than `productMaxWindow` (≤ 384 MB). Past either, a Volt duel is forecast by the
   * bounded "forward" method instead (or refused, when "product" was asked for).
   */
  productPairsPerState: 100,
  productWindowPerState: 50,
  productMaxWindow: 16_000_000,
  /** With `fallback: "sample"`: the share of `budgetMs` kept for the estimate (the exact or bounded forecast gets the rest). */
  sampleReserve: 0.5,
  /** Largest strongly connected component solved by Gaussian elimination (its matrix is m² numbers). */
  maxComponent: 800,
  /** Default and smallest `tolerance` (the error bound allowed to a forward forecast). */
  tolerance: 1e-4,
  minTolerance: 1e-9,
};

/**
 * The default node cap of a chain when the request gives no `maxStates` (`chainBytes` over what a
 * node of that kind costs at peak): the exact chain, the exact chain of a duel where a side can
 * flee (its second solve), and the forward method. `chainBytes`: tests lower it.
 */
export function chainCap(
  kind: "chain" | "flight" | "forward",
  chainBytes: number = FORECAST_BUDGET.chainBytes,
): number {
  const bytes =
    kind === "forward"
      ? FORECAST_BUDGET.bytesPerForwardState
      : kind === "flight"
        ? FORECAST_BUDGET.bytesPerFlightState
        : FORECAST_BUDGET.bytesPerState;
  return Math.floor(chainBytes / bytes);
}

/** What one state of each method costs at peak (FORECAST_BUDGET's measured figures). */
export type ForecastStateKind = "chain" | "flight" | "forward" | "voltForward" | "voltProductPair" | "voltPhases";
const BYTES_PER: Record<ForecastStateKind, number> = {
  chain: FORECAST_BUDGET.bytesPerState,
  flight: FORECAST_BUDGET.bytesPerFlightState,
  forward: FORECAST_BUDGET.bytesPerForwardState,
  voltForward: FORECAST_BUDGET.bytesPerVoltForwardState,
  voltProductPair: FORECAST_BUDGET.bytesPerVoltProductPair,
  voltPhases: FORECAST_BUDGET.bytesPerVoltPhasesEntry,
};

/**
 * The most states of a kind that fit the memory budget `maxBytes` (default FORECAST_BUDGET.maxBytes):
 * past it the forecast is refused with FUDGE.Error.MemoryBudget (memoryRefusal), whatever
 * `maxStates` allows — the states are counted before each is stored, so nothing is allocated past it.
 */
export function memoryCap(kind: ForecastStateKind, maxBytes: number = FORECAST_BUDGET.maxBytes): number {
  return Math.floor(maxBytes / BYTES_PER[kind]);
}

/** The refusal of a forecast whose method would hold more than `maxBytes` (field `maxBytes`, `{max}` in MB as the CLI's MemoryBudget). */
function memoryRefusal(maxBytes: number, cap: number, kind: ForecastStateKind): RulesError {
  const max = Math.round(maxBytes / 1e5) / 10;
  return new RulesError(
    "maxBytes",
    "FUDGE.Error.MemoryBudget",
    `the duel forecast needs more than its memory budget of ${max} MB (more than ${cap} states of ${BYTES_PER[kind]} bytes)`,
    { max, states: cap },
  );
}

const DUEL_GUTS_FLAGS = ["defendingKing", "nobleInMelee", "leaderFallen"] as const;

/**
 * The request's `gutsSituation`: `{ a?: {...}, b?: {...} }`, each side's flags of DuelGutsSituation
 * (booleans; anything else is refused by name). Miniatures only.
 */
function parseDuelGutsSituation(
  v: unknown,
  miniatures: boolean,
  preset: string,
): { a: DuelGutsSituation; b: DuelGutsSituation } {
  const out = { a: {} as DuelGutsSituation, b: {} as DuelGutsSituation };
  if (v === undefined) return out;
  if (!miniatures)
    throw new RulesError(
      "gutsSituation",
      "FUDGE.Error.ForecastGutsSituationPreset",
      "Guts circumstances exist only in the Miniatures preset",
      { preset },
    );
  if (!isRecord(v)) throw new RulesError("gutsSituation", "FUDGE.Error.NotObject", "gutsSituation must be an object");
  for (const k of Object.keys(v))
    if (k !== "a" && k !== "b")
      throw new RulesError(`gutsSituation.${k}`, "FUDGE.Error.ForecastGutsSituation", `not a side of the duel (a, b)`, {
        allowed: "a, b",
      });
  for (const side of ["a", "b"] as const) {
    const s = v[side];
    if (s === undefined) continue;
    const path = `gutsSituation.${side}`;
    if (!isRecord(s)) throw new RulesError(path, "FUDGE.Error.NotObject", `${path} must be an object`);
    for (const k of Object.keys(s))
      if (!(DUEL_GUTS_FLAGS as readonly string[]).includes(k))
        throw new RulesError(
          `${path}.${k}`,
          "FUDGE.Error.ForecastGutsSituation",
          `not a circumstance of a duel's Guts checks (${DUEL_GUTS_FLAGS.join(", ")})`,
          { allowed: DUEL_GUTS_FLAGS.join(", ") },
        );
    for (const k of DUEL_GUTS_FLAGS) if (bool(s[k], `${path}.${k}`, false)) out[side][k] = true;
  }
  return out;
}

function overBudget(field: string, what: string): RulesError {
  return new RulesError(field, "FUDGE.Error.ForecastBudget", `the duel forecast needs more than its budget (${what})`, {
    what,
  });
}

/** Each side's distinct states (track and, in Miniatures, Guts) get small integer ids. */
class Side {
  readonly ids = new Map<string, number>();
  readonly tracks: Track[] = [];
  readonly minds: Array<GutsMind | null> = [];
  /** Status signature id (what an attack by or on this state reads), and the exact state's id (kept only when `keepExact`). */
  readonly sig: number[] = [];
  readonly exact: number[] = [];
  /** Miniatures: a flying defender's steps are keyed by its exact state (its crash depends on its boxes); no other forecast reads `exact`. */
  keepExact = false;
  readonly out: boolean[] = [];
  readonly canAct: boolean[] = [];
  /** The track's status of each state id. */
  readonly status: TrackStatus[] = [];
  /** (state id, what id) → the next state id, or a distribution of them (a Guts check). */
  readonly next: Array<Array<number | Array<[number, number]> | undefined>> = [];
  /** Wounds of each What as the track kind parsed them. */
  readonly wounds = new Map<number, unknown[]>();
  private outId = -1;
  /** The one id of every state that left the duel by flight (Miniatures), −1 until one is seen. */
  fledId = -1;
  /** Miniatures: Guts — each state id's stand-in at the start of its activation and while it waits for it (duelForecast's standIn). */
  readonly atActivation: number[] = [];
  readonly whileWaiting: number[] = [];
  /** Miniatures: Guts — how this side's minds are keyed; null without Guts checks. */
  space: MindSpace | null = null;
  /** The key of a track state: states with one key must act alike in every future of the duel. */
  stateKeyOf: (t: Track) => string = trackStateKey;
  constructor(
    readonly card: Combatant,
    private readonly sigs: Map<string, number>,
    private readonly isOut: (s: TrackStatus) => boolean,
    private readonly sigOf: (s: TrackStatus) => string = statusSig,
    /** Miniatures: Self-interest — "will flee combat if wounded" (fleesWhenWounded); null without it. */
    private readonly fleesAt: ((s: TrackStatus) => boolean) | null = null,
  ) {}
  /** `status`: the track's status when the caller has it already (an apply returns it). */
  intern(t: Track, m: GutsMind | null, status?: TrackStatus): number {
    const s0 = status ?? trackStatus(t);
    // Every state that is out of the fight ends the duel alike: one id for all, no key needed.
    // Miniatures: a model that fled (a Mercenary's failed Guts check, a wounded Self-interest
    // model able to run) is out as well — by flight, one id of its own (unless its wounds put it out).
    const down = this.isOut(s0);
    const fled = !down && (m?.fled === true || (this.fleesAt !== null && this.fleesAt(s0)));
    const out = down || fled;
    if (out) {
      const o = fled ? this.fledId : this.outId;
      if (o >= 0) return o;
    }
    // Miniatures: a Near Death model's failed Guts checks change nothing but one thing: it makes its
    // Near Death roll instead of re-checks, is struck at HDDF anyway, and "becomes merely Very Hurt"
    // with none; only a failure by 1 lowers that roll ("−1 to rolls", gutsRollPenalty "allRolls"),
    // so its minds are keyed by that alone.
    if (m && this.space?.reduce && !s0.canAct && m.state.pending.length > 0 && !m.owesFreeAttack)
      m = nearDeathMind(m, this.space);
    const tk = this.stateKeyOf(t);
    const key = m ? `${tk}#${m.key}` : tk;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.tracks.length;
      const s = s0;
      this.tracks.push(t);
      this.minds.push(m);
      this.sig.push(sigId(this.sigs, `${this.sigOf(s)}|${m ? m.state.effect : ""}`));
      if (this.keepExact) this.exact.push(sigId(this.sigs, `=${tk}|${m ? m.state.effect : ""}`));
      this.out.push(out);
      this.canAct.push(s.canAct);
      this.status.push(s);
      this.ids.set(key, id);
      if (fled) this.fledId = id;
      else if (out) this.outId = id;
    }
    return id;
  }
}

/**
 * Miniatures: a box track as the duel can tell its states apart — how many boxes of each level
 * hold a wound or a stun mark. Which wound filled a box (a Scratch overflowed into Hurt, or a
 * Hurt) is read only by healings that never happen in a duel (scratches, roll, natural); the
 * box apply, the Near Death recovery and the round's end read only which boxes are open.
 */
function boxOccupancyKey(t: Track): string {
  const st = t.state as { marks: Record<string, Array<{ stun?: boolean } | null>>; stun: unknown; dead: boolean };
  let k = st.dead ? "D" : "";
  for (const row of Object.values(st.marks)) {
    let w = 0;
    let s = 0;
    for (const m of row) if (m) m.stun ? s++ : w++;
    k += `${w}.${s}|`;
  }
  return st.stun ? `${k}${JSON.stringify(st.stun)}` : k;
}

function sigId(sigs: Map<string, number>, k: string): number {
  let i = sigs.get(k);
  if (i === undefined) sigs.set(k, (i = sigs.size));
  return i;
}

/**
 * `input`: `{ preset, a, b, options?, situation?, first?: "a" | "b" }` — a and b are combatants
 * as the preset's attack request takes them. `first` matters for alternating presets.
 */
export function duelForecast(input: unknown, opts: DuelOptions = {}): DuelForecast {
  const t0 = Date.now();
  // `fallback: "sample"`: a forecast refused for its budget (never for bad input) answers with
  // the sampled estimate instead, within the rest of the budget (src/rules/duel-sample.ts).
  const fallback = isRecord(input) ? parseFallback(input.fallback) : "none";
  if (fallback === "none" || (input as Record<string, unknown>).method === "sample")
    return forecastWithin(input, opts, t0);
  parseSampleRequest(input as Record<string, unknown>); // bad sampling fields are refused before anything runs
  const budget =
    opts.budgetMs ??
    optInt(
      (input as Record<string, unknown>).budgetMs,
      "budgetMs",
      FORECAST_BUDGET.timeMs,
      1,
      FORECAST_BUDGET.maxTimeMs,
    );
  try {
    // The exact or bounded forecast gets the budget but the share kept for the estimate.
    return forecastWithin(
      input,
      { ...opts, budgetMs: Math.max(1, Math.round(budget * (1 - FORECAST_BUDGET.sampleReserve))) },
      t0,
    );
  } catch (e) {
    if (!isBudgetRefusal(e)) throw e;
    const left = budget - (Date.now() - t0);
    try {
      if (left < 1) throw e;
      return forecastOnce({ ...(input as Record<string, unknown>), method: "sample" }, { ...opts, budgetMs: left });
    } catch (e2) {
      // Out of time for the estimate too: the request's whole budget is what it ran out of.
      throw isBudgetRefusal(e2) ? overBudget("budgetMs", `${budget} ms`) : e2;
    }
  }
}

function forecastWithin(input: unknown, opts: DuelOptions, t0: number): DuelForecast {
  const chain = takeChain(opts.memoryStats);
  try {
    return forecastOn(chain, input, opts);
  } catch (e) {
    // Miniatures with Guts checks (the default method): a chain over its budget of states is
    // followed turn by turn with its bound instead, within what is left of the time budget.
    const guts =
      isRecord(input) && input.preset === "miniatures" && input.gutsChecks !== false && input.method === undefined;
    if (!guts || !(e instanceof RulesError) || (e.field !== "maxStates" && e.field !== "maxBytes")) throw e;
    const budget = opts.budgetMs ?? (typeof input.budgetMs === "number" ? input.budgetMs : FORECAST_BUDGET.timeMs);
    const left = budget - (Date.now() - t0);
    if (left < 1) throw e;
    // On the refused chain's own arrays, emptied: the forward pass allocates none beside them
    // while they wait for the collector (docs/rules-api.md "Budgets").
    return forecastOn(chain.reset(), { ...input, method: "forward" }, { ...opts, budgetMs: left });
  } finally {
    giveBackChain(chain);
  }
}

function forecastOnce(input: unknown, opts: DuelOptions): DuelForecast {
  const chain = takeChain(opts.memoryStats);
  try {
    return forecastOn(chain, input, opts);
  } finally {
    giveBackChain(chain);
  }
}

/** One forecast over `chain` (empty: takeChain). */
/** Every field of a duel request (docs/rules-api.md `forecast`), in the order the table writes them. */
const DUEL_FIELDS = [
  "preset",
  "a",
  "b",
  "options",
  "situation",
  "first",
  "gutsChecks",
  "terrifyingCharge",
  "gutsSituation",
  "nearDeathRolls",
  "foldDice",
  "method",
  "maxStates",
  "maxBytes",
  "budgetMs",
  "tolerance",
  "fallback",
  "samples",
  "seed",
  "maxExchanges",
] as const;

function forecastOn(chain: Chain, input: unknown, opts: DuelOptions): DuelForecast {
  if (!isRecord(input)) throw new RulesError("", "FUDGE.Error.NotObject", "the duel request must be an object");
  checkJsonShape(input);
  // A misspelt field ("maxState") would otherwise be ignored and the forecast run on defaults.
  rejectUnknown(input, DUEL_FIELDS, "");
  const p = pipelineFor(input.preset);
  const maxStates =
    opts.maxStates ?? optInt(input.maxStates, "maxStates", FORECAST_BUDGET.defaultStates, 1, FORECAST_BUDGET.maxStates);
  // The chain's cap: the request's maxStates, else what its kind of node costs within chainBytes (chainCap, set below once the method is known).
  const ownCap = opts.maxStates !== undefined || input.maxStates !== undefined;
  let chainStates = ownCap ? maxStates : chainCap("chain", opts.chainBytes);
  const maxBytes =
    opts.maxBytes ??
    optInt(input.maxBytes, "maxBytes", FORECAST_BUDGET.maxBytes, FORECAST_BUDGET.minBytes, FORECAST_BUDGET.maxBytes);
  /** The chain's cap within the memory budget too: past `memoryCap` its nodes are refused with MemoryBudget, not TooManyStates. */
  const capChain = (kind: ForecastStateKind): void => {
    const byMemory = memoryCap(kind, maxBytes);
    chain.tooMany =
      byMemory < chainStates
        ? ((chainStates = byMemory), () => memoryRefusal(maxBytes, byMemory, kind))
        : tooManyStates;
  };
  capChain("chain");
  const budgetMs =
    opts.budgetMs ?? optInt(input.budgetMs, "budgetMs", FORECAST_BUDGET.timeMs, 1, FORECAST_BUDGET.maxTimeMs);
  const tolerance =
    input.tolerance === undefined
      ? FORECAST_BUDGET.tolerance
      : num(input.tolerance, "tolerance", FORECAST_BUDGET.minTolerance, 0.01);
  /** The bounded methods' first threshold: a state holding less is not followed (`tighten` lowers it). */
  const firstEps = tolerance * 1e-2;
  /** Volt's own forward method: the states it may follow in a pass, within maxStates and the memory budget. */
  const voltForwardMemory = memoryCap("voltForward", maxBytes);
  const forwardStates = Math.min(maxStates, voltForwardMemory);
  const deadline = Date.now() + budgetMs;
  let ticks = 0;
  const checkTime = (): void => {
    if ((++ticks & 63) === 0 && Date.now() > deadline) throw overBudget("budgetMs", `${budgetMs} ms`);
  };
  const first = oneOf(input.first, "first", ["a", "b"] as const, "a");
  const sampling = parseSampleRequest(input);
  const base = { preset: input.preset, options: input.options, situation: input.situation ?? {} };
  const miniatures = p.preset === "miniatures";
  // Miniatures: Guts — checks for new wound levels and their effects: part of the Miniatures
  // rules, so on by default there (docs/rules-api.md); false leaves them out, failures in force too.
  const gutsChecks = bool(input.gutsChecks, "gutsChecks", miniatures);
  if (gutsChecks && !miniatures)
    throw new RulesError("gutsChecks", "FUDGE.Error.ForecastGuts", "Guts checks exist only in the Miniatures preset", {
      preset: p.preset,
    });
  // Miniatures: Guts — "Model tries to charge, or is being charged by, a Terrifying opponent": the
  // duel opens with a charge by `first`, so each model facing Terrifying gifts checks before the
  // first blow (default on; a Guts check, so `gutsChecks: false` leaves it out too; docs/rules-api.md).
  const charge = bool(input.terrifyingCharge, "terrifyingCharge", miniatures);
  if (charge && !miniatures)
    throw new RulesError(
      "terrifyingCharge",
      "FUDGE.Error.ForecastTerrifying",
      "the Terrifying charge check exists only in the Miniatures preset",
      { preset: p.preset },
    );
  const terrifyingCharge = charge && gutsChecks;
  // Miniatures: Sample characters — what holds for each side's every Guts check in this duel
  // (Faithful defending the King, a peasant against Noble presence, a follower whose Leader fell).
  const situations = parseDuelGutsSituation(input.gutsSituation, miniatures, p.preset);
  const inA = miniatures && !gutsChecks ? withoutGuts(input.a) : input.a;
  const inB = miniatures && !gutsChecks ? withoutGuts(input.b) : input.b;
  let reqAB: AttackRequest, reqBA: AttackRequest;
  try {
    reqAB = p.parseRequest({ ...base, attacker: inA, defender: inB });
  } catch (e) {
    throw renamePaths(e, { attacker: "a", defender: "b" });
  }
  try {
    reqBA = p.parseRequest({ ...base, attacker: inB, defender: inA });
  } catch (e) {
    throw renamePaths(e, { attacker: "b", defender: "a" });
  }
  const alternating = p.exchange === "alternating";
  // Miniatures: a Near Death model is not out of the fight: it rolls Guts on its turns (default on).
  const nearDeathRolls = p.ownTurn !== undefined && bool(input.nearDeathRolls, "nearDeathRolls", true);
  const isOut = (s: TrackStatus): boolean =>
    nearDeathRolls ? s.condition === "dead" || (!s.canAct && s.condition !== "dying") : !s.canAct;
  const fudgeOptions = reqAB.options as { criticalLetsPointThrough?: boolean; damageRoll?: string } | undefined;
  const byDifference =
    p.preset === "fudge" &&
    !fudgeOptions?.criticalLetsPointThrough &&
    fudgeOptions?.damageRoll !== "evenOdd" &&
    bool(input.foldDice, "foldDice", true);

  const sigs = new Map<string, number>();
  const sigOf = p.preset === "volt" ? voltSig : statusSig;
  // Miniatures: Self-interest — a model that "will flee combat if wounded" is out (fled) once wounded and able to run.
  const fleesOf = (card: Combatant): ((s: TrackStatus) => boolean) | null =>
    miniatures ? fleesWhenWounded(card as unknown as MiniDatacard) : null;
  const sides = {
    a: new Side(reqAB.attacker, sigs, isOut, sigOf, fleesOf(reqAB.attacker)),
    b: new Side(reqAB.defender, sigs, isOut, sigOf, fleesOf(reqAB.defender)),
  };
  // Miniatures: whether either side can leave by flight — then the answer says how often each does (aFled, bFled).
  const flight =
    miniatures &&
    (mayFlee(reqAB.attacker as unknown as MiniDatacard, gutsChecks) ||
      mayFlee(reqAB.defender as unknown as MiniDatacard, gutsChecks));
  if (miniatures && opts.gutsMinds !== "plain")
    for (const side of [sides.a, sides.b]) side.stateKeyOf = boxOccupancyKey;
  if (miniatures && p.statusReads !== "attacker")
    for (const side of [sides.a, sides.b]) side.keepExact = (side.card as { flying?: boolean }).flying === true;
  const whatIds = new Map<string, number>();
  const whats: What[] = [];
  // Plain wounds by their level string (the pipeline's own string: no key to build per leaf).
  const plainIds = new Map<string, number>();
  const internWhat = (w: What): number => {
    const level = plainLevel(w);
    const ids = level === null ? whatIds : plainIds;
    const k = level ?? whatKey(w);
    let i = ids.get(k);
    if (i === undefined) {
      ids.set(k, (i = whats.length));
      whats.push(w);
    }
    return i;
  };
  const NOTHING = internWhat({ wounds: null, heal: null, clearOwed: false });
  /**
   * A leaf's outcome for one side, interned as internWhat would intern `{wounds: woundsOf(r), heal,
   * clearOwed}`, without building that What for the common cases: nothing at all, or one plain
   * `{level}` wound whose level has been seen (nearly every leaf of a step).
   */
  const internOutcome: InternOutcome = (r, heal, clearOwed) => {
    if (heal === null && !clearOwed) {
      if (r === null || r.wound === null || r.wound === undefined) return NOTHING;
      const x = r.wound as Record<string, unknown>;
      if (r.followUps.length === 0 && typeof x === "object" && typeof x.level === "string") {
        const i = plainIds.get(x.level);
        if (i !== undefined) {
          let n = 0;
          for (const _ in x) n++;
          if (n === 1) return i;
        }
      }
    }
    return internWhat({ wounds: woundsOf(r), heal, clearOwed });
  };
  if (gutsChecks)
    for (const [id, side] of [
      ["a", sides.a],
      ["b", sides.b],
    ] as const)
      side.space = mindSpace(
        side.card as unknown as MiniDatacard,
        side.card.track.config as unknown as BoxTrackConfig,
        opts.gutsMinds !== "plain",
        situations[id],
        (reqAB.options as MiniOptions).gutsRollPenalty,
      );
  const mergeMinds = opts.mergeMinds !== false && opts.gutsMinds !== "plain";
  const mindOf = (side: Side): GutsMind | null =>
    side.space ? gutsMind((side.card as unknown as { gutsState?: GutsState }).gutsState, side.space) : null;
  /** Guts as a state's wounds leave it; never below the floor its minds were keyed by (a broken invariant, not bad input). */
  const gutsNow = (side: Side, t: Track): number => {
    const g = gutsStat(side.card as unknown as MiniDatacard, t, reqAB.options as DatacardOptions);
    if (side.space && g + (side.space.modifier ?? 0) - 4 < side.space.floor)
      throw new Error("forecast: Guts fell below its floor");
    return g;
  };

  const parsedWounds = (side: Side, what: number, wounds: unknown[]): unknown[] => {
    let w = side.wounds.get(what);
    if (!w) {
      const config = side.tracks[0].config;
      const k = trackKind(config.kind);
      side.wounds.set(what, (w = wounds.map((x) => k.parseWound(config, x, "wound"))));
    }
    return w;
  };
  // Guts checks by (mind, Guts): many states share them.
  const gutsCache = new Map<string, Array<[GutsMind, number]>>();
  /** Applies what happens to one side's state: the next state, or a distribution (a Guts check). */
  const applyTo = (side: Side, id: number, what: number): number | Array<[number, number]> => {
    if (what === NOTHING) return id;
    const row = (side.next[id] ??= []);
    let r = row[what];
    if (r === undefined) {
      const w = whats[what];
      // The roll that consumed a follow-up (FATE Clipped) comes before the wound it dealt.
      let t = side.tracks[id];
      let status: TrackStatus | undefined;
      if (w.heal !== null) t = healTrack(t, w.heal).track;
      if (w.wounds !== null) {
        // The track kind's own apply, without applyWound's memo: each (state, wound) pair comes here once.
        const k = trackKind(t.config.kind);
        for (const x of parsedWounds(side, what, w.wounds)) {
          const r = k.apply(t.config, t.state, x, true); // quiet: the forecast reads no step
          t = { config: t.config, state: r.state };
          status = r.status;
        }
      }
      let m = side.minds[id];
      const space = side.space!;
      if (m && w.clearOwed) m = withoutFreeAttack(m, space);
      // Miniatures: Wounds — a Near Death model that rolls +2 "becomes merely Very Hurt and may then
      // act normally": the Guts failures it had before it fell no longer hold it (this system's reading).
      if (m && (w.heal as { type?: unknown } | null)?.type === "recover") m = gutsMind(undefined, space);
      const check =
        m && w.wounds !== null ? gutsCheckFor(t, trackStatus(side.tracks[id]), status ?? trackStatus(t)) : null;
      if (m && check) {
        const guts = gutsNow(side, t);
        // The second side to act in a round is wounded in the first side's activation: the same round as its own.
        const sameRound = side !== sides[first];
        const gk = `w${side === sides.a ? "a" : "b"}${m.key}|${guts}|${check.target}|${check.reason}`;
        let dist = gutsCache.get(gk);
        if (!dist) gutsCache.set(gk, (dist = gutsAfterWound(m, guts, check.target, check.reason, sameRound, space)));
        r =
          dist.length === 1
            ? side.intern(t, dist[0][0])
            : dist.map(([mm, q]) => [side.intern(t, mm), q] as [number, number]);
      } else r = side.intern(t, m, status);
      row[what] = r;
    }
    return r;
  };
  const each = (r: number | Array<[number, number]>, f: (id: number, q: number) => void): void => {
    if (typeof r === "number") f(r, 1);
    else for (const [id, q] of r) f(id, q);
  };
  /** `each` for turnStart's flat outcomes. */
  const eachRecheck = (r: number | number[], f: (id: number, q: number) => void): void => {
    if (typeof r === "number") f(r, 1);
    else for (let k = 0; k < r.length; k += 2) f(r[k], r[k + 1]);
  };

  // Steps by status (see the contract above). Miniatures keys the defender by its exact state:
  // whether a blow reaches Near Death (the crash) or a new wound level (Guts) depends on its boxes.
  const stepCache = new Map<number, Step[]>();
  let enumerations = 0;
  const attackSteps = (X: "a" | "b", x: number, y: number, free: boolean): Step[] => {
    const sx = X === "a" ? sides.a : sides.b;
    const sy = X === "a" ? sides.b : sides.a;
    // A flying Miniatures model's crash depends on whether this blow brings it to Near Death: its exact boxes.
    const ySig =
      p.statusReads === "attacker"
        ? 0
        : miniatures && (sy.card as { flying?: boolean }).flying === true
          ? sy.exact[y]
          : sy.sig[y];
    const key = ((sx.sig[x] * 2 ** 20 + ySig) * 2 + (free ? 1 : 0)) * 2 + (X === "a" ? 0 : 1);
    let s = stepCache.get(key);
    if (!s) {
      enumerations++;
      const [rXY, rYX] = X === "a" ? [reqAB, reqBA] : [reqBA, reqAB];
      s = enumerateStep(
        p,
        withSides(p, rXY, sx.tracks[x], sx.minds[x], sy.tracks[y], sy.minds[y], free, sx.status[x], sy.status[y]),
        withSides(p, rYX, sy.tracks[y], sy.minds[y], sx.tracks[x], sx.minds[x], false, sy.status[y], sx.status[x]),
        sx.status[x],
        sy.status[y],
        byDifference,
        internOutcome,
        free,
      );
      stepCache.set(key, s);
    }
    return s;
  };
  const ownTurnCache = new Map<number, Step[]>();
  /** A side that cannot act but is still in the fight takes its own turn (Miniatures: the Near Death roll). */
  const ownSteps = (X: "a" | "b", x: number, y: number): Step[] => {
    const sx = X === "a" ? sides.a : sides.b;
    const sy = X === "a" ? sides.b : sides.a;
    // Miniatures: the roll reads whether a Guts failure by 1 is in force (a mind's worst effect, in the sig, does not say).
    const key = (sx.sig[x] * 2 + (gutsRollPenalty(sx.minds[x]?.state) ? 1 : 0)) * 2 + (X === "a" ? 0 : 1);
    let s = ownTurnCache.get(key);
    if (!s) {
      const req = withSides(p, X === "a" ? reqAB : reqBA, sx.tracks[x], sx.minds[x], sy.tracks[y], sy.minds[y], false);
      s = (p.ownTurn!(req) ?? []).map((o) => ({
        x: internWhat({ wounds: o.wound === undefined ? null : [o.wound], heal: o.heal ?? null, clearOwed: false }),
        y: NOTHING,
        p: o.p,
      }));
      ownTurnCache.set(key, s);
    }
    return s;
  };
  // The outcomes flat, [state, p, state, p, …] (one array of doubles, not an array per outcome: a
  // large chain holds tens of thousands of them; 9.5 MB of 46 at 370,000 nodes as pairs).
  const turnStartCache = new Map<number, number | number[]>();
  /** Miniatures: Guts — the re-checks at the start of a model's turn: the state when there are none, else its outcomes flat ([state, p, …]). */
  const turnStart = (side: Side, x: number): number | number[] => {
    const m = side.minds[x];
    if (!m || m.state.pending.length === 0) return x;
    let r = turnStartCache.get(x * 2 + (side === sides.a ? 0 : 1));
    if (r === undefined) {
      const t = side.tracks[x];
      const guts = gutsNow(side, t);
      const gk = `t${side === sides.a ? "a" : "b"}${m.key}|${guts}`;
      let dist = gutsCache.get(gk);
      if (!dist) gutsCache.set(gk, (dist = gutsTurnStart(m, guts, side.space!)));
      const flat: number[] = [];
      for (const [mm, q] of dist) flat.push(side.intern(t, mm), q);
      r = flat;
      turnStartCache.set(x * 2 + (side === sides.a ? 0 : 1), r);
    }
    return r;
  };
  const mayAttack = (side: Side, x: number): boolean => (side.minds[x]?.state.effect ?? 0) < 2;
  const owes = (side: Side, y: number): boolean => side.minds[y]?.owesFreeAttack === true;
  /** Miniatures: Chivalrous — X's model "Cannot strike a defenseless opponent" y (its turn passes). */
  const refuses = (X: "a" | "b", y: number): boolean => {
    const sy = X === "a" ? sides.b : sides.a;
    return miniatures && refusesToStrike(sides[X].card as unknown as MiniDatacard, sy.status[y], sy.minds[y]);
  };

  /**
   * Every outcome of the turn of `turn` from (a, b): (a', b', next turn, p). `take` (the sampled
   * estimate, src/rules/duel-sample.ts): asked before each branch of probability q is followed;
   * a branch it declines is neither applied nor visited.
   */
  const moves = (
    a: number,
    b: number,
    turn: "a" | "b",
    visit: (a2: number, b2: number, next: "a" | "b", q: number) => void,
    take?: (q: number) => boolean,
  ): void => {
    const X = turn;
    const O: "a" | "b" = X === "a" ? "b" : "a";
    const sx = sides[X];
    const sy = sides[O];
    const x0 = X === "a" ? a : b;
    const y0 = X === "a" ? b : a;
    const emit = (x2: number, y2: number, next: "a" | "b", q: number): void =>
      X === "a" ? visit(x2, y2, next, q) : visit(y2, x2, next, q);
    // After a step the turn passes (alternating) or stays (opposed), unless the defender broke and owes a free attack.
    const play = (x: number, steps: Step[], q0: number): void => {
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i];
        if (take && !take(q0 * s.p)) continue;
        const rx = applyTo(sx, x, s.x);
        const ry = applyTo(sy, y0, s.y);
        if (typeof rx === "number" && typeof ry === "number")
          emit(rx, ry, !alternating || owes(sy, ry) ? X : O, q0 * s.p);
        else
          each(rx, (x2, qx) =>
            each(ry, (y2, qy) => emit(x2, y2, !alternating || owes(sy, y2) ? X : O, q0 * s.p * qx * qy)),
          );
      }
    };
    if (!alternating) return play(x0, attackSteps(X, x0, y0, false), 1);
    if (owes(sy, y0)) {
      if (!refuses(X, y0)) return play(x0, attackSteps(X, x0, y0, true), 1);
      // Chivalrous: a runner that is also helpless gets away unstruck.
      if (!take || take(1)) emit(x0, sy.intern(sy.tracks[y0], withoutFreeAttack(sy.minds[y0]!, sy.space!)), O, 1);
      return;
    }
    if (!sx.canAct[x0]) {
      if (nearDeathRolls && p.ownTurn) {
        for (const s of ownSteps(X, x0, y0))
          if (!take || take(s.p)) each(applyTo(sx, x0, s.x), (x2, q) => emit(x2, y0, O, q * s.p));
      } else if (!take || take(1)) emit(x0, y0, O, 1);
      return;
    }
    const t = turnStart(sx, x0);
    const refused = refuses(X, y0);
    if (typeof t === "number") {
      if (!refused) return play(x0, attackSteps(X, x0, y0, false), 1);
      if (!take || take(1)) emit(x0, y0, O, 1); // Miniatures: Chivalrous — the turn passes
      return;
    }
    for (let k = 0; k < t.length; k += 2) {
      const x1 = t[k];
      const q = t[k + 1];
      // Miniatures: Guts — a failure by 2 or more: "may not attack"; a Mercenary whose re-check
      // failed has fled ("will flee the combat on any failed Guts check"): out before it strikes.
      if (!sx.out[x1] && mayAttack(sx, x1) && !refused) play(x1, attackSteps(X, x1, y0, false), q);
      else if (!take || take(q)) emit(x1, y0, O, q);
    }
  };

  // Explore the reachable chain. A node is (a, b, turn); both sides out-or-not decide absorption.
  /** The end nodes: a out, b out, a fled, b fled (Miniatures). */
  const outNodes = [-1, -1, -1, -1];
  const nodeOf = (a0: number, b0: number, turn: "a" | "b"): number => {
    const ab = sides.a.out[a0] ? 1 : sides.b.out[b0] ? 2 : 0;
    if (ab) {
      // Every state where a side is out ends the duel alike: one node each, one more for flight.
      const fled = ab === 1 ? a0 === sides.a.fledId : b0 === sides.b.fledId;
      const k = fled ? ab + 1 : ab - 1;
      if (outNodes[k] < 0) outNodes[k] = chain.add(a0, b0, 0, fled ? ab | 4 : ab, chainStates);
      return outNodes[k];
    }
    let a = a0;
    let b = b0;
    if (gutsChecks) {
      // A side starts its activation unless its foe owes it a free attack (it is in the middle of one).
      if (turn === "a") {
        if (!owes(sides.b, b)) a = standIn(sides.a, a, false);
        b = standIn(sides.b, b, true);
      } else {
        if (!owes(sides.a, a)) b = standIn(sides.b, b, false);
        a = standIn(sides.a, a, true);
      }
    }
    return chain.find(a, b, turn === "a" ? 0 : 1, chainStates);
  };
  /**
   * Miniatures: Guts — states of one side with the same future share one node (the first seen
   * stands in for the rest): fewer nodes, the same answers (tests/rules/forecast-merge.test.ts).
   * - About to start its activation, a model is first re-checked (turnStart), and nothing reads
   *   its failures before that: two states with the same track whose re-checks lead to the same
   *   states with the same probabilities (a failure sure to pass, failures that end alike) act alike.
   * - Waiting for its activation once no blow can call for another check on it (gutsSettled), its
   *   failures change only when it falls out of the fight (where only a failure by 1 still counts:
   *   its Near Death roll is at −1, gutsRollPenalty "allRolls"), and the foe's blows read only
   *   whether it is helpless (a failure by 4: "enemies treat it as a helpless target") and whether
   *   it owes a free attack: with those and the −1 alike, the same re-checks at its activation mean
   *   the same future.
   */
  const standInKeys = new Map<string, number>();
  /** The distinct probabilities of re-check outcomes, numbered (equal numbers, equal ids: the keys' classes are those of the numbers written out). */
  const probIds = new Map<number, number>();
  const probId = (q: number): number => {
    let i = probIds.get(q);
    if (i === undefined) probIds.set(q, (i = probIds.size));
    return i;
  };
  const standIn = (side: Side, x: number, waiting: boolean): number => {
    const memo = waiting ? side.whileWaiting : side.atActivation;
    let c = memo[x];
    if (c !== undefined) return c;
    const m = side.minds[x];
    if (!mergeMinds || !m || !side.canAct[x] || (waiting && !gutsSettled(side.tracks[x], side.status[x]))) c = x;
    else {
      const t = turnStart(side, x);
      const dist: Array<[number, number]> = [];
      if (typeof t === "number") dist.push([t, 1]);
      else for (let k = 0; k < t.length; k += 2) dist.push([t[k], t[k + 1]]);
      dist.sort((u, v) => u[0] - v[0]);
      // Waiting, a blow that brings it Near Death also reads whether a failure by 1 is in force: its Near Death roll is at −1.
      const reads = waiting
        ? `${gutsEffectInfo(m.state.effect).helpless ? "h" : ""}${m.owesFreeAttack ? "!" : ""}${side.space?.gutsRollPenalty !== "attackRolls" && gutsRollPenalty(m.state) ? "s" : ""}`
        : "";
      // One flat string (join, not nested concatenations), each probability by its short id: the
      // keys were the largest part of a large chain's memory (13 MB of 46 at 370,000 nodes).
      const parts = [
        waiting ? "w" : "s",
        side === sides.a ? "a" : "b",
        side.stateKeyOf(side.tracks[x]),
        "|",
        reads,
        "|",
      ];
      for (let k = 0; k < dist.length; k++)
        parts.push(k === 0 ? "" : ",", String(dist[k][0]), ":", String(probId(dist[k][1])));
      const k = parts.join("");
      const first = standInKeys.get(k);
      if (first === undefined) {
        standInKeys.set(k, (c = x));
        if (opts.memoryStats) {
          opts.memoryStats.standInKeys++;
          opts.memoryStats.standInKeyChars += k.length;
        }
      } else c = first;
    }
    return (memo[x] = c);
  };
  /** A node's successors and their probabilities (computed once). */
  const expand = (i: number): void => {
    if (plainOpposed) return expandOpposed(i);
    const to = succTo;
    const pr = succP;
    let n = 0;
    moves(chain.a[i], chain.b[i], chain.turn(i), (a2, b2, next, q) => {
      const j = nodeOf(a2, b2, next);
      let at = 0;
      while (at < n && to[at] !== j) at++;
      if (at < n) pr[at] += q;
      else {
        to[n] = j;
        pr[n++] = q;
      }
    });
    chain.setEdges(i, to, pr, n);
  };
  // Opposed presets without Guts (Fudge, FATE): every node is one round with the same side to
  // roll first, and each step's outcome is one state per side (no Guts check spreads it), so
  // `moves`, general enough for Miniatures turns, is skipped for this direct loop (the same sums
  // in the same order: the same bits).
  const plainOpposed = !alternating && !gutsChecks;
  const expandOpposed = (i: number): void => {
    const X = chain.turn(i);
    const aRolls = X === "a";
    const sx = aRolls ? sides.a : sides.b;
    const sy = aRolls ? sides.b : sides.a;
    const x = aRolls ? chain.a[i] : chain.b[i];
    const y = aRolls ? chain.b[i] : chain.a[i];
    const steps = attackSteps(X, x, y, false);
    // Each distinct outcome for either side is applied once per node, not once per step (a
    // step list has ≈ 10 steps but ≈ 3 distinct outcomes for the attacker and ≈ 5 for the defender).
    const g = groupsOf(steps);
    for (let u = 0; u < g.xs.length; u++) succX[u] = applyTo(sx, x, g.xs[u]) as number;
    for (let v = 0; v < g.ys.length; v++) succY[v] = applyTo(sy, y, g.ys[v]) as number;
    // Gathered in reused lists, then copied into the chain's edge pages.
    const to = succTo;
    const pr = succP;
    let n = 0;
    for (let k = 0; k < steps.length; k++) {
      const x2 = succX[g.ix[k]];
      const y2 = succY[g.iy[k]];
      const j = aRolls ? nodeOf(x2, y2, X) : nodeOf(y2, x2, X);
      // A few successors per node: a plain scan (indexOf's builtin call cost more).
      let at = 0;
      while (at < n && to[at] !== j) at++;
      const p = steps[k].p;
      if (at < n) pr[at] += p;
      else {
        to[n] = j;
        pr[n++] = p;
      }
    }
    chain.setEdges(i, to, pr, n);
  };
  /** A step list's distinct attacker and defender outcomes, and each step's index into them. */
  const groups = new Map<Step[], { xs: number[]; ys: number[]; ix: number[]; iy: number[] }>();
  const groupsOf = (steps: Step[]): { xs: number[]; ys: number[]; ix: number[]; iy: number[] } => {
    let g = groups.get(steps);
    if (!g) {
      const xs: number[] = [];
      const ys: number[] = [];
      const ix = steps.map((s) => (xs.includes(s.x) ? xs.indexOf(s.x) : xs.push(s.x) - 1));
      const iy = steps.map((s) => (ys.includes(s.y) ? ys.indexOf(s.y) : ys.push(s.y) - 1));
      groups.set(steps, (g = { xs, ys, ix, iy }));
    }
    return g;
  };
  const succX: number[] = [];
  const succY: number[] = [];
  const succTo: number[] = [];
  const succP: number[] = [];
  // The forward method's live nodes this turn and the next (steppedOnce).
  let liveNow: LiveNodes | undefined;
  let liveNext: LiveNodes | undefined;
  const startA = sides.a.intern(reqAB.attacker.track, mindOf(sides.a));
  const startB = sides.b.intern(reqAB.defender.track, mindOf(sides.b));
  // Volt duels are solved exactly over both sheets ("product") when that fits the budget, else
  // followed forward in order of their marks (their chain is too large to solve whole).
  // Miniatures duels with Guts checks are solved by the chain of their reduced minds, and
  // turn by turn (bounded) where that chain is over its budget of states.
  // "chain" forces the exact chain, "forward" the bounded forecast (tests compare the two).
  const method = oneOf(
    input.method,
    "method",
    ["chain", "forward", "phases", "product", "sample"] as const,
    p.preset === "volt" ? "product" : gutsChecks && opts.gutsMinds === "plain" ? "forward" : "chain",
  );
  if (method === "product") {
    if (p.preset !== "volt")
      throw new RulesError("method", "FUDGE.Error.ForecastMethod", `method "product" solves Volt duels only`, {
        method: "product",
      });
    const r = product();
    if (!("tooLarge" in r)) return r;
    // Over the product's budget: the bounded forward forecast, unless "product" was asked for.
    if (input.method === "product")
      throw r.byMemory ? memoryRefusal(maxBytes, r.byMemory, "voltProductPair") : overBudget("maxStates", r.tooLarge);
    // Refused at once when its first pass is sure to follow more than maxStates states (every
    // later pass follows more): the same refusal, without spending the time budget on it.
    if (r.forwardExceeds(firstEps, forwardStates, opts.voltCountStats))
      throw forwardStates < maxStates
        ? memoryRefusal(maxBytes, forwardStates, "voltForward")
        : new RulesError(
            "maxStates",
            "FUDGE.Error.TooManyStates",
            `the duel has more than ${maxStates} states (the bounded forecast's first pass alone follows more)`,
          );
    return forward();
  }
  if (method === "phases") {
    if (!phasesApply())
      throw new RulesError(
        "method",
        "FUDGE.Error.ForecastMethod",
        `method "phases" needs an alternating duel where an attack reads only the attacker's status (Volt)`,
        { method: "phases" },
      );
    return tighten(phasesOnce);
  }
  const starts = chargeStarts();
  // (Volt's own forward method keeps its states outside the chain, under maxStates.)
  const chainKind = method === "forward" && p.preset !== "volt" ? "forward" : flight ? "flight" : "chain";
  chainStates = ownCap ? maxStates : chainCap(chainKind, opts.chainBytes);
  capChain(chainKind);
  if (method === "forward") return p.preset === "volt" ? forward() : stepped();
  if (method === "sample") {
    // Duels played through `moves`, the turns of this chain, from the same starts (src/rules/duel-sample.ts).
    // Volt: the same duels played on the integer sheets (src/rules/volt/duel.ts voltSampledDuel); `states` is then the sheets met.
    const volt = p.preset === "volt" && opts.voltSheetSampler !== false ? voltSampled() : null;
    const fled = flight
      ? { fledA: (a: number) => a === sides.a.fledId, fledB: (b: number) => b === sides.b.fledId }
      : {};
    const s = sampleDuels(
      volt ?? {
        moves,
        starts,
        outA: (a) => sides.a.out[a],
        outB: (b) => sides.b.out[b],
        ...fled,
        alternating,
        checkTime,
      },
      sampling,
    );
    const states = volt ? volt.sheetsMet() : sides.a.tracks.length + sides.b.tracks.length;
    const r: DuelForecast = {
      preset: p.preset,
      aOut: s.aOut,
      bOut: s.bOut,
      stalemate: s.stalemate,
      expectedExchanges: s.expectedExchanges,
      states,
      enumerations,
      exact: false,
      errorBound: 1,
      method: "sample",
      estimate: s.estimate,
    };
    return flight ? { ...r, aFled: s.aFled ?? 0, bFled: s.bFled ?? 0 } : r;
  }
  const startNodes = starts.map((s) => ({ i: nodeOf(s.a, s.b, s.turn), w: s.w, spent: s.spent }));
  for (let i = 0; i < chain.n; i++) {
    checkTime();
    if (!chain.absorbed(i)) expand(i);
  }

  // Solve: bOut probability, aOut probability and expected steps, per node.
  const N = chain.n;
  const { pA, pB, eSteps, stuck } = solveArrays(N); // stuck: probability of never being absorbed
  for (let i = 0; i < N; i++) {
    const ab = chain.absorbed(i);
    if (ab === 1) pA[i] = 1;
    if (ab === 2) pB[i] = 1;
  }
  // Miniatures, when a side can flee: the same equations again with the flight end nodes alone as
  // ends (fA, fB: P(a, b leaves by flight)); their steps and stalemate columns are not read.
  const fl = flight
    ? { fA: new Float64Array(N), fB: new Float64Array(N), e: new Float64Array(N), st: new Float64Array(N) }
    : null;
  if (fl)
    for (let i = 0; i < N; i++) {
      if (!chain.fled(i)) continue;
      if (chain.absorbed(i) === 1) fl.fA[i] = 1;
      else fl.fB[i] = 1;
    }
  const { order, start: compStart, count: comps } = tarjan(N, chain);
  for (let c = 0; c < comps; c++) {
    const size = compStart[c + 1] - compStart[c];
    const v = order[compStart[c]];
    if (size === 1) {
      // Most components are one state (wounds only add up; a miss is a self-loop): no array for it.
      if (!chain.absorbed(v)) {
        solveOne(v, chain, pA, pB, eSteps, stuck);
        if (fl) solveOne(v, chain, fl.fA, fl.fB, fl.e, fl.st);
      }
      continue;
    }
    checkTime();
    if (size > FORECAST_BUDGET.maxComponent) throw overBudget("maxStates", `a cycle of ${size} states`);
    const comp = Array.from(order.subarray(compStart[c], compStart[c + 1]));
    solveComponent(comp, chain, pA, pB, eSteps, stuck);
    if (fl) solveComponent(comp, chain, fl.fA, fl.fB, fl.e, fl.st);
  }
  // The answer from where the duel starts: the weighted values of its start states.
  let aOut = 0;
  let bOut = 0;
  let stalemate = 0;
  let steps = 0;
  let aFled = 0;
  let bFled = 0;
  for (const { i, w, spent } of startNodes) {
    aOut += w * pA[i];
    bOut += w * pB[i];
    stalemate += w * stuck[i];
    steps += w * (eSteps[i] + (spent ? 1 : 0));
    if (fl) {
      aFled += w * fl.fA[i];
      bFled += w * fl.fB[i];
    }
  }
  const exchanges = stalemate > 1e-12 ? null : alternating ? steps / 2 : steps;
  const answer: DuelForecast = {
    preset: p.preset,
    aOut,
    bOut,
    stalemate,
    expectedExchanges: exchanges,
    states: N,
    enumerations,
    exact: true,
    errorBound: 0,
    method: "chain",
  };
  return fl ? { ...answer, aFled, bFled } : answer;

  /**
   * Where the duel starts: its one state or, with the Terrifying charge (Miniatures: Guts, "Model
   * tries to charge, or is being charged by, a Terrifying opponent"), the outcomes of the charge
   * checks as `first` charges in its activation of the first round: each model that can act and
   * faces Terrifying gifts checks at once (gutsAtCharge, over the Legendary classes). A charged
   * model that breaks by 3 runs, and the charger in base contact strikes it at once at +1 (after
   * its own re-checks: its blow of this activation, the runner then out of reach); a charger that
   * may not attack lets it go and its activation is spent (`spent`: one turn already taken).
   */
  function chargeStarts(): Array<{ a: number; b: number; turn: "a" | "b"; w: number; spent: boolean }> {
    const plain = [{ a: startA, b: startB, turn: first, w: 1, spent: false }];
    if (!terrifyingCharge) return plain;
    const X = first;
    const Y: "a" | "b" = X === "a" ? "b" : "a";
    const [sx, sy] = [sides[X], sides[Y]];
    const [x0, y0] = X === "a" ? [startA, startB] : [startB, startA];
    // No charge when a side is already out, or the charger cannot act (Near Death).
    if (sx.out[x0] || sy.out[y0] || !sx.canAct[x0]) return plain;
    const gifts = (s: Side): number => (s.card as unknown as MiniDatacard).terrifying;
    const check = (s: Side, id: number, foe: Side, charged: boolean): Array<[number, number]> =>
      !s.canAct[id] || gifts(foe) <= 0
        ? [[id, 1]]
        : gutsAtCharge(s.minds[id]!, gutsNow(s, s.tracks[id]), gifts(foe), charged, s.space!).map(
            ([m, q]) => [s.intern(s.tracks[id], m), q] as [number, number],
          );
    const out = new Map<string, { a: number; b: number; turn: "a" | "b"; w: number; spent: boolean }>();
    const add = (x: number, y: number, turn: "a" | "b", w: number, spent: boolean): void => {
      const [a, b] = X === "a" ? [x, y] : [y, x];
      const k = `${a}|${b}|${turn}|${spent ? 1 : 0}`;
      const e = out.get(k);
      if (e) e.w += w;
      else out.set(k, { a, b, turn, w, spent });
    };
    const ys = check(sy, y0, sx, true);
    for (const [x1, qx] of check(sx, x0, sy, false))
      for (const [y1, qy] of ys) {
        if (!owes(sy, y1)) add(x1, y1, X, qx * qy, false);
        else
          eachRecheck(turnStart(sx, x1), (x2, q) => {
            if (mayAttack(sx, x2)) add(x2, y1, X, qx * qy * q, false);
            else add(x2, sy.intern(sy.tracks[y1], withoutFreeAttack(sy.minds[y1]!, sy.space!)), Y, qx * qy * q, true);
          });
      }
    return [...out.values()];
  }

  /**
   * Any duel, turn by turn: the probability of every live state after each turn, each turn's
   * absorbed mass added to its side. A state holding less than `eps` is not followed, and the
   * fight still running when at most `tolerance / 2` remains is left there; both are added to the
   * error bound (each could still end either way). If the bound ends above `tolerance`, the
   * forecast is repeated with a smaller `eps` (within the budget).
   */
  function stepped(): DuelForecast {
    return tighten(steppedOnce);
  }
  /** Repeats a bounded forecast, leaving out less each time, until its bound is within `tolerance` (or the budget stops it). */
  function tighten(once: (eps: number) => DuelForecast): DuelForecast {
    for (let eps = firstEps; ; eps /= 30) {
      const r = once(eps);
      if (r.errorBound <= tolerance) return r;
    }
  }
  /** True when no state reachable from these can ever put a side out (explored as far as that takes; stops at the first end). */
  function cannotEnd(from: Iterable<number>): boolean {
    const seen = new Set<number>(from);
    const todo = [...seen];
    while (todo.length) {
      checkTime();
      const i = todo.pop()!;
      if (!chain.expanded(i)) expand(i);
      const to = chain.page(i);
      for (let k = chain.offset(i), end = k + chain.count(i); k < end; k++) {
        const j = to[k];
        if (chain.absorbed(j)) return false;
        if (!seen.has(j)) {
          seen.add(j);
          todo.push(j);
        }
      }
    }
    return true;
  }
  function steppedOnce(eps: number): DuelForecast {
    let aOut = 0;
    let bOut = 0;
    // Miniatures: the share of aOut, bOut that left by flight.
    let aFled = 0;
    let bFled = 0;
    let dropped = 0;
    let turns = 0;
    // This turn's live nodes and the next's, reused from turn to turn and pass to pass.
    let live = (liveNow ??= new LiveNodes()).clear();
    let next = (liveNext ??= new LiveNodes()).clear();
    // Forward from the start distribution (one state but for the Terrifying charge).
    for (const s of starts) {
      const i = nodeOf(s.a, s.b, s.turn);
      const ab = chain.absorbed(i);
      if (ab === 1) aOut += s.w;
      else if (ab === 2) bOut += s.w;
      else live.add(i, s.w);
      if (ab === 1 && chain.fled(i)) aFled += s.w;
      else if (ab === 2 && chain.fled(i)) bFled += s.w;
      if (s.spent) turns += s.w;
    }
    let rest = live.total();
    let stalemate = 0;
    for (let turn = 1; rest > tolerance / 2; turn++) {
      // Now and then (turns 16, 32, 64 …): a fight that can never end is a stalemate, not a refusal at the budget.
      if ((turn & (turn - 1)) === 0 && turn >= 16 && cannotEnd(live.nodes())) {
        stalemate = rest;
        rest = 0;
        break;
      }
      turns += rest;
      next.clear();
      for (let u = 0, list = live.list, mass = live.mass, size = live.size; u < size; u++) {
        const i = list[u];
        const m = mass[i];
        checkTime();
        if (m < eps) {
          dropped += m;
          continue;
        }
        if (!chain.expanded(i)) expand(i);
        const to = chain.page(i);
        const pr = chain.probs;
        for (let k = 0, o = chain.offset(i), r = chain.probAt(i), n = chain.count(i); k < n; k++) {
          const j = to[o + k];
          const q = m * pr[r + k];
          const ab = chain.absorbed(j);
          if (ab === 0) next.add(j, q);
          else {
            if (ab === 1) aOut += q;
            else bOut += q;
            if (chain.fled(j)) {
              if (ab === 1) aFled += q;
              else bFled += q;
            }
          }
        }
      }
      [live, next] = [next, live];
      rest = live.total();
      if (dropped > tolerance / 2) break;
    }
    const errorBound = dropped + rest;
    const answer: DuelForecast = {
      preset: p.preset,
      aOut,
      bOut,
      stalemate,
      expectedExchanges: stalemate > 1e-12 ? null : alternating ? turns / 2 : turns,
      states: chain.n,
      enumerations,
      exact: errorBound === 0,
      errorBound,
      method: "forward",
    };
    return flight ? { ...answer, aFled, bFled } : answer;
  }

  /**
   * Volt, exact: the backward programme over both sheets as integers (src/rules/volt/duel.ts).
   * Each side's law per penalty comes from the real pipeline (attackSteps: the same enumeration
   * as every other method); what is too large when the duel is over the product's budget.
   */
  function product():
    | DuelForecast
    | {
        tooLarge: string;
        byMemory: number;
        forwardExceeds: (eps: number, maxStates: number, stats?: VoltCountStats) => boolean;
      } {
    const lawOf = (X: "a" | "b", state: VoltTrackState): VoltLaw => {
      let miss = 0;
      const hits: VoltLaw["hits"] = [];
      for (const s of voltSteps(X, state)) {
        if (s.wounds === null) miss += s.p;
        else hits.push({ wounds: s.wounds, p: s.p });
      }
      return { miss, hits };
    };
    const side = voltSide;
    const maxPairs = opts.maxProductPairs ?? maxStates * FORECAST_BUDGET.productPairsPerState;
    // The window is bounded by the states budget and by the memory budget (its pairs at their peak cost).
    const byStates = Math.min(maxStates * FORECAST_BUDGET.productWindowPerState, FORECAST_BUDGET.productMaxWindow);
    const byMemory = memoryCap("voltProductPair", maxBytes);
    const maxWindow = Math.min(byStates, byMemory);
    const r = voltProductDuel(side(reqAB.attacker.track), side(reqAB.defender.track), first, lawOf, {
      maxPairs,
      maxWindow,
      checkTime,
    });
    if ("tooLarge" in r)
      return {
        tooLarge:
          r.tooLarge === "pairs"
            ? `${r.pairsAtLeast ? "at least " : ""}${r.pairs} pairs of Volt sheets, at most ${maxPairs}`
            : `${r.window} pairs of Volt sheets at once, at most ${maxWindow}`,
        // Refused for memory: the window alone was over, and only because of maxBytes.
        byMemory: r.tooLarge === "window" && r.window <= byStates ? byMemory : 0,
        forwardExceeds: r.forwardExceeds,
      };
    return {
      preset: p.preset,
      aOut: r.aOut,
      bOut: r.bOut,
      stalemate: r.stalemate,
      expectedExchanges: r.stalemate > 1e-12 ? null : r.attacks / 2,
      states: 2 * r.pairs,
      enumerations,
      exact: true,
      errorBound: 0,
      method: "product",
    };
  }

  /** Volt: the steps of side X attacking with sheet `state`, from the real pipeline (attackSteps: the same enumeration, in its order, as every other method). */
  function voltSteps(X: "a" | "b", state: VoltTrackState): VoltStep[] {
    const sx = sides[X];
    const O = X === "a" ? sides.b : sides.a;
    const x = sx.intern({ config: sx.tracks[0].config, state }, null);
    return attackSteps(X, x, X === "a" ? startB : startA, false).map((s) => {
      // Volt: an attack changes only its defender's sheet (a broken contract otherwise, not bad input).
      if (s.x !== NOTHING || whats[s.y].heal !== null)
        throw new Error("forecast: a Volt attack changed more than its defender's sheet");
      return {
        p: s.p,
        wounds: s.y === NOTHING ? null : (parsedWounds(O, s.y, whats[s.y].wounds!) as VoltWound[][]).flat(),
      };
    });
  }
  function voltSide(t: Track): { config: VoltTrackConfig; state: VoltTrackState } {
    return { config: t.config as unknown as VoltTrackConfig, state: t.state as unknown as VoltTrackState };
  }
  /** Volt: the sampled duels on the integer sheets (src/rules/volt/duel.ts voltSampledDuel). */
  function voltSampled(): ReturnType<typeof voltSampledDuel> {
    return voltSampledDuel(voltSide(reqAB.attacker.track), voltSide(reqAB.defender.track), first, voltSteps, checkTime);
  }

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
    return tighten(forwardOnce);
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
      const outOf = (a: number, b: number): "a" | "b" | null => (sides.a.out[a] ? "a" : sides.b.out[b] ? "b" : null);
      /** One attack by `turn` from (a, b): P(nothing changes), and the other outcomes. */
      const attack = (
        a: number,
        b: number,
        turn: "a" | "b",
      ): { same: number; moves: Array<[number, number, number]> } => {
        let same = 0;
        const out: Array<[number, number, number]> = [];
        moves(a, b, turn, (a2, b2, _next, q) => {
          if (a2 === a && b2 === b) same += q;
          else out.push([a2, b2, q]);
        });
        return { same, moves: out };
      };
      const startOut = outOf(startA, startB);
      if (startOut) return boundedAnswer("forward", startOut === "a" ? 1 : 0, startOut === "b" ? 1 : 0, 0, 0, 0, 1);
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
            // This pass can no longer meet the tolerance: on to the next (smaller) threshold now.
            if (dropped > tolerance) return boundedAnswer("forward", aOut, bOut, stalemate, dropped, attacks, states);
            continue;
          }
          if (++states > forwardStates)
            throw states > voltForwardMemory
              ? memoryRefusal(maxBytes, voltForwardMemory, "voltForward")
              : new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states`);
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
          for (const [moves, v, next] of [
            [x.moves, vX, "b"],
            [y.moves, vY, "a"],
          ] as const) {
            for (const [a2, b2, q] of moves) {
              const o = outOf(a2, b2);
              if (o === "a") aOut += v * q;
              else if (o === "b") bOut += v * q;
              else {
                if (progress(sides.a, a2) + progress(sides.b, b2) <= pr)
                  throw new Error(`forecast: a Volt attack went back from progress ${pr}`); // a broken invariant, not bad input
                push(a2, b2, next, v * q);
              }
            }
          }
        }
      }
      return boundedAnswer("forward", aOut, bOut, stalemate, dropped, attacks, states);
    }
  }

  /**
   * Phases (alternating duels where an attack reads only the attacker's status: Volt). The two
   * sheets are coupled only through the attacker's status (Volt: its penalty): while neither
   * side's status changes, A's attacks move B's sheet by a fixed law and B's attacks move A's,
   * each regardless of the other sheet. So, given the history of both statuses, the sheets are
   * independent, and the duel is a sum of products — a distribution over A's sheets (a "factor")
   * times one over B's, with a weight — instead of a distribution over pairs of sheets.
   *
   * The duel is followed hit by hit, not attack by attack: whether an attack wounds at all (its
   * dice give no wound: a miss, armor deflecting) depends only on the attacker's status, so the
   * misses between two wounds are summed in closed form (the turn passes: a two-state cycle) and
   * which side is wounded next is a number of the two laws alone. A wound moves the defender's
   * factor; its sheets whose status changed split off into factors of their own. Factors are
   * shared: the same factor hit by the same law is computed once, so A-then-B and B-then-A meet
   * in one product. A product holding less than `eps` of probability is not followed (its mass is
   * the error bound, with the mass of duels still running when at most `tolerance / 2` remains).
   */
  function phasesApply(): boolean {
    return alternating && p.statusReads === "attacker" && !gutsChecks && !(nearDeathRolls && p.ownTurn);
  }
  interface Law {
    id: number;
    /** P(an attack under this law deals nothing). */
    miss: number;
    /** The outcomes that deal something, with their probabilities given that they do. */
    hits: Step[];
  }
  interface Factor {
    id: number;
    ids: number[];
    ms: number[];
    mass: number;
    /** The law of this factor's sheets as attackers. */
    law: Law;
    /** Hit by a law (its id): the mass put out of the fight and the factors by their new law. */
    hit: Map<number, { out: number; kids: Factor[] }>;
  }
  function phasesOnce(eps: number): DuelForecast {
    const lawByKey = new Map<string, Law>();
    const lawBySig = { a: new Map<number, Law>(), b: new Map<number, Law>() };
    /** The law a side's state attacks under: what its attack does to the other side. */
    const lawOf = (X: "a" | "b", x: number): Law => {
      const sig = sides[X].sig[x];
      let law = lawBySig[X].get(sig);
      if (!law) {
        const steps = attackSteps(X, x, X === "a" ? startB : startA, false);
        let miss = 0;
        for (const s of steps) {
          if (s.x !== NOTHING) throw new Error("forecast: a phases attack changed its attacker"); // a broken contract, not bad input
          if (s.y === NOTHING) miss += s.p;
        }
        const hits =
          miss >= 1 - 1e-15
            ? []
            : steps.filter((s) => s.y !== NOTHING).map((s) => ({ x: s.x, y: s.y, p: s.p / (1 - miss) }));
        // Statuses that attack alike share one law (Volt: penalties whose hits are the same dice).
        const key = `${X}|${miss}|${hits.map((h) => `${h.y}:${h.p}`).join(",")}`;
        law = lawByKey.get(key);
        if (!law) lawByKey.set(key, (law = { id: lawByKey.size, miss: Math.min(miss, 1), hits }));
        lawBySig[X].set(sig, law);
      }
      return law;
    };
    let factors = 0;
    let entries = 0;
    const entriesByMemory = memoryCap("voltPhases", maxBytes);
    const factor = (X: "a" | "b", ids: number[], ms: number[], mass: number): Factor => {
      // Memory: every factor's entries count against maxStates and the memory budget.
      if ((entries += ids.length) > maxStates || entries > entriesByMemory)
        throw entries > entriesByMemory
          ? memoryRefusal(maxBytes, entriesByMemory, "voltPhases")
          : new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states`);
      return { id: factors++, ids, ms, mass, law: lawOf(X, ids[0]), hit: new Map() };
    };
    /** Factor f of side X wounded under `law`: computed once per (factor, law). */
    const wound = (X: "a" | "b", f: Factor, law: Law): { out: number; kids: Factor[] } => {
      let r = f.hit.get(law.id);
      if (r) return r;
      const side = sides[X];
      const byLaw = new Map<Law, Map<number, number>>();
      let out = 0;
      let same = true;
      for (let i = 0; i < f.ids.length; i++) {
        checkTime();
        const d = f.ids[i];
        const m = f.ms[i];
        for (const s of law.hits) {
          const d2 = applyTo(side, d, s.y) as number;
          const q = m * s.p;
          if (d2 !== d) same = false;
          if (side.out[d2]) {
            out += q;
            continue;
          }
          const l = lawOf(X, d2);
          let acc = byLaw.get(l);
          if (!acc) byLaw.set(l, (acc = new Map()));
          acc.set(d2, (acc.get(d2) ?? 0) + q);
        }
      }
      // A wound that changes none of these sheets leaves the factor itself (a stalemate shows as such).
      const kids: Factor[] = [];
      if (same) kids.push(f);
      else
        for (const acc of byLaw.values()) {
          const ids: number[] = [];
          const ms: number[] = [];
          let mass = 0;
          for (const [id, m] of acc) {
            ids.push(id);
            ms.push(m);
            mass += m;
          }
          kids.push(factor(X, ids, ms, mass));
        }
      f.hit.set(law.id, (r = { out, kids }));
      return r;
    };
    const startOut = sides.a.out[startA] ? "a" : sides.b.out[startB] ? "b" : null;
    if (startOut) return boundedAnswer("phases", startOut === "a" ? 1 : 0, startOut === "b" ? 1 : 0, 0, 0, 0, 0);
    interface Product {
      a: Factor;
      b: Factor;
      /** 0: a attacks next, 1: b. */
      turn: number;
      w: number;
    }
    let live = new Map<number, Product>();
    const add = (into: Map<number, Product>, a: Factor, b: Factor, turn: number, w: number): void => {
      const k = (a.id * 2 ** 21 + b.id) * 2 + turn;
      const e = into.get(k);
      if (e) e.w += w;
      else into.set(k, { a, b, turn, w });
    };
    add(live, factor("a", [startA], [1], 1), factor("b", [startB], [1], 1), first === "a" ? 0 : 1, 1);
    let aOut = 0;
    let bOut = 0;
    let stalemate = 0;
    let dropped = 0;
    let attacks = 0;
    let rest = 1;
    while (live.size > 0 && rest > tolerance / 2) {
      const next = new Map<number, Product>();
      for (const pr of live.values()) {
        checkTime();
        const { a, b, turn, w } = pr;
        const mass = w * a.mass * b.mass;
        if (mass < eps) {
          dropped += mass;
          continue;
        }
        const la = a.law;
        const lb = b.law;
        const hA = 1 - la.miss;
        const hB = 1 - lb.miss;
        const rB = hA > 1e-15 ? wound("b", b, la) : null;
        const rA = hB > 1e-15 ? wound("a", a, lb) : null;
        // Nobody's attack can change anything any more (misses, or wounds that mark nothing): a stalemate.
        const stuck = (r: { out: number; kids: Factor[] } | null, f: Factor): boolean =>
          r === null || (r.out === 0 && r.kids.length === 1 && r.kids[0] === f);
        if (stuck(rB, b) && stuck(rA, a)) {
          stalemate += mass;
          continue;
        }
        // Misses pass the turn until someone deals something: from a's turn, a deals first with
        // hA / (1 − mA·mB), after (1 + mA) / (1 − mA·mB) attacks on average.
        const loop = 1 - la.miss * lb.miss;
        const aFirst = turn === 0 ? hA / loop : (lb.miss * hA) / loop;
        const bFirst = 1 - aFirst;
        attacks += (mass * (1 + (turn === 0 ? la.miss : lb.miss))) / loop;
        if (rB && aFirst > 0) {
          bOut += w * aFirst * a.mass * rB.out;
          for (const kid of rB.kids) add(next, a, kid, 1, w * aFirst);
        }
        if (rA && bFirst > 0) {
          aOut += w * bFirst * b.mass * rA.out;
          for (const kid of rA.kids) add(next, kid, b, 0, w * bFirst);
        }
      }
      live = next;
      rest = 0;
      for (const pr of live.values()) rest += pr.w * pr.a.mass * pr.b.mass;
      if (dropped > tolerance / 2) break;
    }
    return boundedAnswer(
      "phases",
      aOut,
      bOut,
      stalemate,
      dropped + rest,
      attacks,
      sides.a.tracks.length + sides.b.tracks.length,
    );
  }
  /** The answer of a bounded method: whatever probability it dropped is its error bound. */
  function boundedAnswer(
    method: "forward" | "phases",
    aOut: number,
    bOut: number,
    stalemate: number,
    bound: number,
    attacks: number,
    states: number,
  ): DuelForecast {
    return {
      preset: p.preset,
      aOut,
      bOut,
      stalemate,
      expectedExchanges: stalemate > 1e-12 ? null : attacks / 2,
      states,
      enumerations,
      exact: bound === 0,
      errorBound: bound,
      method,
    };
  }
}

/** Volt: marks on the sheet plus Injuries among them — every wound that changes a sheet raises it. */
function voltProgress(t: Track): number {
  const marks = (t.state as { marks?: Record<string, string> }).marks ?? {};
  let n = 0;
  for (const m of Object.values(marks)) n += m === "stun" ? 1 : 2;
  return n;
}

/**
 * The chain of one forecast in typed arrays, with no object per node: a node is (a's state id,
 * b's state id, whose turn), found by an open-addressing hash of node indices. Its successors are
 * one run of an edge page (4 bytes a target); their probabilities are one row of a table of
 * distinct rows, which nodes share (Miniatures, Brutas vs Yanni: 4,012 rows for 230,460 nodes).
 * Memory per node: FORECAST_BUDGET.bytesPerState.
 */
/** The refusal of a chain past its request's `maxStates`. */
const tooManyStates = (maxStates: number): RulesError =>
  new RulesError("maxStates", "FUDGE.Error.TooManyStates", `the duel has more than ${maxStates} states`);

class Chain {
  n = 0;
  /** The refusal past the cap `add` is given: `maxStates`'s, or the memory budget's when that is lower (forecastOn sets it). */
  tooMany: (cap: number) => RulesError = tooManyStates;
  a = new Int32Array(256);
  b = new Int32Array(256);
  /** Bit 0: b's turn; bits 1–2: absorbed (1: a is out, 2: b is out); bit 3: out by flight (Miniatures). */
  flags = new Uint8Array(256);
  /** Each node's first successor (page × EDGE_PAGE + offset), −1 until it is expanded. */
  first = new Int32Array(256);
  /** Each node's row of probabilities (its number of successors is the row's length). */
  row = new Int32Array(256);
  /** Hash slots: node index + 1, 0 when empty; never more than half full. */
  private slots = new Int32Array(512);
  private pages: Int32Array[] = [];
  /** Pages in use (reset keeps the rest for the next forecast on this chain); targets used in the last. */
  private pagesUsed = 0;
  private used = 0;
  /** The distinct rows: row r is probs[rowStart[r] .. rowStart[r + 1]). */
  probs: Float64Array<ArrayBuffer> = new Float64Array(1024);
  rowStart: Int32Array<ArrayBuffer> = new Int32Array(65);
  private rows = 0;
  private rowSlots = new Int32Array(128);
  private readonly bits = new Int32Array(new Float64Array(1).buffer);
  private readonly bitsOf = new Float64Array(this.bits.buffer);

  /** Empty again, keeping its arrays and edge pages (takeChain; the forward pass after a refused chain). */
  reset(): this {
    this.n = 0;
    this.slots.fill(0);
    this.pagesUsed = 0; // the pages are filled again from the first
    this.used = 0;
    this.rows = 0;
    this.rowSlots.fill(0);
    return this;
  }
  pageCount(): number {
    return this.pages.length;
  }
  turn(i: number): "a" | "b" {
    return this.flags[i] & 1 ? "b" : "a";
  }
  /** 0: in play, 1: a is out, 2: b is out. */
  absorbed(i: number): number {
    return (this.flags[i] >> 1) & 3;
  }
  /** True for the end node of a side that left the duel by flight. */
  fled(i: number): boolean {
    return (this.flags[i] & 8) !== 0;
  }
  expanded(i: number): boolean {
    return this.first[i] >= 0;
  }
  /** Node i's successors are `page(i)[offset(i) + k]` with probability `probs[rowStart[row[i]] + k]`, k < `count(i)`. */
  count(i: number): number {
    if (this.first[i] < 0) return 0;
    const r = this.row[i];
    return this.rowStart[r + 1] - this.rowStart[r];
  }
  page(i: number): Int32Array {
    return this.pages[this.first[i] >>> 16];
  }
  offset(i: number): number {
    return this.first[i] & 0xffff;
  }
  probAt(i: number): number {
    return this.rowStart[this.row[i]];
  }

  /** The node (a, b, turn) in play, added when new. */
  find(a: number, b: number, t: number, maxStates: number): number {
    const mask = this.slots.length - 1;
    // Signed 32-bit all the way (no `>>> 0`: an unsigned value past 2³¹ cost a heap number per call); the same slots as nodeHash.
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b * 2 + t, 0x85ebca77);
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const s = this.slots[h];
      if (s === 0) break;
      const i = s - 1;
      if (this.a[i] === a && this.b[i] === b && this.flags[i] === t) return i;
      h = (h + 1) & mask;
    }
    const i = this.add(a, b, t, 0, maxStates);
    this.slots[h] = i + 1;
    if (2 * this.n > this.slots.length)
      this.slots = this.rehash(this.slots.length * 2, this.n, (k) =>
        this.flags[k] >> 1 !== 0 ? -1 : this.nodeHash(k),
      );
    return i;
  }
  private nodeHash(i: number): number {
    const h = (Math.imul(this.a[i], 0x9e3779b1) ^ Math.imul(this.b[i] * 2 + (this.flags[i] & 1), 0x85ebca77)) >>> 0;
    return (h ^ (h >>> 15)) >>> 0;
  }
  /** A new node (the out-of-the-fight nodes are added by the caller, once each, outside the hash; `absorbed` | 4: by flight). */
  add(a: number, b: number, t: number, absorbed: number, maxStates: number): number {
    if (this.n >= maxStates) throw this.tooMany(maxStates);
    const i = this.n++;
    if (i === this.a.length) this.grow();
    this.a[i] = a;
    this.b[i] = b;
    this.flags[i] = t | (absorbed << 1);
    this.first[i] = -1;
    return i;
  }
  /** Node i's successors: the first n of `to` and `p` (targets copied into the current edge page, probabilities shared as a row). */
  setEdges(i: number, to: number[], p: number[], n: number): void {
    let page = this.pagesUsed - 1;
    if (page < 0 || this.used + n > this.pages[page].length) {
      // Pages grow from 4,096 targets (a small chain allocates little) to EDGE_PAGE; a run never straddles two.
      const size = Math.max(n, Math.min(EDGE_PAGE, 4096 << Math.min(4, this.pagesUsed)));
      page++;
      // A page kept by reset is used again when it is large enough and its offsets fit 16 bits.
      const kept = this.pages[page];
      if (kept === undefined || kept.length < size || kept.length > Math.max(size, EDGE_PAGE))
        this.pages[page] = new Int32Array(size);
      this.pagesUsed = page + 1;
      this.used = 0;
    }
    const tp = this.pages[page];
    const o = this.used;
    for (let k = 0; k < n; k++) tp[o + k] = to[k];
    this.first[i] = page * EDGE_PAGE + o;
    this.used = o + n;
    this.row[i] = this.internRow(p, n);
  }
  /** The row holding exactly these n probabilities (bit for bit), added when new. */
  private internRow(p: number[], n: number): number {
    let h = n;
    for (let k = 0; k < n; k++) {
      this.bitsOf[0] = p[k];
      h = Math.imul(h ^ this.bits[0], 0x9e3779b1) ^ this.bits[1];
    }
    h = (h ^ (h >>> 15)) >>> 0;
    const mask = this.rowSlots.length - 1;
    let s = h & mask;
    for (;;) {
      const r = this.rowSlots[s] - 1;
      if (r < 0) break;
      const o = this.rowStart[r];
      if (this.rowStart[r + 1] - o === n) {
        let k = 0;
        while (k < n && this.probs[o + k] === p[k]) k++;
        if (k === n) return r;
      }
      s = (s + 1) & mask;
    }
    const r = this.rows++;
    if (r + 2 > this.rowStart.length) {
      const g = new Int32Array(2 * this.rowStart.length);
      g.set(this.rowStart);
      this.rowStart = g;
    }
    const o = this.rowStart[r];
    if (o + n > this.probs.length) {
      const g = new Float64Array(Math.max(2 * this.probs.length, o + n));
      g.set(this.probs);
      this.probs = g;
    }
    for (let k = 0; k < n; k++) this.probs[o + k] = p[k];
    this.rowStart[r + 1] = o + n;
    this.rowSlots[s] = r + 1;
    this.rowHash[r] = h;
    if (2 * this.rows > this.rowSlots.length)
      this.rowSlots = this.rehash(this.rowSlots.length * 2, this.rows, (k) => this.rowHash[k]);
    return r;
  }
  private rowHash: number[] = [];
  /** Slots of `size` for entries 0 … n − 1 (hash −1: not in the table). */
  private rehash(size: number, n: number, hashOf: (k: number) => number): Int32Array<ArrayBuffer> {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < n; k++) {
      const h0 = hashOf(k);
      if (h0 < 0) continue;
      let h = h0 & mask;
      while (slots[h] !== 0) h = (h + 1) & mask;
      slots[h] = k + 1;
    }
    return slots;
  }
  private grow(): void {
    const m = 2 * this.a.length;
    const g32 = (x: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const y = new Int32Array(m);
      y.set(x);
      return y;
    };
    this.a = g32(this.a);
    this.b = g32(this.b);
    this.first = g32(this.first);
    this.row = g32(this.row);
    const f = new Uint8Array(m);
    f.set(this.flags);
    this.flags = f;
  }
}
/**
 * One turn's live nodes of the forward method: each node's probability, and the nodes in the
 * order they were first reached, so a turn is followed in the order a Map would give (the same
 * sums, the same bits) without a Map entry and a boxed number per node and turn. That garbage,
 * over a hundred thousand nodes a turn, was most of the forward method's peak memory.
 */
class LiveNodes {
  /** The probability of node i, valid while `seen[i] === stamp`. */
  mass = new Float64Array(1024);
  private seen = new Int32Array(1024);
  private stamp = 0;
  /** The nodes held, first `size` entries, in the order first reached. */
  list = new Int32Array(1024);
  size = 0;
  clear(): this {
    this.stamp++;
    this.size = 0;
    return this;
  }
  /** Adds q to node j's probability (j enters the list the first time). */
  add(j: number, q: number): void {
    if (j >= this.seen.length) this.grow(j + 1);
    if (this.seen[j] !== this.stamp) {
      this.seen[j] = this.stamp;
      this.mass[j] = q;
      this.list[this.size++] = j;
    } else this.mass[j] += q;
  }
  /** The probability held in all, added in list order. */
  total(): number {
    let t = 0;
    for (let u = 0; u < this.size; u++) t += this.mass[this.list[u]];
    return t;
  }
  nodes(): Int32Array {
    return this.list.subarray(0, this.size);
  }
  private grow(n: number): void {
    let m = this.seen.length;
    while (m < n) m *= 2;
    const mass = new Float64Array(m);
    mass.set(this.mass);
    this.mass = mass;
    const seen = new Int32Array(m);
    seen.set(this.seen);
    this.seen = seen;
    // At most one entry a node: the list never holds more than the nodes.
    const list = new Int32Array(m);
    list.set(this.list);
    this.list = list;
  }
}

/** Targets per edge page: offsets fit 16 bits of `Chain.first`; a node with more successors gets a page of its own at offset 0. */
const EDGE_PAGE = 1 << 16;

/**
 * One small chain reused from one forecast to the next, like the solve's arrays below: its dozen
 * typed arrays (each a buffer outside the heap the collector tracks) were a visible share of a
 * sub-millisecond forecast. A chain that grew past SCRATCH_CHAIN nodes is not kept.
 */
const SCRATCH_CHAIN = 4096;
let chainScratch: Chain | null = null;
function takeChain(stats?: ForecastMemoryStats): Chain {
  if (stats) stats.chains++;
  const c = chainScratch;
  chainScratch = null;
  return c ? c.reset() : new Chain();
}
function giveBackChain(c: Chain): void {
  if (c.a.length <= SCRATCH_CHAIN && c.probs.length <= 8 * SCRATCH_CHAIN && c.pageCount() <= 1) chainScratch = c;
}

/**
 * Typed arrays reused from one forecast to the next: allocating a dozen per call was a visible
 * share of a sub-millisecond forecast. Safe because a forecast reads its answer out of them
 * before it returns and never runs inside another. Chains over SCRATCH_MAX states get arrays of
 * their own (their cost is nothing beside such a chain), so no large arrays stay held.
 */
const SCRATCH_MAX = 1 << 16;
function tarjanArrays(n: number) {
  return {
    idx: new Int32Array(n),
    low: new Int32Array(n),
    onStack: new Uint8Array(n),
    stack: new Int32Array(n),
    // The depth-first path: a node and the position of the next successor to look at.
    workNode: new Int32Array(n),
    workEdge: new Int32Array(n),
    order: new Int32Array(n),
    start: new Int32Array(n),
  };
}
let tarjanScratch = tarjanArrays(1024);
let solveScratch = {
  pA: new Float64Array(1024),
  pB: new Float64Array(1024),
  eSteps: new Float64Array(1024),
  stuck: new Float64Array(1024),
};
/** The chain solve's four unknowns per node, zeroed for `n` nodes. */
function solveArrays(n: number): typeof solveScratch {
  const fresh = (m: number): typeof solveScratch => ({
    pA: new Float64Array(m),
    pB: new Float64Array(m),
    eSteps: new Float64Array(m),
    stuck: new Float64Array(m),
  });
  if (n > SCRATCH_MAX) return fresh(n);
  if (n > solveScratch.pA.length) solveScratch = fresh(Math.min(SCRATCH_MAX, Math.max(n, 2 * solveScratch.pA.length)));
  const s = solveScratch;
  s.pA.fill(0, 0, n);
  s.pB.fill(0, 0, n);
  s.eSteps.fill(0, 0, n);
  s.stuck.fill(0, 0, n);
  return s;
}

/**
 * Tarjan's strongly connected components, iterative, on typed arrays (it runs on every chain
 * forecast; arrays per node and per component were a visible share of a sub-millisecond one).
 * The components come out in reverse topological order as ranges of one array:
 * component c is `order[start[c] .. start[c + 1])`.
 */
function tarjan(n: number, chain: Chain): { order: Int32Array; start: Int32Array; count: number } {
  if (n + 1 > tarjanScratch.idx.length && n + 1 <= SCRATCH_MAX)
    tarjanScratch = tarjanArrays(Math.min(SCRATCH_MAX, Math.max(n + 1, 2 * tarjanScratch.idx.length)));
  const { idx, low, onStack, stack, workNode, workEdge, order, start } =
    n + 1 <= tarjanScratch.idx.length ? tarjanScratch : tarjanArrays(n + 1);
  idx.fill(-1, 0, n);
  onStack.fill(0, 0, n);
  let sp = 0;
  let placed = 0;
  let count = 0;
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (idx[root] !== -1) continue;
    let wp = 0;
    workNode[0] = root;
    workEdge[0] = 0;
    idx[root] = low[root] = counter++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (wp >= 0) {
      const v = workNode[wp];
      const k = workEdge[wp];
      if (k < chain.count(v)) {
        workEdge[wp] = k + 1;
        const w = chain.page(v)[chain.offset(v) + k];
        if (idx[w] === -1) {
          idx[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          wp++;
          workNode[wp] = w;
          workEdge[wp] = 0;
        } else if (onStack[w] && idx[w] < low[v]) low[v] = idx[w];
      } else {
        wp--;
        if (wp >= 0 && low[v] < low[workNode[wp]]) low[workNode[wp]] = low[v];
        if (low[v] === idx[v]) {
          start[count++] = placed;
          let w: number;
          do {
            w = stack[--sp];
            onStack[w] = 0;
            order[placed++] = w;
          } while (w !== v);
        }
      }
    }
  }
  start[count] = placed;
  return { order, start, count };
}

/** One state, perhaps with a self-loop (a miss): x = (Σ others + c) / (1 − p_self). */
function solveOne(
  v: number,
  chain: Chain,
  pA: Float64Array,
  pB: Float64Array,
  eSteps: Float64Array,
  stuck: Float64Array,
): void {
  let self = 0;
  let a = 0;
  let b = 0;
  let e = 1;
  let st = 0;
  const to = chain.page(v);
  const pr = chain.probs;
  for (let k = 0, o = chain.offset(v), r = chain.probAt(v), n = chain.count(v); k < n; k++) {
    const w = to[o + k];
    const p = pr[r + k];
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
}

/**
 * Solves x = P_in x + P_out y for the component (all successors outside it are already solved).
 * Unknowns per node: pA, pB, expected steps (conditioned properly only when absorption is sure).
 */
function solveComponent(
  comp: number[],
  chain: Chain,
  pA: Float64Array,
  pB: Float64Array,
  eSteps: Float64Array,
  stuck: Float64Array,
): void {
  const m = comp.length;
  if (m === 1) return solveOne(comp[0], chain, pA, pB, eSteps, stuck);
  const local = new Map<number, number>();
  comp.forEach((v, i) => local.set(v, i));
  // (I − Q) x = b, four right-hand sides: pA, pB, steps, stuck.
  const A = Array.from({ length: m }, () => new Float64Array(m));
  const rhs = Array.from({ length: m }, () => new Float64Array(4));
  let exits = false;
  comp.forEach((v, i) => {
    A[i][i] += 1;
    rhs[i][2] = 1;
    const to = chain.page(v);
    const pr = chain.probs;
    for (let k = 0, o = chain.offset(v), r = chain.probAt(v), n = chain.count(v); k < n; k++) {
      const w = to[o + k];
      const p = pr[r + k];
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

/** A Miniatures combatant without its failed Guts checks (a forecast with `gutsChecks: false`). */
function withoutGuts(c: unknown): unknown {
  if (!isRecord(c) || !("gutsState" in c)) return c;
  const { gutsState: _, ...rest } = c;
  return rest;
}

function renamePaths(e: unknown, map: Record<string, string>): unknown {
  if (!(e instanceof RulesError)) return e;
  const first = e.field.split(/[.[]/)[0];
  if (!(first in map)) return e;
  const field = map[first] + e.field.slice(first.length);
  return new RulesError(field, e.key, e.message.replace(/^[^:]*: /, ""), e.params);
}
