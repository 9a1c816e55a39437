// The worker thread of bin/fudge-rules.mjs: runs one command and posts its outcome.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
if (workerData.convert) {
  // convert-fudge-rpg: its own arguments, output and exit code; stdin is asked for only when read.
  const { convertFudgeRpgCommand } = await import("../src/cli/convert-fudge-rpg.ts");
  const { readStdin } = await import("../src/cli/fudge-rules.ts");
  const readAsked = () => (parentPort.postMessage("stdin"), readStdin());
  parentPort.postMessage({ code: await convertFudgeRpgCommand(workerData.convert, readAsked) });
} else {
  const { runCaught, loadAllPresets } = await import("../src/cli/run.ts");
  await loadAllPresets();
  parentPort.postMessage(runCaught(workerData.command, workerData.text, workerData.source, workerData.options ?? []));
}
