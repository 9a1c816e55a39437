/** `fudge-rules convert-fudge-rpg`: stdin → actor JSON, batches into a folder, all or nothing. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caught } from "../../rules/errors";
import { convertFudgeRpgCommand, parseConvertArgs } from "../../../src/cli/convert-fudge-rpg";
import {
  conversionDeadline,
  convertFudgeRpgFiles,
  FUDGE_RPG_BUDGET,
  importErrorText,
  importFudgeRpgBatch,
} from "../../../src/system/import-fudge-rpg";

const en = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, string>;

const FIX = "tests/fixtures/fudge-rpg";
const run = (args: string[], input = "", timeout?: number, env?: Record<string, string>) => {
  const r = spawnSync(process.execPath, ["bin/fudge-rules.mjs", "convert-fudge-rpg", ...args], {
    input,
    encoding: "utf8",
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("fudge-rules convert-fudge-rpg", () => {
  it("converts one actor from stdin to this system's actor JSON, with the report on stderr", () => {
    const r = run([], readFileSync(join(FIX, "brannoc.json"), "utf8"));
    expect(r.code).toBe(0);
    const actor = JSON.parse(r.out);
    expect(actor).toMatchObject({
      name: "Brannoc the Bold",
      type: "character",
      system: { fudgePoints: 4, attributes: { strength: 2 } },
    });
    expect(r.err).toContain("kept in notes: Equipment without damage factors: Rope (50 ft) ×2");
    expect(r.err).toContain("Wounds marked: scratch 2, hurt 1");
  });

  it("writes a batch into --out-dir, one file per input", () => {
    const dir = mkdtempSync(join(tmpdir(), "fudge-convert-"));
    const r = run(["--out-dir", dir, join(FIX, "brannoc.json"), join(FIX, "legacy-major.json")]);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["brannoc.json", "legacy-major.json"]);
    expect(JSON.parse(readFileSync(join(dir, "legacy-major.json"), "utf8")).name).toBe("Old Wendel");
  });

  it("writes nothing when any input is bad, and names every bad file (exit 2)", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "fudge-convert-")), "out");
    const r = run([
      "--out-dir",
      dir,
      join(FIX, "brannoc.json"),
      join(FIX, "partial-no-wounds.json"),
      join(FIX, "other-system.json"),
    ]);
    expect(r.code).toBe(2);
    expect(existsSync(dir)).toBe(false);
    const errors = r.err
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(errors.map((e) => [e.key, e.file.split("/").pop()])).toEqual([
      ["FUDGE.Import.Error.Missing", "partial-no-wounds.json"],
      ["FUDGE.Import.Error.WrongSystem", "other-system.json"],
    ]);
    // Sentences naming the file, the part of the export and what to do (never "system.wounds: …").
    expect(errors[0].error).toBe(
      `In ${join(FIX, "partial-no-wounds.json")}, the wound track is missing. Export the whole actor again from its Fudge RPG world (right-click → Export Data) and import that file.`,
    );
    expect(errors[1].error).toMatch(
      /^tests\/fixtures\/fudge-rpg\/other-system\.json was exported from the system ".+", not Fudge RPG \(fudge-rpg\)\. Import only actors/,
    );
  });

  it("honours --preset (no wound boxes under FATE) and refuses bad options", () => {
    const r = run(["--preset", "fate"], readFileSync(join(FIX, "brannoc.json"), "utf8"));
    expect(JSON.parse(r.out).system.woundTrack.state).toBeNull();
    expect(caught(() => parseConvertArgs(["--preset", "gurps"])).key).toBe("FUDGE.Error.NotOneOf");
    expect(caught(() => parseConvertArgs(["a.json", "b.json"])).field).toBe("out-dir");
    expect(caught(() => parseConvertArgs(["--bogus"])).key).toBe("FUDGE.Import.Error.UnknownOption");
    expect(run([join(FIX, "nope.json")]).code).toBe(2);
    const words = (args: string[]) => JSON.parse(run(args).err).error;
    expect(words(["--bogus"])).toBe("The option --bogus is unknown. Run fudge-rules --help for the options.");
    expect(words(["--preset"])).toBe(
      "The option --preset needs a value after it (several files also need --out-dir DIR). Run fudge-rules --help for the options.",
    );
    expect(words(["--preset", "gurps"])).toBe(
      "The option --preset must be one of fudge, miniatures, fate, volt. Run fudge-rules --help for the options.",
    );
  });

  describe("hostile input: exit 2 with one short line, never a stack trace or a hang (issue #10)", () => {
    const line = (r: { code: number | null; err: string }) => {
      expect(r.code, r.err).toBe(2);
      expect(r.err.length).toBeLessThan(1024);
      return JSON.parse(r.err.trim().split("\n").pop()!);
    };
    it("a folder given as the file, and --out-dir naming a file, are refused by name", () => {
      expect(line(run([tmpdir()]))).toMatchObject({
        field: "file",
        key: "FUDGE.Error.NoFile",
        error: expect.stringContaining(`Cannot read ${tmpdir()} (EISDIR)`),
      });
      const file = join(mkdtempSync(join(tmpdir(), "fudge-convert-")), "a-file");
      writeFileSync(file, "");
      expect(line(run(["--out-dir", file, join(FIX, "brannoc.json")]))).toMatchObject({
        field: "--out-dir",
        key: "FUDGE.Error.NoFile",
        error: expect.stringMatching(/^The option --out-dir cannot be written: .*a-file \(E[A-Z]+\)/),
      });
    });
    it.runIf(existsSync("/dev/zero"))("an endless file is refused at the size limit, not read for ever", () => {
      expect(line(run(["/dev/zero"]))).toMatchObject({
        key: "FUDGE.Import.Error.TooLarge",
        params: { file: "/dev/zero", max: 5 * 1024 * 1024 },
      });
    });
    it("notes of 4 MB of nested tags convert (the sanitiser was quadratic: 54 s for 1 MB, about 15 min for this)", () => {
      const actor = JSON.parse(readFileSync(join(FIX, "brannoc.json"), "utf8"));
      actor.system.notes = "<div>".repeat(800_000);
      const file = join(mkdtempSync(join(tmpdir(), "fudge-convert-")), "nested.json");
      writeFileSync(file, JSON.stringify(actor));
      // The deadline is a hang detector, a thousand times what the conversion takes (≈ 1 s).
      const r = run([file], "", 120_000);
      expect(r.code, r.err.slice(0, 300)).toBe(0);
      expect(JSON.parse(r.out).system.notes).toContain("<div>".repeat(1000));
    }, 130_000);
    it("a batch that needs more than the heap budget is refused (MemoryBudget, exit 2) and writes nothing; within it, the same batch converts", () => {
      const actor = JSON.parse(readFileSync(join(FIX, "brannoc.json"), "utf8"));
      actor.system.notes = "<div>".repeat(800_000);
      const dir = mkdtempSync(join(tmpdir(), "fudge-convert-"));
      const file = join(dir, "nested.json");
      writeFileSync(file, JSON.stringify(actor));
      const out = join(dir, "out");
      // The conversion peaks at about 480 MB (docs/rules-api.md "Budgets"): 64 MB of heap cannot hold it.
      const r = run(["--out-dir", out, file, join(FIX, "brannoc.json")], "", 120_000, { FUDGE_RULES_MEMORY_MB: "64" });
      expect(r.code, r.err.slice(0, 300)).toBe(2);
      expect(line(r)).toMatchObject({
        key: "FUDGE.Error.MemoryBudget",
        params: { max: 64 },
        error: expect.stringContaining("Convert fewer or smaller files at a time."),
      });
      expect(existsSync(out)).toBe(false);
      expect(
        run(["--out-dir", out, join(FIX, "brannoc.json")], "", 120_000, { FUDGE_RULES_MEMORY_MB: "64" }).code,
      ).toBe(0);
      expect(readdirSync(out)).toEqual(["brannoc.json"]);
    }, 130_000);
  });

  describe("the time budget (FUDGE_RPG_BUDGET): checked as it converts, on a clock the test gives (never wall time)", () => {
    const text = readFileSync(join(FIX, "brannoc.json"), "utf8");
    /** A clock that moves 1 ms each time it is read: the budget counts the deadline's checks. */
    const ticking = () => {
      let t = 0;
      return () => t++;
    };
    /** The clock reads of converting `n` copies of Brannoc with an unlimited budget. */
    const readsFor = (n: number) => {
      let reads = 0;
      const now = () => reads++;
      convertFudgeRpgFiles(
        Array.from({ length: n }, (_, i) => ({ file: `b${i}.json`, text })),
        { budgetMs: FUDGE_RPG_BUDGET.timeMs, now },
      );
      return reads;
    };
    it("a batch within its budget converts; one check past it refuses the whole batch (TimeBudget, thrown, not a file's error)", () => {
      const one = readsFor(1);
      const two = readsFor(2);
      expect(one).toBeGreaterThan(10); // checked between the steps of an actor, not only between files
      expect(two - 1).toBe(2 * (one - 1)); // the same checks for each file (the first read sets the deadline)
      // The budget in ms is the number of reads after the first one that may pass: one file fits, the second does not.
      const budgetMs = one - 1;
      expect(convertFudgeRpgFiles([{ file: "a.json", text }], { budgetMs, now: ticking() }).converted).toHaveLength(1);
      const e = caught(() =>
        convertFudgeRpgFiles(
          [
            { file: "a.json", text },
            { file: "b.json", text },
          ],
          { budgetMs, now: ticking() },
        ),
      );
      expect([e.key, e.params.max]).toEqual(["FUDGE.Error.TimeBudget", budgetMs]);
    });
    it("the importers' batch (Foundry, playground) returns the refusal as the batch's one error, in the importer's words; a file's own error stays the file's", () => {
      const over = importFudgeRpgBatch([{ file: "a.json", text }], { budgetMs: 0 });
      expect(over.converted).toEqual([]);
      expect(over.errors.map(({ file, error }) => [file, error.key, error.params.max])).toEqual([
        ["", "FUDGE.Import.Error.TimeBudget", 0],
      ]);
      expect(importErrorText(over.errors[0].error, "", (k) => en[k] ?? k)).toBe(
        "The files took more than 0 ms to convert: import fewer or smaller files at a time.",
      );
      const within = importFudgeRpgBatch([
        { file: "a.json", text },
        { file: "bad.json", text: "{" },
      ]);
      expect(within.converted.map((c) => c.file)).toEqual(["a.json"]);
      expect(within.errors.map((e) => [e.file, e.error.key])).toEqual([["bad.json", "FUDGE.Import.Error.NotJson"]]);
    });
    it("a budget of 0 ms refuses at the first check; a budget is never more than the documented one", () => {
      expect(caught(() => convertFudgeRpgFiles([{ file: "a.json", text }], { budgetMs: 0 })).key).toBe(
        "FUDGE.Error.TimeBudget",
      );
      // Asked for a billion ms, given the documented budget: refused one ms past it.
      const at = (t: number) => {
        let first = true;
        return conversionDeadline({ budgetMs: 10 ** 9, now: () => (first ? ((first = false), 0) : t) });
      };
      expect(() => at(FUDGE_RPG_BUDGET.timeMs)()).not.toThrow();
      expect(caught(() => at(FUDGE_RPG_BUDGET.timeMs + 1)()).params.max).toBe(FUDGE_RPG_BUDGET.timeMs);
    });
    it("the CLI over its budget exits 2 with one TimeBudget line and writes nothing", async () => {
      const dir = join(mkdtempSync(join(tmpdir(), "fudge-convert-")), "out");
      const lines: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((l: string) => (lines.push(l), true)) as typeof process.stderr.write;
      let code: number;
      try {
        code = await convertFudgeRpgCommand(
          ["--out-dir", dir, join(FIX, "brannoc.json"), join(FIX, "legacy-major.json")],
          async () => "",
          { budgetMs: 0 },
        );
      } finally {
        process.stderr.write = write;
      }
      expect(code).toBe(2);
      expect(existsSync(dir)).toBe(false);
      expect(lines).toHaveLength(1);
      expect(lines[0].length).toBeLessThan(1024);
      expect(JSON.parse(lines[0])).toMatchObject({ key: "FUDGE.Error.TimeBudget", params: { max: 0 } });
    });
    it("two inputs --out-dir would write under one name are refused before anything is converted or written", () => {
      const base = mkdtempSync(join(tmpdir(), "fudge-convert-"));
      const other = join(base, "x");
      const dir = join(base, "out");
      spawnSync("mkdir", ["-p", other]);
      writeFileSync(join(other, "brannoc.json"), text.replace("Brannoc the Bold", "Brannoc the Second"));
      const r = run(["--out-dir", dir, join(FIX, "brannoc.json"), join(other, "brannoc.json")]);
      expect(r.code).toBe(2);
      expect(existsSync(dir)).toBe(false);
      expect(JSON.parse(r.err.trim())).toMatchObject({
        key: "FUDGE.Import.Error.SameName",
        params: { name: "brannoc.json" },
      });
    });
  });
});
