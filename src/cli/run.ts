/**
 * Running one `fudge-rules` command from its input text: size and shape checks, the command
 * table, and the outcome as data (the answer's JSON, a RulesError's JSON, or a crash). The
 * launcher (fudge-rules.ts) runs this in a worker thread under the budget.
 */
import { isRulesError, RulesError, checkJsonShape, isRecord } from "../rules";
import { CLI_BUDGET } from "./budget";
import { COMMAND_TABLE } from "./commands";

/** Every preset's attack pipeline, loaded before a command runs (a request may name any preset). */
export { loadAllPresets } from "../rules";

export const COMMANDS = Object.keys(COMMAND_TABLE);

export const USAGE = `usage: fudge-rules <command> [request.json] [--field value …]
${Object.entries(COMMAND_TABLE)
  .map(
    ([name, c]) =>
      `  ${name.padEnd(9)} ${c.summary}${
        c.options
          ? `\n            options: ${Object.keys(c.options)
              .map((o) => `--${o}`)
              .join(" ")} (request fields; they override the request's)`
          : ""
      }`,
  )
  .join("\n")}
Reads a JSON request from the file (or stdin) and prints JSON. See docs/rules-api.md.`;

/** Runs one command on a parsed request (in-process; the library's own budgets still apply). */
function commandSpec(command: string) {
  if (Object.hasOwn(COMMAND_TABLE, command)) return COMMAND_TABLE[command];
  throw new RulesError(
    "command",
    "FUDGE.Error.UnknownCommand",
    `unknown command ${JSON.stringify(command.slice(0, 40))}; expected one of ${COMMANDS.join(", ")}`,
  );
}

export function runCommand(command: string, request: unknown): unknown {
  const spec = commandSpec(command);
  if (spec.input !== "text") checkJsonShape(request, "", CLI_BUDGET.depth, CLI_BUDGET.values);
  return spec.run(request);
}

export function parseJson(text: string, source: string): unknown {
  if (text.length > CLI_BUDGET.inputBytes)
    throw new RulesError("", "FUDGE.Error.TooLarge", `${source} is larger than ${CLI_BUDGET.inputBytes} bytes`, {
      max: CLI_BUDGET.inputBytes,
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (e instanceof RangeError)
      throw new RulesError("", "FUDGE.Error.TooDeep", `${source} is nested too deeply`, { max: CLI_BUDGET.depth });
    throw new RulesError(
      "",
      "FUDGE.Error.BadJson",
      `${source} is not valid JSON (${(e as Error).message.slice(0, 120)})`,
    );
  }
  checkJsonShape(value, "", CLI_BUDGET.depth, CLI_BUDGET.values);
  return value;
}

/** A command-line option (`--samples 5000`, see fudge-rules.ts): its name without the dashes, and its text. */
export type CliOption = [name: string, value: string];

/** The request with the command line's options set as its fields (each a field the command names in `options`). */
export function withOptions(command: string, request: unknown, options: readonly CliOption[]): unknown {
  if (!options.length) return request;
  const spec = commandSpec(command);
  const out: Record<string, unknown> = {};
  for (const [name, value] of options) {
    const kind = spec.options && Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    if (!kind) {
      const known =
        Object.keys(spec.options ?? {})
          .map((o) => `--${o}`)
          .join(", ") || "none";
      throw new RulesError(
        `--${name.slice(0, 40)}`,
        "FUDGE.Error.UnknownOption",
        `--${name.slice(0, 40)} is unknown to ${command} (its options: ${known})`,
        { command, allowed: known },
      );
    }
    // A number option's text that is not a number stays text: the field's own check refuses it by name.
    const n = Number(value);
    out[name] = kind === "number" && value.trim() !== "" && Number.isFinite(n) ? n : value;
  }
  if (!isRecord(request)) throw new RulesError("", "FUDGE.Error.NotObject", "the request must be a JSON object");
  return { ...request, ...out };
}

/** One command from its raw input text to the answer's JSON text; throws RulesError for bad input. */
export function runText(command: string, text: string, source: string, options: readonly CliOption[] = []): string {
  const request =
    commandSpec(command).input === "text"
      ? withOptions(command, text, options)
      : withOptions(command, parseJson(text, source), options);
  try {
    return `${JSON.stringify(runCommand(command, request), null, 2)}\n`;
  } catch (e) {
    // A stack overflow on some input the shape check let through is still bad input, not a crash.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      throw new RulesError("", "FUDGE.Error.TooDeep", "the request is too complex to process");
    throw e;
  }
}

/** Outcome of a command run: the answer, a RulesError's JSON, or a crash (a bug: exit 1). */
export type RunOutcome = { ok: string } | { error: ReturnType<RulesError["toJSON"]> } | { crash: string };

export function runCaught(
  command: string,
  text: string,
  source: string,
  options: readonly CliOption[] = [],
): RunOutcome {
  try {
    return { ok: runText(command, text, source, options) };
  } catch (e) {
    if (isRulesError(e)) return { error: e.toJSON() };
    return { crash: (e as Error)?.stack ?? String(e) };
  }
}
