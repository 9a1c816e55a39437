/**
 * The BUILT forecast worker (tools/build.mjs → fudge-forecast.mjs) in real Chromium: a minimal
 * page served over http, as Foundry serves a system's files (/systems/fudge-wounds/…), starts it as
 * a module worker from a URL next to the page, posts the Leroy vs Theodora Fudge duel and gets back
 * the rules core's synchronous answer; a refused request comes back as data that rebuilds the
 * same RulesError here. (The queue around it is tested with a stand-in Worker in
 * tests/system/forecast-queue.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { FORECAST_WORKER_FILE, rulesErrorFrom, type ForecastReply } from "../../src/system/forecast-queue";
import { duelForecast, RulesError } from "../../src/rules";
import { duelRequest } from "../../src/system/attack-dialog";
import { findSample } from "../../src/cli/samples";
import { rulesFor } from "../system/fixtures";
import { repo, startBrowser } from "./helpers";

let browser: Browser;
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fudge-worker-"));
  const sys = path.join(dir, "systems/fudge-wounds");
  fs.mkdirSync(sys, { recursive: true });
  // The worker exactly as the system build makes it.
  execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import(${JSON.stringify(path.join(repo, "tools/build.mjs"))}).then((m) => m.buildForecastWorker(${JSON.stringify(sys)}))`,
    ],
    { cwd: repo, stdio: "pipe" },
  );
  fs.writeFileSync(path.join(sys, "index.html"), "<!doctype html><title>forecast worker</title>");
  // A page with the system's own queue, built beside the worker as the system's bundle is.
  const page = path.join(repo, "tests/browser/forecast-page.ts");
  const viteBuild = `import("vite").then((v) => v.build({ configFile: false, logLevel: "error", build: { outDir: ${JSON.stringify(sys)}, emptyOutDir: false, minify: false, lib: { entry: ${JSON.stringify(page)}, formats: ["es"], fileName: () => "forecast-page.mjs" } } }))`;
  execFileSync(process.execPath, ["--input-type=module", "-e", viteBuild], { cwd: repo, stdio: "pipe" });
  fs.writeFileSync(
    path.join(sys, "queue.html"),
    '<!doctype html><title>forecast queue</title><script type="module" src="./forecast-page.mjs"></script>',
  );
  server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { "content-type": /\.m?js$/.test(file) ? "text/javascript" : "text/html" })
      .end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/systems/fudge-wounds/`;
  browser = await startBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Posts requests to the built worker in a page and returns its replies, in order. */
async function ask(requests: unknown[]): Promise<{ replies: ForecastReply[]; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await page.goto(`${base}index.html`);
  const replies = await page.evaluate(
    ({ file, requests }) =>
      new Promise<unknown[]>((resolve, reject) => {
        const w = new Worker(new URL(`./${file}`, location.href), { type: "module" });
        const out: unknown[] = [];
        w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
        w.onmessage = (ev) => {
          out.push(ev.data);
          if (out.length === requests.length) resolve(out);
        };
        requests.forEach((request, i) => w.postMessage({ id: i + 1, request }));
      }),
    { file: FORECAST_WORKER_FILE, requests },
  );
  await context.close();
  return { replies: replies as ForecastReply[], problems };
}

/** Runs requests through the system's ForecastQueue in a page of `dir` (its default Worker beside the page's bundle). */
async function queued(requests: unknown[], opts: { hideWorker?: boolean } = {}) {
  const context = await browser.newContext();
  if (opts.hideWorker) await context.route(`**/${FORECAST_WORKER_FILE}`, (r) => r.fulfill({ status: 404, body: "" }));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(`${base}queue.html`);
  await page.waitForFunction(() => "forecastQueue" in window);
  const answer = await page.evaluate(
    (rs) => (window as unknown as { forecastQueue: { run(r: unknown[]): Promise<unknown> } }).forecastQueue.run(rs),
    requests,
  );
  await context.close();
  return { ...(answer as { mode: string; out: { forecast?: unknown; error?: Record<string, unknown> }[] }), problems };
}

describe("the built forecast worker in Chromium", () => {
  it("answers Leroy vs Theodora (Fudge) exactly as the synchronous forecast does, and rebuilds a refusal as the same RulesError", async () => {
    const request = duelRequest(
      structuredClone(findSample("Leroy", "a")),
      structuredClone(findSample("Theodora", "b")),
      rulesFor("fudge"),
    );
    const bad = { ...request, budgetMs: -5 };
    const { replies, problems } = await ask([request, bad]);
    expect(problems).toEqual([]);
    expect(replies[0]).toEqual({ id: 1, ok: true, forecast: duelForecast(request) });
    expect(replies[0].ok && Math.round(replies[0].forecast.bOut * 100)).toBe(75);
    let thrown: RulesError | null = null;
    try {
      duelForecast(bad);
    } catch (e) {
      thrown = e as RulesError;
    }
    expect(replies[1]).toMatchObject({ id: 2, ok: false });
    const back = rulesErrorFrom((replies[1] as { error: Parameters<typeof rulesErrorFrom>[0] }).error);
    expect(back).toBeInstanceOf(RulesError);
    expect(back.field).toBe("budgetMs");
    expect([back.field, back.key, back.params, back.message]).toEqual([
      thrown!.field,
      thrown!.key,
      thrown!.params,
      thrown!.message,
    ]);
  });

  it("the system's queue starts the worker from the URL beside its bundle and gets the synchronous answers, in order", async () => {
    const request = duelRequest(
      structuredClone(findSample("Leroy", "a")),
      structuredClone(findSample("Theodora", "b")),
      rulesFor("fudge"),
    );
    const bad = { ...request, budgetMs: -5 };
    const { mode, out, problems } = await queued([request, bad, request]);
    expect(problems).toEqual([]);
    expect(mode).toBe("worker");
    expect(out[0]).toEqual({ forecast: duelForecast(request) });
    expect(out[1].error).toMatchObject({ name: "RulesError", field: "budgetMs" });
    expect(out[2]).toEqual(out[0]);
  });

  it("where the worker's file cannot be loaded, the queue falls back to the synchronous forecast", async () => {
    const request = duelRequest(
      structuredClone(findSample("Leroy", "a")),
      structuredClone(findSample("Theodora", "b")),
      rulesFor("fudge"),
    );
    const { mode, out } = await queued([request], { hideWorker: true });
    expect(mode).toBe("sync");
    expect(out[0]).toEqual({ forecast: duelForecast(request) });
  });

  it("the Volt sample duel (seconds of work) runs in the worker while the page's main thread keeps running, with the synchronous answer", async () => {
    const request = duelRequest(
      structuredClone(findSample("Leroy", "a")),
      structuredClone(findSample("Theodora", "b")),
      rulesFor("volt"),
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}queue.html`);
    await page.waitForFunction(() => "forecastQueue" in window);
    const got = await page.evaluate(
      (r) =>
        (
          window as unknown as {
            forecastQueue: { ticking(r: unknown): Promise<{ mode: string; forecast: unknown; ticks: number }> };
          }
        ).forecastQueue.ticking(r),
      request,
    );
    await context.close();
    expect(got.mode).toBe("worker");
    expect(got.forecast).toEqual(duelForecast(request));
    // A synchronous forecast would let no timer run before it answered.
    expect(got.ticks).toBeGreaterThan(0);
  }, 120_000);

  it("Volt Leroy vs Leroy, which no exact or bounded forecast reaches, comes back from the worker as the seeded estimate, bit for bit the one computed here", async () => {
    const request = duelRequest(
      structuredClone(findSample("Leroy", "a")),
      structuredClone(findSample("Leroy", "b")),
      rulesFor("volt"),
    );
    expect(request.fallback).toBe("sample");
    const { mode, out, problems } = await queued([request]);
    expect(problems).toEqual([]);
    expect(mode).toBe("worker");
    const estimate = duelForecast({ ...request, method: "sample" });
    expect([estimate.method, estimate.exact, estimate.errorBound]).toEqual(["sample", false, 1]);
    expect(out[0]).toEqual({ forecast: estimate });
  }, 120_000);
});
