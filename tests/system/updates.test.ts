import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mergeLikeFoundry, safeTrackUpdate, withDeletions } from "../../src/system/updates";

describe("a new track state replaces the stored one exactly under Foundry's merge", () => {
  it("keys the new state drops are deleted (a healed Volt row)", () => {
    const stored = { marks: { "7": "injury", "5": "stun" } };
    const next = { marks: { "7": "injury" } };
    expect(mergeLikeFoundry(stored, next)).toEqual(stored); // the bug this guards against
    expect(withDeletions(stored, next)).toEqual({ marks: { "7": "injury", "-=5": null } });
    expect(mergeLikeFoundry(stored, withDeletions(stored, next))).toEqual(next);
  });

  it("null, arrays and new keys pass through", () => {
    expect(withDeletions({ a: 1 }, null)).toBeNull();
    expect(withDeletions({ a: [1, 2] }, { a: [3] })).toEqual({ a: [3] });
    expect(withDeletions(null, { a: 1 })).toEqual({ a: 1 });
  });

  it("for any two JSON objects, merge(stored, withDeletions(stored, next)) = next", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.integer(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 3 }),
        tie("obj"),
      ),
      obj: fc.dictionary(fc.constantFrom("a", "b", "c", "7", "9"), tie("value"), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(json.obj, json.obj, (stored, next) => {
        expect(mergeLikeFoundry(stored, withDeletions(stored, next))).toEqual(next);
      }),
    );
  });

  it("safeTrackUpdate only touches woundTrack.state", () => {
    const stored = { woundTrack: { state: { marks: { x: 1 } }, preset: "standard" } };
    expect(safeTrackUpdate(stored, { system: { woundTrack: { state: { marks: {} } } } })).toEqual({
      system: { woundTrack: { state: { marks: { "-=x": null } } } },
    });
    // the pure actions' replacement key becomes a plain state with deletions
    expect(safeTrackUpdate(stored, { system: { woundTrack: { "==state": { marks: {} } } } })).toEqual({
      system: { woundTrack: { state: { marks: { "-=x": null } } } },
    });
    const other = { system: { fudgePoints: 2 } };
    expect(safeTrackUpdate(stored, other)).toBe(other);
  });
});
