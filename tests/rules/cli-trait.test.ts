/**
 * `fudge-rules trait` (issue 32): a trait roll's exact odds under each dice option of Fudge
 * §3.21–3.22, checked against enumeration of every raw throw (a table's "roll again" throws left
 * out, as rolling again does); `--dice` on the command line sets the option; bad input exits 2.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { DICE_OPTION_IDS, readDiceOption, type DiceOptionId } from "../../src/rules";
import { ROOT } from "../system/fixtures";

/** Every raw throw of an option, and what it reads (null: rolled again). */
function* throwsOf(option: DiceOptionId): Generator<number[]> {
  const [count, lowest, sides] =
    option === "4dF"
      ? [4, -1, 3]
      : option === "4d6F"
        ? [4, 1, 6]
        : option === "d6-d6"
          ? [2, 1, 6]
          : option === "3d6"
            ? [3, 1, 6]
            : [1, 1, 100];
  const faces = Array<number>(count).fill(lowest);
  for (;;) {
    yield [...faces];
    let i = 0;
    while (i < count && faces[i] === lowest + sides - 1) faces[i++] = lowest;
    if (i === count) return;
    faces[i]++;
  }
}

/** P(trait + result ≥ difficulty) by enumeration. */
function enumerated(option: DiceOptionId, trait: number, difficulty: number): number {
  let hit = 0;
  let counted = 0;
  for (const t of throwsOf(option)) {
    const r = readDiceOption(option, t);
    if (r === null) continue;
    counted++;
    if (trait + r >= difficulty) hit++;
  }
  return hit / counted;
}

describe("fudge-rules trait: a trait roll's exact odds under each dice option", () => {
  for (const option of DICE_OPTION_IDS)
    it(`${option}: the Unopposed chance matches enumeration at every Difficulty from −5 to +6 (Good trait)`, () => {
      for (let difficulty = -5; difficulty <= 6; difficulty++) {
        const a = runCommand("trait", { dice: option, trait: 1, difficulty }) as {
          dice: string;
          unopposed: { chance: number };
        };
        expect(a.dice).toBe(option);
        expect(a.unopposed.chance).toBeCloseTo(enumerated(option, 1, difficulty), 12);
      }
    });

  it("an Opposed roll's relative degrees sum to one and match enumeration of both sides' throws (d6−d6)", () => {
    const a = runCommand("trait", { dice: "d6-d6", trait: 1, opponent: 0 }) as {
      opposed: { degree: number; p: number }[];
    };
    const counts = new Map<number, number>();
    for (const x of throwsOf("d6-d6"))
      for (const y of throwsOf("d6-d6")) {
        const d = 1 + readDiceOption("d6-d6", x)! - readDiceOption("d6-d6", y)!;
        counts.set(d, (counts.get(d) ?? 0) + 1);
      }
    for (const { degree, p } of a.opposed) expect(p).toBeCloseTo(counts.get(degree)! / 36 ** 2, 12);
    expect(a.opposed.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
  });

  it("takes --dice on the command line; an unknown option exits 2 with a sentence naming it", () => {
    const run = (args: string[], input: string) =>
      spawnSync(process.execPath, ["bin/fudge-rules.mjs", "trait", ...args], { cwd: ROOT, input, encoding: "utf8" });
    const ok = run(["--dice", "3d6"], '{"trait":0,"difficulty":0}');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).unopposed.chance).toBeCloseTo(enumerated("3d6", 0, 0), 12);
    const bad = run(["--dice", "d7"], '{"trait":0}');
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ field: "dice.id", key: "FUDGE.Error.NotOneOf" });
  });
});
