/** The fudge-rules CLI: commands, sample characters, and precise errors with exit code 2. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { resolveSamples } from "../../src/cli/samples";
import {
  RulesError,
  duelForecast,
  fudgeWeights,
  exactOdds,
  monteCarloOdds,
  resolveAttack,
  seededRng,
  applyWound,
  newTrack,
} from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";

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
    const o = runCommand("odds", { preset: "fudge", attacker: "Theodora", defender: "Leroy" }) as {
      hit: number;
      residual: number;
    };
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
    bad(
      "resolve",
      { preset: "fudge", attacker: "Leroy", defender: "Theodora", dice: { attack: [0, 0, 0, 0] } },
      "dice.defense",
    );
    bad(
      "resolve",
      {
        preset: "fudge",
        attacker: "Leroy",
        defender: "Theodora",
        dice: { attack: [0, 0, 2, 0], defense: [0, 0, 0, 0] },
      },
      "dice.attack[2]",
    );
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
    const dir = run(["odds", "tests"], "");
    expect([dir.code, JSON.parse(dir.err).field]).toEqual([2, "file"]);
  });
  it('words every refusal as a sentence: the field named in it, never a leading "field:", and what to do', () => {
    const cases: [string[], string, RegExp][] = [
      [["odds"], "{not json", /^Stdin is not valid JSON \(.+\)\. Check the JSON syntax and run the command again\.$/],
      [
        ["odds"],
        JSON.stringify({ preset: "fudge", attacker: "Leroy", defender: { name: "X" } }),
        /^The request's field "defender\.[a-zA-Z.]+" is refused: .+\. Correct it and run the command again\.$/,
      ],
      [
        ["odds"],
        JSON.stringify({ preset: "fudge", attacker: "Nobody", defender: "Theodora" }),
        /^The request's field "attacker" is refused: no sample character named "Nobody".*\. Name a sample character from the packs, or give the combatant in full\.$/,
      ],
      [
        ["odds", "/nonexistent.json"],
        "",
        /^No such file: \/nonexistent\.json\. Check the file name and run the command again\.$/,
      ],
      [["bogus"], "{}", /\. Run fudge-rules --help for the commands\.$/],
    ];
    for (const [args, input, sentence] of cases) {
      const r = run(args, input);
      expect(r.code, args.join(" ")).toBe(2);
      const e = JSON.parse(r.err);
      expect(e.error).toMatch(sentence);
      if (e.field) expect(e.error.startsWith(`${e.field}:`)).toBe(false);
      expect(r.err.length).toBeLessThan(1024);
    }
  });
  it("prints usage and exits 2 without a command", () => {
    expect(run([], "").code).toBe(2);
  });
});

describe("fudge-rules: budgets and clean refusals (issue #10)", () => {
  it("a request nested 8,000 levels deep exits 2 with a short message", () => {
    const deep = `${"[".repeat(8000)}1${"]".repeat(8000)}`;
    const r = run(["odds"], `{"preset":"fudge","attacker":"Leroy","defender":"Theodora","options":{"ladder":${deep}}}`);
    expect(r.code).toBe(2);
    expect(r.err.length).toBeLessThan(1024);
    expect(JSON.parse(r.err).key).toBe("FUDGE.Error.TooDeep");
  });
  it("the library's odds and forecast bound deep input too (the UI calls them directly)", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 8000; i++) deep = [deep];
    expect(() => exactOdds({ preset: "fudge", attacker: deep, defender: deep })).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.TooDeep" }),
    );
    expect(() => duelForecast({ preset: "fudge", a: deep, b: deep })).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.TooDeep" }),
    );
  });
  it("a 10 MB value is refused without being echoed", () => {
    const r = run(
      ["resolve"],
      JSON.stringify({ preset: "fudge", attacker: "x".repeat(10_000_000), defender: "Theodora" }),
    );
    expect(r.code).toBe(2);
    expect(r.err.length).toBeLessThan(1024);
    const e = new RulesError("attacker", "FUDGE.Error.UnknownSample", `no sample named ${"y".repeat(100_000)}`, {
      name: "z".repeat(100_000),
    });
    expect(JSON.stringify(e.toJSON()).length).toBeLessThan(1024);
  });
  it("empty and ambiguous sample names are refused, a unique prefix still works", () => {
    const key = (name: string) => {
      try {
        runCommand("odds", { preset: "fudge", attacker: name, defender: "Theodora" });
        return "answered";
      } catch (e) {
        return (e as RulesError).key;
      }
    };
    expect(key("")).toBe("FUDGE.Error.EmptySample");
    expect(key("  ")).toBe("FUDGE.Error.EmptySample");
    expect(key("K")).toBe("FUDGE.Error.AmbiguousSample");
    expect(key("Theo")).toBe("answered");
    expect(key("leroy")).toBe("answered");
  });
  it("a command past its time budget exits 2 (FUDGE_RULES_TIME_MS lowers the budget)", () => {
    const r = spawnSync(process.execPath, ["bin/fudge-rules.mjs", "forecast"], {
      // A million sampled duels (seconds of work, 163 MB): Leroy vs Leroy at maxStates 1,000,000 is now refused at once by the forecast's memory budget.
      input: JSON.stringify({
        preset: "volt",
        a: "Leroy",
        b: "Leroy",
        method: "sample",
        samples: 1_000_000,
        maxExchanges: 100_000,
        budgetMs: 60000,
      }),
      encoding: "utf8",
      env: { ...process.env, FUDGE_RULES_TIME_MS: "1500" },
    });
    expect(r.status).toBe(2);
    const e = JSON.parse(r.stderr);
    expect(e.key).toBe("FUDGE.Error.TimeBudget");
    // FUDGE_RULES_TIME_MS only lowers the budget: the advice must not send the user to raise it.
    expect(e.error).toMatch(/Ask for less \(a smaller duel, maxStates or budgetMs\)\.$/);
  });
  it("the forecast's own memory budget: Volt Leroy vs Leroy at maxStates 1,000,000 is refused by count, before its forward pass (was 1.24 GB)", () => {
    const r = run(
      ["forecast"],
      JSON.stringify({ preset: "volt", a: "Leroy", b: "Leroy", budgetMs: 60000, maxStates: 1000000 }),
    );
    expect(r.code).toBe(2);
    const e = JSON.parse(r.err);
    expect(e).toMatchObject({
      key: "FUDGE.Error.MemoryBudget",
      field: "maxBytes",
      params: { max: 600, states: 230_769 },
    });
    expect(e.error).toMatch(/Ask for less \(a smaller duel or maxStates\)\.$/);
  });
  it.runIf(existsSync("/dev/zero"))(
    "an endless input file is refused at 4 MB, not read for ever; a folder is refused by name",
    () => {
      const zero = run(["odds", "/dev/zero"], "");
      expect(zero.code).toBe(2);
      expect(JSON.parse(zero.err)).toMatchObject({
        field: "file",
        key: "FUDGE.Error.TooLarge",
        error: "The file /dev/zero is larger than 4194304 bytes. Send a smaller request.",
      });
      const folder = run(["odds", tmpdir()], "");
      expect(folder.code).toBe(2);
      expect(JSON.parse(folder.err)).toMatchObject({ field: "file", key: "FUDGE.Error.NoFile" });
    },
  );
  it("Volt Damage that cannot fit the track is refused at input", () => {
    const volt = (damage: number) => ({
      preset: "volt",
      attacker: {
        name: "A",
        track: { config: { kind: "volt", willpower: 6 } },
        weapon: { name: "Gun", attack: 15, damage, pierce: 3 },
      },
      defender: { name: "B", guard: 5, track: { config: { kind: "volt", willpower: 6 } } },
    });
    expect(() => runCommand("odds", volt(999))).toThrow(
      expect.objectContaining({ field: "attacker.weapon.damage", key: "FUDGE.Volt.Error.DamageTooHigh" }),
    );
    expect((runCommand("odds", volt(994)) as { residual: number }).residual).toBeCloseTo(0, 9);
  });
});

describe("fudge-rules: track commands (issue #10)", () => {
  const leroyTrack = () => {
    const r = runCommand("resolve", {
      preset: "fudge",
      attacker: "Leroy",
      defender: "Theodora",
      dice: { attack: [0, 0, 0, 0], defense: [-1, 0, 0, 0] },
    }) as { defenderAfter: { track: unknown } };
    return r.defenderAfter.track;
  };
  it("heal: a Good healing roll heals a Hurt (RULES §2.5)", () => {
    const r = runCommand("heal", { track: leroyTrack(), healing: { type: "roll", result: 1 } }) as {
      status: { levelKey: string | null };
    };
    expect(r.status.levelKey).toBeNull();
  });
  it("kill: automatic death, no roll (Fudge §4.51)", () => {
    const r = runCommand("kill", { track: leroyTrack() }) as { status: { condition: string } };
    expect(r.status.condition).toBe("dead");
  });
  it("status: the track's status and render model", () => {
    const r = runCommand("status", { track: leroyTrack() }) as { status: { penalty: number }; render: unknown };
    expect(r.status.penalty).toBe(-1);
    expect(r.render).toBeTruthy();
  });
  it("guts: a new wound level is a check against 1 (Miniatures: Guts); failure by 2 may not attack", () => {
    const r = runCommand("guts", { guts: 0, reason: "newWoundLevel", dice: [-1, 0, 0, 0], turn: 3 }) as {
      check: { target: number; effect: number };
      state: { pending: unknown[] };
    };
    expect([r.check.target, r.check.effect, r.state.pending.length]).toEqual([1, 2, 1]);
    const again = runCommand("guts", { check: "recheck", guts: 0, state: r.state, dice: [0, 0, 0, 0], turn: 4 }) as {
      check: { passed: boolean };
    };
    expect(again.check.passed).toBe(true); // +1 for the turn after the wound: 0 + 1 ≥ 1
  });
  it("guts nearDeath: ≥ +2 recovers to Very Hurt, ≤ −1 dies (Miniatures: Wounds)", () => {
    const nd = { track: applyWound(newTrack(boxTrackConfig("miniatures")), { level: "nearDeath" }).track };
    const up = runCommand("guts", { check: "nearDeath", track: nd.track, guts: 1, dice: [1, 0, 0, 0] }) as {
      result: string;
    };
    expect(up.result).toBe("veryHurt");
    const down = runCommand("guts", { check: "nearDeath", track: nd.track, guts: 1, dice: [-1, -1, 0, 0] }) as {
      result: string;
      status: { condition: string };
    };
    expect([down.result, down.status.condition]).toEqual(["dead", "dead"]);
  });
  it('guts: a failure by 1 in force is "−1 to rolls" on the re-check and the Near Death roll (options.gutsRollPenalty, default allRolls; attackRolls leaves them)', () => {
    // Guts 0 + dice 0 against 1: fails by 1.
    const r = runCommand("guts", { guts: 0, reason: "newWoundLevel", dice: [0, 0, 0, 0], turn: 3 }) as {
      check: { effect: number };
      state: unknown;
    };
    expect(r.check.effect).toBe(1);
    type Check = { check: { total: number; passed: boolean }; steps: { key: string }[] };
    const recheck = (options?: object) =>
      runCommand("guts", {
        check: "recheck",
        guts: 0,
        state: r.state,
        dice: [0, 0, 0, 0],
        turn: 4,
        ...(options ? { options } : {}),
      }) as Check;
    expect([recheck().check.total, recheck().check.passed]).toEqual([0, false]); // 0 + 1 − 1
    expect(recheck().steps.map((x) => x.key)).toContain("FUDGE.Miniatures.Step.GutsRollPenalty");
    expect(recheck({ gutsRollPenalty: "allRolls" })).toEqual(recheck());
    expect([
      recheck({ gutsRollPenalty: "attackRolls" }).check.total,
      recheck({ gutsRollPenalty: "attackRolls" }).check.passed,
    ]).toEqual([1, true]);
    const nd = applyWound(newTrack(boxTrackConfig("miniatures")), { level: "nearDeath" }).track;
    const roll = (options?: object) =>
      (
        runCommand("guts", {
          check: "nearDeath",
          track: nd,
          guts: 1,
          state: r.state,
          dice: [1, 0, 0, 0],
          ...(options ? { options } : {}),
        }) as { result: string }
      ).result;
    expect([roll(), roll({ gutsRollPenalty: "attackRolls" })]).toEqual(["nearDeath", "veryHurt"]);
  });
  it("guts and forecast: a gutsRollPenalty outside the list exits 2 naming the field, in a sentence", () => {
    const nd = applyWound(newTrack(boxTrackConfig("miniatures")), { level: "nearDeath" }).track;
    for (const [command, request] of [
      ["guts", { guts: 0, reason: "other", target: 1, dice: [0, 0, 0, 0], options: { gutsRollPenalty: "someRolls" } }],
      ["guts", { check: "nearDeath", track: nd, guts: 1, dice: [0, 0, 0, 0], options: { gutsRollPenalty: 1 } }],
      [
        "forecast",
        { preset: "miniatures", a: "King Kingsley", b: "Knavely Knave", options: { gutsRollPenalty: "someRolls" } },
      ],
    ] as const) {
      const out = run([command], JSON.stringify(request));
      expect(out.code, command).toBe(2);
      const e = JSON.parse(out.err);
      expect([e.field, e.key], command).toEqual(["options.gutsRollPenalty", "FUDGE.Error.NotOneOf"]);
      expect(e.error).toMatch(
        /^The request's field "options\.gutsRollPenalty" is refused: .*allRolls, attackRolls.*\. Correct it and run the command again\.$/,
      );
    }
  });
  it("recover: the Recover action clears the highest Stun on a Willpower success; rest clears all Stun (Volt: Recovery)", () => {
    const track = {
      config: { kind: "volt", willpower: 6 },
      state: { marks: { "3": "stun", "5": "stun", "2": "injury" } },
    };
    const a = runCommand("recover", { track, willpower: 6, dice: [3, 17] }) as {
      track: { state: { marks: Record<string, string> } };
    };
    expect(a.track.state.marks).toEqual({ "2": "injury", "3": "stun" });
    const r = runCommand("recover", { track, recover: "rest" }) as {
      track: { state: { marks: Record<string, string> } };
    };
    expect(r.track.state.marks).toEqual({ "2": "injury" });
  });
});

describe("fudge-rules forecast: the sampled estimate and its options (issue #10)", () => {
  const fudge = JSON.stringify({ preset: "fudge", a: "Leroy", b: "Theodora" });
  it("--method sample --samples N --seed S set the request's fields (and override them); the answer says it is an estimate", () => {
    const r = run(
      ["forecast", "-", "--method", "sample", "--samples", "500", "--seed=3"],
      JSON.stringify({ preset: "fudge", a: "Leroy", b: "Theodora", seed: 99 }),
    );
    expect(r.code, r.err).toBe(0);
    const f = JSON.parse(r.out);
    expect([f.method, f.exact, f.errorBound, f.estimate.duels, f.estimate.seed]).toEqual(["sample", false, 1, 500, 3]);
    expect(f).toEqual(
      runCommand("forecast", { preset: "fudge", a: "Leroy", b: "Theodora", method: "sample", samples: 500, seed: 3 }),
    );
  });
  it("--fallback sample: Volt Leroy vs Leroy, refused without it, is estimated within the request's budget", () => {
    const huge = JSON.stringify({ preset: "volt", a: "Leroy", b: "Leroy", budgetMs: 3000 });
    const refused = run(["forecast"], huge);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.err).key).toMatch(/^FUDGE\.Error\.(ForecastBudget|TooManyStates)$/);
    const r = run(["forecast", "--fallback", "sample", "--samples", "1000"], huge);
    expect(r.code, r.err).toBe(0);
    const f = JSON.parse(r.out);
    expect([f.method, f.exact, f.estimate.duels, f.estimate.seed]).toEqual(["sample", false, 1000, 1]);
  }, 30_000);
  it("bad options exit 2 with a sentence: an unknown option, a missing value, a value the field refuses", () => {
    const cases: [string[], string, string, RegExp][] = [
      [
        ["forecast", "--samplez", "5"],
        "--samplez",
        "FUDGE.Error.UnknownOption",
        /^The option --samplez is unknown to forecast \(its options: --method, --samples, --seed, --fallback, --dice\)\. Run fudge-rules --help/,
      ],
      [
        ["resolve", "--seed", "5"],
        "--seed",
        "FUDGE.Error.UnknownOption",
        /^The option --seed is unknown to resolve \(its options: none\)/,
      ],
      [
        ["odds", "--seed", "5"],
        "--seed",
        "FUDGE.Error.UnknownOption",
        /^The option --seed is unknown to odds \(its options: --dice\)/,
      ],
      [
        ["forecast", "--seed"],
        "--seed",
        "FUDGE.Error.OptionValue",
        /^The option --seed needs a value\. Give the option a value/,
      ],
      [
        ["forecast", "--samples", "lots", "--method", "sample"],
        "samples",
        "FUDGE.Error.NotInteger",
        /^The request's field "samples" is refused: must be a whole number \(got "lots"\)/,
      ],
      [
        ["forecast", "--method", "guess"],
        "method",
        "FUDGE.Error.NotOneOf",
        /^The request's field "method" is refused: must be one of chain, forward, phases, product, sample/,
      ],
      [
        ["forecast", "--fallback", "always"],
        "fallback",
        "FUDGE.Error.NotOneOf",
        /^The request's field "fallback" is refused/,
      ],
    ];
    for (const [args, field, key, sentence] of cases) {
      const r = run(args, fudge);
      expect(r.code, args.join(" ")).toBe(2);
      const e = JSON.parse(r.err);
      expect([e.field, e.key], args.join(" ")).toEqual([field, key]);
      expect(e.error, args.join(" ")).toMatch(sentence);
    }
  });
  it("the usage names the forecast's options", () => {
    const r = run(["--help"], "");
    expect(r.out).toMatch(/forecast .*\n\s+options: --method --samples --seed --fallback/);
  });
});

describe("the library's entry points refuse what a caller passes, never loop or crash (issue #10)", () => {
  it("recorded dice that are not an object (a chat card's data is a claim) are refused by name", () => {
    const parsed = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" });
    for (const dice of [null, undefined, [], "dice"])
      expect(() => resolveAttack(parsed, dice as never)).toThrow(
        expect.objectContaining({ field: "dice", key: "FUDGE.Error.NotObject" }),
      );
  });
  it("monteCarloOdds takes a whole number of samples, 1 to 10 million (Infinity looped for ever, NaN answered nothing)", () => {
    const parsed = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" });
    for (const [n, key] of [
      [Infinity, "FUDGE.Error.NotInteger"],
      [Number.NaN, "FUDGE.Error.NotInteger"],
      [1.5, "FUDGE.Error.NotInteger"],
      [0, "FUDGE.Error.OutOfRange"],
      [-1, "FUDGE.Error.OutOfRange"],
      [10_000_001, "FUDGE.Error.OutOfRange"],
    ] as const)
      expect(() => monteCarloOdds(parsed, n, seededRng(1)), String(n)).toThrow(
        expect.objectContaining({ field: "samples", key }),
      );
    expect(monteCarloOdds(parsed, 1, seededRng(1)).leaves).toBe(1);
  });
  it("fudgeWeights takes 0 to 100 dice (a million took minutes; -1 and 1.5 answered wrongly)", () => {
    for (const n of [-1, 1.5, Number.NaN, 101, 1e6])
      expect(() => fudgeWeights(n), String(n)).toThrow(expect.objectContaining({ field: "n" }));
    expect(fudgeWeights(0)).toEqual([1]);
    expect(fudgeWeights(100)).toHaveLength(201);
  });
});
