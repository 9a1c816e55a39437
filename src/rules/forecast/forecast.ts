/**
 * Duel forecast: the exact probability that each side is the first to be put out of the fight
 * (cannot act, dying, dead or taken out), and the expected number of exchanges, for two
 * combatants fighting with the rules of one preset — or, past a budget, a bounded answer or a
 * sampled estimate (docs/rules-api.md `forecast`).
 */
import { RulesError } from "../errors";
import type { AttackPipeline, AttackRequest } from "../pipeline";
import { allDuelRules, duelPipelineFor, duelRulesFor } from "./presets";
import { isRecord, oneOf, optInt } from "../validate";
import type { DuelForecast } from "./answer";
import { FORECAST_BUDGET, overBudget } from "./budget";
import { giveBackChain, takeChain, type Chain } from "./chain";
import { chainMethod } from "./methods/chain";
import { forwardMethod } from "./methods/forward";
import { phasesMethod } from "./methods/phases";
import { sampleMethod } from "./methods/sample";
import {
  checkDuelInput,
  DUEL_FIELDS_HEAD,
  DUEL_FIELDS_TAIL,
  parseDuelRequest,
  renamePaths,
  type DuelOptions,
} from "./request";
import type { DuelMethod, DuelRules } from "./rules";
import { DuelRun } from "./run";
import { isBudgetRefusal, parseFallback, parseSampleRequest } from "./sampling";

/** The engine's methods; a preset's own (DuelRules.methods) come first. */
const ENGINE_METHODS: Record<string, DuelMethod> = {
  chain: chainMethod,
  forward: forwardMethod,
  phases: phasesMethod,
  sample: (run) => sampleMethod(run),
};

/**
 * `input`: `{ preset, a, b, options?, situation?, first?: "a" | "b", … }` — a and b are combatants
 * as the preset's attack request takes them. `first` matters for alternating presets.
 */
export function duelForecast(input: unknown, opts: DuelOptions = {}): DuelForecast {
  const t0 = Date.now();
  // `fallback: "sample"`: a forecast refused for its budget (never for bad input) answers with
  // the sampled estimate instead, within the rest of the budget.
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

/** The forecast; where the preset says so, a default method refused for its states or memory is followed forward instead. */
function forecastWithin(input: unknown, opts: DuelOptions, t0: number): DuelForecast {
  const chain = takeChain(opts.memoryStats);
  try {
    return forecastOn(chain, input, opts);
  } catch (e) {
    const rules = isRecord(input) && input.method === undefined ? duelRulesOf(input.preset) : undefined;
    const forward = isRecord(input) && rules?.forwardPastChain?.(input) === true;
    if (!forward || !(e instanceof RulesError) || (e.field !== "maxStates" && e.field !== "maxBytes")) throw e;
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

/** The duel rules of a request's preset, when it names a known one. */
function duelRulesOf(preset: unknown): DuelRules | undefined {
  for (const [id, rules] of allDuelRules()) if (id === preset) return rules;
  return undefined;
}

/** Every field of a duel request: the engine's, with every preset's own after `first`. */
function duelFields(): string[] {
  const own: string[] = [];
  for (const [, rules] of allDuelRules()) for (const f of rules.fields ?? []) if (!own.includes(f)) own.push(f);
  return [...DUEL_FIELDS_HEAD, ...own, ...DUEL_FIELDS_TAIL];
}

/** Every method name a request may give: the engine's and every preset's own ("sample" last). */
function methodNames(): string[] {
  const names = ["chain", "forward", "phases"];
  for (const [, rules] of allDuelRules()) for (const m of rules.methods ?? []) if (!names.includes(m)) names.push(m);
  return [...names, "sample"];
}

/** One forecast over `chain` (empty: takeChain). */
function forecastOn(chain: Chain, raw: unknown, opts: DuelOptions): DuelForecast {
  const input = checkDuelInput(raw, duelFields());
  const kept = opts.setup?.find(input);
  const run = kept
    ? new DuelRun(chain, parseDuelRequest(input, opts), kept.pipeline, kept.attacks, kept.rules, opts, kept)
    : newRun(chain, input, opts);
  if (!kept) opts.setup?.keep(input, run);
  const { pipeline, rules: duel } = run;
  const method = oneOf(input.method, "method", methodNames(), duel.defaultMethod ?? "chain");
  const answer = duel.methods?.[method] ?? ENGINE_METHODS[method];
  if (!answer)
    throw new RulesError(
      "method",
      "FUDGE.Error.ForecastMethod",
      `${pipeline.preset} duels have no method "${method}"`,
      {
        method,
      },
    );
  return answer(run);
}

/** A new run of the duel a request asks for: its preset, its two attacks, and its duel rules. */
function newRun(chain: Chain, input: Record<string, unknown>, opts: DuelOptions): DuelRun {
  const pipeline = duelPipelineFor(input.preset);
  const request = parseDuelRequest(input, opts);
  const rules = duelRulesFor(pipeline.preset);
  for (const [id, other] of allDuelRules()) if (id !== pipeline.preset) other.refuseElsewhere?.(input, pipeline.preset);
  const settings = rules.settings(input, pipeline);
  const combatant = (c: unknown): unknown => (rules.combatant ? rules.combatant(c, settings) : c);
  const attacks = parseAttacks(pipeline, input, combatant(input.a), combatant(input.b));
  const duel = rules.duel({ input, pipeline, attacks, first: request.first }, settings, opts);
  return new DuelRun(chain, request, pipeline, attacks, duel, opts);
}

/** The two attack requests of the duel: a attacking b, and b attacking a (errors name the side: `a.track`). */
function parseAttacks(
  p: AttackPipeline,
  input: Record<string, unknown>,
  a: unknown,
  b: unknown,
): { a: AttackRequest; b: AttackRequest } {
  const base = { preset: input.preset, options: input.options, situation: input.situation ?? {} };
  let aAttacks: AttackRequest;
  let bAttacks: AttackRequest;
  try {
    aAttacks = p.parseRequest({ ...base, attacker: a, defender: b });
  } catch (e) {
    throw renamePaths(e, { attacker: "a", defender: "b" });
  }
  try {
    bAttacks = p.parseRequest({ ...base, attacker: b, defender: a });
  } catch (e) {
    throw renamePaths(e, { attacker: "b", defender: "a" });
  }
  return { a: aAttacks, b: bAttacks };
}
