import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  defaultFateConfig,
  fateResultForMargin,
  fateTrack,
  FATE_LINES,
  type FateLine,
  type FateTrackState,
} from "../../src/rules/fate";
import {
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
  RulesError,
} from "../../src/rules";
import { fieldOf } from "./errors";

const fresh = (label = "Physical"): Track => newTrack(defaultFateConfig(label));

function withMarks(marks: Partial<Record<FateLine, number>>): Track {
  const t = fresh();
  const s = t.state as FateTrackState;
  const next: FateTrackState = { marks: { ...s.marks } };
  for (const line of FATE_LINES) {
    const n = marks[line] ?? 0;
    next.marks[line] = s.marks[line].map((_, i) => (i < n ? line : null));
  }
  return { config: t.config, state: next };
}

describe("FATE ladder: margin → result", () => {
  it("reads the seed's MoS table", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 12].map(fateResultForMargin)).toEqual([
      null,
      "clipped",
      "hurt",
      "hurt",
      "hurt",
      "injured",
      "injured",
      "takenOut",
      "takenOut",
    ]);
    expect(fateResultForMargin(-3)).toBeNull();
  });

  it("margin 0 is Scratched: no mark, no effect", () => {
    const r = applyWound(fresh(), { margin: 0 });
    expect(trackStateKey(r.track)).toBe(trackStateKey(fresh()));
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Fate.Step.Scratched");
    expect(r.status.penalty).toBe(0);
  });
});

describe("FATE ladder: the seed's stacking table (Hurt and Injured stack)", () => {
  const table: [number, number, number][] = [
    [1, 0, -1],
    [2, 0, -1],
    [1, 1, -2],
    [2, 1, -2],
    [0, 1, -1],
    [0, 2, -2],
    [1, 2, -3],
    [2, 2, -3],
  ];
  it.each(table)("%i Hurt, %i Injured = %i", (hurt, injured, penalty) => {
    expect(trackStatus(withMarks({ hurt, injured })).penalty).toBe(penalty);
  });

  it("the same table reached through wounds by margin", () => {
    for (const [hurt, injured, penalty] of table) {
      let t = fresh();
      for (let i = 0; i < hurt; i++) t = applyWound(t, { margin: 3 }).track;
      for (let i = 0; i < injured; i++) t = applyWound(t, { margin: 5 }).track;
      expect(trackStatus(t).penalty).toBe(penalty);
    }
  });

  it("Clipped stacks on top for the next action, but several Clipped are still −1", () => {
    expect(trackStatus(withMarks({ clipped: 1 })).penalty).toBe(-1);
    expect(trackStatus(withMarks({ clipped: 2 })).penalty).toBe(-1);
    expect(trackStatus(withMarks({ clipped: 2, hurt: 1, injured: 2 })).penalty).toBe(-4);
    expect(trackStatus(withMarks({ clipped: 1 })).effects).toEqual(["clipped"]);
  });
});

describe("FATE ladder: death spiral", () => {
  it("a full line spills into the next worse line, and the box remembers the real result", () => {
    let t = fresh();
    t = applyWound(t, { margin: 1 }).track;
    t = applyWound(t, { margin: 1 }).track;
    const third = applyWound(t, { margin: 1 });
    const s = third.track.state as FateTrackState;
    expect(s.marks.clipped).toEqual(["clipped", "clipped"]);
    expect(s.marks.hurt).toEqual(["clipped", null]);
    expect(third.steps.map((x) => x.key)).toContain("FUDGE.Fate.Step.Spilled");
    // The spilled Clipped now sits on the Hurt line: −1 Clipped, −1 Hurt.
    expect(third.status.penalty).toBe(-2);
    const hurtRow = renderTrack(third.track).rows.find((r) => r.key === "hurt")!;
    expect(hurtRow.boxes[0]).toMatchObject({ marked: true, overflow: true, realLevelKey: "clipped", mark: "C" });
  });

  it("spills through Injured into Taken Out", () => {
    let t = withMarks({ hurt: 2, injured: 2 });
    const r = applyWound(t, { margin: 3 });
    expect((r.track.state as FateTrackState).marks.takenOut).toEqual(["hurt"]);
    expect(r.status.condition).toBe("takenOut");
    expect(r.status.canAct).toBe(false);
    expect(r.ended).toBe(true);
    t = r.track;
    // Nothing left anywhere: the wound cannot be recorded, the character stays out.
    const again = applyWound(t, { margin: 2 });
    expect(trackStateKey(again.track)).toBe(trackStateKey(t));
    expect(again.ended).toBe(true);
    expect(again.steps.map((x) => x.key)).toContain("FUDGE.Fate.Step.NoRoom");
  });

  it("+7 is Taken Out straight away (not necessarily dead)", () => {
    const r = applyWound(fresh(), { margin: 7 });
    expect(r.status.condition).toBe("takenOut");
    expect(r.status.levelKey).toBe("takenOut");
  });

  it("wounds may be given by level", () => {
    const r = applyWound(fresh(), { level: "injured" });
    expect((r.track.state as FateTrackState).marks.injured).toEqual(["injured", null]);
    expect(r.status.penalty).toBe(-1);
  });

  it("box counts are editable", () => {
    const t = newTrack({
      kind: "fate",
      label: "Social",
      lines: [
        { key: "clipped", boxes: 0 },
        { key: "hurt", boxes: 3 },
        { key: "injured", boxes: 1 },
        { key: "takenOut", boxes: 1 },
      ],
    } as { kind: string });
    const r = applyWound(t, { margin: 1 });
    // No Clipped box at all: the result goes straight to Hurt.
    expect((r.track.state as FateTrackState).marks.hurt).toEqual(["clipped", null, null]);
    expect(renderTrack(r.track).label).toBe("Social");
    expect(renderTrack(r.track).rows.map((row) => row.boxes.length)).toEqual([0, 3, 1, 1]);
  });
});

describe("FATE ladder: healing and clicks", () => {
  it("consumeClipped clears Clipped only", () => {
    const t = withMarks({ clipped: 2, hurt: 1 });
    const h = healTrack(t, { type: "consumeClipped" });
    expect((h.track.state as FateTrackState).marks.clipped).toEqual([null, null]);
    expect(trackStatus(h.track).penalty).toBe(-1);
  });

  it("endScene clears Hurt and Clipped, Injured stays", () => {
    const t = withMarks({ clipped: 1, hurt: 2, injured: 1 });
    const h = healTrack(t, { type: "endScene" });
    expect(trackStatus(h.track).penalty).toBe(-1);
    expect((h.track.state as FateTrackState).marks.injured).toEqual(["injured", null]);
  });

  it("endScene follows the real result: a Hurt that spilled into Injured or Taken Out heals too", () => {
    let t = withMarks({ hurt: 2, injured: 1 });
    t = applyWound(t, { margin: 3 }).track; // Hurt → spills into Injured
    t = applyWound(t, { margin: 5 }).track; // Injured → spills into Taken Out
    expect((t.state as FateTrackState).marks.injured).toEqual(["injured", "hurt"]);
    expect(trackStatus(t).condition).toBe("takenOut");
    const h = healTrack(t, { type: "endScene" });
    const s = h.track.state as FateTrackState;
    expect(s.marks).toEqual({
      clipped: [null, null],
      hurt: [null, null],
      injured: ["injured", null],
      takenOut: ["injured"],
    });
    // The Injured in the Taken Out box stays: still out until it heals.
    expect(trackStatus(h.track).condition).toBe("takenOut");
    const out = applyWound(fresh(), { margin: 7 }).track;
    expect(trackStatus(healTrack(out, { type: "endScene" }).track).condition).toBe("takenOut");
  });

  it("heal Injured by boxes never goes below zero", () => {
    const t = withMarks({ injured: 2 });
    expect(trackStatus(healTrack(t, { type: "heal", line: "injured", boxes: 1 }).track).penalty).toBe(-1);
    expect(trackStatus(healTrack(t, { type: "heal", line: "injured", boxes: 5 }).track).penalty).toBe(0);
  });

  it("heal one box by ref; toggle marks with its own level or clears", () => {
    const t = withMarks({ injured: 2 });
    const h = healTrack(t, { type: "box", ref: "injured:0" });
    expect((h.track.state as FateTrackState).marks.injured).toEqual([null, "injured"]);
    const on = toggleBox(fresh(), "hurt:1");
    expect((on.state as FateTrackState).marks.hurt).toEqual([null, "hurt"]);
    const off = toggleBox(on, "hurt:1");
    expect(trackStateKey(off)).toBe(trackStateKey(fresh()));
  });

  it("never mutates its input", () => {
    const t = withMarks({ clipped: 2, hurt: 1 });
    const copy = JSON.parse(JSON.stringify(t));
    applyWound(t, { margin: 5 });
    healTrack(t, { type: "endScene" });
    toggleBox(t, "injured:0");
    expect(t).toEqual(copy);
  });
});

describe("FATE ladder: bad input names the field", () => {
  it("config", () => {
    expect(fieldOf(() => newTrack({ kind: "fate", lines: [{ key: "hurt", boxes: 2 }] } as never))).toBe("config.lines");
    expect(fieldOf(() => parseTrack({ config: { kind: "fate", label: 3 } }))).toBe("track.config.label");
    const lines = defaultFateConfig().lines.map((l) => ({ ...l }));
    lines[1] = { key: "injured", boxes: 2 };
    expect(fieldOf(() => parseTrack({ config: { kind: "fate", lines } }))).toBe("track.config.lines[1].key");
    const lines2 = defaultFateConfig().lines.map((l) => ({ ...l }));
    lines2[3].boxes = 0;
    expect(fieldOf(() => parseTrack({ config: { kind: "fate", lines: lines2 } }))).toBe("track.config.lines[3].boxes");
  });

  it("state", () => {
    const config = defaultFateConfig();
    expect(
      fieldOf(() =>
        parseTrack({
          config,
          state: { marks: { clipped: [null], hurt: [null, null], injured: [null, null], takenOut: [null] } },
        }),
      ),
    ).toBe("track.state.marks.clipped");
    expect(
      fieldOf(() =>
        parseTrack({
          config,
          state: { marks: { clipped: [null, null], hurt: ["injured", null], injured: [null, null], takenOut: [null] } },
        }),
      ),
    ).toBe("track.state.marks.hurt[0]");
    expect(
      fieldOf(() =>
        parseTrack({
          config,
          state: { marks: { clipped: [null, "x"], hurt: [null, null], injured: [null, null], takenOut: [null] } },
        }),
      ),
    ).toBe("track.state.marks.clipped[1]");
  });

  it("wounds and healing", () => {
    expect(fieldOf(() => applyWound(fresh(), { margin: -1 }))).toBe("wound.margin");
    expect(fieldOf(() => applyWound(fresh(), { margin: 1.5 }))).toBe("wound.margin");
    expect(fieldOf(() => applyWound(fresh(), { level: "dead" }))).toBe("wound.level");
    expect(fieldOf(() => applyWound(fresh(), {}))).toBe("wound");
    expect(fieldOf(() => healTrack(fresh(), { type: "rest" }))).toBe("healing.type");
    expect(fieldOf(() => healTrack(fresh(), { type: "heal", line: "injured", boxes: 0 }))).toBe("healing.boxes");
    expect(fieldOf(() => healTrack(fresh(), { type: "box", ref: "hurt:9" }))).toBe("healing.ref");
    expect(fieldOf(() => toggleBox(fresh(), "nowhere:0"))).toBe("ref");
  });
});

// ---------------------------------------------------------------- property tests

const woundArb = fc.oneof(
  fc.record({ margin: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ level: fc.constantFrom(...FATE_LINES) }),
);
const configArb = fc
  .tuple(
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 1, max: 2 }),
  )
  .map(([c, h, i, o]) => ({
    kind: "fate",
    label: "Physical",
    lines: [
      { key: "clipped", boxes: c },
      { key: "hurt", boxes: h },
      { key: "injured", boxes: i },
      { key: "takenOut", boxes: o },
    ],
  }));
const healingArb = fc.oneof(
  fc.constant({ type: "consumeClipped" }),
  fc.constant({ type: "endScene" }),
  fc.record({ type: fc.constant("heal"), line: fc.constantFrom(...FATE_LINES), boxes: fc.integer({ min: 1, max: 5 }) }),
);

const markCount = (t: Track): number =>
  FATE_LINES.reduce((n, l) => n + (t.state as FateTrackState).marks[l].filter((m) => m !== null).length, 0);
const isWound = (w: { margin?: number; level?: string }): boolean => w.level !== undefined || (w.margin ?? 0) > 0;

describe("FATE ladder: properties", () => {
  it("no wound is lost: each is recorded, or the character is Taken Out", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 15 }), (config, wounds) => {
        let t = newTrack(config);
        for (const w of wounds) {
          const before = markCount(t);
          const r = applyWound(t, w);
          if (isWound(w)) {
            const recorded = markCount(r.track) === before + 1;
            expect(recorded || r.status.condition === "takenOut").toBe(true);
            if (!recorded) expect(r.ended).toBe(true);
          } else {
            expect(markCount(r.track)).toBe(before);
          }
          t = r.track;
        }
      }),
    );
  });

  it("marks never exceed boxes, and stored state always re-parses", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 15 }), (config, wounds) => {
        let t = newTrack(config);
        for (const w of wounds) {
          t = applyWound(t, w).track;
          for (const l of config.lines)
            expect((t.state as FateTrackState).marks[l.key as FateLine].length).toBe(l.boxes);
          expect(() => parseTrack(JSON.parse(JSON.stringify(t)))).not.toThrow();
        }
      }),
    );
  });

  it("the penalty never decreases (gets no better) as wounds are added", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 15 }), (config, wounds) => {
        let t = newTrack(config);
        let penalty = trackStatus(t).penalty;
        for (const w of wounds) {
          t = applyWound(t, w).track;
          const p = trackStatus(t).penalty;
          expect(p).toBeLessThanOrEqual(penalty);
          penalty = p;
        }
      }),
    );
  });

  it("healing never goes below zero marks nor above the marks it started from", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(woundArb, { maxLength: 12 }),
        fc.array(healingArb, { maxLength: 6 }),
        (config, wounds, heals) => {
          let t = newTrack(config);
          for (const w of wounds) t = applyWound(t, w).track;
          for (const h of heals) {
            const before = t.state as FateTrackState;
            const n = markCount(t);
            t = healTrack(t, h).track;
            expect(markCount(t)).toBeGreaterThanOrEqual(0);
            expect(markCount(t)).toBeLessThanOrEqual(n);
            // Healing only clears boxes; it never moves or re-labels a mark.
            for (const l of FATE_LINES)
              (t.state as FateTrackState).marks[l].forEach((m, i) => {
                if (m !== null) expect(m).toBe(before.marks[l][i]);
              });
            expect(trackStatus(t).penalty).toBeLessThanOrEqual(0);
          }
        },
      ),
    );
  });

  it("undoApplied restores the exact previous state", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 12 }), woundArb, (config, wounds, last) => {
        let t = newTrack(config);
        for (const w of wounds) t = applyWound(t, w).track;
        const before = JSON.parse(JSON.stringify(t.state));
        const r = applyWound(t, last);
        const undone = undoApplied(r.track, { before, after: JSON.parse(JSON.stringify(r.track.state)) });
        expect(undone.state).toEqual(t.state);
        expect(trackStateKey(undone)).toBe(trackStateKey(t));
      }),
    );
  });

  it("undo refuses when the track changed since", () => {
    const t = fresh();
    const r = applyWound(t, { margin: 3 });
    const changed = applyWound(r.track, { margin: 1 }).track;
    expect(() => undoApplied(changed, { before: t.state, after: r.track.state })).toThrow(RulesError);
  });

  it("stateKey is equal exactly for equal states", () => {
    fc.assert(
      fc.property(fc.array(woundArb, { maxLength: 8 }), fc.array(woundArb, { maxLength: 8 }), (w1, w2) => {
        let a = fresh();
        let b = fresh();
        for (const w of w1) a = applyWound(a, w).track;
        for (const w of w2) b = applyWound(b, w).track;
        expect(trackStateKey(a) === trackStateKey(b)).toBe(JSON.stringify(a.state) === JSON.stringify(b.state));
      }),
    );
  });
});

it("fateTrack is the registered kind", () => {
  expect(fateTrack.kind).toBe("fate");
  expect(renderTrack(fresh("Debate")).rows.map((r) => r.range)).toEqual(["1", "2–4", "5–6", "7+"]);
});
