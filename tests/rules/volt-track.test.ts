import { describe, expect, it } from "vitest";
import {
  RulesError,
  applyWound,
  healTrack,
  newTrack,
  parseTrack,
  renderTrack,
  toggleBox,
  trackStateKey,
  trackStatus,
  undoApplied,
  type Track,
} from "../../src/rules";
import {
  recoverAction,
  voltGeometry,
  voltRowPenalty,
  VOLT_WILL_TABLE,
  type VoltTrackConfig,
} from "../../src/rules/volt";
import { fieldOf } from "./errors";

const human = (willpower = 6, extra: Record<string, unknown> = {}): Track =>
  newTrack({ kind: "volt", willpower, ...extra } as { kind: string });
const marks = (t: Track): Record<string, string> => (t.state as { marks: Record<string, string> }).marks;
const withMarks = (m: Record<string, string>, cfg: Record<string, unknown> = { willpower: 6 }): Track =>
  parseTrack({ config: { kind: "volt", ...cfg }, state: { marks: m } });
const wound = (t: Track, ...ws: unknown[]): Track => ws.reduce<Track>((acc, w) => applyWound(acc, w).track, t);
const penaltiesOf = (t: Track): Record<number, number | string> => {
  const out: Record<number, number | string> = {};
  for (const r of renderTrack(t).rows) {
    const row = Number(r.key.slice(4));
    if (r.penalty !== null && r.penalty !== 0) out[row] = r.penalty;
    else if (r.effectKey === "FUDGE.Volt.Effect.CannotAct") out[row] = "x";
  }
  return out;
};

describe("Volt wound rows: the sheet", () => {
  it("Will 6: rows 10..6 carry −5, −5, −4, −4, −3", () => {
    expect(penaltiesOf(human(6))).toEqual({ 10: -5, 9: -5, 8: -4, 7: -4, 6: -3 });
  });

  it("Will table rows for several Will values", () => {
    expect(penaltiesOf(human(0))).toEqual({ 10: "x", 9: "x", 8: -5, 7: -5, 6: -4, 5: -4, 4: -3, 3: -3, 2: -2, 1: -2 });
    // Will 1–3 is not in the table: the Will 0 row (documented choice).
    expect(penaltiesOf(human(2))).toEqual(penaltiesOf(human(0)));
    expect(penaltiesOf(human(4))).toEqual({ 10: "x", 9: -5, 8: -5, 7: -4, 6: -4, 5: -3 });
    expect(penaltiesOf(human(5))).toEqual(penaltiesOf(human(4)));
    expect(penaltiesOf(human(7))).toEqual(penaltiesOf(human(6)));
    expect(penaltiesOf(human(8))).toEqual({ 10: -5, 9: -4, 8: -3, 7: -3 });
    expect(penaltiesOf(human(9))).toEqual({ 10: -4, 9: -4, 8: -3, 7: -2 });
    expect(penaltiesOf(human(10))).toEqual({ 10: -4, 9: -3, 8: -3 });
    expect(penaltiesOf(human(11))).toEqual({ 10: -4, 9: -2, 8: -2 });
    expect(penaltiesOf(human(12))).toEqual({ 10: -4, 9: -2 });
    expect(penaltiesOf(human(20))).toEqual({ 10: -4, 9: -2 });
    expect(VOLT_WILL_TABLE).toHaveLength(8);
  });

  it("rows default to enough for top + 6 and 20; rows are drawn top to bottom", () => {
    const r = renderTrack(human(6));
    expect(r.rows).toHaveLength(20);
    expect(r.rows[0].key).toBe("row-20");
    expect(r.rows[19].key).toBe("row-1");
    expect(renderTrack(human(6, { tough: 8 })).rows).toHaveLength(24);
    expect(() => human(6, { rows: 15 })).toThrow(/config\.rows/);
  });

  it("the 2nd and 4th rows from the top are circled (9 and 7 for humans)", () => {
    const circled = renderTrack(human(6))
      .rows.filter((r) => r.circled)
      .map((r) => r.key);
    expect(circled).toEqual(["row-9", "row-7"]);
  });

  it("Tough raises the top row and blacks out one circle per step; Fragile lowers it", () => {
    const tough2 = human(6, { tough: 2 });
    expect(penaltiesOf(tough2)).toEqual({ 12: -5, 11: -5, 10: -4, 9: -4, 8: -3 });
    const r = renderTrack(tough2).rows;
    expect(r.filter((x) => x.boxes[0].disabled).map((x) => x.key)).toEqual(["row-2", "row-1"]);
    expect(r.filter((x) => x.circled).map((x) => x.key)).toEqual(["row-11", "row-9"]);
    const fragile = human(6, { tough: -2 });
    expect(penaltiesOf(fragile)).toEqual({ 8: -5, 7: -5, 6: -4, 5: -4, 4: -3 });
    expect(renderTrack(fragile).rows.some((x) => x.boxes[0].disabled)).toBe(false);
    expect(voltGeometry(fragile.config as unknown as VoltTrackConfig).top).toBe(8);
  });

  it("wounds landing on a blacked-out row are ignored", () => {
    const r = applyWound(human(6, { tough: 2 }), { row: 2, type: "injury" });
    expect(marks(r.track)).toEqual({});
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Volt.Step.Blacked");
    expect(r.ended).toBe(false);
  });
});

describe("Volt: Marking Wounds", () => {
  it("Damage 12 marks row 12; Injury |, Stun −", () => {
    expect(marks(wound(human(), { row: 8, type: "injury" }))).toEqual({ 8: "injury" });
    expect(marks(wound(human(), { row: 10, type: "stun" }))).toEqual({ 10: "stun" });
    const r = renderTrack(wound(human(), { row: 8, type: "injury" }, { row: 5, type: "stun" }));
    expect(r.rows.find((x) => x.key === "row-8")?.boxes[0].mark).toBe("|");
    expect(r.rows.find((x) => x.key === "row-5")?.boxes[0].mark).toBe("\u2212");
  });

  it("injury on injury → nearest empty row", () => {
    expect(marks(wound(withMarks({ 5: "injury", 6: "injury" }), { row: 6, type: "injury" }))).toEqual({
      5: "injury",
      6: "injury",
      7: "injury",
    });
    // a Stun row is not empty either: 7 and 5 are taken, 8 and 4 are equally close → 8
    expect(marks(wound(withMarks({ 5: "injury", 6: "injury", 7: "stun" }), { row: 6, type: "injury" }))).toEqual({
      5: "injury",
      6: "injury",
      7: "stun",
      8: "injury",
    });
    expect(
      marks(wound(withMarks({ 5: "injury", 6: "injury", 7: "stun", 8: "injury" }), { row: 6, type: "injury" })),
    ).toEqual({ 4: "injury", 5: "injury", 6: "injury", 7: "stun", 8: "injury" });
  });

  it("tie → the higher row", () => {
    expect(marks(wound(withMarks({ 5: "injury" }), { row: 5, type: "injury" }))).toEqual({ 5: "injury", 6: "injury" });
    expect(marks(wound(withMarks({ 5: "injury" }), { row: 5, type: "stun" }))).toEqual({ 5: "injury", 6: "stun" });
  });

  it("injury on stun → + (counts as Injury)", () => {
    const t = wound(withMarks({ 9: "stun" }), { row: 9, type: "injury" });
    expect(marks(t)).toEqual({ 9: "injuryOnStun" });
    expect(renderTrack(t).rows.find((x) => x.key === "row-9")?.boxes[0].mark).toBe("+");
    // counts as Injury: row 9 is circled → dying
    expect(trackStatus(t).condition).toBe("dying");
    // a further Injury on a "+" row moves on
    expect(marks(wound(t, { row: 9, type: "injury" }))).toEqual({ 9: "injuryOnStun", 10: "injury" });
  });

  it("stun on stun moves like an Injury collision", () => {
    expect(marks(wound(withMarks({ 4: "stun" }), { row: 4, type: "stun" }))).toEqual({ 4: "stun", 5: "stun" });
    expect(marks(wound(withMarks({ 4: "stun", 5: "injury" }), { row: 4, type: "stun" }))).toEqual({
      3: "stun",
      4: "stun",
      5: "injury",
    });
  });

  it("never moves onto blacked-out rows", () => {
    const t = withMarks({ 3: "injury", 4: "injury" }, { willpower: 6, tough: 2 });
    expect(marks(wound(t, { row: 3, type: "injury" }))).toEqual({ 3: "injury", 4: "injury", 5: "injury" });
  });

  it("failed damage roll marks the lowest unmarked row", () => {
    expect(
      marks(wound(withMarks({ 1: "injury", 2: "stun" }), { failedRoll: true, damage: 9, type: "injury" })),
    ).toEqual({ 1: "injury", 2: "stun", 3: "injury" });
    // Tough: the blacked-out circles are not markable, so the lowest unmarked row is above them
    expect(marks(wound(human(6, { tough: 2 }), { failedRoll: true, damage: 9, type: "stun" }))).toEqual({ 3: "stun" });
  });

  it("failed damage roll: nothing when the lowest unmarked row is above the Damage", () => {
    const r = applyWound(withMarks({ 1: "injury", 2: "injury", 3: "injury" }), {
      failedRoll: true,
      damage: 3,
      type: "injury",
    });
    expect(marks(r.track)).toEqual({ 1: "injury", 2: "injury", 3: "injury" });
    expect(r.steps.map((s) => s.key)).toEqual(["FUDGE.Volt.Step.FailedAboveDamage"]);
    expect(
      marks(wound(withMarks({ 1: "injury", 2: "injury" }), { failedRoll: true, damage: 3, type: "injury" })),
    ).toEqual({ 1: "injury", 2: "injury", 3: "injury" });
  });

  it("a row beyond the sheet goes to the top drawn row (same effect: dead)", () => {
    const r = applyWound(human(), { row: 35, type: "injury" });
    expect(marks(r.track)).toEqual({ 20: "injury" });
    expect(r.status.condition).toBe("dead");
  });

  it("a list of wounds is applied in order", () => {
    expect(
      marks(
        wound(human(), [
          { row: 6, type: "stun" },
          { row: 6, type: "injury" },
        ]),
      ),
    ).toEqual({ 6: "injuryOnStun" });
    expect(
      marks(
        wound(human(), [
          { row: 6, type: "injury" },
          { row: 6, type: "stun" },
        ]),
      ),
    ).toEqual({ 6: "injury", 7: "stun" });
  });

  it("no empty row left: the wound ends the fight", () => {
    const all: Record<string, string> = {};
    for (let r = 1; r <= 20; r++) all[r] = "stun";
    const r = applyWound(withMarks(all), { row: 5, type: "stun" });
    expect(r.ended).toBe(true);
    expect(r.status.canAct).toBe(false);
  });

  it("inputs are never mutated", () => {
    const t = withMarks({ 5: "injury" });
    const before = JSON.stringify(t);
    applyWound(t, { row: 5, type: "injury" });
    healTrack(t, { type: "box", ref: "row-5" });
    toggleBox(t, "row-5");
    expect(JSON.stringify(t)).toBe(before);
  });
});

describe("Volt: The Immediate Effects / Death and Dying", () => {
  it("seed: 5 Damage on a row carrying 3 → −3", () => {
    // Will 4–5: row 5 carries 3
    const s = trackStatus(wound(human(4), { row: 5, type: "injury" }));
    expect(s.penalty).toBe(-3);
    expect(s.canAct).toBe(true);
    expect(s.condition).toBe("able");
  });

  it("penalty is that of the highest marked row; below the penalty rows it is 0", () => {
    expect(trackStatus(human()).penalty).toBe(0);
    expect(trackStatus(human()).levelKey).toBe(null);
    expect(trackStatus(wound(human(), { row: 3, type: "injury" })).penalty).toBe(0);
    expect(trackStatus(wound(human(), { row: 3, type: "injury" }, { row: 8, type: "stun" })).penalty).toBe(-4);
    expect(trackStatus(wound(human(), { row: 8, type: "stun" }, { row: 10, type: "stun" })).penalty).toBe(-5);
  });

  it("a mark above the top penalty row → cannot act (a Stun: not dying)", () => {
    const s = trackStatus(wound(human(), { row: 11, type: "stun" }));
    expect(s).toMatchObject({ canAct: false, condition: "cannotAct" });
  });

  it('Will 0: an "x" row → cannot act', () => {
    const s = trackStatus(wound(human(0), { row: 10, type: "stun" }));
    expect(s).toMatchObject({ canAct: false, condition: "cannotAct" });
    expect(trackStatus(wound(human(0), { row: 8, type: "stun" }))).toMatchObject({ canAct: true, penalty: -5 });
  });

  it("an Injury above the top penalty row → dying; more than 5 rows above → dead", () => {
    expect(trackStatus(wound(human(), { row: 11, type: "injury" }))).toMatchObject({
      condition: "dying",
      canAct: false,
    });
    expect(trackStatus(wound(human(), { row: 15, type: "injury" }))).toMatchObject({
      condition: "dying",
      canAct: false,
    });
    expect(trackStatus(wound(human(), { row: 16, type: "injury" }))).toMatchObject({
      condition: "dead",
      canAct: false,
      levelKey: "dead",
    });
    // Tough 2: top row 12, dead from row 18
    expect(trackStatus(wound(human(6, { tough: 2 }), { row: 17, type: "injury" })).condition).toBe("dying");
    expect(trackStatus(wound(human(6, { tough: 2 }), { row: 18, type: "injury" })).condition).toBe("dead");
    // a Stun far up is not death
    expect(trackStatus(wound(human(), { row: 18, type: "stun" })).condition).toBe("cannotAct");
  });

  it("an Injury on a circled row → dying but can act for half an hour", () => {
    for (const row of [9, 7]) {
      const s = trackStatus(wound(human(), { row, type: "injury" }));
      expect(s).toMatchObject({ condition: "dying", canAct: true, levelKey: "dyingCanAct" });
      expect(s.effects).toContain("dyingCanAct");
    }
    // a Stun on a circled row is not dying
    expect(trackStatus(wound(human(), { row: 9, type: "stun" }))).toMatchObject({
      condition: "able",
      canAct: true,
      effects: [],
    });
    // row 8 is not circled
    expect(trackStatus(wound(human(), { row: 8, type: "injury" })).condition).toBe("able");
    // circled + a Stun above the top row: dying and cannot act
    const s = trackStatus(wound(human(), { row: 9, type: "injury" }, { row: 12, type: "stun" }));
    expect(s).toMatchObject({ condition: "dying", canAct: false, effects: [] });
    // Will 0: circled row 9 is also an "x" row → dying and cannot act (documented choice)
    expect(trackStatus(wound(human(0), { row: 9, type: "injury" }))).toMatchObject({
      condition: "dying",
      canAct: false,
      effects: [],
    });
  });
});

describe("Volt: Recovery", () => {
  it("Recover: success clears the highest Stun; failure does nothing", () => {
    const t = withMarks({ 4: "stun", 8: "stun", 6: "injury", 9: "injuryOnStun" });
    expect(marks(healTrack(t, { type: "recover", result: "success" }).track)).toEqual({
      4: "stun",
      6: "injury",
      9: "injuryOnStun",
    });
    expect(marks(healTrack(t, { type: "recover", result: "failure" }).track)).toEqual(marks(t));
  });

  it("Recover requires being able to act", () => {
    const t = withMarks({ 11: "stun" });
    const r = healTrack(t, { type: "recover", result: "success" });
    expect(marks(r.track)).toEqual({ 11: "stun" });
    expect(r.steps[0].key).toBe("FUDGE.Volt.Step.RecoverCannotAct");
  });

  it("recoverAction rolls Willpower with the wound penalty", () => {
    // Will 6, Stun on row 8: penalty −4 → value 2
    const t = withMarks({ 8: "stun" });
    const ok = recoverAction(t, 6, 2, 19);
    expect(ok.roll).toMatchObject({ value: 2, success: true, result: 2 });
    expect(marks(ok.track)).toEqual({});
    const fail = recoverAction(t, 6, 3, 19);
    expect(fail.roll?.success).toBe(false);
    expect(marks(fail.track)).toEqual({ 8: "stun" });
    const out = recoverAction(withMarks({ 12: "stun" }), 6, 1, 1);
    expect(out.roll).toBe(null);
  });

  it("a minute of rest clears all Stun (a + stays: it counts as Injury)", () => {
    const t = withMarks({ 4: "stun", 8: "stun", 6: "injury", 9: "injuryOnStun" });
    expect(marks(healTrack(t, { type: "rest" }).track)).toEqual({ 6: "injury", 9: "injuryOnStun" });
  });

  it("injury recovery: the highest Injury drops 5 rows, healing every Injury passed", () => {
    const t = withMarks({ 12: "injury", 10: "injury", 8: "injury", 5: "stun", 3: "injury" });
    // value 12, dice 15 and 18: a failure → heals
    const r = healTrack(t, { type: "injuryRecovery", black: 15, white: 18, strength: 10 });
    expect(marks(r.track)).toEqual({ 7: "injury", 5: "stun", 3: "injury" });
    // success 4 (≤ Strength, no Injury on row 4) → heals
    expect(marks(healTrack(t, { type: "injuryRecovery", black: 4, white: 18, strength: 10 }).track)).toEqual({
      7: "injury",
      5: "stun",
      3: "injury",
    });
  });

  it("injury recovery: landing on a Stun makes a +; below row 1 it is gone", () => {
    expect(
      marks(
        healTrack(withMarks({ 9: "injury", 4: "stun" }), { type: "injuryRecovery", black: 20, white: 20, strength: 10 })
          .track,
      ),
    ).toEqual({ 4: "injuryOnStun" });
    expect(
      marks(
        healTrack(withMarks({ 5: "injury", 2: "injury", 3: "stun" }), {
          type: "injuryRecovery",
          black: 20,
          white: 20,
          strength: 10,
        }).track,
      ),
    ).toEqual({ 3: "stun" });
  });

  it("injury recovery: a result equal to an existing Injury → infected (new Injury, no healing)", () => {
    const t = withMarks({ 12: "injury", 8: "injury" });
    const r = healTrack(t, { type: "injuryRecovery", black: 8, white: 19, strength: 10 });
    expect(marks(r.track)).toEqual({ 12: "injury", 8: "injury", 9: "injury" });
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Volt.Step.Infected");
  });

  it("injury recovery: a success above Strength → no healing", () => {
    const t = withMarks({ 12: "injury", 8: "injury" });
    const r = healTrack(t, { type: "injuryRecovery", black: 11, white: 19, strength: 10 });
    expect(marks(r.track)).toEqual(marks(t));
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Volt.Step.AboveStrength");
    // equal to Strength heals
    expect(marks(healTrack(t, { type: "injuryRecovery", black: 10, white: 19, strength: 10 }).track)).toEqual({
      7: "injury",
    });
  });

  it("a successful medical Background lowers the value for that roll only", () => {
    const t = withMarks({ 12: "injury" });
    // value 12 → 11 would succeed above Strength 10; medical 3 → value 9: 11 fails → heals
    expect(marks(healTrack(t, { type: "injuryRecovery", black: 11, white: 19, strength: 10 }).track)).toEqual(marks(t));
    expect(
      marks(healTrack(t, { type: "injuryRecovery", black: 11, white: 19, strength: 10, medical: 3 }).track),
    ).toEqual({ 7: "injury" });
  });

  it("no Injury: nothing to recover", () => {
    const t = withMarks({ 5: "stun" });
    const r = healTrack(t, { type: "injuryRecovery", black: 1, white: 1, strength: 10 });
    expect(marks(r.track)).toEqual({ 5: "stun" });
  });

  it("box clears one row", () => {
    expect(marks(healTrack(withMarks({ 5: "stun", 6: "injury" }), { type: "box", ref: "row-6" }).track)).toEqual({
      5: "stun",
    });
  });
});

describe("Volt track: sheet clicks, keys, bad input", () => {
  it("toggle cycles empty → stun → injury → empty", () => {
    let t = human();
    t = toggleBox(t, "row-4");
    expect(marks(t)).toEqual({ 4: "stun" });
    t = toggleBox(t, "row-4");
    expect(marks(t)).toEqual({ 4: "injury" });
    t = toggleBox(t, "row-4");
    expect(marks(t)).toEqual({});
    expect(marks(toggleBox(withMarks({ 4: "injuryOnStun" }), "row-4"))).toEqual({});
    expect(() => toggleBox(human(6, { tough: 1 }), "row-1")).toThrow(RulesError);
    expect(() => toggleBox(human(), "row-21")).toThrow(RulesError);
  });

  it("stateKey is canonical", () => {
    const a = withMarks({ 5: "stun", 9: "injury" });
    const b = withMarks({ 9: "injury", 5: "stun" });
    expect(trackStateKey(a)).toBe(trackStateKey(b));
    expect(trackStateKey(a)).not.toBe(trackStateKey(withMarks({ 5: "injury", 9: "injury" })));
  });

  it("undoApplied restores the previous state", () => {
    const t = withMarks({ 5: "stun" });
    const r = applyWound(t, { row: 5, type: "injury" });
    expect(undoApplied(r.track, { before: t.state, after: r.track.state })).toEqual(t);
    expect(() => undoApplied(t, { before: t.state, after: r.track.state })).toThrow(/changed/);
  });

  it("bad input names the field", () => {
    expect(fieldOf(() => newTrack({ kind: "volt" }))).toBe("config.willpower");
    expect(fieldOf(() => newTrack({ kind: "volt", willpower: 6, tough: 40 } as never))).toBe("config.tough");
    expect(
      fieldOf(() => parseTrack({ config: { kind: "volt", willpower: 6 }, state: { marks: { 21: "injury" } } })),
    ).toBe("track.state.marks.21");
    expect(
      fieldOf(() => parseTrack({ config: { kind: "volt", willpower: 6 }, state: { marks: { 5: "slash" } } })),
    ).toBe("track.state.marks.5");
    expect(
      fieldOf(() => parseTrack({ config: { kind: "volt", willpower: 6, tough: 1 }, state: { marks: { 1: "stun" } } })),
    ).toBe("track.state.marks.1");
    expect(fieldOf(() => applyWound(human(), { row: 0, type: "injury" }))).toBe("wound.row");
    expect(fieldOf(() => applyWound(human(), { row: 5, type: "cut" }))).toBe("wound.type");
    expect(fieldOf(() => applyWound(human(), { failedRoll: true, type: "stun" }))).toBe("wound.damage");
    expect(
      fieldOf(() =>
        applyWound(human(), [
          { row: 5, type: "stun" },
          { row: "x", type: "stun" },
        ]),
      ),
    ).toBe("wound[1].row");
    expect(fieldOf(() => healTrack(human(), { type: "nap" }))).toBe("healing.type");
    expect(fieldOf(() => healTrack(human(), { type: "injuryRecovery", black: 1, white: 21, strength: 5 }))).toBe(
      "healing.white",
    );
    expect(fieldOf(() => healTrack(human(), { type: "recover", result: true }))).toBe("healing.result");
    expect(fieldOf(() => healTrack(human(), { type: "box", ref: "row-x" }))).toBe("healing.ref");
  });

  it("voltRowPenalty reads the table downward from the top row", () => {
    const g = voltGeometry(human(9).config as unknown as VoltTrackConfig);
    expect([11, 10, 9, 8, 7, 6].map((r) => voltRowPenalty(g, r))).toEqual(["above", 4, 4, 3, 2, 0]);
  });
});
