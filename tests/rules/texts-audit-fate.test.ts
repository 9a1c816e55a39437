/**
 * Issue #10, second check: the FATE wound ladder (seed 003, RULES.md §4) against its text, case by
 * case, through the CLI's own command function (`runCommand`, what `fudge-rules` runs) and once
 * through the real binary. Each expected value is read from the seed's sentence or table quoted in
 * the test's name, not from the code.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { seededRng, monteCarloOdds, applyWound, parseTrack } from "../../src/rules";

type Line = "clipped" | "hurt" | "injured" | "takenOut";
type Marks = Record<Line, (Line | null)[]>;
interface TrackJson {
  config: Record<string, unknown>;
  state: { marks: Marks };
}
interface Status {
  penalty: number;
  condition: string;
  canAct: boolean;
  levelKey: string | null;
}
interface Resolution {
  outcome: string;
  woundKey: string | null;
  numbers: Record<string, number>;
  followUps: { type: string; target: string }[];
  defenderAfter: { track: TrackJson; status: Status; ended: boolean } | null;
}

const config = { kind: "fate" };
const empty = (): Marks => ({ clipped: [null, null], hurt: [null, null], injured: [null, null], takenOut: [null] });
/** A ladder with `n` boxes of each line marked with that line's own result. */
const ladder = (n: Partial<Record<Line, number>> = {}): TrackJson => {
  const marks = empty();
  for (const line of Object.keys(n) as Line[]) for (let i = 0; i < (n[line] ?? 0); i++) marks[line][i] = line;
  return { config, state: { marks } };
};
const status = (track: TrackJson): Status => (runCommand("status", { track }) as { status: Status }).status;
const heal = (track: TrackJson, healing: object): TrackJson =>
  (runCommand("heal", { track, healing }) as { track: TrackJson }).track;
/** 4dF faces summing to t (−4..4). */
const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));
/** One exchange: attacker skill 4 (so margins up to +8 are reachable), defender skill 0. */
const exchange = (margin: number, defender: TrackJson = ladder(), attacker: TrackJson = ladder()): Resolution =>
  runCommand("resolve", {
    preset: "fate",
    attacker: { name: "Joe-Bob", skill: 4, track: attacker },
    defender: { name: "Dylan", skill: 0, track: defender },
    // 4 + a − d = margin, with a = margin − 4 (margin ≥ 4) or d = 4 − margin (margin < 4)
    dice: { attack: df(Math.max(0, margin - 4)), defense: df(Math.max(0, 4 - margin)) },
  }) as Resolution;
/** Wound a ladder by margins, one after another, with no roll between them (the track's own applyWound). */
const struck = (track: TrackJson, ...margins: number[]): TrackJson =>
  margins.reduce((t, margin) => applyWound(parseTrack(t), { margin }).track as unknown as TrackJson, track);

describe("FATE ladder: the margin of success table", () => {
  // Check the helper: Joe-Bob rolls skill 4 + dice, Dylan 0 + dice; the margin is what was asked.
  it.each([0, 1, 2, 4, 5, 6, 7, 8])("helper gives margin %i", (m) => {
    expect(exchange(m).numbers.margin).toBe(m);
  });
  it('"0 | Scratched | A negligible result … None.": no box, no penalty', () => {
    const r = exchange(0);
    expect([r.outcome, r.woundKey, r.defenderAfter]).toEqual(["standoff", null, null]);
  });
  it.each([
    [1, "clipped"],
    [2, "hurt"],
    [3, "hurt"],
    [4, "hurt"],
    [5, "injured"],
    [6, "injured"],
    [7, "takenOut"],
    [8, "takenOut"],
  ])('"+1 Clipped | +2 - +4 Hurt | +5 - +6 Injured | +7 Taken Out": margin %i → %s, in its own line', (m, line) => {
    const r = exchange(m as number);
    expect(r.woundKey).toBe(line);
    const marks = r.defenderAfter!.track.state.marks;
    expect(marks[line as Line][0]).toBe(line);
  });
  it("a negative margin is no result for the defender (the loser is the attacker: Choice, docs/rules-api/fate.md)", () => {
    const r = runCommand("resolve", {
      preset: "fate",
      attacker: { name: "A", skill: 0, track: ladder() },
      defender: { name: "D", skill: 0, track: ladder() },
      dice: { attack: df(-1), defense: df(1) },
    }) as Resolution;
    expect([r.outcome, r.numbers.margin, r.defenderAfter]).toEqual(["miss", -2, null]);
  });
});

describe("FATE ladder: the penalties", () => {
  // "Any Hurt boxes cause a -1 for the rest of the combat. Each Injured box causes an additional -1 until healed."
  it.each([
    ["1 Hurt = -1", { hurt: 1 }, -1],
    ["2 Hurt = -1", { hurt: 2 }, -1],
    ["1 Hurt, 1 Injured = -2", { hurt: 1, injured: 1 }, -2],
    ["2 Hurt, 1 Injured = -2", { hurt: 2, injured: 1 }, -2],
    ["1 Injured = -1", { injured: 1 }, -1],
    ["2 Injured = -2", { injured: 2 }, -2],
    ["1 Hurt, 2 Injured = -3", { hurt: 1, injured: 2 }, -3],
    ["2 Hurt, 2 Injured = -3", { hurt: 2, injured: 2 }, -3],
  ])('the seed\'s table: "%s"', (_name, n, penalty) => {
    expect(status(ladder(n as Partial<Record<Line, number>>)).penalty).toBe(penalty);
  });
  it('Clipped: "Loser is -1 penalty to their next action"', () => {
    expect(status(struck(ladder(), 1)).penalty).toBe(-1);
  });
  it('Clipped: "Penalty only taken once, even if Clipped multiple times in a round"', () => {
    expect(status(struck(ladder(), 1, 1)).penalty).toBe(-1);
  });
  it("\"For the 'next round,' the Clipped results stack similarly\": Clipped on top of Hurt and Injured (1 + 1 + 1 → −3)", () => {
    expect(status(ladder({ clipped: 1, hurt: 1, injured: 1 })).penalty).toBe(-3);
  });
  it('Taken Out: "Loser is out of the battle/scene" … "Not automatically death"', () => {
    const s = status(struck(ladder(), 7));
    expect([s.condition, s.canAct]).toEqual(["takenOut", false]);
  });
  it("an unhurt ladder has no penalty and can act", () => {
    const s = status(ladder());
    expect([s.penalty, s.canAct, s.levelKey]).toEqual([0, true, null]);
  });
});

describe("FATE ladder: the death spiral", () => {
  it('"When there\'s nothing left on that line, mark off the next worst box": a third Clipped marks Hurt', () => {
    const t = struck(ladder(), 1, 1, 1);
    expect(t.state.marks).toEqual({
      clipped: ["clipped", "clipped"],
      hurt: ["clipped", null],
      injured: [null, null],
      takenOut: [null],
    });
  });
  it("a Hurt on a full Hurt line marks Injured", () => {
    expect(struck(ladder({ hurt: 2 }), 3).state.marks.injured).toEqual(["hurt", null]);
  });
  it("an Injured on a full Injured line marks Taken Out: the character is out", () => {
    const r = applyWound(parseTrack(ladder({ injured: 2 })), { margin: 5 });
    expect((r.track.state as TrackJson["state"]).marks.takenOut).toEqual(["injured"]);
    expect([r.status.condition, r.ended]).toEqual(["takenOut", true]);
  });
  it("a Clipped skips full lines down to the next worst open box (Clipped, Hurt full → Injured)", () => {
    expect(struck(ladder({ clipped: 2, hurt: 2 }), 1).state.marks.injured).toEqual(["clipped", null]);
  });
  it('"There is no distinction … between Lethal and Non-Lethal damage": no result of the ladder is death', () => {
    const s = status(struck(ladder(), 8, 8));
    expect(s.condition).toBe("takenOut");
  });
  it('the box counts are editable ("It\'s possible to change the ladder boxes"): one Hurt box, the second Hurt spills', () => {
    const t: TrackJson = {
      config: {
        kind: "fate",
        lines: [
          { key: "clipped", boxes: 2 },
          { key: "hurt", boxes: 1 },
          { key: "injured", boxes: 2 },
          { key: "takenOut", boxes: 1 },
        ],
      },
      state: { marks: { clipped: [null, null], hurt: [null], injured: [null, null], takenOut: [null] } },
    };
    expect(struck(t, 2, 2).state.marks).toEqual({
      clipped: [null, null],
      hurt: ["hurt"],
      injured: ["hurt", null],
      takenOut: [null],
    });
  });
});

describe("FATE ladder: how long results last", () => {
  it('Clipped: "Box resets after that action": the Clipped defender\'s roll uses it up (follow-up), then the new result lands', () => {
    // "if Joe-Bob hugs the wall, and Dylan immediately runs forward and tries to pop him one, Joe-Bob is going to be at the -1 for that combat action"
    const joeBob = struck(ladder(), 1);
    const r = runCommand("resolve", {
      preset: "fate",
      attacker: { name: "Dylan", skill: 1, track: ladder() },
      defender: { name: "Joe-Bob", skill: 1, track: joeBob },
      dice: { attack: df(0), defense: df(0) },
    }) as Resolution;
    expect(r.numbers.defenderTotal).toBe(0); // 1 + 0 − 1
    expect(r.numbers.margin).toBe(1);
    expect(r.followUps.map((f) => [f.type, f.target])).toEqual([["clippedConsumed", "defender"]]);
    expect(r.defenderAfter!.track.state.marks.clipped).toEqual(["clipped", null]); // the old box reset, the new Clipped marked
  });
  it('Clipped: "if no die-rollable action takes place, the -1 would burn off": consumeClipped clears it', () => {
    const t = heal(struck(ladder(), 1, 1), { type: "consumeClipped" });
    expect(status(t).penalty).toBe(0);
  });
  it('Hurt: "-1 to all actions for the rest of the scene/battle" — gone at the scene\'s end; Injured stays "until healed"', () => {
    const t = heal(ladder({ clipped: 1, hurt: 2, injured: 1 }), { type: "endScene" });
    expect(t.state.marks).toEqual({
      clipped: [null, null],
      hurt: [null, null],
      injured: ["injured", null],
      takenOut: [null],
    });
    expect(status(t).penalty).toBe(-1);
  });
  it('Injured: "-1 penalty per box … until healed": healing one box leaves −1', () => {
    expect(status(heal(ladder({ injured: 2 }), { type: "heal", line: "injured", boxes: 1 })).penalty).toBe(-1);
  });
  it('Hurt applies to "all actions": the Hurt attacker rolls at −1', () => {
    const r = runCommand("resolve", {
      preset: "fate",
      attacker: { name: "A", skill: 2, track: ladder({ hurt: 1 }) },
      defender: { name: "D", skill: 0, track: ladder() },
      dice: { attack: df(0), defense: df(0) },
    }) as Resolution;
    expect([r.numbers.attackerTotal, r.numbers.margin, r.woundKey]).toEqual([1, 1, "clipped"]);
  });
  it("a Taken Out character is out of the scene: he cannot attack", () => {
    const e = spawnSync(process.execPath, ["bin/fudge-rules.mjs", "resolve"], {
      input: JSON.stringify({
        preset: "fate",
        attacker: { name: "A", skill: 0, track: ladder({ takenOut: 1 }) },
        defender: { name: "D", skill: 0, track: ladder() },
        dice: { attack: df(0), defense: df(0) },
      }),
      encoding: "utf8",
    });
    expect(e.status).toBe(2);
    expect(JSON.parse(e.stderr)).toMatchObject({ field: "attacker.track", key: "FUDGE.Error.Fate.TakenOut" });
  });
  it('"you can use something similar to this wound track for non-combat situations: a debate": the track carries its kind label', () => {
    const r = runCommand("status", {
      track: { config: { kind: "fate", label: "Debate" }, state: { marks: empty() } },
    }) as { render: { label: string } };
    expect(r.render.label).toBe("Debate");
  });
});

describe("FATE ladder: exact odds of one exchange (4dF against 4dF, equal skills)", () => {
  const odds = () =>
    runCommand("odds", {
      preset: "fate",
      attacker: { name: "A", skill: 0, track: ladder() },
      defender: { name: "D", skill: 0, track: ladder() },
    }) as {
      outcomes: Record<string, number>;
      woundLevels: Record<string, number>;
    };
  // 4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81 (RULES §1).
  const w = [1, 4, 10, 16, 19, 16, 10, 4, 1];
  const pMargin = (ok: (m: number) => boolean): number => {
    let n = 0;
    for (let a = 0; a < 9; a++) for (let d = 0; d < 9; d++) if (ok(a - d)) n += w[a] * w[d];
    return n / 6561;
  };
  it('"0 | Scratched": a tie, 1107 of 6561', () => {
    expect(odds().outcomes.standoff).toBeCloseTo(1107 / 6561, 12);
    expect(pMargin((m) => m === 0)).toBeCloseTo(1107 / 6561, 12);
  });
  it('"+7 | Taken Out": only +4 against −4, −3 or +3 against −4: 9 of 6561', () => {
    expect(odds().woundLevels.takenOut).toBeCloseTo(9 / 6561, 12);
  });
  it('"+1 Clipped", "+2 - +4 Hurt", "+5 - +6 Injured": the exact shares of the margins', () => {
    const o = odds().woundLevels;
    expect(o.clipped).toBeCloseTo(
      pMargin((m) => m === 1),
      12,
    );
    expect(o.hurt).toBeCloseTo(
      pMargin((m) => m >= 2 && m <= 4),
      12,
    );
    expect(o.injured).toBeCloseTo(
      pMargin((m) => m === 5 || m === 6),
      12,
    );
  });
});

describe("FATE ladder: the odds see the Clipped box reset", () => {
  // FATE ladder, Clipped: "Loser is -1 penalty to their next action … Box resets after that action."
  // A Clipped defender's defence roll is that action: whether the attack lands or not, his box resets.
  // The odds used to count a missed Clipped defender as still Clipped afterwards.
  const req = (defender: TrackJson) => ({
    preset: "fate",
    attacker: { name: "A", skill: -4, track: ladder() },
    defender: { name: "D", skill: 4, track: defender },
  });
  it('"Box resets after that action": a Clipped defender who is missed is no longer Clipped afterwards (exact odds and Monte Carlo)', () => {
    const o = runCommand("odds", req(ladder({ clipped: 1 }))) as {
      trackResults: Record<string, number>;
      woundLevels: Record<string, number>;
    };
    // Only +4 against −4 (1 of 6561) beats him: −4 − 4 + 4 + 4 − (4 − 4 − 1) = margin 1 → a fresh Clipped.
    expect(o.trackResults.clipped).toBeCloseTo(1 / 6561, 12);
    expect(o.trackResults.none).toBeCloseTo(6560 / 6561, 12);
    const mc = monteCarloOdds(req(ladder({ clipped: 1 })), 2000, seededRng(3));
    expect(mc.trackResults.clipped ?? 0).toBeLessThan(0.01);
  });
  it("a defender's Hurt stays after a miss (it lasts the scene), his Clipped does not", () => {
    const o = runCommand("odds", req(ladder({ clipped: 2, hurt: 1 }))) as { trackResults: Record<string, number> };
    expect(o.trackResults.hurt).toBeCloseTo(1, 12);
  });
});
