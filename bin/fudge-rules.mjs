#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the rules core needs no separate build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/fudge-rules.ts");
process.exitCode = await main(process.argv.slice(2));
