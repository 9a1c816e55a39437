import { describe, expect, it } from "vitest";
import { baseGap, gangUpCount, inBaseContact, inContactWithEnemy, type TokenBox } from "../../src/foundry/table-pure";

const tok = (id: string, x: number, y: number, disposition = 1, w = 1, h = 1): TokenBox => ({ id, x, y, w, h, disposition });

describe("table geometry (Miniatures)", () => {
  it("bases touch side by side and diagonally, not across a gap", () => {
    expect(inBaseContact(tok("a", 0, 0), tok("b", 1, 0))).toBe(true);
    expect(inBaseContact(tok("a", 0, 0), tok("b", 1, 1))).toBe(true);
    expect(inBaseContact(tok("a", 0, 0), tok("b", 2, 0))).toBe(false);
    expect(baseGap(tok("a", 0, 0), tok("b", 3, 1))).toBe(2);
    expect(inBaseContact(tok("a", 0, 0, 1, 2, 2), tok("b", 2, 1))).toBe(true);
  });

  it("gang-up counts the attacker's other models touching the target", () => {
    const attacker = tok("a", 0, 1, 1);
    const target = tok("t", 1, 1, -1);
    const friend = tok("f", 2, 1, 1);
    const farFriend = tok("g", 5, 5, 1);
    const foe = tok("e", 1, 2, -1);
    expect(gangUpCount(attacker, target, [attacker, target, friend, farFriend, foe])).toBe(1);
    expect(gangUpCount(attacker, target, [attacker, target])).toBe(0);
  });

  it("in contact with an enemy", () => {
    const a = tok("a", 0, 0, 1);
    expect(inContactWithEnemy(a, [a, tok("f", 1, 0, 1)])).toBe(false);
    expect(inContactWithEnemy(a, [a, tok("e", 1, 1, -1)])).toBe(true);
  });
});
