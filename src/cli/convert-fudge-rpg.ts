/**
 * `fudge-rules convert-fudge-rpg`: actors exported from the fudge-rpg Foundry system (Actor →
 * Export Data) become this system's actor JSON, for batches outside Foundry.
 *
 *   fudge-rules convert-fudge-rpg [--preset fudge|miniatures|fate|volt] < actor.json > converted.json
 *   fudge-rules convert-fudge-rpg [--preset …] --out-dir DIR a.json b.json …
 *
 * One actor (stdin or one file, no --out-dir): the converted actor JSON on stdout — import it in
 * Foundry with an actor's "Import Data" or the Actors directory's "Import from Fudge RPG". With
 * --out-dir, each input file is written to DIR under its own name. The report (what was mapped,
 * what was kept in the notes) goes to stderr, one line each. All or nothing: when any input is
 * malformed, every error is printed as `{ error, field, key, file }` on stderr, nothing is
 * written, and the exit code is 2. The world preset decides whether wound marks become boxes.
 *
 * Budget (docs/rules-api.md "Budgets"): the files are read and converted one at a time (one
 * export's text in memory at once, at most 5 MB), the whole batch within FUDGE_RPG_BUDGET.timeMs
 * (20 s; FUDGE_RULES_TIME_MS lowers it, as for every command): past it, FUDGE.Error.TimeBudget,
 * exit 2, nothing written. Two inputs that --out-dir would write under one name are refused first.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isRulesError, RulesError, PRESETS, type PresetId } from "../rules";
import { defaultWorldRules } from "../system/data";
import {
  conversionDeadline,
  convertFudgeRpgFiles,
  FUDGE_RPG_MAX_BYTES,
  importErrorText,
  reportText,
  type ConvertOptions,
  type ImportFileOutcome,
} from "../system/import-fudge-rpg";
import { budget, readFileBounded } from "./budget";
import { cliError, withSentence } from "./error-sentence";

export const CONVERT_FUDGE_RPG = "convert-fudge-rpg";
export const CONVERT_FUDGE_RPG_USAGE = `       fudge-rules ${CONVERT_FUDGE_RPG} [--preset fudge|miniatures|fate|volt] [--out-dir DIR] [actor.json …]
  Converts actors exported from the fudge-rpg system; see docs/import-fudge-rpg.md.`;

const LANG = resolve(dirname(fileURLToPath(import.meta.url)), "../../lang/en.json");

interface Parsed {
  preset: PresetId;
  outDir: string | null;
  files: string[];
}

export function parseConvertArgs(argv: string[]): Parsed {
  const out: Parsed = { preset: "fudge", outDir: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--preset" || a === "--out-dir") {
      const v = argv[++i];
      if (v === undefined) throw new RulesError(a.slice(2), "FUDGE.Import.Error.MissingValue", `${a} needs a value`);
      if (a === "--preset") {
        if (!(PRESETS as readonly string[]).includes(v))
          throw new RulesError("preset", "FUDGE.Error.NotOneOf", `--preset must be one of ${PRESETS.join(", ")}`, {
            allowed: PRESETS.join(", "),
          });
        out.preset = v as PresetId;
      } else out.outDir = v;
    } else if (a.startsWith("--")) throw new RulesError(a, "FUDGE.Import.Error.UnknownOption", `unknown option ${a}`);
    else out.files.push(a);
  }
  if (out.files.length > 1 && !out.outDir)
    throw new RulesError("out-dir", "FUDGE.Import.Error.MissingValue", "several files need --out-dir DIR");
  return out;
}

/** An export file's text; one larger than an actor can be is refused as it is read (a 10 GB file, or /dev/zero, must not fill the memory). */
function readExport(file: string): string {
  try {
    return readFileBounded(
      file,
      FUDGE_RPG_MAX_BYTES,
      () =>
        new RulesError("", "FUDGE.Import.Error.TooLarge", `the file is larger than ${FUDGE_RPG_MAX_BYTES} bytes`, {
          file,
          max: FUDGE_RPG_MAX_BYTES,
        }),
    );
  } catch (e) {
    (e as NodeJS.ErrnoException).path ??= file; // a directory's EISDIR names no path
    throw e;
  }
}

/** The name --out-dir writes an input under (stdin: actor.json). */
const outName = (file: string): string => basename(file === "stdin" ? "actor.json" : file);

/**
 * `clock`: the batch's budget and the clock it reads (default: the CLI's time budget and
 * Date.now; tests pass their own, so no verdict depends on wall time).
 */
export async function convertFudgeRpgCommand(
  argv: string[],
  readStdin: () => Promise<string>,
  clock: Pick<ConvertOptions, "budgetMs" | "now"> = {},
): Promise<number> {
  const en = JSON.parse(readFileSync(LANG, "utf8")) as Record<string, string>;
  const say = (line: string) => process.stderr.write(`${line}\n`);
  let writing = false;
  try {
    const args = parseConvertArgs(argv);
    if (args.outDir) {
      // a/x.json and b/x.json would both be written to DIR/x.json: the second over the first.
      const seen = new Set<string>();
      for (const f of args.files) {
        if (seen.has(outName(f)))
          throw new RulesError(
            "file",
            "FUDGE.Import.Error.SameName",
            `two input files are named ${outName(f)}: --out-dir would write one over the other`,
            { file: f.slice(0, 200), name: outName(f) },
          );
        seen.add(outName(f));
      }
    }
    const options: ConvertOptions = {
      rules: { ...defaultWorldRules(), preset: args.preset },
      budgetMs: clock.budgetMs ?? budget().timeMs,
      now: clock.now,
    };
    const tick = conversionDeadline(options);
    // One file read at a time, as it is converted: a batch holds one export's text at once, not all of them.
    const inputs = args.files.length
      ? (function* () {
          for (const f of args.files) yield { file: f, text: readExport(f) };
        })()
      : [{ file: "stdin", text: await readStdin() }];
    // Each actor is kept as its JSON text from the moment it is converted: the converted object
    // holds the sanitiser's pieces of the export's text, which the text alone does not (8 exports
    // of 5 MB of nested tags peaked at 1.3 GB kept as objects; see docs/rules-api.md "Budgets").
    const converted: { file: string; json: string }[] = [];
    const errors: ImportFileOutcome["errors"] = [];
    const report: string[] = [];
    for (const input of inputs) {
      const one = convertFudgeRpgFiles([input], options, tick);
      errors.push(...one.errors);
      for (const { file, result } of one.converted) {
        report.push(`${file}: ${result.actor.name}`);
        for (const l of result.report)
          report.push(`  ${l.kept ? "kept in notes: " : ""}${reportText(l, (k) => en[k] ?? k)}`);
        // All or nothing: once a file is refused, nothing will be written, so nothing more is kept.
        if (!errors.length) converted.push({ file, json: `${JSON.stringify(result.actor, null, 2)}\n` });
      }
    }
    if (errors.length) {
      // All or nothing: every bad file is named, nothing is written.
      // Each error as the importer words it (the file, the part of the export, what to do).
      for (const { file, error } of errors)
        say(
          JSON.stringify({
            ...withSentence(
              error.toJSON(),
              importErrorText(error, file, (k) => en[k] ?? k),
            ),
            file,
          }),
        );
      return 2;
    }
    for (const line of report) say(line);
    if (args.outDir) {
      writing = true;
      mkdirSync(args.outDir, { recursive: true });
      for (const { file, json } of converted) writeFileSync(join(args.outDir, outName(file)), json);
      say(`${converted.length} actor(s) written to ${args.outDir}`);
    } else process.stdout.write(converted[0].json);
    return 0;
  } catch (e) {
    // A bad option reads as a sentence that points to --help; a missing file names it.
    const errno = e as NodeJS.ErrnoException;
    if (isRulesError(e) && e.key.startsWith("FUDGE.Import.Error."))
      say(
        JSON.stringify(
          withSentence(
            e.toJSON(),
            importErrorText(e, String(e.params.file ?? ""), (k) => en[k] ?? k),
          ),
        ),
      );
    else if (isRulesError(e) && e.key === "FUDGE.Error.TimeBudget")
      say(JSON.stringify(cliError(e.toJSON(), "Convert fewer or smaller files at a time.")));
    else if (isRulesError(e)) say(JSON.stringify(cliError(e.toJSON(), "Run fudge-rules --help for the options.")));
    else if (errno.code === "ENOENT" && !writing)
      say(
        JSON.stringify(
          cliError({
            error: `no such file: ${String(errno.path).slice(0, 200)}`,
            field: "file",
            key: "FUDGE.Error.NoFile",
          }),
        ),
      );
    // Any other file-system refusal (a directory given as a file, --out-dir naming a file, no
    // permission …) is a bad request too, named with its path: exit 2, never a stack trace.
    else if (typeof errno.code === "string") {
      const path = String(errno.path ?? "").slice(0, 200);
      const error = writing
        ? `--out-dir cannot be written: ${path} (${errno.code})`
        : `cannot read ${path} (${errno.code})`;
      say(JSON.stringify(cliError({ error, field: writing ? "--out-dir" : "file", key: "FUDGE.Error.NoFile" })));
    } else throw e;
    return 2;
  }
}
