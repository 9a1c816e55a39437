/**
 * `fudge-rules odds` and `forecast` take `--dice` as `trait` does (Fudge §3.21–3.22): the attack's
 * exact odds under the option match brute force over every raw throw of both rolls, the forecast
 * follows the option, and a bad option or a preset without these dice exits 2 with a sentence.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { resolveSamples } from "../../src/cli/samples";
import {
  duelForecast,
  newTrack,
  opposedDistribution,
  pipelineFor,
  readDiceOption,
  recordedDice,
  type AttackOdds,
} from "../../src/rules";
import { defaultFateConfig } from "../../src/rules/fate";
import { ROOT } from "../system/fixtures";

const attack = { preset: "fudge", attacker: "Leroy", defender: "Theodora" };
const duel = { preset: "fudge", a: "Leroy", b: "Theodora" };
const cli = (args: string[], input: unknown) =>
  spawnSync(process.execPath, ["bin/fudge-rules.mjs", ...args], {
    cwd: ROOT,
    input: JSON.stringify(input),
    encoding: "utf8",
  });

/** P(hit) by brute force: every pair of d6−d6 throws ([plus, minus]) resolved from the record. */
function bruteHit(): number {
  const p = pipelineFor("fudge");
  const req = p.parseRequest({ ...resolveSamples(attack), options: { dice: "d6-d6" } });
  let hits = 0;
  let all = 0;
  const throws: number[][] = [];
  for (let plus = 1; plus <= 6; plus++) for (let minus = 1; minus <= 6; minus++) throws.push([plus, minus]);
  for (const a of throws)
    for (const d of throws) {
      expect(readDiceOption("d6-d6", a)).toBe(a[0] - a[1]);
      all++;
      if (p.resolve(req, recordedDice({ attack: a, defense: d }, p.slots(req)), { explain: false }).hit) hits++;
    }
  return hits / all;
}

describe("fudge-rules odds --dice and forecast --dice (Fudge §3.21–3.22)", () => {
  it("odds: the attack's exact odds under d6−d6 match brute force over every pair of throws; 4dF as before", () => {
    const odds = runCommand("odds", { ...attack, dice: "d6-d6" }) as AttackOdds;
    expect(odds.hit).toBeCloseTo(bruteHit(), 12);
    const plain = runCommand("odds", attack) as AttackOdds;
    expect(runCommand("odds", { ...attack, dice: "4dF" })).toEqual(plain);
    expect(odds.hit).not.toBeCloseTo(plain.hit, 3);
  });

  it("odds --dice on the command line sets the option over the request's options", () => {
    const r = cli(["odds", "--dice", "3d6"], { ...attack, options: { doubleRd: true } });
    expect(r.status, r.stderr).toBe(0);
    const want = runCommand("odds", { ...attack, options: { doubleRd: true, dice: "3d6" } }) as AttackOdds;
    expect((JSON.parse(r.stdout) as AttackOdds).hit).toBeCloseTo(want.hit, 12);
    expect(want.hit).not.toBeCloseTo(
      (runCommand("odds", { ...attack, options: { doubleRd: true } }) as AttackOdds).hit,
      4,
    );
  });

  it("forecast --dice: the duel under the option, as the rules core forecasts it", () => {
    const r = cli(["forecast", "--dice", "d6-d6"], duel);
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { aOut: number };
    const want = duelForecast({ ...resolveSamples(duel), options: { dice: "d6-d6" } });
    expect(got.aOut).toBeCloseTo(want.aOut, 12);
    expect(got.aOut).not.toBeCloseTo(duelForecast(resolveSamples(duel)).aOut, 4);
  });

  it("odds --dice on a FATE request (a Fudge derivative): the option's opposed distribution", () => {
    const fate = {
      preset: "fate",
      attacker: { name: "Joe-Bob", skill: 1, track: newTrack(defaultFateConfig()) },
      defender: { name: "Dylan", skill: 0, track: newTrack(defaultFateConfig()) },
    };
    const r = cli(["odds", "--dice", "d6-d6"], fate);
    expect(r.status, r.stderr).toBe(0);
    const wound = opposedDistribution("d6-d6", 1, 0)
      .filter((x) => x.degree > 0)
      .reduce((s, x) => s + x.p, 0);
    expect((JSON.parse(r.stdout) as AttackOdds).outcomes.wound).toBeCloseTo(wound, 12);
  });

  it("an unknown option, or the dice on another preset, exits 2 with a sentence naming the field", () => {
    const bad = cli(["odds", "--dice", "d7"], attack);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ field: "options.dice.id", key: "FUDGE.Error.NotOneOf" });
    const volt = cli(["forecast", "--dice", "3d6"], { preset: "volt", a: "Leroy", b: "Theodora" });
    expect(volt.status).toBe(2);
    expect(JSON.parse(volt.stderr)).toMatchObject({ field: "dice", key: "FUDGE.Error.Dice.FudgeOnly" });
  });
});
