// The worker thread of bin/fudge-rules.mjs: runs one command and posts its outcome.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runCaught } = await import("../src/cli/run.ts");
parentPort.postMessage(runCaught(workerData.command, workerData.text, workerData.source, workerData.options ?? []));
