/**
 * Volt's duel rules for the forecast (src/rules/forecast): an attack reads only the attacker's
 * penalty (Guard, distance and armor are fixed numbers), so duels are solved exactly over both
 * sheets ("product", product.ts) where that fits the budget, else followed forward in order of
 * their marks, or sampled on the integer sheets (sheet-sampler.ts).
 */
import type { Track, TrackStatus } from "../track";
import type { DuelForecast } from "../forecast/answer";
import { FORECAST_BUDGET, memoryCap, memoryRefusal, overBudget, tooManyStates } from "../forecast/budget";
import { progressForward, progressForwardStates } from "../forecast/methods/progress";
import { sampleMethod } from "../forecast/methods/sample";
import type { DuelOptions, SideId } from "../forecast/request";
import type { DuelRules } from "../forecast/rules";
import type { DuelRun } from "../forecast/run";
import type { VoltCountStats } from "./forward-count";
import { voltProductDuel } from "./product";
import { voltSampledDuel, type VoltAttackOutcome } from "./sheet-sampler";
import type { VoltDuelSide, VoltLaw } from "./sheet";
import type { VoltTrackConfig, VoltTrackState, VoltWound } from "./track";

declare module "../forecast/request" {
  interface DuelOptions {
    /** Volt: the product method's largest number of sheet pairs (default maxStates × productPairsPerState); tests lower it to reach the bounded forward. */
    maxProductPairs?: number;
    /** Volt, method "sample": false plays the duels through the general turns instead of the integer sheets; tests compare the two. */
    voltSheetSampler?: boolean;
    /** Volt: filled with the work of the forward method's pre-count (voltForwardExceeds) when it runs; tests read it. */
    voltCountStats?: VoltCountStats;
    /** Volt, method "product": false sums its rows in JavaScript only, not in its WebAssembly kernel; tests compare the two. */
    voltSimd?: boolean;
  }
}

/** Volt: an attack reads the attacker's penalty and whether it can act; its effects (dying but able to act) change no die. */
const voltSignature = (s: TrackStatus): string => `${s.penalty}|${s.canAct ? 1 : 0}`;

/** Marks on the sheet plus Injuries among them: every wound that changes a sheet raises it. */
function voltProgress(t: Track): number {
  const marks = (t.state as { marks?: Record<string, string> }).marks ?? {};
  let n = 0;
  for (const m of Object.values(marks)) n += m === "stun" ? 1 : 2;
  return n;
}

export const voltDuelRules: DuelRules<undefined> = {
  methods: ["product"],
  settings: () => undefined,
  duel: (_start, _settings, options) => ({
    signature: voltSignature,
    statusReads: "attacker",
    defaultMethod: "product",
    methods: {
      product: (run) => productOrForward(run, options),
      forward: (run) => progressForward(run, voltProgress),
      sample: (run) => sampleMethod(run, options.voltSheetSampler === false ? undefined : sheetPlayer(run)),
    },
  }),
};

function sheetOf(t: Track): VoltDuelSide {
  return { config: t.config as unknown as VoltTrackConfig, state: t.state as unknown as VoltTrackState };
}

/**
 * The outcomes of `side` attacking with sheet `state`, from the real pipeline (the run's attack
 * outcomes: the same enumeration, in its order, as every other method).
 */
function outcomesOf(run: DuelRun, side: SideId, state: VoltTrackState): VoltAttackOutcome[] {
  const sx = run.sides[side];
  const foe = run.sides[run.foe(side)];
  const { nothing, list } = run.changes;
  const x = sx.intern({ config: sx.tracks[0].config, state }, null);
  return run.attackOutcomes(side, x, side === "a" ? run.start.b : run.start.a, false).map((o) => {
    // An attack changes only its defender's sheet (a broken contract otherwise, not bad input).
    if (o.self !== nothing || list[o.foe].heal !== null)
      throw new Error("forecast: a Volt attack changed more than its defender's sheet");
    return { p: o.p, wounds: o.foe === nothing ? null : (run.woundsOf(foe, o.foe) as VoltWound[][]).flat() };
  });
}

/** The exact product where it fits its budget; else the forward method, unless "product" was asked for. */
function productOrForward(run: DuelRun, options: DuelOptions): DuelForecast {
  const { maxStates, maxBytes, input } = run.request;
  const r = product(run, options);
  if (!("tooLarge" in r)) return r;
  if (input.method === "product")
    throw r.byMemory ? memoryRefusal(maxBytes, r.byMemory, "voltProductPair") : overBudget("maxStates", r.tooLarge);
  // Refused at once when its first pass is sure to follow more than maxStates states (every
  // later pass follows more): the same refusal, without spending the time budget on it.
  const { states } = progressForwardStates(run);
  if (r.forwardExceeds(run.firstThreshold, states, options.voltCountStats))
    throw states < maxStates
      ? memoryRefusal(maxBytes, states, "voltForward")
      : tooManyStates(maxStates, " (the bounded forecast's first pass alone follows more)");
  return progressForward(run, voltProgress);
}

type ProductTooLarge = {
  tooLarge: string;
  byMemory: number;
  forwardExceeds: (threshold: number, maxStates: number, stats?: VoltCountStats) => boolean;
};

/** Volt, exact: the backward programme over both sheets as integers (product.ts), each side's laws from the real pipeline. */
function product(run: DuelRun, options: DuelOptions): DuelForecast | ProductTooLarge {
  const { maxStates, maxBytes } = run.request;
  const lawOf = (side: SideId, state: VoltTrackState): VoltLaw => {
    let miss = 0;
    const hits: VoltLaw["hits"] = [];
    for (const o of outcomesOf(run, side, state)) {
      if (o.wounds === null) miss += o.p;
      else hits.push({ wounds: o.wounds, p: o.p });
    }
    return { miss, hits };
  };
  const maxPairs = options.maxProductPairs ?? maxStates * FORECAST_BUDGET.productPairsPerState;
  // The window is bounded by the states budget and by the memory budget (its pairs at their peak cost).
  const byStates = Math.min(maxStates * FORECAST_BUDGET.productWindowPerState, FORECAST_BUDGET.productMaxWindow);
  const byMemory = memoryCap("voltProductPair", maxBytes);
  const maxWindow = Math.min(byStates, byMemory);
  const { attacks } = run;
  const r = voltProductDuel(sheetOf(attacks.a.attacker.track), sheetOf(attacks.a.defender.track), run.first, lawOf, {
    maxPairs,
    maxWindow,
    checkTime: run.request.deadline.check,
    simd: options.voltSimd,
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
  return run.answer({
    aOut: r.aOut,
    bOut: r.bOut,
    stalemate: r.stalemate,
    expectedExchanges: r.stalemate > 1e-12 ? null : r.attacks / 2,
    states: 2 * r.pairs,
    exact: true,
    errorBound: 0,
    method: "product",
  });
}

/** The sampled duels played on the integer sheets (sheet-sampler.ts). */
function sheetPlayer(run: DuelRun): ReturnType<typeof voltSampledDuel> {
  const { attacks } = run;
  return voltSampledDuel(
    sheetOf(attacks.a.attacker.track),
    sheetOf(attacks.a.defender.track),
    run.first,
    (side, state) => outcomesOf(run, side, state),
    run.request.deadline.check,
  );
}
