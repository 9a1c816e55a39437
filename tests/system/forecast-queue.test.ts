/**
 * The duel forecast off the main thread (src/system/forecast-queue.ts): the worker's message
 * handling as a pure function, and the queue with a stand-in Worker that answers through the same
 * function across a structured-clone boundary (as a real worker does): ordering, the timeout,
 * the synchronous fallback, a RulesError rebuilt on this side, and cache hits.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForecastQueue, rulesErrorFrom, timeoutFor } from "../../src/system/forecast-queue";
import {
  answerForecastMessage,
  answerForecastStages,
  DuelSetup,
  estimateAnswer,
  quickAnswer,
  STAGE_BUDGETS,
} from "../../src/system/forecast-answer";
import { voltPipeline } from "../../src/rules/volt";
import type { ForecastReply } from "../../src/system/forecast-queue";
import { COUNT_BUDGETS, FakeWorker } from "./fake-worker";
import { duelForecast, FORECAST_BUDGET, RulesError } from "../../src/rules";
import { duelRequest } from "../../src/system/attack-dialog";
import { findSample } from "../../src/cli/samples";
import { rulesFor } from "./fixtures";

const fudgeDuel = () =>
  duelRequest(
    structuredClone(findSample("Leroy", "a")),
    structuredClone(findSample("Theodora", "b")),
    rulesFor("fudge"),
  );
const badDuel = () => ({ ...fudgeDuel(), preset: "chess" });
/**
 * The slow duel: Volt Leroy vs Theodora, exact in a second or two (the "product" method,
 * millions of sheet pairs); with a budget out of reach, so that its final answer is the exact one
 * however loaded the machine (the table's default gives the exact attempt 5 s).
 */
const voltDuel = () => ({
  ...duelRequest(
    structuredClone(findSample("Leroy", "a")),
    structuredClone(findSample("Theodora", "b")),
    rulesFor("volt"),
  ),
  budgetMs: 60_000,
});
const byCount = COUNT_BUDGETS;
const stages = (request: unknown): ForecastReply[] => {
  const out: ForecastReply[] = [];
  answerForecastStages({ id: 5, request }, (r) => out.push(structuredClone(r)), byCount);
  return out;
};
const kinds = (replies: ForecastReply[]) =>
  replies.map((r) =>
    r.ok
      ? `${r.interim ? "first " : ""}${r.forecast.method === "sample" ? "estimate" : r.forecast.exact ? "exact" : "bounded"}`
      : "refused",
  );

describe("the forecast worker's message handling", () => {
  it("answers a duel request with the rules core's forecast, under the message's id", () => {
    const reply = answerForecastMessage({ id: 7, request: fudgeDuel() });
    expect(reply).toEqual({ id: 7, ok: true, forecast: duelForecast(fudgeDuel()) });
  });

  it("a refused request comes back as the RulesError's data, rebuilt as the same RulesError", () => {
    let thrown: RulesError | null = null;
    try {
      duelForecast(badDuel());
    } catch (e) {
      thrown = e as RulesError;
    }
    expect(thrown).toBeInstanceOf(RulesError);
    const reply = structuredClone(answerForecastMessage({ id: 3, request: badDuel() }));
    expect(reply).toEqual({
      id: 3,
      ok: false,
      error: { field: thrown!.field, key: thrown!.key, params: thrown!.params, message: thrown!.message },
    });
    const back = rulesErrorFrom((reply as { error: Parameters<typeof rulesErrorFrom>[0] }).error);
    expect(back).toBeInstanceOf(RulesError);
    expect([back.field, back.key, back.params, back.message]).toEqual([
      thrown!.field,
      thrown!.key,
      thrown!.params,
      thrown!.message,
    ]);
  });

  it("a message without an id is a fault, not a forecast", () => {
    expect(answerForecastMessage({ request: fudgeDuel() })).toEqual({
      id: -1,
      ok: false,
      fault: expect.stringMatching(/id/),
    });
    expect(answerForecastMessage(null)).toMatchObject({ ok: false });
  });
});

describe("the forecast in stages: an answer at once, then the exact one", () => {
  it("a quick duel (Fudge Leroy vs Theodora, 277 states) is answered once, exactly", () => {
    const replies = stages(fudgeDuel());
    expect(kinds(replies)).toEqual(["exact"]);
    expect(replies[0]).toEqual({ id: 5, ok: true, forecast: duelForecast(fudgeDuel()) });
  });

  it("a duel past the quick attempt's states (Volt Leroy vs Theodora) gets an estimate with its interval first, then the exact answer", () => {
    const replies = stages(voltDuel());
    expect(kinds(replies)).toEqual(["first estimate", "exact"]);
    const [first, last] = replies as Array<Extract<ForecastReply, { ok: true }>>;
    expect(first.forecast.estimate?.duels).toBe(STAGE_BUDGETS.estimate.samples);
    expect(first.forecast.estimate?.halfWidth.aOut).toBeGreaterThan(0);
    expect(last.forecast).toEqual(duelForecast(voltDuel()));
  });

  it("the estimate plays on the quick attempt's set-up: none of the duel's dice is enumerated again (Volt Leroy vs Theodora)", () => {
    const setup = new DuelSetup();
    expect(quickAnswer(5, voltDuel(), byCount, setup)).toBeNull();
    const resolve = vi.spyOn(voltPipeline, "resolve");
    try {
      const shared = estimateAnswer(5, voltDuel(), byCount, setup);
      const sharedCalls = resolve.mock.calls.length;
      const fresh = estimateAnswer(5, voltDuel(), byCount);
      // Without the set-up the estimate enumerates each attacker penalty's dice again.
      expect([sharedCalls, resolve.mock.calls.length > 0]).toEqual([0, true]);
      const figures = (r: ForecastReply) => (r.ok ? [r.forecast.aOut, r.forecast.bOut, r.forecast.estimate] : r);
      expect(figures(shared)).toEqual(figures(fresh));
    } finally {
      resolve.mockRestore();
    }
  });

  it("a request refused for bad input is refused at once, with no estimate", () => {
    expect(kinds(stages(badDuel()))).toEqual(["refused"]);
  });

  it("the queue hands the first answer over before the final one resolves, and caches only the final one", async () => {
    const q = new ForecastQueue({ createWorker: () => new FakeWorker(byCount) });
    const seen: string[] = [];
    const final = await q.run(voltDuel(), (f) => seen.push(`first ${f.method}`));
    seen.push(`final ${final.method}`);
    expect(seen).toEqual(["first sample", "final product"]);
    const again: string[] = [];
    expect(await q.run(voltDuel(), (f) => again.push(f.method))).toEqual(final);
    expect(again).toEqual([]);
  });

  it("where no worker serves, the failure is reported once and the page gets the estimate within its stated budget, never the seconds-long exact answer", async () => {
    const failures: unknown[] = [];
    const q = new ForecastQueue({
      createWorker: () => null,
      onWorkerFailure: (e) => failures.push(e),
      stageBudgets: byCount,
    });
    const slow = await q.run(voltDuel());
    expect([slow.method, slow.estimate?.duels]).toEqual(["sample", STAGE_BUDGETS.estimate.samples]);
    expect(await q.run(fudgeDuel())).toEqual(duelForecast(fudgeDuel()));
    expect(failures).toHaveLength(1);
  });

  it("a worker that fails is reported once, however many requests it fails", async () => {
    const failures: unknown[] = [];
    const w = new FakeWorker();
    w.stuck = true;
    const q = new ForecastQueue({ createWorker: () => w, onWorkerFailure: (e) => failures.push(e) });
    const a = q.run(fudgeDuel());
    const b = q.run({ ...fudgeDuel(), first: "b" });
    w.onerror!({ message: "404" });
    await Promise.all([a, b]);
    expect(failures.map((e) => String((e as Error).message))).toEqual(["the forecast worker failed: 404"]);
  });
});

describe("the forecast queue", () => {
  afterEach(() => vi.useRealTimers());

  it("runs requests in the worker one after another, in order, each answer equal to the synchronous one", async () => {
    const w = new FakeWorker();
    const q = new ForecastQueue({ createWorker: () => w });
    const other = { ...fudgeDuel(), a: { ...(fudgeDuel().a as object), name: "Leroy II" } };
    const [x, y, z] = await Promise.all([q.run(fudgeDuel()), q.run(badDuel()).catch((e) => e), q.run(other)]);
    expect(q.mode).toBe("worker");
    expect(w.posted.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(w.posted.map((m) => (m.request as { preset: string }).preset)).toEqual(["fudge", "chess", "fudge"]);
    expect(x).toEqual(duelForecast(fudgeDuel()));
    expect(y).toBeInstanceOf(RulesError);
    expect((y as RulesError).field).toBe("preset");
    expect(z).toEqual(duelForecast(other));
  });

  it("sends only one request at a time: the second waits for the first's answer", async () => {
    const w = new FakeWorker();
    w.stuck = true;
    const q = new ForecastQueue({ createWorker: () => w });
    const first = q.run(fudgeDuel());
    void q.run(badDuel()).catch(() => {});
    expect(w.posted).toHaveLength(1);
    w.onmessage!({ data: answerForecastMessage(w.posted[0]) });
    await first;
    expect(w.posted).toHaveLength(2);
  });

  it("answers a repeated request from its cache without the worker; the cache is bounded", async () => {
    const w = new FakeWorker();
    const q = new ForecastQueue({ createWorker: () => w, cacheSize: 2 });
    const first = await q.run(fudgeDuel());
    expect(q.has(fudgeDuel())).toBe(true);
    expect(await q.run(fudgeDuel())).toEqual(first);
    expect(w.posted).toHaveLength(1);
    // Two other duels push the first out of a cache of two.
    for (const name of ["B", "C"]) await q.run({ ...fudgeDuel(), a: { ...(fudgeDuel().a as object), name } });
    expect(q.has(fudgeDuel())).toBe(false);
    await q.run(fudgeDuel());
    expect(w.posted).toHaveLength(4);
    // A refusal is not cached: asked again, the worker is asked again.
    await q.run(badDuel()).catch(() => {});
    await q.run(badDuel()).catch(() => {});
    expect(w.posted).toHaveLength(6);
  });

  it("gives up at its timeout with the budget's RulesError, stops that worker and serves the next request with a new one", async () => {
    vi.useFakeTimers();
    const workers: FakeWorker[] = [];
    const q = new ForecastQueue({
      createWorker: () => {
        const w = new FakeWorker();
        w.stuck = workers.length === 0;
        workers.push(w);
        return w;
      },
      timeoutMs: 500,
    });
    const stuck = q.run(fudgeDuel()).catch((e) => e);
    const next = q.run({ ...fudgeDuel(), a: { ...(fudgeDuel().a as object), name: "Next" } });
    await vi.advanceTimersByTimeAsync(499);
    expect(workers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    const e = await stuck;
    expect(e).toBeInstanceOf(RulesError);
    expect([e.key, e.field]).toEqual(["FUDGE.Error.ForecastBudget", "budgetMs"]);
    expect(workers[0].terminated).toBe(true);
    await vi.advanceTimersByTimeAsync(5);
    expect(workers).toHaveLength(2);
    expect((await next).aOut).toBeGreaterThan(0);
  });

  it("waits for a forecast as long as its request's budget allows (the default budget otherwise), + 5 s to start the worker", () => {
    expect(timeoutFor(fudgeDuel())).toBe(FORECAST_BUDGET.timeMs + 5_000);
    expect(timeoutFor({ ...fudgeDuel(), budgetMs: 30_000 })).toBe(35_000);
    expect(timeoutFor({ ...fudgeDuel(), budgetMs: 1e9 })).toBe(FORECAST_BUDGET.maxTimeMs + 5_000);
    expect(timeoutFor({ ...fudgeDuel(), budgetMs: "x" })).toBe(FORECAST_BUDGET.timeMs + 5_000);
  });

  it("falls back to the synchronous forecast where no Worker can be made, chosen once", async () => {
    let asked = 0;
    const q = new ForecastQueue({
      createWorker: () => {
        asked++;
        throw new Error("no Worker here");
      },
    });
    expect(await q.run(fudgeDuel())).toEqual(duelForecast(fudgeDuel()));
    await expect(q.run(badDuel())).rejects.toBeInstanceOf(RulesError);
    expect(q.mode).toBe("sync");
    expect(asked).toBe(1);
    // Without a Worker global at all (this Node test environment), the default is the same fallback.
    const plain = new ForecastQueue();
    expect(await plain.run(fudgeDuel())).toEqual(duelForecast(fudgeDuel()));
    expect(plain.mode).toBe("sync");
  });

  it("a worker that fails before its first answer (its file missing) gives way to the synchronous forecast, for every request waiting", async () => {
    const w = new FakeWorker();
    w.stuck = true;
    const q = new ForecastQueue({ createWorker: () => w });
    const a = q.run(fudgeDuel());
    const b = q.run(badDuel()).catch((e) => e);
    expect(q.mode).toBe("worker");
    w.onerror!({ message: "404" });
    expect(await a).toEqual(duelForecast(fudgeDuel()));
    expect(await b).toBeInstanceOf(RulesError);
    expect([q.mode, w.terminated, w.posted.length]).toEqual(["sync", true, 1]);
  });

  it("a worker that fails after answering rejects the forecast it was running, and a new worker serves the next", async () => {
    const workers: FakeWorker[] = [];
    const q = new ForecastQueue({
      createWorker: () => {
        workers.push(new FakeWorker());
        return workers.at(-1)!;
      },
    });
    await q.run(fudgeDuel());
    workers[0].stuck = true;
    const other = { ...fudgeDuel(), a: { ...(fudgeDuel().a as object), name: "Other" } };
    const failed = q.run(other).catch((e) => e);
    const next = q.run({ ...other, b: { ...(fudgeDuel().b as object), name: "Third" } });
    workers[0].onerror!({ message: "crashed" });
    expect(String(await failed)).toMatch(/crashed/);
    expect((await next).aOut).toBeGreaterThan(0);
    expect([q.mode, workers.length, workers[0].terminated]).toEqual(["worker", 2, true]);
  });

  it("a worker's fault (not a RulesError) rejects with its message, and the queue goes on", async () => {
    const w = new FakeWorker();
    w.stuck = true;
    const q = new ForecastQueue({ createWorker: () => w });
    const a = q.run(fudgeDuel()).catch((e) => e);
    const b = q.run(fudgeDuel());
    w.onmessage!({ data: { id: 1, ok: false, fault: "boom" } });
    expect(await a).toEqual(new Error("boom"));
    expect(w.posted).toHaveLength(2);
    w.onmessage!({ data: answerForecastMessage(w.posted[1]) });
    expect(await b).toEqual(duelForecast(fudgeDuel()));
  });
});
