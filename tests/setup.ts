/**
 * Property tests are reproducible by default (one fixed fast-check seed), so CI is never flaky;
 * FC_SEED=<n> replays another seed and FC_SEED=random explores new cases (with FC_RUNS for more).
 */
import fc from "fast-check";
import { expect } from "vitest";

const seed = process.env.FC_SEED;
if (seed !== "random") fc.configureGlobal({ seed: seed ? Number(seed) : 1995 });

// The attack pipelines load on demand (src/rules/presets.ts). A test that calls the rules or the
// system's builders itself may read any preset's: all load before it. The test host's suites
// (tests/foundry-host) do not: there the system loads them as in Foundry (the world's preset from
// init; a card's, a flow's and a sheet's before they read them).
const testFile = expect.getState().testPath ?? "";
if (!/[\\/]tests[\\/]foundry-host[\\/]/.test(testFile)) await (await import("../src/rules")).loadAllPresets();
