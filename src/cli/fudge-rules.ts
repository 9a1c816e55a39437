/**
 * fudge-rules — the rules core on the command line.
 *
 *   fudge-rules <command> [request.json] [--field value …]
 *
 * Commands are the entries of COMMAND_TABLE (src/cli/commands.ts): resolve, odds, forecast,
 * status, heal, kill, guts, recover. The request is JSON from the file or stdin; the answer is
 * JSON on stdout. A combatant given as a string names a sample character from the pack sources
 * ("attacker": "Leroy"). Bad requests print `{ "error", "field", "key", "params" }` (< 1 KB) on
 * stderr and exit 2, and so does a request over its budget (CLI_BUDGET). See docs/rules-api.md.
 *
 * This module stays light (the rules core loads in the worker that runs the command).
 */
import { isRulesError, RulesError } from "../rules";
import { budget, CLI_BUDGET, readFileBounded } from "./budget";
import { cliError, type ErrorJson } from "./error-sentence";
import type { CliOption, RunOutcome } from "./run";

export type { RunOutcome } from "./run";

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    size += (c as Buffer).length;
    if (size > CLI_BUDGET.inputBytes)
      throw new RulesError("", "FUDGE.Error.TooLarge", `stdin is larger than ${CLI_BUDGET.inputBytes} bytes`, {
        max: CLI_BUDGET.inputBytes,
      });
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function readInput(file: string | undefined): Promise<string> | string {
  if (!file || file === "-") return readStdin();
  return readFileBounded(
    file,
    CLI_BUDGET.inputBytes,
    () =>
      new RulesError(
        "file",
        "FUDGE.Error.TooLarge",
        `the file ${file.slice(0, 80)} is larger than ${CLI_BUDGET.inputBytes} bytes`,
        { max: CLI_BUDGET.inputBytes },
      ),
  );
}

/**
 * How main() runs a command: in-process (tests, bundles), or isolated in a worker with the
 * budget's heap limit and time limit (the bin does this; see bin/fudge-rules.mjs).
 */
export type Runner = (
  command: string,
  text: string,
  source: string,
  limits: { timeMs: number; memoryMb: number },
  options: CliOption[],
) => Promise<RunOutcome>;

/**
 * How main() runs `convert-fudge-rpg`: in-process (tests), or in a worker with the budget's heap
 * limit (the bin). The outcome is its exit code, or a budget error / crash as for a command.
 */
export type ConvertRunner = (
  argv: string[],
  limits: { timeMs: number; memoryMb: number },
) => Promise<{ code: number } | Exclude<RunOutcome, { ok: string }>>;

/** Runs the command in this thread (no hard limits beyond the library's own). */
export const inProcess: Runner = async (command, text, source, _limits, options) => {
  const run = await import("./run");
  await run.loadAllPresets();
  return run.runCaught(command, text, source, options);
};

/**
 * The arguments after the command: the request file (the first that is not an option) and the
 * options, `--name value` or `--name=value`, which set request fields (the command names which:
 * COMMAND_TABLE's `options`, checked where the command runs).
 */
export function splitArgs(args: readonly string[]): { file: string | undefined; options: CliOption[] } {
  let file: string | undefined;
  const options: CliOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) {
      file ??= a;
      continue;
    }
    const eq = a.indexOf("=");
    const name = (eq < 0 ? a.slice(2) : a.slice(2, eq)).slice(0, 40);
    const value = eq < 0 ? args[++i] : a.slice(eq + 1);
    if (value === undefined) throw new RulesError(`--${name}`, "FUDGE.Error.OptionValue", `--${name} needs a value`);
    options.push([name, value]);
  }
  return { file, options };
}

export async function main(argv: string[], runner: Runner = inProcess, convertRunner?: ConvertRunner): Promise<number> {
  const [command] = argv;
  if (!command || command === "-h" || command === "--help") {
    process.stdout.write(
      `${(await import("./run")).USAGE}\n${(await import("./convert-fudge-rpg")).CONVERT_FUDGE_RPG_USAGE}\n`,
    );
    return command ? 0 : 2;
  }
  const fail = (e: ErrorJson, advice?: string): number => {
    process.stderr.write(`${JSON.stringify(cliError(e, advice))}\n`);
    return 2;
  };
  // Import from the fudge-rpg system (src/cli/convert-fudge-rpg.ts): its own arguments and output.
  if (command === "convert-fudge-rpg") {
    if (!convertRunner) return (await import("./convert-fudge-rpg")).convertFudgeRpgCommand(argv.slice(1), readStdin);
    const r = await convertRunner(argv.slice(1), budget());
    if ("code" in r) return r.code;
    if ("error" in r) return fail(r.error, "Convert fewer or smaller files at a time.");
    process.stderr.write(`${r.crash}\n`);
    return 1;
  }
  let text: string;
  let file: string | undefined;
  let options: CliOption[];
  try {
    ({ file, options } = splitArgs(argv.slice(1)));
    text = await readInput(file);
  } catch (e) {
    if (isRulesError(e)) return fail(e.toJSON());
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      return fail({ error: `no such file: ${String(file).slice(0, 200)}`, field: "file", key: "FUDGE.Error.NoFile" });
    // Any other read failure (a directory, no permission …) is still a bad request, not a crash.
    if (typeof code === "string")
      return fail({
        error: `cannot read ${String(file).slice(0, 200)} (${code})`,
        field: "file",
        key: "FUDGE.Error.NoFile",
      });
    throw e;
  }
  const source = file && file !== "-" ? file.slice(0, 200) : "stdin";
  const r = await runner(command, text, source, budget(), options);
  if ("ok" in r) {
    process.stdout.write(r.ok);
    return 0;
  }
  if ("error" in r) return fail(r.error);
  process.stderr.write(`${r.crash}\n`);
  return 1;
}
