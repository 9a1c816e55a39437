import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DC_DEAD,
  DC_WOUND_LEVELS,
  dcTrack,
  dcTrackConfig,
  type DcHealing,
  type DcTrackConfig,
  type DcTrackState,
  type DcWound,
} from "../../src/rules/fudge";
import { undoApplied, type Track } from "../../src/rules";
import { fieldOf } from "./errors";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 300) };

const configArb: fc.Arbitrary<DcTrackConfig> = fc
  .record({
    start: fc.integer({ min: -3, max: 3 }),
    scratchesPerHit: fc.integer({ min: 0, max: 5 }),
    levelsPerHit: fc.constantFrom("one" as const, "bySeverity" as const),
    terrible: fc.constantFrom("penalty" as const, "incapacitated" as const),
  })
  .map((o) => dcTrackConfig(o.start, o));

const woundArb: fc.Arbitrary<DcWound> = fc
  .record({ level: fc.constantFrom(...DC_WOUND_LEVELS), kill: fc.integer({ min: 0, max: 30 }).map((x) => x === 0) })
  .map((o) => (o.kill ? { level: o.level, kill: true } : { level: o.level }));

const healingArb: fc.Arbitrary<DcHealing> = fc.oneof(
  fc.constant<DcHealing>({ type: "scratches" }),
  fc.integer({ min: -4, max: 6 }).map((result): DcHealing => ({ type: "roll", result })),
  fc
    .record({ weeks: fc.nat({ max: 6 }), rapid: fc.boolean(), constitution: fc.integer({ min: -2, max: 3 }) })
    .map((o): DcHealing => ({ type: "natural", ...o })),
  fc.constant<DcHealing>({ type: "endRound" }),
);

const RANK: Record<string, number> = { able: 0, cannotAct: 1, dying: 2, dead: 3 };

function checkState(config: DcTrackConfig, s: DcTrackState): void {
  expect(s.dc).toBeLessThanOrEqual(config.start);
  expect(s.dc).toBeGreaterThanOrEqual(DC_DEAD);
  expect(s.scratches).toBeGreaterThanOrEqual(0);
  expect(s.scratches).toBeLessThanOrEqual(Math.max(0, config.scratchesPerHit - 1));
  expect(dcTrack.parseState(config, JSON.parse(JSON.stringify(s)), "state")).toEqual(s);
}

describe("DC track properties", () => {
  it("no wound is lost, DC stays in range, penalty and condition never ease as wounds are added", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 16 }), (config, wounds) => {
        let s = dcTrack.initial(config);
        let st = dcTrack.status(config, s);
        for (const w of wounds) {
          const r = dcTrack.apply(config, s, w);
          checkState(config, r.state);
          const changed = dcTrack.stateKey(config, r.state) !== dcTrack.stateKey(config, s);
          const ignored = r.steps.some(
            (x) => x.key === "FUDGE.Step.Dc.ScratchIgnored" || x.key === "FUDGE.Step.Dc.AlreadyDead",
          );
          expect(changed || r.ended || ignored).toBe(true);
          if (w.level !== "scratch" && !r.ended) expect(r.state.dc).toBeLessThan(s.dc);
          expect(r.status.penalty).toBeLessThanOrEqual(st.penalty);
          expect(RANK[r.status.condition]).toBeGreaterThanOrEqual(RANK[st.condition]);
          expect(r.ended).toBe(r.state.dc === DC_DEAD);
          s = r.state;
          st = r.status;
        }
      }),
      RUNS,
    );
  });

  it("healing never goes below zero or above the start, and never worsens the status", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(woundArb, { maxLength: 12 }),
        fc.array(healingArb, { minLength: 1, maxLength: 4 }),
        (config, wounds, heals) => {
          let s = dcTrack.initial(config);
          for (const w of wounds) s = dcTrack.apply(config, s, w).state;
          for (const h of heals) {
            const frozen = JSON.stringify(s);
            const r = dcTrack.heal(config, s, dcTrack.parseHealing(config, h, "healing"));
            expect(JSON.stringify(s)).toBe(frozen);
            checkState(config, r.state);
            expect(r.state.dc).toBeGreaterThanOrEqual(s.dc);
            expect(r.state.scratches).toBeLessThanOrEqual(s.scratches);
            const a = dcTrack.status(config, s);
            const b = dcTrack.status(config, r.state);
            // a Mediocre-or-worse character healed back to the start feels nothing again
            expect(b.penalty).toBeGreaterThanOrEqual(a.penalty);
            expect(RANK[b.condition]).toBeLessThanOrEqual(RANK[a.condition]);
            s = r.state;
          }
        },
      ),
      RUNS,
    );
  });

  it("undoApplied restores the exact previous state", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { minLength: 1, maxLength: 10 }), (config, wounds) => {
        let state = dcTrack.initial(config);
        for (const w of wounds) {
          const before = { ...state };
          const r = dcTrack.apply(config, state, w);
          const after: Track = { config: config as unknown as Track["config"], state: r.state };
          expect(undoApplied(after, { before, after: { ...r.state } }).state).toEqual(before);
          state = r.state;
        }
      }),
      RUNS,
    );
  });

  it("toggle twice on a box gives back the same state", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 8 }), fc.nat(), (config, wounds, pick) => {
        let s = dcTrack.initial(config);
        for (const w of wounds) s = dcTrack.apply(config, s, w).state;
        const refs = dcTrack.render(config, s).rows.flatMap((r) => r.boxes.map((b) => b.ref));
        const ref = refs[pick % refs.length];
        const once = dcTrack.toggle(config, s, ref);
        checkState(config, once);
        const marked = (x: DcTrackState) =>
          dcTrack
            .render(config, x)
            .rows.flatMap((r) => r.boxes)
            .find((b) => b.ref === ref)!.marked;
        expect(marked(once)).toBe(!marked(s));
      }),
      RUNS,
    );
  });
});

describe("DC track: bad input names the field", () => {
  const c = dcTrackConfig(1);
  it("config", () => {
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, kind: "box" }, "config"))).toBe("config.kind");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, start: 4 }, "config"))).toBe("config.start");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, start: "Good" }, "config"))).toBe("config.start");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, scratchesPerHit: -1 }, "config"))).toBe("config.scratchesPerHit");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, levelsPerHit: "two" }, "config"))).toBe("config.levelsPerHit");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, terrible: "dead" }, "config"))).toBe("config.terrible");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, thresholds: [1, 2, 3] }, "config"))).toBe("config.thresholds");
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, thresholds: [1, 3, 3, 7, 9] }, "config"))).toBe(
      "config.thresholds[2]",
    );
    expect(fieldOf(() => dcTrack.parseConfig({ ...c, label: 5 }, "config"))).toBe("config.label");
  });
  it("state", () => {
    expect(fieldOf(() => dcTrack.parseState(c, { dc: 2, scratches: 0 }, "state"))).toBe("state.dc"); // above the start
    expect(fieldOf(() => dcTrack.parseState(c, { dc: -7, scratches: 0 }, "state"))).toBe("state.dc");
    expect(fieldOf(() => dcTrack.parseState(c, { dc: 0, scratches: 3 }, "state"))).toBe("state.scratches");
    expect(fieldOf(() => dcTrack.parseState(c, [], "state"))).toBe("state");
  });
  it("wound and healing", () => {
    expect(fieldOf(() => dcTrack.parseWound(c, { level: "bruise" }, "wound"))).toBe("wound.level");
    expect(fieldOf(() => dcTrack.parseWound(c, { level: "hurt", kill: "yes" }, "wound"))).toBe("wound.kill");
    expect(fieldOf(() => dcTrack.parseHealing(c, { type: "roll", result: 1.5 }, "healing"))).toBe("healing.result");
    expect(fieldOf(() => dcTrack.parseHealing(c, { type: "natural", weeks: 1, rapid: 1 }, "healing"))).toBe(
      "healing.rapid",
    );
    expect(fieldOf(() => dcTrack.parseHealing(c, { type: "box", ref: "dc:1" }, "healing"))).toBe("healing.ref");
    expect(fieldOf(() => dcTrack.parseHealing(c, {}, "healing"))).toBe("healing.type");
  });
});
