import { describe, expect, it } from "vitest";
import {
  boxTrack,
  boxTrackConfig,
  DEFAULT_THRESHOLDS,
  effectivePenalties,
  levelForDamage,
  levelIndex,
  levelRange,
  relievedPenalty,
  shiftLevel,
  willpowerPainRelief,
  type BoxTrackConfig,
  type BoxTrackState,
  type BoxWound,
} from "../../src/rules/fudge";
import { applyWound, newTrack, renderTrack, trackKind, trackStunInForce, type Track } from "../../src/rules";
import { defaultFateConfig } from "../../src/rules/fate";

/** Applies wounds in turn, returning every intermediate result. */
function run(config: BoxTrackConfig, wounds: BoxWound[], state: BoxTrackState = boxTrack.initial(config)) {
  const out = [];
  for (const w of wounds) {
    const r = boxTrack.apply(config, state, boxTrack.parseWound(config, w, "wound"));
    out.push(r);
    state = r.state;
  }
  return out;
}

/** The sheet as text: one string per level, "X", a tag, "~" or "." per box. */
function sheet(config: BoxTrackConfig, state: BoxTrackState): Record<string, string> {
  const r = boxTrack.render(config, state);
  return Object.fromEntries(r.rows.map((row) => [row.key, row.boxes.map((b) => (b.marked ? b.mark : ".")).join("")]));
}

const std = boxTrackConfig("standard");
const minis = boxTrackConfig("miniatures");

describe("box track: registration and presets", () => {
  it("registers the kind 'box'", () => {
    expect(trackKind("box")).toBe(boxTrack);
  });

  it("standard preset is 3/1/1/1/1 with Fudge §4.55 thresholds and penalties 0/−1/−2", () => {
    expect(std.levels.map((l) => l.boxes)).toEqual([3, 1, 1, 1, 1]);
    expect(std.levels.map((l) => l.key)).toEqual(["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"]);
    expect(std.levels.map((l) => l.min)).toEqual(DEFAULT_THRESHOLDS.single);
    expect(std.levels.slice(0, 3).map((l) => l.penalty)).toEqual([0, -1, -2]);
    expect(std.levels.map((l) => l.effect)).toEqual(["none", "penalty", "penalty", "cannotAct", "dying"]);
    expect(std.levels.map((l) => l.tag)).toEqual(["S", "H", "V", "I", "N"]);
    expect(std.deadAt).toBeNull();
  });

  it("double RD thresholds are 1/4/7/10/13", () => {
    expect(boxTrackConfig("standard", { doubleRd: true }).levels.map((l) => l.min)).toEqual([1, 4, 7, 10, 13]);
  });

  // Fudge §4.57 (full 1995 text, RULES.md §2.3): the moderately cinematic sheet is drawn as nine
  // circles — "Scratch 4, Hurt 2, Very Hurt 1, Incapacitated 1, Near Death 1".
  it("cinematic is the nine-circle sheet 4/2/1/1/1; epic adds up to two more on Hurt and Very Hurt", () => {
    expect(boxTrackConfig("cinematic").levels.map((l) => l.boxes)).toEqual([4, 2, 1, 1, 1]);
    expect(boxTrackConfig("cinematic").levels.reduce((n, l) => n + l.boxes, 0)).toBe(9);
    expect(boxTrackConfig("epic").levels.map((l) => l.boxes)).toEqual([4, 3, 2, 1, 1]);
    expect(boxTrackConfig("epic", { epicExtraHurt: 2, epicExtraVeryHurt: 0 }).levels.map((l) => l.boxes)).toEqual([
      4, 4, 1, 1, 1,
    ]);
    expect(() => boxTrackConfig("epic", { epicExtraHurt: 3 })).toThrow(
      expect.objectContaining({ field: "opts.epicExtraHurt" }),
    );
  });

  it("miniatures: Scratch 2 (0–2), Hurt 1 (3–4, −1), Very Hurt 1 (5–6, −2), Near Death 1 (7–8), Dead 9+", () => {
    expect(minis.levels.map((l) => [l.key, l.boxes, l.penalty, l.effect, l.min])).toEqual([
      ["scratch", 2, 0, "none", 0],
      ["hurt", 1, -1, "penalty", 3],
      ["veryHurt", 1, -2, "penalty", 5],
      ["nearDeath", 1, -2, "dying", 7],
      ["dead", 1, -2, "dead", 9],
    ]);
    expect(minis.deadAt).toBe(9);
    expect(boxTrack.render(minis, boxTrack.initial(minis)).rows.map((r) => r.range)).toEqual([
      "0–2",
      "3–4",
      "5–6",
      "7–8",
      "9+",
    ]);
  });

  it("renders Fudge ranges 1–2 … 9+ and double-RD 13+", () => {
    expect(boxTrack.render(std, boxTrack.initial(std)).rows.map((r) => r.range)).toEqual([
      "1–2",
      "3–4",
      "5–6",
      "7–8",
      "9+",
    ]);
    const d = boxTrackConfig("standard", { doubleRd: true });
    expect(d.levels.map((_, i) => levelRange(d, i))).toEqual(["1–3", "4–6", "7–9", "10–12", "13+"]);
  });

  it("custom preset needs valid levels; levels only with custom", () => {
    expect(() => boxTrackConfig("custom")).toThrow(expect.objectContaining({ field: "opts.levels" }));
    expect(() => boxTrackConfig("standard", { levels: std.levels })).toThrow(
      expect.objectContaining({ field: "opts.levels" }),
    );
    const c = boxTrackConfig("custom", {
      levels: [
        { key: "light", boxes: 2, penalty: 0, effect: "none", min: 1, tag: "L" },
        { key: "moderate", boxes: 2, penalty: -1, effect: "penalty", min: 4, tag: "M" },
        { key: "severe", boxes: 1, penalty: -3, effect: "penalty", min: 7, tag: "S" },
        { key: "down", boxes: 1, penalty: -3, effect: "cannotAct", min: 10, tag: "D" },
      ],
    });
    expect(levelForDamage(c, 5)).toBe("moderate");
    expect(levelForDamage(c, 12)).toBe("down");
  });
});

describe("box track: lookups", () => {
  it("levelForDamage follows the Fudge threshold table; 0 or less is no damage; no number for Dead", () => {
    expect([0, -3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 40].map((n) => levelForDamage(std, n))).toEqual([
      null,
      null,
      "scratch",
      "scratch",
      "hurt",
      "hurt",
      "veryHurt",
      "veryHurt",
      "incapacitated",
      "incapacitated",
      "nearDeath",
      "nearDeath",
    ]);
  });

  it("Fudge §4.55: Leroy's damage number 4 against Theodora is a Hurt", () => {
    expect(levelForDamage(std, 2 + 2)).toBe("hurt");
  });

  it("Miniatures: wound 0 is a Scratch, 9+ Dead", () => {
    expect([-1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 12].map((n) => levelForDamage(minis, n))).toEqual([
      null,
      "scratch",
      "scratch",
      "hurt",
      "hurt",
      "veryHurt",
      "veryHurt",
      "nearDeath",
      "nearDeath",
      "dead",
      "dead",
    ]);
  });

  it("levelIndex knows every level and 'dead'; throws on unknown", () => {
    expect(levelIndex(std, "veryHurt")).toBe(2);
    expect(levelIndex(std, "dead")).toBe(5);
    expect(levelIndex(minis, "dead")).toBe(4);
    expect(() => levelIndex(std, "bruised")).toThrow(
      expect.objectContaining({ field: "level", key: "FUDGE.Error.Track.UnknownLevel" }),
    );
  });

  it("shiftLevel moves one level each way", () => {
    expect(shiftLevel(std, "scratch", 1)).toBe("hurt");
    expect(shiftLevel(std, "hurt", -1)).toBe("scratch");
    expect(shiftLevel(std, "scratch", -1)).toBeNull();
    expect(shiftLevel(std, null, 1)).toBe("scratch");
    expect(shiftLevel(std, null, -1)).toBeNull();
    expect(shiftLevel(std, "nearDeath", 1)).toBe("dead");
    expect(shiftLevel(std, "incapacitated", 2)).toBe("dead");
    expect(shiftLevel(std, "dead", -1)).toBe("nearDeath");
    expect(shiftLevel(minis, "nearDeath", 1)).toBe("dead");
  });
});

describe("box track: seed 000 §4.57 examples", () => {
  it("Very Hurt, then Hurt (still −2), then Hurt → Incapacitated with an 'H'", () => {
    const [a, b, c] = run(std, [{ level: "veryHurt" }, { level: "hurt" }, { level: "hurt" }]);
    expect(a.status.penalty).toBe(-2);
    expect(a.status.condition).toBe("able");
    expect(sheet(std, a.state)).toEqual({
      scratch: "...",
      hurt: ".",
      veryHurt: "X",
      incapacitated: ".",
      nearDeath: ".",
    });
    expect(b.status.penalty).toBe(-2); // not cumulative: only the highest level counts
    expect(b.status.levelKey).toBe("veryHurt");
    expect(sheet(std, b.state)).toEqual({
      scratch: "...",
      hurt: "X",
      veryHurt: "X",
      incapacitated: ".",
      nearDeath: ".",
    });
    expect(c.status.condition).toBe("cannotAct");
    expect(c.status.canAct).toBe(false);
    expect(c.status.levelKey).toBe("incapacitated");
    expect(sheet(std, c.state)).toEqual({
      scratch: "...",
      hurt: "X",
      veryHurt: "X",
      incapacitated: "H",
      nearDeath: ".",
    });
    const box = boxTrack.render(std, c.state).rows[3].boxes[0];
    expect(box).toMatchObject({ overflow: true, realLevelKey: "hurt", mark: "H", marked: true });
    expect(c.steps.map((s) => s.key)).toContain("FUDGE.Step.Box.Overflow");
    expect(c.ended).toBe(false);
  });

  it("two Very Hurt results make a character Incapacitated", () => {
    const [, b] = run(std, [{ level: "veryHurt" }, { level: "veryHurt" }]);
    expect(b.status.condition).toBe("cannotAct");
    expect(sheet(std, b.state).incapacitated).toBe("V");
  });

  it("the fourth Scratch makes a fighter Hurt", () => {
    const r = run(std, [{ level: "scratch" }, { level: "scratch" }, { level: "scratch" }, { level: "scratch" }]);
    expect(r.map((x) => x.status.penalty)).toEqual([0, 0, 0, -1]);
    expect(r[3].status.levelKey).toBe("hurt");
    expect(sheet(std, r[3].state)).toMatchObject({ scratch: "XXX", hurt: "S" });
  });

  it("no open box at the level or above → dead, the fight ends", () => {
    const r = run(std, [{ level: "nearDeath" }, { level: "nearDeath" }]);
    expect(r[0].status.condition).toBe("dying");
    expect(r[1].ended).toBe(true);
    expect(r[1].status.condition).toBe("dead");
    expect(r[1].status.levelKey).toBe("dead");
    expect(r[1].steps.map((s) => s.key)).toContain("FUDGE.Step.Box.NoBox");
    // further wounds change nothing
    const again = boxTrack.apply(std, r[1].state, { level: "scratch" });
    expect(again.ended).toBe(true);
    expect(boxTrack.stateKey(std, again.state)).toBe(boxTrack.stateKey(std, r[1].state));
  });

  it("a deadly wound ('dead') kills on a Fudge track without safeguards", () => {
    const [r] = run(std, [{ level: "dead" }]);
    expect(r.ended).toBe(true);
    expect(r.status.condition).toBe("dead");
  });

  it("automatic death (Fudge §4.51)", () => {
    const [r] = run(std, [{ level: "scratch", kill: true }]);
    expect(r.ended).toBe(true);
    expect(r.state.dead).toBe(true);
    expect(r.steps[0]).toMatchObject({ key: "FUDGE.Step.Box.Kill", rule: "Fudge §4.51" });
    expect(boxTrack.parseWound(std, { kill: true }, "w")).toEqual({ level: "dead", kill: true });
  });
});

describe("box track: seed 004 Miniatures examples", () => {
  it("healthy, a 4 wound (Hurt) → −1, then a 5 wound (Very Hurt) → −2", () => {
    const w1 = levelForDamage(minis, 4)!;
    const w2 = levelForDamage(minis, 5)!;
    expect([w1, w2]).toEqual(["hurt", "veryHurt"]);
    const [a, b] = run(minis, [{ level: w1 }, { level: w2 }]);
    expect(a.status.penalty).toBe(-1);
    expect(sheet(minis, a.state)).toEqual({ scratch: "..", hurt: "X", veryHurt: ".", nearDeath: ".", dead: "." });
    expect(b.status.penalty).toBe(-2);
    expect(sheet(minis, b.state)).toEqual({ scratch: "..", hurt: "X", veryHurt: "X", nearDeath: ".", dead: "." });
  });

  it("four Scratches from healthy carry over through Hurt and Very Hurt; a fifth reaches Near Death, a sixth Dead", () => {
    const r = run(
      minis,
      Array.from({ length: 6 }, () => ({ level: "scratch" })),
    );
    expect(sheet(minis, r[3].state)).toEqual({ scratch: "XX", hurt: "S", veryHurt: "S", nearDeath: ".", dead: "." });
    expect(r.map((x) => x.status.penalty).slice(0, 4)).toEqual([0, 0, -1, -2]);
    expect(r[4].status.condition).toBe("dying");
    expect(r[4].status.canAct).toBe(false);
    expect(sheet(minis, r[4].state).nearDeath).toBe("S");
    expect(r[5].status.condition).toBe("dead");
    expect(r[5].ended).toBe(true);
    expect(sheet(minis, r[5].state).dead).toBe("S");
  });

  it("a 9+ wound is Dead at once", () => {
    const [r] = run(minis, [{ level: levelForDamage(minis, 9)! }]);
    expect(r.ended).toBe(true);
    expect(r.status.condition).toBe("dead");
    expect(sheet(minis, r.state).dead).toBe("X");
  });
});

describe("box track: NPC pawn", () => {
  const pawn = boxTrackConfig("pawn");
  it("Undamaged / Hurt / Out: a Scratch does nothing, Hurt −1, a second Hurt takes it out", () => {
    expect(pawn.levels.map((l) => [l.key, l.boxes, l.effect])).toEqual([
      ["scratch", 0, "none"],
      ["hurt", 1, "penalty"],
      ["out", 1, "out"],
    ]);
    const r = run(pawn, [{ level: "scratch" }, { level: "hurt" }, { level: "hurt" }]);
    expect(r[0].state).toEqual(boxTrack.initial(pawn));
    expect(r[0].steps[0].key).toBe("FUDGE.Step.Box.NoEffect");
    expect(r[1].status.penalty).toBe(-1);
    expect(r[2].status.condition).toBe("takenOut");
    expect(r[2].ended).toBe(true);
  });
  it("damage 5+ takes a pawn out at once", () => {
    expect(levelForDamage(pawn, 2)).toBe("scratch");
    expect(levelForDamage(pawn, 3)).toBe("hurt");
    expect(levelForDamage(pawn, 5)).toBe("out");
    expect(levelForDamage(pawn, 12)).toBe("out");
    const [r] = run(pawn, [{ level: "out" }]);
    expect(r.status.condition).toBe("takenOut");
  });
});

describe("box track: options", () => {
  it("Scratch cap: Scratches never push beyond Very Hurt", () => {
    const c = boxTrackConfig("standard", { scratchCap: true });
    const r = run(
      c,
      Array.from({ length: 7 }, () => ({ level: "scratch" })),
    );
    expect(sheet(c, r[4].state)).toMatchObject({ scratch: "XXX", hurt: "S", veryHurt: "S", incapacitated: "." });
    expect(r[5].status.penalty).toBe(-2);
    expect(r[5].status.condition).toBe("able");
    expect(r[5].steps.map((s) => s.key)).toContain("FUDGE.Step.Box.ScratchCap");
    expect(r[6].state).toEqual(r[4].state);
    // without the option the 6th Scratch incapacitates
    const plain = run(
      std,
      Array.from({ length: 6 }, () => ({ level: "scratch" })),
    );
    expect(plain[5].status.condition).toBe("cannotAct");
  });

  it("High Pain Threshold: Hurt 0, Very Hurt −1", () => {
    const c = boxTrackConfig("standard", { painShift: -1 });
    expect(effectivePenalties(c).slice(0, 3)).toEqual([0, 0, -1]);
    const r = run(c, [{ level: "hurt" }, { level: "veryHurt" }]);
    expect(r.map((x) => x.status.penalty)).toEqual([0, -1]);
    expect(r[1].status.steps.map((s) => s.key)).toContain("FUDGE.Step.Box.HighPain");
  });

  it("Low Pain Threshold: Scratch −1, Hurt −2, Very Hurt −3", () => {
    const c = boxTrackConfig("standard", { painShift: 1 });
    expect(effectivePenalties(c).slice(0, 3)).toEqual([-1, -2, -3]);
    const r = run(c, [{ level: "scratch" }, { level: "hurt" }, { level: "veryHurt" }]);
    expect(r.map((x) => x.status.penalty)).toEqual([-1, -2, -3]);
    expect(
      boxTrack
        .render(c, boxTrack.initial(c))
        .rows.slice(0, 3)
        .map((x) => x.penalty),
    ).toEqual([-1, -2, -3]);
  });

  it("Willpower relief: below the DL nothing, meet it −1 less, beat it by 2+ cancelled", () => {
    expect(willpowerPainRelief(0, 1)).toBe(0);
    expect(willpowerPainRelief(1, 1)).toBe(1);
    expect(willpowerPainRelief(2, 1)).toBe(1);
    expect(willpowerPainRelief(3, 1)).toBe(Infinity);
    expect(relievedPenalty(-2, willpowerPainRelief(1, 1))).toBe(-1);
    expect(relievedPenalty(-2, willpowerPainRelief(4, 1))).toBe(0);
    expect(relievedPenalty(-2, 0)).toBe(-2);
    expect(() => willpowerPainRelief(1.5, 0)).toThrow(expect.objectContaining({ field: "willpowerRolledDegree" }));
  });
});

describe("box track: stun (Fudge §4.62)", () => {
  it("a stun Hurt → Stunned for one round; endRound ends it", () => {
    const [r] = run(std, [{ level: "hurt", stun: true }]);
    expect(r.status.effects).toEqual(["stunned"]);
    expect(r.status.penalty).toBe(0); // −1 to defend only, not to every roll
    expect(r.status.condition).toBe("able");
    expect(sheet(std, r.state).hurt).toBe("~");
    const h = boxTrack.heal(std, r.state, { type: "endRound" });
    expect(boxTrack.status(std, h.state).effects).toEqual([]);
  });

  it("a stun Very Hurt → Very Stunned: −2 to all for two rounds", () => {
    const [r] = run(std, [{ level: "veryHurt", stun: true }]);
    expect(r.status.effects).toEqual(["veryStunned"]);
    expect(r.status.penalty).toBe(-2);
    const one = boxTrack.heal(std, r.state, { type: "endRound" }).state;
    expect(boxTrack.status(std, one).effects).toEqual(["veryStunned"]);
    const two = boxTrack.heal(std, one, { type: "endRound" }).state;
    expect(boxTrack.status(std, two).effects).toEqual([]);
    expect(boxTrack.status(std, two).penalty).toBe(0);
  });

  it("a second Stun → Very Stunned", () => {
    // standard track: the second stun overflows into Very Hurt, Very Stunned either way
    const r = run(std, [
      { level: "hurt", stun: true },
      { level: "hurt", stun: true },
    ]);
    expect(r[1].status.effects).toEqual(["veryStunned"]);
    // cinematic track has two Hurt boxes: the second-stun rule itself
    const cin = boxTrackConfig("cinematic");
    const q = run(cin, [
      { level: "hurt", stun: true },
      { level: "hurt", stun: true },
    ]);
    expect(sheet(cin, q[1].state).hurt).toBe("~~");
    expect(q[1].status.effects).toEqual(["veryStunned"]);
    expect(q[1].status.penalty).toBe(-2);
    expect(q[1].steps.map((s) => s.key)).toContain("FUDGE.Step.Box.SecondStun");
    // once the stun has worn off, a new stun Hurt is a first stun again
    const off = boxTrack.heal(cin, q[0].state, { type: "endRound" }).state;
    expect(boxTrack.apply(cin, off, { level: "hurt", stun: true }).status.effects).toEqual(["stunned"]);
  });

  it("Incapacitated or worse → knocked out (cannot act); stun never kills", () => {
    const r = run(std, [
      { level: "incapacitated", stun: true },
      { level: "dead", stun: true },
    ]);
    expect(r[0].status.effects).toEqual(["knockedOut"]);
    expect(r[0].status.condition).toBe("cannotAct");
    expect(r[1].status.condition).toBe("cannotAct");
    expect(r[1].ended).toBe(false);
    expect(boxTrack.heal(std, r[1].state, { type: "endRound", rounds: 5 }).state.stun?.effect).toBe("knockedOut");
  });

  it("stun marks give no wound penalty and heal like Scratches", () => {
    const r = run(std, [{ level: "scratch" }, { level: "hurt", stun: true }, { level: "veryHurt" }]);
    expect(r[2].status.penalty).toBe(-2);
    const healed = boxTrack.heal(std, r[2].state, { type: "scratches" });
    expect(sheet(std, healed.state)).toEqual({
      scratch: "...",
      hurt: ".",
      veryHurt: "X",
      incapacitated: ".",
      nearDeath: ".",
    });
    expect(healed.state.stun).toBeNull();
  });
});

describe("box track: PC safeguards (Fudge §4.64)", () => {
  const sg = (s: Partial<BoxTrackConfig["safeguards"]>) => boxTrackConfig("standard", { safeguards: s });

  it("at most three levels from one blow: unwounded → at worst Very Hurt", () => {
    const c = sg({ maxThreeLevels: true });
    const [r] = run(c, [{ level: "nearDeath" }]);
    expect(r.status.levelKey).toBe("veryHurt");
    expect(sheet(c, r.state).veryHurt).toBe("X");
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Step.Box.Safeguard.MaxThree");
    const [d] = run(c, [{ level: "dead" }]);
    expect(d.status.levelKey).toBe("veryHurt");
    expect(d.ended).toBe(false);
  });

  it("Hurt → may reach Near Death, never Dead", () => {
    const c = sg({ maxThreeLevels: true });
    const r = run(c, [{ level: "hurt" }, { level: "dead" }]);
    expect(r[1].status.condition).toBe("dying");
    expect(r[1].ended).toBe(false);
    // Incapacitated + a deadly blow: three levels reach past Near Death, so it kills
    const k = run(c, [{ level: "incapacitated" }, { level: "dead" }]);
    expect(k[0].status.levelKey).toBe("veryHurt"); // the first blow itself was capped
    const k2 = run(c, [{ level: "hurt" }, { level: "nearDeath" }, { level: "dead" }]);
    expect(k2[2].ended).toBe(true);
  });

  it("off by default: a deadly blow kills an unwounded character", () => {
    expect(run(std, [{ level: "dead" }])[0].ended).toBe(true);
  });

  it("nobody becomes Near Death unless they began the round Incapacitated", () => {
    const c = sg({ nearDeathNeedsIncapacitated: true });
    const [a] = run(c, [{ level: "nearDeath" }]);
    expect(a.status.levelKey).toBe("incapacitated");
    expect(a.steps.map((s) => s.key)).toContain("FUDGE.Step.Box.Safeguard.NearDeath");
    const [b] = run(c, [{ level: "nearDeath", beganRoundIncapacitated: true }]);
    expect(b.status.levelKey).toBe("nearDeath");
    // Incapacitated this round, hit again in the same round: stays Incapacitated
    const s = run(c, [{ level: "incapacitated" }, { level: "incapacitated" }]);
    expect(s[1].status.levelKey).toBe("incapacitated");
    expect(s[1].steps.map((x) => x.key)).toContain("FUDGE.Step.Box.Safeguard.NearDeathAbsorbed");
    // next round, having begun it Incapacitated
    const t = boxTrack.apply(c, s[1].state, { level: "incapacitated", beganRoundIncapacitated: true });
    expect(t.status.levelKey).toBe("nearDeath");
  });

  it("a Fudge Point turns a deadly wound into Near Death (or Incapacitated when Near Death is taken)", () => {
    const c = sg({ fudgePointSaves: true });
    const [a] = run(c, [{ level: "dead", spendFudgePoint: true }]);
    expect(a.status.levelKey).toBe("nearDeath");
    expect(a.ended).toBe(false);
    expect(a.steps.map((s) => s.key)).toContain("FUDGE.Step.Box.Safeguard.FudgePoint");
    const b = run(c, [{ level: "nearDeath" }, { level: "nearDeath", spendFudgePoint: true }]);
    expect(b[1].ended).toBe(false);
    expect(sheet(c, b[1].state).incapacitated).toBe("X");
    const d = run(c, [{ level: "dead" }]);
    expect(d[0].ended).toBe(true); // no point spent
    const e = run(std, [{ level: "dead", spendFudgePoint: true }]);
    expect(e[0].ended).toBe(true); // safeguard off
  });
});

describe("box track: healing (RULES §2.5)", () => {
  it("example: two Hurt and one Very Hurt healed with Good → both Hurt gone, the Very Hurt becomes Hurt", () => {
    const c = boxTrackConfig("custom", {
      levels: std.levels.map((l) => (l.key === "hurt" ? { ...l, boxes: 2 } : l)),
    });
    const [, , r] = run(c, [{ level: "hurt" }, { level: "hurt" }, { level: "veryHurt" }]);
    const h = boxTrack.heal(c, r.state, { type: "roll", result: 1 });
    expect(sheet(c, h.state)).toEqual({
      scratch: "...",
      hurt: "X.",
      veryHurt: ".",
      incapacitated: ".",
      nearDeath: ".",
    });
    expect(boxTrack.status(c, h.state).penalty).toBe(-1);
    // same example on the standard track: the second Hurt overflowed, and heals as a Hurt
    const s = run(std, [{ level: "hurt" }, { level: "hurt" }, { level: "veryHurt" }]);
    expect(sheet(std, s[2].state)).toMatchObject({ hurt: "X", veryHurt: "H", incapacitated: "V" });
    const hs = boxTrack.heal(std, s[2].state, { type: "roll", result: 1 });
    expect(sheet(std, hs.state)).toEqual({
      scratch: "...",
      hurt: "X",
      veryHurt: ".",
      incapacitated: ".",
      nearDeath: ".",
    });
  });

  it("Great heals two levels, Superb three, beyond the ladder more; Fair nothing; Scratches stay", () => {
    const start = run(std, [{ level: "scratch" }, { level: "nearDeath" }])[1].state;
    const lv = (result: number) =>
      boxTrack.status(std, boxTrack.heal(std, start, { type: "roll", result }).state).levelKey;
    expect(lv(0)).toBe("nearDeath");
    expect(lv(1)).toBe("incapacitated");
    expect(lv(2)).toBe("veryHurt");
    expect(lv(3)).toBe("hurt");
    expect(lv(4)).toBe("scratch");
    expect(sheet(std, boxTrack.heal(std, start, { type: "roll", result: 5 }).state).scratch).toBe("X..");
  });

  it("an overflowed wound heals as its real level", () => {
    const s = run(std, [{ level: "veryHurt" }, { level: "hurt" }, { level: "hurt" }])[2].state; // H in Incapacitated
    const h = boxTrack.heal(std, s, { type: "roll", result: 1 }).state;
    // both Hurts gone, the Very Hurt is now a Hurt
    expect(sheet(std, h)).toEqual({ scratch: "...", hurt: "X", veryHurt: ".", incapacitated: ".", nearDeath: "." });
  });

  it("Scratches (and overflowed Scratches) clear after the fight", () => {
    const s = run(std, Array.from({ length: 4 }, () => ({ level: "scratch" })).concat([{ level: "veryHurt" }]))[4]
      .state;
    const h = boxTrack.heal(std, s, { type: "scratches" });
    expect(sheet(std, h.state)).toEqual({
      scratch: "...",
      hurt: ".",
      veryHurt: "X",
      incapacitated: ".",
      nearDeath: ".",
    });
    expect(h.steps[0].value).toBe(4);
  });

  it("natural healing: one level per week; Rapid Healing twice as fast; Constitution gate", () => {
    const s = run(std, [{ level: "veryHurt" }])[0].state;
    const w1 = boxTrack.heal(std, s, { type: "natural", weeks: 1 }).state;
    expect(boxTrack.status(std, w1).levelKey).toBe("hurt");
    const w2 = boxTrack.heal(std, s, { type: "natural", weeks: 2 }).state;
    expect(boxTrack.status(std, w2).levelKey).toBeNull();
    const r1 = boxTrack.heal(std, s, { type: "natural", weeks: 1, rapid: true }).state;
    expect(boxTrack.status(std, r1).levelKey).toBeNull();
    // Constitution Fair heals Hurt but not Very Hurt
    const fair = boxTrack.heal(std, s, { type: "natural", weeks: 3, constitution: 0 }).state;
    expect(boxTrack.status(std, fair).levelKey).toBe("veryHurt");
    const good = boxTrack.heal(std, s, { type: "natural", weeks: 2, constitution: 1 }).state;
    expect(boxTrack.status(std, good).levelKey).toBeNull();
  });

  it("box healing clears one box; the dead are not healed by rolls", () => {
    const s = run(std, [{ level: "hurt" }, { level: "hurt" }])[1].state;
    const h = boxTrack.heal(std, s, { type: "box", ref: "veryHurt:0" }).state;
    expect(sheet(std, h)).toMatchObject({ hurt: "X", veryHurt: "." });
    const dead = run(std, [{ level: "dead" }])[0].state;
    expect(boxTrack.heal(std, dead, { type: "roll", result: 3 }).state).toEqual(dead);
    expect(boxTrack.heal(std, dead, { type: "box", ref: "dead" }).state.dead).toBe(false);
  });
});

describe("box track: toggle, render, stateKey", () => {
  it("click an open box marks it with its own level; click a marked box clears it", () => {
    let s = boxTrack.initial(std);
    s = boxTrack.toggle(std, s, "incapacitated:0");
    expect(boxTrack.status(std, s).condition).toBe("cannotAct");
    expect(sheet(std, s).incapacitated).toBe("X");
    s = boxTrack.toggle(std, s, "scratch:2");
    expect(sheet(std, s).scratch).toBe("..X");
    s = boxTrack.toggle(std, s, "incapacitated:0");
    expect(sheet(std, s).incapacitated).toBe(".");
    expect(boxTrack.status(std, s).condition).toBe("able");
    expect(() => boxTrack.toggle(std, s, "hurt:1")).toThrow(expect.objectContaining({ field: "ref" }));
    expect(() => boxTrack.toggle(std, s, "nope")).toThrow(expect.objectContaining({ field: "ref" }));
    const m = boxTrack.toggle(minis, boxTrack.initial(minis), "dead:0");
    expect(boxTrack.status(minis, m).condition).toBe("dead");
    expect(boxTrack.status(minis, boxTrack.toggle(minis, m, "dead:0")).condition).toBe("able");
  });

  it("render: rows mildest first, labels, penalties, effect keys, box labels", () => {
    const r = boxTrack.render(std, boxTrack.initial(std));
    expect(r.kind).toBe("box");
    expect(r.rows.map((x) => x.labelKey)).toEqual([
      "FUDGE.Wound.scratch",
      "FUDGE.Wound.hurt",
      "FUDGE.Wound.veryHurt",
      "FUDGE.Wound.incapacitated",
      "FUDGE.Wound.nearDeath",
    ]);
    expect(r.rows.map((x) => x.penalty)).toEqual([0, -1, -2, null, null]);
    expect(r.rows.map((x) => x.effectKey)).toEqual(["", "", "", "FUDGE.Effect.cannotAct", "FUDGE.Effect.dying"]);
    expect(r.rows[0].boxes.map((b) => b.ref)).toEqual(["scratch:0", "scratch:1", "scratch:2"]);
    expect(r.rows[0].boxes[1]).toMatchObject({
      labelKey: "FUDGE.Track.BoxLabel",
      labelParams: { level: "FUDGE.Wound.scratch", n: 2 },
      marked: false,
      mark: "",
    });
  });

  it("generic track API works end to end", () => {
    const t = newTrack(boxTrackConfig("standard")) as Track;
    const r = applyWound(t, { level: "veryHurt" });
    expect(r.status.penalty).toBe(-2);
    expect(renderTrack(r.track).rows[2].boxes[0].marked).toBe(true);
  });

  it("stateKey is equal for equal states and differs otherwise", () => {
    const a = run(std, [{ level: "hurt" }])[0].state;
    const b = boxTrack.parseState(std, JSON.parse(JSON.stringify(a)), "s");
    expect(boxTrack.stateKey(std, a)).toBe(boxTrack.stateKey(std, b));
    expect(boxTrack.stateKey(std, a)).not.toBe(boxTrack.stateKey(std, boxTrack.initial(std)));
  });

  it("never mutates its inputs", () => {
    const s = run(std, [{ level: "hurt" }, { level: "hurt", stun: true }])[1].state;
    const frozen = JSON.stringify(s);
    boxTrack.apply(std, s, { level: "veryHurt" });
    boxTrack.apply(std, s, { level: "veryHurt", stun: true });
    boxTrack.heal(std, s, { type: "roll", result: 2 });
    boxTrack.heal(std, s, { type: "endRound" });
    boxTrack.toggle(std, s, "hurt:0");
    expect(JSON.stringify(s)).toBe(frozen);
  });
});

describe("box track: Miniatures recovery from Near Death", () => {
  it("a Near Death model that makes its Guts roll becomes merely Very Hurt", () => {
    // from a single 7 wound: only Near Death is marked
    const a = run(minis, [{ level: "nearDeath" }])[0].state;
    const ra = boxTrack.heal(minis, a, boxTrack.parseHealing(minis, { type: "recover", to: "veryHurt" }, "h"));
    expect(sheet(minis, ra.state)).toEqual({ scratch: "..", hurt: ".", veryHurt: "X", nearDeath: ".", dead: "." });
    expect(boxTrack.status(minis, ra.state)).toMatchObject({ penalty: -2, condition: "able", levelKey: "veryHurt" });
    // after five Scratches: the Near Death box clears, Very Hurt(S) stays
    const b = run(
      minis,
      Array.from({ length: 5 }, () => ({ level: "scratch" })),
    )[4].state;
    const rb = boxTrack.heal(minis, b, { type: "recover", to: "veryHurt" }).state;
    expect(sheet(minis, rb)).toEqual({ scratch: "XX", hurt: "S", veryHurt: "S", nearDeath: ".", dead: "." });
    expect(() => boxTrack.parseHealing(minis, { type: "recover", to: "dead" }, "h")).toThrow(
      expect.objectContaining({ field: "h.to" }),
    );
    expect(() => boxTrack.parseHealing(minis, { type: "recover", to: "bruise" }, "h")).toThrow(
      expect.objectContaining({ field: "h.to" }),
    );
    // a stun mark in the Very Hurt box gives way to the real wound
    const c = run(minis, [{ level: "veryHurt", stun: true }, { level: "nearDeath" }])[1].state;
    const rc = boxTrack.heal(minis, c, { type: "recover", to: "veryHurt" }).state;
    expect(sheet(minis, rc).veryHurt).toBe("X");
    expect(boxTrack.status(minis, rc).levelKey).toBe("veryHurt");
  });
});

describe("healing re-places real wounds before stun marks (found by the property test)", () => {
  it("two Very Hurt and a stun at Incapacitated: a week of nothing leaves the character where he was", () => {
    const c = boxTrackConfig("standard");
    let s = boxTrack.initial(c);
    for (const w of [{ level: "veryHurt" }, { level: "veryHurt" }, { level: "incapacitated", stun: true }])
      s = boxTrack.apply(c, s, w).state;
    const before = boxTrack.status(c, s);
    const after = boxTrack.status(c, boxTrack.heal(c, s, { type: "natural", weeks: 0 }).state);
    expect(after.condition).toBe(before.condition);
    expect(after.penalty).toBe(before.penalty);
  });
});

describe("the stun countdown is the box track's hook (Fudge §4.62)", () => {
  it("a stun wound puts a counted stun in force on a box track; a track kind without the hook has none", () => {
    const t = newTrack(boxTrackConfig("standard")) as Track;
    expect(trackStunInForce(t)).toBeNull();
    const stunned = applyWound(t, { level: "hurt", stun: true }).track;
    expect(trackStunInForce(stunned)).toEqual({ effect: "stunned", rounds: 1, marks: 1 });
    const fate = applyWound(newTrack(defaultFateConfig()) as Track, { margin: 3 }).track;
    expect(trackStunInForce(fate)).toBeNull();
  });
});
