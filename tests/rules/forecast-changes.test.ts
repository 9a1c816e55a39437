import { afterEach, describe, expect, it, vi } from "vitest";
import { SideChanges, type AttackResolution } from "../../src/rules";

/** A resolution as the engine reads it: only its wound and follow-ups. */
const dealing = (wound: unknown): AttackResolution => ({ wound, followUps: [] }) as unknown as AttackResolution;

describe("SideChanges: a leaf's change interned once", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a wound of plain fields (Volt) gets the id intern gives it, and is found again without JSON", () => {
    const c = new SideChanges();
    const row = c.ofResolution(dealing({ row: 13, type: "injury" }), null, false);
    const failed = c.ofResolution(dealing({ failedRoll: true, damage: 10, type: "stun" }), null, false);
    expect(c.intern({ wounds: [{ row: 13, type: "injury" }], heal: null, endsFreeAttack: false })).toBe(row);
    expect(
      c.intern({ wounds: [{ failedRoll: true, damage: 10, type: "stun" }], heal: null, endsFreeAttack: false }),
    ).toBe(failed);
    expect(c.list[row]).toEqual({ wounds: [{ row: 13, type: "injury" }], heal: null, endsFreeAttack: false });
    // Other fields, another type, or the same fields in another order: other changes.
    const others = [
      { row: 13, type: "stun" },
      { row: 12, type: "injury" },
      { type: "injury", row: 13 },
      { row: "13", type: "injury" },
    ].map((w) => c.ofResolution(dealing(w), null, false));
    expect(new Set([row, failed, c.nothing, ...others]).size).toBe(7);
    // Every leaf of an enumeration: a seen wound is found by its key, no JSON built.
    const json = vi.spyOn(JSON, "stringify");
    expect(c.ofResolution(dealing({ row: 13, type: "injury" }), null, false)).toBe(row);
    expect(json).not.toHaveBeenCalled();
  });

  it("a wound with nested values, a list of wounds, a healing or a free attack's end keeps its JSON key", () => {
    const c = new SideChanges();
    const nested = c.ofResolution(dealing({ row: 3, type: "stun", extra: { a: 1 } }), null, false);
    const two = c.ofResolution(
      dealing([
        { row: 3, type: "stun" },
        { row: 3, type: "injury" },
      ]),
      null,
      false,
    );
    const healed = c.ofResolution(dealing({ row: 3, type: "stun" }), { type: "rest" }, false);
    const ends = c.ofResolution(dealing({ row: 3, type: "stun" }), null, true);
    const plain = c.ofResolution(dealing({ row: 3, type: "stun" }), null, false);
    expect(new Set([nested, two, healed, ends, plain]).size).toBe(5);
    expect(c.intern({ wounds: [{ row: 3, type: "stun", extra: { a: 1 } }], heal: null, endsFreeAttack: false })).toBe(
      nested,
    );
    expect(c.intern({ wounds: [{ row: 3, type: "stun" }], heal: { type: "rest" }, endsFreeAttack: false })).toBe(
      healed,
    );
  });
});
