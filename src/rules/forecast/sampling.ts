/**
 * A sampled duel estimate (`method: "sample"`): whole duels played turn by turn through the duel
 * forecast's own turns, each turn's outcome drawn from a seeded generator. It is the third kind of
 * forecast answer, for duels that no exact or error-bounded method reaches within its budget
 * (Volt Leroy vs Leroy): an estimate with a confidence interval, never a bound — its rigorous
 * `errorBound` is 1 (a finite sample cannot exclude any probability).
 *
 * No second rules path: a turn is the run's own (DuelRun.turn), the exact distribution of
 * everything that can happen in that turn as the chain sees it — the preset pipeline's dice
 * enumerated per status, the wound placed by the track kind's own `apply`, and whatever the
 * preset's duel rules add (checks of a side's mind, its own turn, a round's end). The sampler
 * draws one outcome of that distribution per turn with one number from `seededRng(seed)`, so a
 * request and its seed give the same answer on every machine.
 */
import { seededRng } from "../dice";
import { RulesError } from "../errors";
import { oneOf, optInt } from "../validate";

/** What a sampled answer adds to a DuelForecast (docs/rules-api.md "forecast"). */
export interface SampleEstimate {
  /** Duels played. */
  duels: number;
  /** The seed of the generator: the same request and seed give the same answer. */
  seed: number;
  /** Confidence of each interval (Wilson score interval). */
  confidence: number;
  /**
   * For each probability: the largest distance from the estimate to an end of its interval, so
   * that estimate ± halfWidth covers the interval.
   */
  halfWidth: { aOut: number; bOut: number; stalemate: number; aFled?: number; bFled?: number };
  /** Half-width of the normal interval of the mean exchanges (null with `expectedExchanges`). */
  exchangesHalfWidth: number | null;
  /**
   * Duels by how they ended; `unfinished` ones were still running (and could still end) after
   * `maxExchanges`. `aFled`, `bFled` (Miniatures, when a side can flee): the part of aOut, bOut
   * that left by flight, with their half-widths in `halfWidth`.
   */
  counts: { aOut: number; bOut: number; stalemate: number; unfinished: number; aFled?: number; bFled?: number };
  /** The cap of exchanges per duel (an opposed roll, or one attack by each side). */
  maxExchanges: number;
}

/** Limits and defaults of a sampled estimate (docs/rules-api.md "Budgets"). */
export const SAMPLE_BUDGET = {
  defaultDuels: 20_000,
  minDuels: 100,
  maxDuels: 1_000_000,
  defaultSeed: 1,
  maxSeed: 0xffff_ffff,
  /** Exchanges per duel before it counts as unfinished: default and largest `maxExchanges`. */
  defaultExchanges: 5_000,
  maxExchanges: 100_000,
  /** A duel still running at turns 64, 128, 256 … is checked for a stalemate (no end reachable). */
  firstStalemateCheck: 64,
  /** States a stalemate check explores at most; past it the duel is taken as able to end. */
  stalemateCheckStates: 20_000,
  /** Confidence of the intervals, and its normal quantile. */
  confidence: 0.99,
  z: 2.5758293035489004,
};

export interface SampleRequest {
  samples: number;
  seed: number;
  maxExchanges: number;
}

/** The sampling fields of a duel request: `samples` (duels) and `seed`, validated whatever the method (a fallback may use them). */
export function parseSampleRequest(input: Record<string, unknown>): SampleRequest {
  return {
    samples: optInt(
      input.samples,
      "samples",
      SAMPLE_BUDGET.defaultDuels,
      SAMPLE_BUDGET.minDuels,
      SAMPLE_BUDGET.maxDuels,
    ),
    seed: optInt(input.seed, "seed", SAMPLE_BUDGET.defaultSeed, 0, SAMPLE_BUDGET.maxSeed),
    maxExchanges: optInt(
      input.maxExchanges,
      "maxExchanges",
      SAMPLE_BUDGET.defaultExchanges,
      1,
      SAMPLE_BUDGET.maxExchanges,
    ),
  };
}

/** `fallback`: what answers when the exact or bounded forecast is refused for its budget ("sample"), or nothing ("none", the default). */
export function parseFallback(v: unknown): "none" | "sample" {
  return oneOf(v, "fallback", ["none", "sample"] as const, "none");
}

/** The refusals a fallback may replace: over a budget of time or states, never bad input. */
export const isBudgetRefusal = (e: unknown): boolean =>
  e instanceof RulesError &&
  (((e.key === "FUDGE.Error.ForecastBudget" || e.key === "FUDGE.Error.TooManyStates") &&
    (e.field === "budgetMs" || e.field === "maxStates")) ||
    // The forecast's own memory budget (FORECAST_BUDGET.maxBytes): the estimate takes far less (≤ 2 MB of states).
    (e.key === "FUDGE.Error.MemoryBudget" && e.field === "maxBytes"));

/** A duel as the forecast prepared it: its turns, its start, and who is out. */
export interface SampledDuel {
  /** Every outcome of the turn of `turn` from (a, b), with its probability: DuelRun.turn. */
  moves(
    a: number,
    b: number,
    turn: "a" | "b",
    visit: (a2: number, b2: number, next: "a" | "b", q: number) => void,
    take?: (q: number) => boolean,
  ): void;
  /**
   * Where duels start, with their probabilities: one state, or the outcomes of the checks that
   * open the fight (PresetDuel.openingChecks). `spent`: one turn already taken.
   */
  starts: ReadonlyArray<{ a: number; b: number; turn: "a" | "b"; w: number; spent: boolean }>;
  outA(a: number): boolean;
  outB(b: number): boolean;
  /** Whether an out state left by flight; given only when a side can flee (the answer then counts flight). */
  fledA?(a: number): boolean;
  fledB?(b: number): boolean;
  /** Alternating duels count two turns (attacks) as an exchange; opposed ones one. */
  alternating: boolean;
  /** Throws the budget's refusal when the time is up (called once per turn). */
  checkTime(): void;
  /**
   * Optional: the turn's draw played directly (Volt: on the integer sheets, volt/sheet-sampler.ts)
   * instead of through `moves`. It must pick what the `moves`-based draw picks for the same v: the
   * branch whose running total (summed in `moves`' order) first passes v, or, when the total falls
   * short of v, the same draw scaled to the total; it writes the outcome to `next`.
   */
  draw?(a: number, b: number, turn: "a" | "b", v: number, next: { a: number; b: number; turn: "a" | "b" }): void;
}

export interface SampledAnswer {
  aOut: number;
  bOut: number;
  stalemate: number;
  expectedExchanges: number | null;
  estimate: SampleEstimate;
  /** Only with `fledA`/`fledB`: the shares of duels each side left by flight. */
  aFled?: number;
  bFled?: number;
}

/**
 * Plays `samples` duels; the estimate of each probability is its share of the duels. `until` (a
 * Date.now() time): no duel starts past it once `minDuels` are played — fewer duels, a wider interval.
 */
export function sampleDuels(duel: SampledDuel, req: SampleRequest, until = Infinity): SampledAnswer {
  const rng = seededRng(req.seed);
  const { moves, outA, outB } = duel;
  const counts = { aOut: 0, bOut: 0, stalemate: 0, unfinished: 0 };
  const { fledA, fledB } = duel;
  const flight = fledA !== undefined || fledB !== undefined;
  let aFled = 0;
  let bFled = 0;
  /** Counts a duel's end by flight (a first, as the chain orders its ends). */
  const fledAt = (a: number, b: number): void => {
    if (outA(a)) {
      if (fledA?.(a)) aFled++;
    } else if (fledB?.(b)) bFled++;
  };
  let turnsSum = 0;
  let turnsSq = 0;
  // The turn's draw, one number u: the branch (an outcome of the turn, as `moves` offers them) whose
  // running total first passes u, and within it the outcome (a check's results) that the rest
  // of u picks. Only the chosen branch is applied: the others are never placed on a track.
  let u = 0;
  let acc = 0;
  let picked = false;
  let branch = 0;
  let within = 0;
  let withinAcc = 0;
  let done = false;
  let na = -1;
  let nb = 0;
  let nt: "a" | "b" = "a";
  const take = (q: number): boolean => {
    if (picked) return false;
    acc += q;
    if (acc <= u) return false;
    picked = true;
    branch = q;
    within = (u - (acc - q)) / q;
    return true;
  };
  const visit = (a2: number, b2: number, next: "a" | "b", q: number): void => {
    if (done) return;
    withinAcc += q / branch;
    na = a2;
    nb = b2;
    nt = next;
    if (withinAcc > within) done = true;
  };
  const draw = (a: number, b: number, turn: "a" | "b", v: number): void => {
    u = v;
    acc = 0;
    picked = false;
    withinAcc = 0;
    done = false;
    na = -1;
    moves(a, b, turn, visit, take);
  };
  const stalled = stalemateCheck(duel);
  const direct = duel.draw?.bind(duel);
  const next: { a: number; b: number; turn: "a" | "b" } = { a: 0, b: 0, turn: "a" };
  const perExchange = duel.alternating ? 2 : 1;
  const maxTurns = req.maxExchanges * perExchange;
  const { starts } = duel;
  let n = 0;
  for (; n < req.samples; n++) {
    if (n >= SAMPLE_BUDGET.minDuels && until !== Infinity && Date.now() >= until) break;
    // The duel's start: drawn from the opening checks' outcomes when there are several.
    let start = starts[0];
    if (starts.length > 1) {
      const v = rng();
      let accW = 0;
      for (const s of starts) {
        start = s;
        accW += s.w;
        if (accW > v) break;
      }
    }
    let a = start.a;
    let b = start.b;
    if (outA(a) || outB(b)) {
      counts[outA(a) ? "aOut" : "bOut"]++;
      if (flight) fledAt(a, b);
      continue;
    }
    let turn = start.turn;
    let turns = start.spent ? 1 : 0;
    let nextCheck = SAMPLE_BUDGET.firstStalemateCheck;
    let ended: keyof typeof counts | null = null;
    while (ended === null) {
      if (turns === nextCheck || turns === maxTurns) {
        // "The fight can never end" as the forecast means it: no end reachable from here.
        if (stalled(a, b, turn)) ended = "stalemate";
        else if (turns === maxTurns) ended = "unfinished";
        if (turns === nextCheck) nextCheck *= 2;
        if (ended) break;
      }
      duel.checkTime();
      const v = rng();
      if (direct) {
        direct(a, b, turn, v, next);
        a = next.a;
        b = next.b;
        turn = next.turn;
      } else {
        draw(a, b, turn, v);
        // The branches' total can fall short of 1 by rounding (or a truncated open-ended roll): the same draw, scaled to it.
        if (!picked) draw(a, b, turn, v * acc);
        if (na < 0) throw new Error("forecast: a turn with no outcome"); // a broken invariant, not bad input
        a = na;
        b = nb;
        turn = nt;
      }
      turns++;
      // The order of the forecast's chain: a side out of the fight ends the duel, a first.
      if (outA(a)) ended = "aOut";
      else if (outB(b)) ended = "bOut";
    }
    counts[ended]++;
    if (flight && (ended === "aOut" || ended === "bOut")) fledAt(a, b);
    if (ended === "aOut" || ended === "bOut") {
      turnsSum += turns;
      turnsSq += turns * turns;
    }
  }
  const z = SAMPLE_BUDGET.z;
  const finished = counts.aOut + counts.bOut;
  const mean = finished > 0 ? turnsSum / finished : 0;
  const variance = finished > 1 ? Math.max(0, (turnsSq - finished * mean * mean) / (finished - 1)) : 0;
  // As the forecast: no expectation when a duel may never end; none either when some were cut off (their length is unknown).
  const exchangesKnown = finished > 0 && counts.stalemate === 0 && counts.unfinished === 0;
  const halfWidth = {
    aOut: wilsonHalfWidth(counts.aOut, n, z),
    bOut: wilsonHalfWidth(counts.bOut, n, z),
    stalemate: wilsonHalfWidth(counts.stalemate, n, z),
  };
  const fled = flight ? { aFled: aFled / n, bFled: bFled / n } : {};
  return {
    ...fled,
    aOut: counts.aOut / n,
    bOut: counts.bOut / n,
    stalemate: counts.stalemate / n,
    expectedExchanges: exchangesKnown ? mean / perExchange : null,
    estimate: {
      duels: n,
      seed: req.seed,
      confidence: SAMPLE_BUDGET.confidence,
      halfWidth: flight
        ? { ...halfWidth, aFled: wilsonHalfWidth(aFled, n, z), bFled: wilsonHalfWidth(bFled, n, z) }
        : halfWidth,
      exchangesHalfWidth: exchangesKnown ? (z * Math.sqrt(variance / finished)) / perExchange : null,
      counts: flight ? { ...counts, aFled, bFled } : counts,
      maxExchanges: req.maxExchanges,
    },
  };
}

/**
 * The Wilson score interval of k successes in n at quantile z, as the largest distance from k/n
 * to either end (it is not symmetric; near 0 and 1 it stays wide where the normal one collapses).
 */
export function wilsonHalfWidth(k: number, n: number, z: number): number {
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.max(p - Math.max(0, centre - half), Math.min(1, centre + half) - p);
}

/**
 * Whether no end of the duel is reachable from a state (the forecast's stalemate): a search over
 * the states the turns can reach, stopping at the first that puts a side out. Answers are kept
 * per state; a search past `stalemateCheckStates` takes the duel as able to end (it goes on).
 */
function stalemateCheck(duel: SampledDuel): (a: number, b: number, turn: "a" | "b") => boolean {
  const known = new Map<number, boolean>();
  const keyOf = (a: number, b: number, turn: "a" | "b"): number => (a * 2 ** 24 + b) * 2 + (turn === "a" ? 0 : 1);
  return (a0, b0, t0) => {
    const k0 = keyOf(a0, b0, t0);
    const memo = known.get(k0);
    if (memo !== undefined) return memo;
    const seen = new Set<number>([k0]);
    const todo: Array<[number, number, "a" | "b"]> = [[a0, b0, t0]];
    let canEnd = false;
    while (todo.length && !canEnd) {
      if (seen.size > SAMPLE_BUDGET.stalemateCheckStates) {
        canEnd = true;
        break;
      }
      duel.checkTime();
      const [a, b, t] = todo.pop()!;
      duel.moves(a, b, t, (a2, b2, next) => {
        if (canEnd) return;
        if (duel.outA(a2) || duel.outB(b2) || known.get(keyOf(a2, b2, next)) === false) {
          canEnd = true;
          return;
        }
        const k = keyOf(a2, b2, next);
        if (!seen.has(k)) {
          seen.add(k);
          todo.push([a2, b2, next]);
        }
      });
    }
    // A state that can end is all that is known of the search; one that cannot, every state it reached.
    if (canEnd) known.set(k0, false);
    else for (const k of seen) known.set(k, true);
    return !canEnd;
  };
}
