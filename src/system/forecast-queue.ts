/**
 * The duel forecast off the main thread. Some duels take seconds (Miniatures with Guts checks,
 * Volt's exact duels); run on the table's client they would freeze Foundry's UI. The forecast
 * worker (src/system/forecast-worker.ts, built as dist/fudge-forecast.mjs next to the system's
 * bundle) answers a posted request in stages (src/system/forecast-answer.ts): the exact forecast
 * when it is quick, else a first answer (bounded, or an estimate with its interval) and then the
 * final one. This queue sends requests one at a time, hands first answers to the caller, answers
 * repeats from a small cache and gives up at the forecast's budget. Where no Worker can be made
 * (tests, old browsers) or the worker fails before its first answer (its file missing), the
 * failure is reported once and the forecast runs on this thread, loaded on demand, within stated
 * budgets only (the quick exact attempt, else the first estimate), yielding between the two: it
 * never blocks the page for long. Nothing here reads Foundry: the request is built by the caller
 * from live documents on its own client.
 */
import { FORECAST_BUDGET, type DuelForecast, RulesError } from "../rules";
import type { StageBudgets } from "./forecast-answer";

/** The built worker's file name, next to fudge-wounds.mjs in dist (tools/build.mjs). */
export const FORECAST_WORKER_FILE = "fudge-forecast.mjs";

/** A request posted to the worker: an id (to match its answer) and the rules core's duel request. */
export interface ForecastMessage {
  id: number;
  request: unknown;
}

/** A RulesError as data (structured clone loses its class): enough to rebuild it on the other side. */
export interface RulesErrorData {
  field: string;
  key: string;
  params: Record<string, string | number>;
  message: string;
}

export type ForecastReply =
  /** `interim`: a first answer (bounded, or an estimate), the final one to follow under the same id. */
  | { id: number; ok: true; forecast: DuelForecast; interim?: true }
  | { id: number; ok: false; error: RulesErrorData }
  /** A fault that is not a RulesError (a bug): its message only. */
  | { id: number; ok: false; fault: string };

/** The RulesError a worker reported, rebuilt here (same class, field, key, params and message). */
export function rulesErrorFrom(d: RulesErrorData): RulesError {
  const e = new RulesError(String(d.field ?? ""), String(d.key ?? ""), "", d.params ?? {});
  // The constructor prefixes the field to the message; the worker's message already has it.
  e.message = String(d.message ?? "");
  return e;
}

/** The parts of a Worker the queue uses (a browser's Worker, or a test's stand-in). */
export interface WorkerLike {
  postMessage(message: ForecastMessage): void;
  terminate(): void;
  onmessage: ((ev: { data: ForecastReply }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ForecastQueueOptions {
  /** Makes the worker (called once, at the first request); null or a throw → the synchronous call. */
  createWorker?: () => WorkerLike | null;
  /** How long one forecast may take in the worker before it is given up (default: its request's budget, else the forecast's, + 5 s to start the worker). */
  timeoutMs?: number;
  /** How many answers are remembered (default 32). */
  cacheSize?: number;
  /** Told once, the first time the worker cannot serve (it could not start, or it failed): the table reports it. */
  onWorkerFailure?: (error: unknown) => void;
  /** The stated budgets of the forecast on this thread (default: forecast-answer.ts STAGE_BUDGETS). */
  stageBudgets?: StageBudgets;
}

/** Called with a first answer (bounded, or an estimate) while the final one is computed. */
export type OnInterim = (forecast: DuelForecast) => void;

/**
 * Where the worker file is: beside the system's bundle. This module sits in a chunk one folder
 * down (chunks/), so the bundle's entry tells its own URL (src/foundry/main.ts); until then, this
 * module's own URL.
 */
let workerBase: string | URL = import.meta.url;
export function setWorkerBase(base: string | URL): void {
  workerBase = base;
}

/** The browser's module Worker on the built worker file next to the bundle, where Worker exists. */
export function browserWorker(base: string | URL = workerBase): WorkerLike | null {
  if (typeof Worker === "undefined") return null;
  // The file name is a constant, not a literal in `new URL(…)`, so vite leaves the bundle's
  // relative URL as written (the worker is its own build, tools/build.mjs).
  const file = FORECAST_WORKER_FILE;
  return new Worker(new URL(`./${file}`, base), { type: "module" }) as unknown as WorkerLike;
}

/** A request's own budget (`budgetMs`, at most the largest allowed), else the default, + 5 s to start the worker. */
export function timeoutFor(request: unknown): number {
  const asked = (request as { budgetMs?: unknown } | null)?.budgetMs;
  const budget =
    typeof asked === "number" && asked > 0 ? Math.min(asked, FORECAST_BUDGET.maxTimeMs) : FORECAST_BUDGET.timeMs;
  return budget + 5_000;
}

interface Pending {
  id: number;
  onInterim?: OnInterim;
  resolve: (f: DuelForecast) => void;
  reject: (e: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
  key: string;
  request: unknown;
}

/**
 * Duel forecasts in a worker, one after another. `run(request)` resolves to the rules core's
 * DuelForecast or rejects with its RulesError, exactly as `duelForecast(request)` would.
 */
export class ForecastQueue {
  /** "worker" or "sync", chosen once, at the first request that is not a cache hit. */
  mode: "worker" | "sync" | null = null;
  private worker: WorkerLike | null = null;
  private readonly cache = new Map<string, DuelForecast>();
  private readonly waiting: {
    key: string;
    request: unknown;
    onInterim?: OnInterim;
    resolve: (f: DuelForecast) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private current: Pending | null = null;
  private nextId = 1;
  /** Whether a worker has answered yet: one that fails before its first answer never started (its file missing, no module workers). */
  private started = false;
  private readonly createWorker: () => WorkerLike | null;
  private readonly timeoutMs: number | undefined;
  private readonly cacheSize: number;
  private readonly onWorkerFailure: ((error: unknown) => void) | undefined;
  private readonly stageBudgets: StageBudgets | undefined;
  /** Whether the worker's failure was reported (once per queue). */
  private failureReported = false;

  constructor(opts: ForecastQueueOptions = {}) {
    this.createWorker = opts.createWorker ?? (() => browserWorker());
    this.timeoutMs = opts.timeoutMs;
    this.cacheSize = opts.cacheSize ?? 32;
    this.onWorkerFailure = opts.onWorkerFailure;
    this.stageBudgets = opts.stageBudgets;
  }

  /** The cache key: the exact request (the same live data gives the same request, and the same answer). */
  static keyOf(request: unknown): string {
    return JSON.stringify(request) ?? "undefined";
  }

  /** Whether this request's answer is remembered (its `run` answers at once). */
  has(request: unknown): boolean {
    return this.cache.has(ForecastQueue.keyOf(request));
  }

  /**
   * The final answer (a cached one at once); `onInterim` gets a first answer before it when the
   * exact forecast is not quick (not for a cached answer, nor on this thread, where the first
   * answer is final).
   */
  run(request: unknown, onInterim?: OnInterim): Promise<DuelForecast> {
    const key = ForecastQueue.keyOf(request);
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: the oldest is forgotten first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve(structuredClone(hit));
    }
    if (this.mode === null) this.choose();
    return new Promise((resolve, reject) => {
      if (this.mode === "sync") return this.runSync(key, request, resolve, reject);
      this.waiting.push({ key, request, onInterim, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker (a later request starts a new one). */
  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private choose(): void {
    let failure: unknown = null;
    try {
      this.worker = this.createWorker();
    } catch (e) {
      this.worker = null;
      failure = e;
    }
    this.mode = this.worker ? "worker" : "sync";
    if (!this.worker) this.reportFailure(failure ?? new Error("no Worker can be made here"));
  }

  private reportFailure(e: unknown): void {
    if (this.failureReported) return;
    this.failureReported = true;
    this.onWorkerFailure?.(e);
  }

  /**
   * The forecast on this thread, loaded on demand (its own chunk), within stated budgets: the quick
   * exact attempt, then (after yielding to the page) the first estimate — the answer either way.
   */
  private runSync(
    key: string,
    request: unknown,
    resolve: (f: DuelForecast) => void,
    reject: (e: unknown) => void,
  ): void {
    const settle = (reply: ForecastReply) => {
      if (reply.ok) resolve(this.remember(key, reply.forecast));
      else reject("error" in reply ? rulesErrorFrom(reply.error) : new Error(reply.fault));
    };
    import("./forecast-answer")
      .then(async ({ quickAnswer, estimateAnswer }) => {
        // The estimate is the answer here (no final stage follows): on a set-up of its own, so that
        // it is the request's own estimate, its counts of states and enumerations included.
        const arrived = Date.now();
        const quick = quickAnswer(0, request, this.stageBudgets);
        if (quick) return settle(quick.reply);
        await new Promise((r) => setTimeout(r, 0));
        settle(estimateAnswer(0, request, this.stageBudgets, undefined, arrived));
      })
      .catch(reject);
  }

  /** A worker that could not start: the forecast on this thread from now on, for this request and those waiting. */
  private fallBackToSync(failure: unknown): void {
    this.reportFailure(failure);
    this.dispose();
    this.mode = "sync";
    const p = this.current;
    this.current = null;
    if (p) {
      clearTimeout(p.timer);
      this.runSync(p.key, p.request, p.resolve, p.reject);
    }
    for (const w of this.waiting.splice(0)) this.runSync(w.key, w.request, w.resolve, w.reject);
  }

  private remember(key: string, f: DuelForecast): DuelForecast {
    this.cache.set(key, structuredClone(f));
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return f;
  }

  private ensureWorker(): WorkerLike {
    if (!this.worker) this.worker = this.createWorker();
    if (!this.worker) throw new Error("the forecast worker could not be started");
    const w = this.worker;
    w.onmessage = (ev) => this.settle(ev.data);
    w.onerror = (ev) => {
      const failure = new Error(`the forecast worker failed: ${(ev as { message?: string })?.message ?? "error"}`);
      if (!this.started) return this.fallBackToSync(failure);
      this.reportFailure(failure);
      this.dispose();
      this.fail(failure);
    };
    return w;
  }

  /** Sends the next waiting request when none is running. */
  private pump(): void {
    if (this.current || !this.waiting.length) return;
    const next = this.waiting.shift()!;
    // A request that an earlier one answered meanwhile is answered from the cache.
    const hit = this.cache.get(next.key);
    if (hit) {
      next.resolve(structuredClone(hit));
      return this.pump();
    }
    let w: WorkerLike;
    try {
      w = this.ensureWorker();
    } catch (e) {
      next.reject(e);
      return this.pump();
    }
    const id = this.nextId++;
    const timeoutMs = this.timeoutMs ?? timeoutFor(next.request);
    const timer = setTimeout(() => {
      // The worker enforces the budget itself; this catches a worker that never answers. It is
      // stopped (a new one serves the next request).
      this.dispose();
      this.fail(
        new RulesError(
          "budgetMs",
          "FUDGE.Error.ForecastBudget",
          `the duel forecast needs more than its budget (${timeoutMs} ms)`,
          { what: `${timeoutMs} ms` },
        ),
      );
    }, timeoutMs);
    this.current = {
      id,
      onInterim: next.onInterim,
      resolve: next.resolve,
      reject: next.reject,
      timer,
      key: next.key,
      request: next.request,
    };
    w.postMessage({ id, request: next.request });
  }

  private settle(reply: ForecastReply): void {
    const p = this.current;
    if (!p || reply?.id !== p.id) return;
    this.started = true;
    if (reply.ok && reply.interim) return p.onInterim?.(reply.forecast);
    clearTimeout(p.timer);
    this.current = null;
    if (reply.ok) p.resolve(this.remember(p.key, reply.forecast));
    else if ("error" in reply) p.reject(rulesErrorFrom(reply.error));
    else p.reject(new Error(reply.fault));
    this.pump();
  }

  private fail(e: unknown): void {
    const p = this.current;
    if (!p) return;
    clearTimeout(p.timer);
    this.current = null;
    p.reject(e);
    this.pump();
  }
}
