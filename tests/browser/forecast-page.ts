/**
 * The page of tests/browser/forecast-worker.test.ts: the system's real forecast queue, built into
 * a module beside fudge-forecast.mjs (as fudge-wounds.mjs is in dist), with its default Worker.
 */
import { ForecastQueue } from "../../src/system/forecast-queue";

const queue = new ForecastQueue();
(window as unknown as Record<string, unknown>).forecastQueue = {
  /** Runs the requests through the queue; each answer as data (a refusal as its RulesError's parts). */
  async run(requests: unknown[]) {
    const out = await Promise.all(
      requests.map((r) =>
        queue.run(r).then(
          (forecast) => ({ forecast }),
          (e) => ({
            error: { name: e?.constructor?.name, field: e?.field, key: e?.key, params: e?.params, message: e?.message },
          }),
        ),
      ),
    );
    return { mode: queue.mode, out };
  },
  /** One forecast, counting the main thread's timer callbacks that ran while it was computed. */
  async ticking(request: unknown) {
    let ticks = 0;
    let on = true;
    const tick = () => {
      if (!on) return;
      ticks++;
      setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const forecast = await queue.run(request);
    on = false;
    return { mode: queue.mode, forecast, ticks };
  },
};
