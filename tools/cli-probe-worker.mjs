// The worker of tools/cli-probe.mjs: runs probes one by one in-process (runCaught, as the CLI's
// own worker does) and posts each outcome: the answer's size, or the error line the CLI would
// print (cliError), or the crash; its time; and whether Object.prototype was polluted.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runCaught, loadAllPresets } = await import("../src/cli/run.ts");
await loadAllPresets();
const { cliError } = await import("../src/cli/error-sentence.ts");
const { resolveSamples } = await import("../src/cli/samples.ts");
parentPort.on("message", (m) => {
  if (m.samples) {
    parentPort.postMessage({ samples: m.samples.map((r) => resolveSamples(r)) });
    return;
  }
  const t0 = performance.now();
  const r = runCaught(m.command, m.text, "stdin", m.options ?? []);
  const ms = performance.now() - t0;
  const polluted = Object.keys(Object.prototype).length > 0 || Object.prototype.polluted !== undefined;
  const out =
    "ok" in r
      ? { ok: r.ok.length, nan: /NaN|Infinity/.test(r.ok.slice(0, 2_000_000)) }
      : "error" in r
        ? { error: r.error, line: JSON.stringify(cliError(r.error)) }
        : { crash: String(r.crash).slice(0, 600) };
  parentPort.postMessage({ i: m.i, ms, polluted, ...out });
});
parentPort.postMessage({ ready: true });
