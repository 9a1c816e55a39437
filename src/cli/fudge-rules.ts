/**
 * fudge-rules — the rules core on the command line.
 *
 *   fudge-rules resolve  [request.json]   resolve one attack from recorded dice (or roll with "seed")
 *   fudge-rules odds     [request.json]   exact probability of every outcome of one attack
 *   fudge-rules forecast [request.json]   exact duel forecast between two combatants
 *
 * The request is JSON from the file or stdin; the answer is JSON on stdout. A combatant given as
 * a string names a sample character from the pack sources ("attacker": "Leroy"). Bad requests
 * print `{ "error", "field", "key" }` on stderr and exit 2. See docs/rules-api.md.
 */
import { readFileSync } from "node:fs";
import { isRulesError, RulesError } from "../rules/errors";
import { duelForecast } from "../rules/forecast";
import { exactOdds } from "../rules/odds";
import { pipelineFor, resolveAttack, rollAttack } from "../rules/pipeline";
import { seededRng } from "../rules/dice";
import { isRecord } from "../rules/validate";
import { resolveSamples } from "./samples";
import { CONVERT_FUDGE_RPG, CONVERT_FUDGE_RPG_USAGE, convertFudgeRpgCommand } from "./convert-fudge-rpg";
import "../rules/presets";

export const COMMANDS = ["resolve", "odds", "forecast"] as const;
type Command = (typeof COMMANDS)[number];

export const USAGE = `usage: fudge-rules <${COMMANDS.join("|")}> [request.json]
  Reads a JSON request from the file (or stdin) and prints JSON. See docs/rules-api.md.
${CONVERT_FUDGE_RPG_USAGE}`;

/** Runs one command on a parsed request; pure apart from reading the pack sources for samples. */
export function runCommand(command: string, request: unknown): unknown {
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new RulesError("command", "FUDGE.Error.UnknownCommand", `unknown command ${JSON.stringify(command)}; expected one of ${COMMANDS.join(", ")}`);
  if (!isRecord(request)) throw new RulesError("", "FUDGE.Error.NotObject", "the request must be a JSON object");
  pipelineFor(request.preset); // an unknown preset is named before anything else
  const req = resolveSamples(request);
  switch (command as Command) {
    case "resolve": {
      // "dice" and "seed" belong to the command, not to the attack request.
      const { dice, seed, ...attack } = req;
      if (dice !== undefined) {
        if (!isRecord(dice)) throw new RulesError("dice", "FUDGE.Error.NotObject", "must be an object of recorded dice by slot");
        return resolveAttack(attack, dice);
      }
      if (typeof seed !== "number" || !Number.isInteger(seed))
        throw new RulesError("dice", "FUDGE.Error.MissingDice", 'give the recorded "dice", or a whole-number "seed" to roll them');
      return rollAttack(attack, seededRng(seed));
    }
    case "odds":
      return exactOdds(req);
    case "forecast":
      return duelForecast(req);
  }
}

export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new RulesError("", "FUDGE.Error.BadJson", `${source} is not valid JSON (${(e as Error).message})`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  if (!command || command === "-h" || command === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command === CONVERT_FUDGE_RPG) return convertFudgeRpgCommand(argv.slice(1), readStdin);
  try {
    const text = file && file !== "-" ? readFileSync(file, "utf8") : await readStdin();
    const result = runCommand(command, parseJson(text, file && file !== "-" ? file : "stdin"));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (e) {
    if (isRulesError(e)) {
      process.stderr.write(`${JSON.stringify(e.toJSON())}\n`);
      return 2;
    }
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      process.stderr.write(`${JSON.stringify({ error: `no such file: ${file}`, field: "file", key: "FUDGE.Error.NoFile" })}\n`);
      return 2;
    }
    throw e;
  }
}
