import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  boxTrack,
  boxTrackConfig,
  BOX_TRACK_PRESETS,
  type BoxEffect,
  type BoxHealing,
  type BoxLevel,
  type BoxTrackConfig,
  type BoxTrackPreset,
  type BoxTrackState,
  type BoxWound,
} from "../../src/rules/fudge";
import { undoApplied, type Track } from "../../src/rules";
import { fieldOf } from "./errors";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 250) };

/** Random custom levels: effects never milder, penalties never milder, rising thresholds. */
const customLevels: fc.Arbitrary<BoxLevel[]> = fc
  .array(
    fc.record({
      boxes: fc.integer({ min: 0, max: 3 }),
      effectStep: fc.integer({ min: 0, max: 2 }),
      penaltyStep: fc.integer({ min: 0, max: 2 }),
      minStep: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((raw) => {
    const effects: BoxEffect[] = ["none", "penalty", "cannotAct", "dying", "out", "dead"];
    let e = 0;
    let p = 0;
    let min = 0;
    const levels = raw.map((r, i) => {
      if (i > 0) e = Math.min(e + r.effectStep, 4); // "dead" only as the last level (added below)
      p = Math.max(-10, p - r.penaltyStep);
      const m = r.minStep === null ? null : (min += r.minStep);
      return { key: `l${i}`, boxes: r.boxes, penalty: p, effect: effects[e], min: m, tag: `${i}` };
    });
    if (!levels.some((l) => l.boxes > 0)) levels[0].boxes = 1;
    return levels;
  });

const configArb: fc.Arbitrary<BoxTrackConfig> = fc
  .record({
    preset: fc.constantFrom(...BOX_TRACK_PRESETS),
    levels: customLevels,
    doubleRd: fc.boolean(),
    scratchCap: fc.boolean(),
    painShift: fc.integer({ min: -2, max: 2 }),
    maxThreeLevels: fc.boolean(),
    nearDeathNeedsIncapacitated: fc.boolean(),
    fudgePointSaves: fc.boolean(),
    epicExtraHurt: fc.integer({ min: 0, max: 2 }),
    epicExtraVeryHurt: fc.integer({ min: 0, max: 2 }),
  })
  .map((o) =>
    boxTrackConfig(o.preset as BoxTrackPreset, {
      levels: o.preset === "custom" ? o.levels : undefined,
      doubleRd: o.doubleRd,
      scratchCap: o.scratchCap,
      painShift: o.painShift,
      epicExtraHurt: o.epicExtraHurt,
      epicExtraVeryHurt: o.epicExtraVeryHurt,
      safeguards: {
        maxThreeLevels: o.maxThreeLevels,
        nearDeathNeedsIncapacitated: o.nearDeathNeedsIncapacitated,
        fudgePointSaves: o.fudgePointSaves,
      },
    }),
  );

/** Wound seeds: a level index (past the end = "dead") and flags, resolved against a config. */
const woundSeed = fc.record({
  level: fc.nat({ max: 7 }),
  stun: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
  kill: fc.integer({ min: 0, max: 30 }).map((x) => x === 0),
  began: fc.boolean(),
  fp: fc.boolean(),
});
type WoundSeed = typeof woundSeed extends fc.Arbitrary<infer T> ? T : never;

function woundFor(config: BoxTrackConfig, s: WoundSeed): BoxWound {
  const keys = [...config.levels.map((l) => l.key), "dead"];
  const w: BoxWound = { level: keys[s.level % keys.length] };
  if (s.stun) w.stun = true;
  if (s.kill) w.kill = true;
  if (s.began) w.beganRoundIncapacitated = true;
  if (s.fp) w.spendFudgePoint = true;
  return w;
}

const healingSeed = fc.oneof(
  fc.constant<BoxHealing>({ type: "scratches" }),
  fc.integer({ min: -4, max: 6 }).map((result): BoxHealing => ({ type: "roll", result })),
  fc.record({ weeks: fc.nat({ max: 6 }), rapid: fc.boolean() }).map((o): BoxHealing => ({ type: "natural", ...o })),
  fc.constant<BoxHealing>({ type: "endRound" }),
);

const markCount = (s: BoxTrackState): number =>
  Object.values(s.marks).reduce((n, row) => n + row.filter((m) => m !== null).length, 0);
const ABSORBED = [
  "FUDGE.Step.Box.NoEffect",
  "FUDGE.Step.Box.ScratchCap",
  "FUDGE.Step.Box.StunNoBox",
  "FUDGE.Step.Box.AlreadyDead",
  "FUDGE.Step.Box.Safeguard.MaxThreeAbsorbed",
  "FUDGE.Step.Box.Safeguard.NearDeathAbsorbed",
  "FUDGE.Step.Box.Safeguard.FudgePointAbsorbed",
];
/** Condition severity; dead and taken out are both the end. */
const RANK: Record<string, number> = { able: 0, cannotAct: 1, dying: 2, dead: 3, takenOut: 3 };

/** The state key as JSON builds it (the key is written directly, for speed: it must stay this string). */
const jsonStateKey = (config: BoxTrackConfig, s: BoxTrackState): string =>
  JSON.stringify([
    config.levels.map((l) => s.marks[l.key].map((m) => (m === null ? "" : `${m.stun ? "~" : ""}${m.level}`)).join(",")),
    s.stun ? [s.stun.effect, s.stun.rounds] : null,
    s.dead,
  ]);

function checkState(config: BoxTrackConfig, s: BoxTrackState): void {
  expect(boxTrack.stateKey(config, s)).toBe(jsonStateKey(config, s));
  for (const l of config.levels) expect(s.marks[l.key].length).toBe(l.boxes);
  expect(Object.keys(s.marks).sort()).toEqual(config.levels.map((l) => l.key).sort());
  // a stored copy parses back to the same state (marks never in a box milder than their real level)
  const back = boxTrack.parseState(config, JSON.parse(JSON.stringify(s)), "state");
  expect(boxTrack.stateKey(config, back)).toBe(boxTrack.stateKey(config, s));
  expect(back).toEqual(s);
}

describe("box track properties", () => {
  it("no wound is lost, marks never exceed boxes, penalty and condition never ease as wounds are added", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundSeed, { maxLength: 14 }), (config, seeds) => {
        let s = boxTrack.initial(config);
        let st = boxTrack.status(config, s);
        for (const seed of seeds) {
          const w = woundFor(config, seed);
          const r = boxTrack.apply(config, s, w);
          const recorded = markCount(r.state) === markCount(s) + 1;
          const absorbed = r.steps.some((x) => ABSORBED.includes(x.key));
          expect(recorded || r.ended || absorbed).toBe(true);
          if (r.steps.some((x) => x.key === "FUDGE.Step.Box.StunNoBox"))
            expect(r.state.stun?.effect).toBe("knockedOut");
          checkState(config, r.state);
          expect(r.status).toEqual(boxTrack.status(config, r.state));
          // A quiet apply (the duel forecast's) places the wound alike and reports the same status numbers.
          const q = boxTrack.apply(config, s, w, true);
          expect(q.state).toEqual(r.state);
          expect(q.ended).toBe(r.ended);
          expect({ ...q.status, steps: [] }).toEqual({ ...r.status, steps: [] });
          expect(r.status.penalty).toBeLessThanOrEqual(st.penalty);
          expect(RANK[r.status.condition]).toBeGreaterThanOrEqual(RANK[st.condition]);
          expect(r.ended).toBe(r.status.condition === "dead" || r.status.condition === "takenOut");
          s = r.state;
          st = r.status;
        }
      }),
      RUNS,
    );
  });

  it("undoApplied restores the exact previous state, and refuses when the track changed since", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundSeed, { minLength: 1, maxLength: 10 }), (config, seeds) => {
        let track: Track = { config: config as unknown as Track["config"], state: boxTrack.initial(config) };
        for (const seed of seeds) {
          const before = JSON.parse(JSON.stringify(track.state));
          const r = boxTrack.apply(config, track.state as BoxTrackState, woundFor(config, seed));
          const after: Track = { config: track.config, state: r.state };
          const undone = undoApplied(after, { before, after: JSON.parse(JSON.stringify(r.state)) });
          expect(undone.state).toEqual(before);
          if (boxTrack.stateKey(config, r.state) !== boxTrack.stateKey(config, before)) {
            // something else changed the track: refuse unless forced
            const changed: Track = {
              config: track.config,
              state: boxTrack.heal(config, r.state, { type: "scratches" }).state,
            };
            if (boxTrack.stateKey(config, changed.state as BoxTrackState) !== boxTrack.stateKey(config, r.state)) {
              expect(() => undoApplied(changed, { before, after: r.state })).toThrow(
                expect.objectContaining({ key: "FUDGE.Error.UndoConflict" }),
              );
              expect(undoApplied(changed, { before, after: r.state }, true).state).toEqual(before);
            }
          }
          track = after;
        }
      }),
      RUNS,
    );
  });

  it("healing never adds a mark, never worsens penalty or condition, never leaves a valid state", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(woundSeed, { maxLength: 12 }),
        fc.array(healingSeed, { minLength: 1, maxLength: 4 }),
        (config, seeds, heals) => {
          let s = boxTrack.initial(config);
          for (const seed of seeds) s = boxTrack.apply(config, s, woundFor(config, seed)).state;
          for (const h of heals) {
            const frozen = JSON.stringify(s);
            const before = boxTrack.status(config, s);
            const r = boxTrack.heal(config, s, boxTrack.parseHealing(config, h, "healing"));
            expect(JSON.stringify(s)).toBe(frozen);
            checkState(config, r.state);
            const after = boxTrack.status(config, r.state);
            expect(markCount(r.state)).toBeLessThanOrEqual(markCount(s));
            expect(after.penalty).toBeGreaterThanOrEqual(before.penalty);
            expect(RANK[after.condition]).toBeLessThanOrEqual(RANK[before.condition]);
            if (h.type === "scratches" && before.condition !== "dead") {
              expect(r.state.stun).toBeNull();
              for (const row of Object.values(r.state.marks))
                for (const m of row)
                  if (m) expect(m.stun || config.levels.find((l) => l.key === m.level)!.effect === "none").toBe(false);
            }
            s = r.state;
          }
        },
      ),
      RUNS,
    );
  });

  it("a big enough healing roll clears every wound level but leaves Scratches", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundSeed, { maxLength: 12 }), (config, seeds) => {
        let s = boxTrack.initial(config);
        for (const seed of seeds) s = boxTrack.apply(config, s, woundFor(config, seed)).state;
        const h = boxTrack.heal(config, s, { type: "roll", result: 20 }).state;
        if (s.dead || boxTrack.status(config, s).condition === "dead") {
          expect(h).toEqual(s);
          return;
        }
        for (const row of Object.values(h.marks))
          for (const m of row)
            if (m && !m.stun) expect(config.levels.find((l) => l.key === m.level)!.effect).toBe("none");
      }),
      RUNS,
    );
  });

  it("recover leaves exactly the chosen level as the worst wound", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundSeed, { maxLength: 10 }), fc.nat(), (config, seeds, pick) => {
        let s = boxTrack.initial(config);
        for (const seed of seeds) s = boxTrack.apply(config, s, woundFor(config, seed)).state;
        const targets = config.levels.filter((l) => l.boxes > 0 && l.effect !== "dead").map((l) => l.key);
        if (targets.length === 0 || boxTrack.status(config, s).condition === "dead") return;
        const to = targets[pick % targets.length];
        const r = boxTrack.heal(config, s, boxTrack.parseHealing(config, { type: "recover", to }, "healing")).state;
        checkState(config, r);
        expect(boxTrack.status(config, r).levelKey).toBe(to);
      }),
      RUNS,
    );
  });

  it("toggle twice on the same box gives back the same state", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundSeed, { maxLength: 8 }), fc.nat(), (config, seeds, pick) => {
        let s = boxTrack.initial(config);
        for (const seed of seeds) s = boxTrack.apply(config, s, woundFor(config, seed)).state;
        const refs = boxTrack.render(config, s).rows.flatMap((r) => r.boxes.map((b) => b.ref));
        const ref = refs[pick % refs.length];
        const once = boxTrack.toggle(config, s, ref);
        checkState(config, once);
        const twice = boxTrack.toggle(config, once, ref);
        const box = (x: BoxTrackState) =>
          boxTrack
            .render(config, x)
            .rows.flatMap((r) => r.boxes)
            .find((b) => b.ref === ref)!;
        expect(box(once).marked).toBe(!box(s).marked);
        // a cleared overflow mark comes back as a mark of the box's own level
        // (unmarking a Dead box also lifts death, so a dead track is skipped)
        if (!box(s).overflow && !box(s).stun && !s.dead) expect(twice).toEqual(s);
      }),
      RUNS,
    );
  });
});

describe("box track: bad input names the field", () => {
  const std = boxTrackConfig("standard");
  const cfg = (patch: Record<string, unknown>) => ({ ...JSON.parse(JSON.stringify(std)), ...patch });
  const lv = (i: number, patch: Record<string, unknown>) => {
    const c = JSON.parse(JSON.stringify(std));
    Object.assign(c.levels[i], patch);
    return c;
  };

  it("config", () => {
    expect(fieldOf(() => boxTrack.parseConfig(null, "config"))).toBe("config");
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ kind: "dc" }), "config"))).toBe("config.kind");
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ levels: [] }), "config"))).toBe("config.levels");
    expect(fieldOf(() => boxTrack.parseConfig(lv(1, { boxes: -1 }), "config"))).toBe("config.levels[1].boxes");
    expect(fieldOf(() => boxTrack.parseConfig(lv(1, { boxes: 1.5 }), "config"))).toBe("config.levels[1].boxes");
    expect(fieldOf(() => boxTrack.parseConfig(lv(2, { penalty: 1 }), "config"))).toBe("config.levels[2].penalty");
    expect(fieldOf(() => boxTrack.parseConfig(lv(2, { penalty: 0 }), "config"))).toBe("config.levels[2].penalty");
    expect(fieldOf(() => boxTrack.parseConfig(lv(2, { effect: "sad" }), "config"))).toBe("config.levels[2].effect");
    expect(fieldOf(() => boxTrack.parseConfig(lv(2, { effect: "none" }), "config"))).toBe("config.levels[2].effect");
    expect(fieldOf(() => boxTrack.parseConfig(lv(3, { min: 4 }), "config"))).toBe("config.levels[3].min");
    expect(fieldOf(() => boxTrack.parseConfig(lv(3, { key: "hurt" }), "config"))).toBe("config.levels[3].key");
    expect(fieldOf(() => boxTrack.parseConfig(lv(3, { key: "two words" }), "config"))).toBe("config.levels[3].key");
    expect(fieldOf(() => boxTrack.parseConfig(lv(3, { tag: "" }), "config"))).toBe("config.levels[3].tag");
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ scratchCap: "yes" }), "config"))).toBe("config.scratchCap");
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ painShift: 9 }), "config"))).toBe("config.painShift");
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ safeguards: { maxThreeLevels: 1 } }), "config"))).toBe(
      "config.safeguards.maxThreeLevels",
    );
    expect(fieldOf(() => boxTrack.parseConfig(cfg({ deadAt: 5 }), "config"))).toBe("config.deadAt");
    const allZero = JSON.parse(JSON.stringify(std));
    for (const l of allZero.levels) l.boxes = 0;
    expect(fieldOf(() => boxTrack.parseConfig(allZero, "config"))).toBe("config.levels");
    expect(fieldOf(() => boxTrackConfig("heroic" as BoxTrackPreset))).toBe("preset");
  });

  it("state", () => {
    const ok = boxTrack.initial(std);
    expect(fieldOf(() => boxTrack.parseState(std, 3, "state"))).toBe("state");
    expect(fieldOf(() => boxTrack.parseState(std, { ...ok, marks: { ...ok.marks, bruise: [] } }, "state"))).toBe(
      "state.marks.bruise",
    );
    expect(
      fieldOf(() =>
        boxTrack.parseState(
          std,
          { ...ok, marks: { ...ok.marks, hurt: [{ level: "hurt" }, { level: "hurt" }] } },
          "state",
        ),
      ),
    ).toBe("state.marks.hurt[1]");
    expect(
      fieldOf(() =>
        boxTrack.parseState(std, { ...ok, marks: { ...ok.marks, hurt: [{ level: "veryHurt" }] } }, "state"),
      ),
    ).toBe("state.marks.hurt[0].level");
    expect(
      fieldOf(() => boxTrack.parseState(std, { ...ok, marks: { ...ok.marks, hurt: [{ level: "bruise" }] } }, "state")),
    ).toBe("state.marks.hurt[0].level");
    expect(fieldOf(() => boxTrack.parseState(std, { ...ok, marks: { ...ok.marks, hurt: "X" } }, "state"))).toBe(
      "state.marks.hurt",
    );
    expect(fieldOf(() => boxTrack.parseState(std, { ...ok, stun: { effect: "dizzy", rounds: 1 } }, "state"))).toBe(
      "state.stun.effect",
    );
    expect(fieldOf(() => boxTrack.parseState(std, { ...ok, stun: { effect: "stunned", rounds: -1 } }, "state"))).toBe(
      "state.stun.rounds",
    );
    expect(fieldOf(() => boxTrack.parseState(std, { ...ok, dead: "no" }, "state"))).toBe("state.dead");
    // a config that gained a box reads old state as open boxes
    expect(boxTrack.parseState(std, { marks: { hurt: [] } }, "state")).toEqual(ok);
  });

  it("wound and healing", () => {
    expect(fieldOf(() => boxTrack.parseWound(std, {}, "wound"))).toBe("wound.level");
    expect(fieldOf(() => boxTrack.parseWound(std, { level: "bruise" }, "wound"))).toBe("wound.level");
    expect(fieldOf(() => boxTrack.parseWound(std, { level: "hurt", stun: "yes" }, "wound"))).toBe("wound.stun");
    expect(fieldOf(() => boxTrack.parseWound(std, { level: "hurt", kill: 1 }, "wound"))).toBe("wound.kill");
    expect(fieldOf(() => boxTrack.parseWound(std, { level: "hurt", spendFudgePoint: "y" }, "wound"))).toBe(
      "wound.spendFudgePoint",
    );
    expect(fieldOf(() => boxTrack.parseHealing(std, { type: "magic" }, "healing"))).toBe("healing.type");
    expect(fieldOf(() => boxTrack.parseHealing(std, { type: "roll" }, "healing"))).toBe("healing.result");
    expect(fieldOf(() => boxTrack.parseHealing(std, { type: "natural", weeks: -1 }, "healing"))).toBe("healing.weeks");
    expect(fieldOf(() => boxTrack.parseHealing(std, { type: "box", ref: "hurt:3" }, "healing"))).toBe("healing.ref");
    expect(fieldOf(() => boxTrack.parseHealing(std, { type: "endRound", rounds: 0 }, "healing"))).toBe(
      "healing.rounds",
    );
    expect(boxTrack.parseHealing(std, { type: "natural", weeks: 2, rapid: true }, "healing")).toEqual({
      type: "natural",
      weeks: 2,
      rapid: true,
    });
  });
});
