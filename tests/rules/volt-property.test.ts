import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyWound,
  CONDITIONS,
  healTrack,
  newTrack,
  renderTrack,
  trackStateKey,
  trackStatus,
  undoApplied,
  type Track,
} from "../../src/rules";
import { voltGeometry, type VoltMark, type VoltTrackConfig } from "../../src/rules/volt";

type Marks = Record<string, VoltMark>;
const marksOf = (t: Track): Marks => (t.state as { marks: Marks }).marks;
const count = (m: Marks, pred: (x: VoltMark) => boolean): number => Object.values(m).filter(pred).length;
const isInjury = (x: VoltMark): boolean => x !== "stun";
const isStun = (x: VoltMark): boolean => x === "stun";

const configArb = fc.record({
  kind: fc.constant("volt"),
  willpower: fc.integer({ min: 0, max: 14 }),
  tough: fc.integer({ min: -4, max: 5 }),
  extraRows: fc.integer({ min: 0, max: 4 }),
});
const makeTrack = (c: { willpower: number; tough: number; extraRows: number }): Track =>
  newTrack({ kind: "volt", willpower: c.willpower, tough: c.tough, rows: Math.max(20, 16 + c.tough) + c.extraRows } as {
    kind: string;
  });

const typeArb = fc.constantFrom("injury" as const, "stun" as const);
const woundArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ row: fc.integer({ min: 1, max: 40 }), type: typeArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      failedRoll: fc.constant(true as const),
      damage: fc.integer({ min: -5, max: 30 }),
      type: typeArb,
    }),
  },
);
const healingArb = fc.oneof(
  fc.record({ type: fc.constant("recover"), result: fc.constantFrom("success", "failure") }),
  fc.record({ type: fc.constant("rest") }),
  fc.record({
    type: fc.constant("injuryRecovery"),
    black: fc.integer({ min: 1, max: 20 }),
    white: fc.integer({ min: 1, max: 20 }),
    strength: fc.integer({ min: 0, max: 20 }),
    medical: fc.integer({ min: 0, max: 8 }),
  }),
  fc.record({ type: fc.constant("box"), ref: fc.integer({ min: 1, max: 20 }).map((r) => `row-${r}`) }),
);

const IGNORED = ["FUDGE.Volt.Step.Blacked", "FUDGE.Volt.Step.FailedAboveDamage"];

describe("Volt track properties", () => {
  it("no wound is lost; marks stay on the sheet; penalty and condition never improve as wounds are added", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { minLength: 1, maxLength: 40 }), (c, wounds) => {
        let t = makeTrack(c);
        const g = voltGeometry(t.config as unknown as VoltTrackConfig);
        let status = trackStatus(t);
        for (const w of wounds) {
          const before = marksOf(t);
          const r = applyWound(t, w);
          const after = marksOf(r.track);
          const dInjury = count(after, isInjury) - count(before, isInjury);
          const dStun = count(after, isStun) - count(before, isStun);
          const recorded =
            w.type === "injury" ? dInjury === 1 && (dStun === 0 || dStun === -1) : dStun === 1 && dInjury === 0;
          const keys = r.steps.map((s) => s.key);
          const ignored =
            keys.some((k) => IGNORED.includes(k)) && !r.ended && trackStateKey(r.track) === trackStateKey(t);
          // a wound ends the fight unrecorded only when the sheet has no empty row left
          const ended =
            r.ended && trackStateKey(r.track) === trackStateKey(t) && Object.keys(before).length === g.rows - g.blacked;
          if (r.ended) expect(ended).toBe(true);
          expect(recorded || ignored || ended).toBe(true);
          // an Injury that replaces a Stun turns it into "+", nothing else disappears
          for (const [row, m] of Object.entries(before)) {
            expect(after[row]).toBeDefined();
            if (m !== "stun") expect(after[row]).toBe(m);
          }
          // marks never exceed the rows of the sheet (nor sit on blacked-out circles)
          for (const row of Object.keys(after).map(Number)) {
            expect(row).toBeGreaterThan(g.blacked);
            expect(row).toBeLessThanOrEqual(g.rows);
          }
          expect(Object.keys(after).length).toBeLessThanOrEqual(g.rows - g.blacked);
          expect(renderTrack(r.track).rows).toHaveLength(g.rows);
          // penalty never decreases (gets no better); condition never improves; canAct never returns
          expect(r.status.penalty).toBeLessThanOrEqual(status.penalty);
          expect(CONDITIONS.indexOf(r.status.condition)).toBeGreaterThanOrEqual(CONDITIONS.indexOf(status.condition));
          if (!status.canAct) expect(r.status.canAct).toBe(false);
          expect(r.status).toEqual(trackStatus(r.track));
          status = r.status;
          t = r.track;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("healing never removes more than is there, and only what its rule clears", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(woundArb, { maxLength: 25 }),
        fc.array(healingArb, { minLength: 1, maxLength: 8 }),
        (c, wounds, heals) => {
          let t = wounds.reduce<Track>((acc, w) => applyWound(acc, w).track, makeTrack(c));
          const g = voltGeometry(t.config as unknown as VoltTrackConfig);
          for (const h of heals) {
            if (h.type === "box" && Number((h as { ref: string }).ref.slice(4)) > g.rows) continue;
            const before = marksOf(t);
            const r = healTrack(t, h);
            const after = marksOf(r.track);
            const removed = Object.keys(before).filter((row) => after[row] === undefined);
            const added = Object.keys(after).filter((row) => before[row] === undefined);
            expect(removed.length).toBeLessThanOrEqual(Object.keys(before).length);
            if (h.type === "recover") {
              expect(added).toEqual([]);
              expect(removed.length).toBeLessThanOrEqual(1);
              removed.forEach((row) => expect(before[row]).toBe("stun"));
            } else if (h.type === "rest") {
              expect(added).toEqual([]);
              removed.forEach((row) => expect(before[row]).toBe("stun"));
              expect(count(after, isStun)).toBe(0);
              expect(count(after, isInjury)).toBe(count(before, isInjury));
            } else if (h.type === "box") {
              expect(added).toEqual([]);
              expect(removed.length).toBeLessThanOrEqual(1);
            } else {
              // injury recovery: only Injuries heal; at most one Injury is added (infection, or the drop)
              removed.forEach((row) => expect(isInjury(before[row])).toBe(true));
              expect(added.length).toBeLessThanOrEqual(1);
              expect(count(after, (x) => x !== "stun") - count(before, (x) => x !== "stun")).toBeLessThanOrEqual(1);
              // Stun marks stay marked (one may become "+")
              for (const [row, m] of Object.entries(before)) if (m === "stun") expect(after[row]).toBeDefined();
              for (const row of Object.keys(after).map(Number)) {
                expect(row).toBeGreaterThan(g.blacked);
                expect(row).toBeLessThanOrEqual(g.rows);
              }
            }
            t = r.track;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("undoApplied restores the exact previous state", () => {
    fc.assert(
      fc.property(configArb, fc.array(woundArb, { maxLength: 20 }), woundArb, (c, wounds, last) => {
        const t = wounds.reduce<Track>((acc, w) => applyWound(acc, w).track, makeTrack(c));
        const snapshot = JSON.parse(JSON.stringify(t));
        const r = applyWound(t, last);
        const applied = JSON.parse(JSON.stringify({ before: t.state, after: r.track.state }));
        const undone = undoApplied(r.track, applied);
        expect(undone).toEqual(snapshot);
        expect(trackStateKey(undone)).toBe(trackStateKey(snapshot));
        expect(t).toEqual(snapshot); // input untouched
      }),
      { numRuns: 300 },
    );
  });
});
