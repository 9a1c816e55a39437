import { describe, expect, it } from "vitest";
import {
  DC_DEAD,
  dcLevelForDamage,
  dcTrack,
  dcTrackConfig,
  type DcTrackConfig,
  type DcTrackState,
  type DcWound,
} from "../../src/rules/fudge";
import { applyWound, healTrack, newTrack, trackKind } from "../../src/rules";

function run(config: DcTrackConfig, wounds: DcWound[], state: DcTrackState = dcTrack.initial(config)) {
  const out = [];
  for (const w of wounds) {
    const r = dcTrack.apply(config, state, dcTrack.parseWound(config, w, "wound"));
    out.push(r);
    state = r.state;
  }
  return out;
}

describe("DC-as-track (Fudge §4.57 first method)", () => {
  it("registers the kind 'dc' with documented defaults", () => {
    expect(trackKind("dc")).toBe(dcTrack);
    expect(dcTrackConfig(1)).toEqual({
      kind: "dc",
      label: "",
      start: 1,
      scratchesPerHit: 3,
      levelsPerHit: "one",
      terrible: "penalty",
      thresholds: [1, 3, 5, 7, 9],
    });
    expect(dcTrackConfig(0, { doubleRd: true }).thresholds).toEqual([1, 4, 7, 10, 13]);
  });

  it("each hit worse than a Scratch lowers DC one level: Mediocre Hurt −1, Poor Very Hurt −2, Terrible −3", () => {
    const c = dcTrackConfig(0); // Fair DC
    const r = run(c, [{ level: "hurt" }, { level: "nearDeath" }, { level: "veryHurt" }]);
    expect(r.map((x) => x.state.dc)).toEqual([-1, -2, -3]);
    expect(r.map((x) => x.status.penalty)).toEqual([-1, -2, -3]);
    expect(r.map((x) => x.status.levelKey)).toEqual(["hurt", "veryHurt", "veryHurt"]);
    expect(r[2].status.condition).toBe("able");
  });

  it("Terrible can mean Incapacitated (setting); below Terrible is Incapacitated, then Near Death, then Dead", () => {
    const c = dcTrackConfig(-1, { terrible: "incapacitated" });
    const r = run(
      c,
      Array.from({ length: 5 }, () => ({ level: "hurt" as const })),
    );
    expect(r.map((x) => x.state.dc)).toEqual([-2, -3, -4, -5, -6]);
    expect(r.map((x) => x.status.condition)).toEqual(["able", "cannotAct", "cannotAct", "dying", "dead"]);
    expect(r.map((x) => x.ended)).toEqual([false, false, false, false, true]);
    const p = run(dcTrackConfig(-2), [{ level: "hurt" }, { level: "hurt" }]);
    expect(p.map((x) => x.status.condition)).toEqual(["able", "cannotAct"]);
  });

  it("seed example: an undamaged Mediocre-DC character is not at −1; one hit → Poor → −2", () => {
    const c = dcTrackConfig(-1);
    const s0 = dcTrack.initial(c);
    expect(dcTrack.status(c, s0).penalty).toBe(0);
    expect(dcTrack.status(c, s0).levelKey).toBeNull();
    const [r] = run(c, [{ level: "hurt" }]);
    expect(r.state.dc).toBe(-2);
    expect(r.status.penalty).toBe(-2);
    expect(r.status.levelKey).toBe("veryHurt");
  });

  it("a Good-DC character hit once is Fair: damaged but no penalty", () => {
    const [r] = run(dcTrackConfig(1), [{ level: "veryHurt" }]);
    expect(r.state.dc).toBe(0);
    expect(r.status.penalty).toBe(0);
    expect(r.status.levelKey).toBe("scratch");
  });

  it("Scratches accumulate: three Scratches make one hit", () => {
    const c = dcTrackConfig(0);
    const r = run(c, [{ level: "scratch" }, { level: "scratch" }, { level: "scratch" }, { level: "scratch" }]);
    expect(r.map((x) => [x.state.dc, x.state.scratches])).toEqual([
      [0, 1],
      [0, 2],
      [-1, 0],
      [-1, 1],
    ]);
    expect(r[2].steps.map((s) => s.key)).toContain("FUDGE.Step.Dc.ScratchesMakeHit");
    const two = run(dcTrackConfig(0, { scratchesPerHit: 2 }), [{ level: "scratch" }, { level: "scratch" }]);
    expect(two[1].state).toEqual({ dc: -1, scratches: 0 });
    const none = run(dcTrackConfig(0, { scratchesPerHit: 0 }), [{ level: "scratch" }]);
    expect(none[0].state).toEqual({ dc: 0, scratches: 0 });
    expect(none[0].steps[0].key).toBe("FUDGE.Step.Dc.ScratchIgnored");
  });

  it("levelsPerHit bySeverity: Hurt 1, Very Hurt 2, Incapacitated 3, Near Death 4", () => {
    const c = dcTrackConfig(3, { levelsPerHit: "bySeverity" });
    const loss = (level: DcWound["level"]) => 3 - run(c, [{ level }])[0].state.dc;
    expect([loss("hurt"), loss("veryHurt"), loss("incapacitated"), loss("nearDeath")]).toEqual([1, 2, 3, 4]);
  });

  it("a deadly wound or automatic death kills", () => {
    const c = dcTrackConfig(2);
    expect(run(c, [{ level: "dead" }])[0]).toMatchObject({ ended: true, state: { dc: DC_DEAD } });
    const k = run(c, [{ level: "scratch", kill: true }])[0];
    expect(k.ended).toBe(true);
    expect(k.steps[0].rule).toBe("Fudge §4.51");
    expect(run(c, [{ level: "dead" }, { level: "hurt" }])[1].steps[0].key).toBe("FUDGE.Step.Dc.AlreadyDead");
  });

  it("dcLevelForDamage uses the Fudge thresholds", () => {
    const c = dcTrackConfig(0);
    expect([0, 1, 3, 5, 7, 9, 20].map((n) => dcLevelForDamage(c, n))).toEqual([
      null,
      "scratch",
      "hurt",
      "veryHurt",
      "incapacitated",
      "nearDeath",
      "nearDeath",
    ]);
  });
});

describe("DC-as-track healing", () => {
  const c = dcTrackConfig(1);
  const hurt = run(c, [{ level: "hurt" }, { level: "hurt" }, { level: "hurt" }, { level: "scratch" }])[3].state; // dc −2, 1 scratch

  it("healing roll raises DC by Good 1, Great 2, Superb 3 — never above the start", () => {
    expect(dcTrack.heal(c, hurt, { type: "roll", result: 1 }).state.dc).toBe(-1);
    expect(dcTrack.heal(c, hurt, { type: "roll", result: 2 }).state.dc).toBe(0);
    expect(dcTrack.heal(c, hurt, { type: "roll", result: 3 }).state.dc).toBe(1);
    expect(dcTrack.heal(c, hurt, { type: "roll", result: 4 }).state.dc).toBe(1);
    expect(dcTrack.heal(c, hurt, { type: "roll", result: 0 }).state.dc).toBe(-2);
  });

  it("natural healing: a level a week, twice with Rapid Healing, Constitution gate", () => {
    expect(dcTrack.heal(c, hurt, { type: "natural", weeks: 1 }).state.dc).toBe(-1);
    expect(dcTrack.heal(c, hurt, { type: "natural", weeks: 1, rapid: true }).state.dc).toBe(0);
    expect(dcTrack.heal(c, hurt, { type: "natural", weeks: 10 }).state.dc).toBe(1);
    // Poor DC = Very Hurt needs Good Constitution
    expect(dcTrack.heal(c, hurt, { type: "natural", weeks: 4, constitution: 0 }).state.dc).toBe(-2);
    expect(dcTrack.heal(c, hurt, { type: "natural", weeks: 4, constitution: 1 }).state.dc).toBe(1);
  });

  it("Scratches clear; box healing clears a step; the dead stay dead", () => {
    expect(dcTrack.heal(c, hurt, { type: "scratches" }).state).toEqual({ dc: -2, scratches: 0 });
    expect(dcTrack.heal(c, hurt, { type: "box", ref: "dc:-2" }).state.dc).toBe(-1);
    expect(dcTrack.heal(c, hurt, { type: "box", ref: "dc:0" }).state.dc).toBe(1);
    expect(dcTrack.heal(c, hurt, { type: "endRound" }).state).toEqual(hurt);
    const dead = { dc: DC_DEAD, scratches: 0 };
    expect(dcTrack.heal(c, dead, { type: "roll", result: 3 }).state).toEqual(dead);
  });
});

describe("DC-as-track render and toggle", () => {
  it("one row per DC step below the start, plus the Scratch row", () => {
    const c = dcTrackConfig(1, { label: "Body" });
    const s = run(c, [{ level: "hurt" }, { level: "hurt" }, { level: "scratch" }])[2].state; // dc −1
    const r = dcTrack.render(c, s);
    expect(r.label).toBe("Body");
    expect(r.rows.map((x) => x.key)).toEqual([
      "scratches",
      "dc:0",
      "dc:-1",
      "dc:-2",
      "dc:-3",
      "dc:-4",
      "dc:-5",
      "dc:-6",
    ]);
    expect(r.rows.map((x) => x.boxes.map((b) => (b.marked ? "X" : ".")).join(""))).toEqual([
      "X.",
      "X",
      "X",
      ".",
      ".",
      ".",
      ".",
      ".",
    ]);
    expect(r.rows.slice(1).map((x) => x.penalty)).toEqual([0, -1, -2, -3, null, null, null]);
    expect(r.rows.slice(1).map((x) => x.effectKey)).toEqual([
      "",
      "",
      "",
      "",
      "FUDGE.Effect.cannotAct",
      "FUDGE.Effect.dying",
      "FUDGE.Effect.dead",
    ]);
    expect(r.rows[2].labelParams).toMatchObject({ name: "Mediocre", value: "\u22121" });
    expect(r.rows[5].labelParams).toMatchObject({ name: "Terrible \u22121" });
    expect(r.status.penalty).toBe(-1);
  });

  it("toggle: an open step marks down to it; a marked one clears it and everything worse", () => {
    const c = dcTrackConfig(0);
    let s = dcTrack.initial(c);
    s = dcTrack.toggle(c, s, "dc:-2");
    expect(s.dc).toBe(-2);
    s = dcTrack.toggle(c, s, "dc:-1");
    expect(s.dc).toBe(0);
    s = dcTrack.toggle(c, s, "scratch:1");
    expect(s.scratches).toBe(2);
    s = dcTrack.toggle(c, s, "scratch:0");
    expect(s.scratches).toBe(0);
    expect(() => dcTrack.toggle(c, s, "dc:0")).toThrow(expect.objectContaining({ field: "ref" }));
    expect(() => dcTrack.toggle(c, s, "scratch:2")).toThrow(expect.objectContaining({ field: "ref" }));
  });

  it("generic track API end to end", () => {
    const t = newTrack(dcTrackConfig(-1));
    const r = applyWound(t, { level: "hurt" });
    expect(r.status.penalty).toBe(-2);
    const h = healTrack(r.track, { type: "roll", result: 3 });
    expect(h.track.state).toEqual({ dc: -1, scratches: 0 });
  });
});
