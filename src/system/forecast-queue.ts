/**
 * The duel forecast off the main thread. Some duels take seconds (Miniatures with Guts checks,
 * Volt's exact duels); run on the table's client they would freeze Foundry's UI. The forecast
 * worker (src/system/forecast-worker.ts, built as dist/fudge-forecast.mjs next to the system's
 * bundle) runs the rules core's `duelForecast` on a posted request; this queue sends requests one
 * at a time, answers repeats from a small cache, gives up at the forecast's budget, and falls back
 * to the synchronous call where no Worker can be made (tests, old browsers) or the worker fails
 * before its first answer (its file missing). Nothing here reads
 * Foundry: the request is built by the caller from live documents on its own client.
 */
import { FORECAST_BUDGET, type DuelForecast, RulesError } from "../rules";

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
  | { id: number; ok: true; forecast: DuelForecast }
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
}

/** The browser's module Worker on the built worker file next to this bundle, where Worker exists. */
export function browserWorker(base: string | URL = import.meta.url): WorkerLike | null {
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

  constructor(opts: ForecastQueueOptions = {}) {
    this.createWorker = opts.createWorker ?? (() => browserWorker());
    this.timeoutMs = opts.timeoutMs;
    this.cacheSize = opts.cacheSize ?? 32;
  }

  /** The cache key: the exact request (the same live data gives the same request, and the same answer). */
  static keyOf(request: unknown): string {
    return JSON.stringify(request) ?? "undefined";
  }

  /** Whether this request's answer is remembered (its `run` answers at once). */
  has(request: unknown): boolean {
    return this.cache.has(ForecastQueue.keyOf(request));
  }

  run(request: unknown): Promise<DuelForecast> {
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
      this.waiting.push({ key, request, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker (a later request starts a new one). */
  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private choose(): void {
    try {
      this.worker = this.createWorker();
    } catch {
      this.worker = null;
    }
    this.mode = this.worker ? "worker" : "sync";
  }

  /** The forecast on this thread: the engine is loaded on demand (its own chunk), then answers. */
  private runSync(
    key: string,
    request: unknown,
    resolve: (f: DuelForecast) => void,
    reject: (e: unknown) => void,
  ): void {
    import("./forecast-answer")
      .then(({ forecastHere }) => resolve(this.remember(key, forecastHere(request))))
      .catch(reject);
  }

  /** A worker that could not start: the synchronous forecast from now on, for this request and those waiting. */
  private fallBackToSync(): void {
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
      if (!this.started) return this.fallBackToSync();
      this.dispose();
      this.fail(new Error(`the forecast worker failed: ${(ev as { message?: string })?.message ?? "error"}`));
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
    this.current = { id, resolve: next.resolve, reject: next.reject, timer, key: next.key, request: next.request };
    w.postMessage({ id, request: next.request });
  }

  private settle(reply: ForecastReply): void {
    const p = this.current;
    if (!p || reply?.id !== p.id) return;
    this.started = true;
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
