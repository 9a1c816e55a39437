/**
 * Property tests are reproducible by default (one fixed fast-check seed), so CI is never flaky;
 * FC_SEED=<n> replays another seed and FC_SEED=random explores new cases (with FC_RUNS for more).
 */
import fc from "fast-check";

const seed = process.env.FC_SEED;
if (seed !== "random") fc.configureGlobal({ seed: seed ? Number(seed) : 1995 });
