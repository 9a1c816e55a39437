/**
 * Property tests are reproducible by default (one fixed fast-check seed), so CI is never flaky;
 * FC_SEED=<n> replays another seed and FC_SEED=random explores new cases (with FC_RUNS for more).
 */
import fc from "fast-check";

const seed = process.env.FC_SEED;
if (seed !== "random") fc.configureGlobal({ seed: seed ? Number(seed) : 1995 });

// The attack pipelines load on demand (src/rules/presets.ts). The unit tests may read any preset's:
// all load before them. The host suites do not: there the system loads them as in Foundry (the
// world's preset from init; a card's, a flow's and a sheet's before they read them).
if (!process.env.FUDGE_FOUNDRY_GENERATION) await (await import("../src/rules")).loadAllPresets();
