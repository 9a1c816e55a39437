/** The fudge-rules CLI: commands, sample characters, and precise errors with exit code 2. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { RulesError } from "../../src/rules/errors";

const run = (args: string[], input: string) => {
  const r = spawnSync(process.execPath, ["bin/fudge-rules.mjs", ...args], { input, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("fudge-rules runCommand", () => {
  it("resolves Leroy vs Theodora from recorded dice (seed example: RD +2 → 4 → Hurt)", () => {
    // Leroy Great +2 rolls 0 → +2; Theodora defends Good +1 rolls −1 → 0: RD +2; factor +2 → 4.
    const r = runCommand("resolve", {
      preset: "fudge",
      attacker: "Leroy",
      defender: "Theodora",
      dice: { attack: [0, 0, 0, 0], defense: [-1, 0, 0, 0] },
    }) as { numbers: Record<string, number>; woundKey: string };
    expect(r.numbers.relativeDegree).toBe(2);
    expect(r.numbers.damageFactor).toBe(2);
    expect(r.numbers.damageNumber).toBe(4);
    expect(r.woundKey).toBe("hurt");
  });
  it("rolls reproducibly from a seed", () => {
    const a = runCommand("resolve", { preset: "fudge", attacker: "Leroy", defender: "Theodora", seed: 5 });
    const b = runCommand("resolve", { preset: "fudge", attacker: "Leroy", defender: "Theodora", seed: 5 });
    expect(a).toEqual(b);
  });
  it("computes odds and a forecast for sample characters", () => {
    const o = runCommand("odds", { preset: "fudge", attacker: "Theodora", defender: "Leroy" }) as { hit: number; residual: number };
    expect(o.hit).toBeGreaterThan(0);
    expect(o.residual).toBe(0);
    const f = runCommand("forecast", { preset: "fudge", a: "Leroy", b: "Theodora" }) as { aOut: number; bOut: number };
    expect(f.aOut + f.bOut).toBeCloseTo(1, 9);
  });
  it("names the field of a bad request", () => {
    const bad = (cmd: string, req: unknown, field: string) => {
      try {
        runCommand(cmd, req);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(RulesError);
        expect((e as RulesError).field).toBe(field);
      }
    };
    bad("explode", {}, "command");
    bad("odds", [], "");
    bad("odds", { preset: "chess", attacker: "Leroy", defender: "Theodora" }, "preset");
    bad("odds", { preset: "fudge", attacker: "Nobody", defender: "Theodora" }, "attacker");
    bad("resolve", { preset: "fudge", attacker: "Leroy", defender: "Theodora" }, "dice");
    bad("resolve", { preset: "fudge", attacker: "Leroy", defender: "Theodora", dice: { attack: [0, 0, 0, 0] } }, "dice.defense");
    bad("resolve", { preset: "fudge", attacker: "Leroy", defender: "Theodora", dice: { attack: [0, 0, 2, 0], defense: [0, 0, 0, 0] } }, "dice.attack[2]");
    bad("forecast", { preset: "fudge", a: "Leroy", b: 7 }, "b");
  });
});

describe("fudge-rules binary", () => {
  it("prints JSON and exits 0", () => {
    const r = run(["odds"], JSON.stringify({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).preset).toBe("fudge");
  });
  it("exits 2 with the field on stderr for bad JSON and bad fields", () => {
    const j = run(["odds"], "{not json");
    expect(j.code).toBe(2);
    expect(JSON.parse(j.err).key).toBe("FUDGE.Error.BadJson");
    const f = run(["odds"], JSON.stringify({ preset: "fudge", attacker: "Leroy", defender: { name: "X" } }));
    expect(f.code).toBe(2);
    expect(JSON.parse(f.err).field).toMatch(/^defender\./);
    const m = run(["odds", "/nonexistent.json"], "");
    expect(m.code).toBe(2);
  });
  it("prints usage and exits 2 without a command", () => {
    expect(run([], "").code).toBe(2);
  });
});
