import { describe, expect, it } from "vitest";
import {
  areEnemies,
  baseGap,
  gangUpCount,
  inBaseContact,
  inContactWithEnemy,
  tableSituation,
  type TokenBox,
} from "../../src/rules/miniatures";

const tok = (id: string, x: number, y: number, disposition = 1, w = 1, h = 1): TokenBox => ({
  id,
  x,
  y,
  w,
  h,
  disposition,
});

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

  it("a neutral token is a bystander, nobody's enemy (docs/foundry.md): touching one does not stop a shot", () => {
    const a = tok("a", 0, 0, 1);
    expect(areEnemies(a, tok("e", 1, 0, -1))).toBe(true);
    expect(areEnemies(a, tok("n", 1, 0, 0))).toBe(false);
    expect(areEnemies(tok("n", 0, 0, 0), tok("e", 1, 0, -1))).toBe(false);
    expect(inContactWithEnemy(a, [a, tok("n", 1, 0, 0)])).toBe(false);
  });

  const opts = { gangUp: true, rangeFromDistance: true };
  it('Miniatures: Melee Combat, "Melee attacks must be made in base-to-base contact with the target model": contact with another enemy does not count', () => {
    const a = tok("a", 0, 0, 1);
    const touching = tok("e", 1, 0, -1);
    const far = tok("t", 8, 0, -1);
    const all = [a, touching, far];
    expect(tableSituation(a, far, all, { ...opts, ranged: false, distance: null }).inContact).toBe(false);
    expect(tableSituation(a, touching, all, { ...opts, ranged: false, distance: null }).inContact).toBe(true);
    // Ranged Combat: "may not be fired while in base-to-base contact with an enemy" — any enemy.
    expect(tableSituation(a, far, all, { ...opts, ranged: true, distance: 8 })).toEqual({
      gangUp: 0,
      rangeInches: 8,
      inContact: true,
    });
  });

  it('Miniatures: "+1 to hit per attack when more than one model attacks the same enemy" and "−1 per multiple of Range": each target its own', () => {
    const a = tok("a", 1, 0, 1);
    const t1 = tok("t1", 0, 0, -1);
    const t2 = tok("t2", 2, 0, -1);
    const friend = tok("f", 0, 1, 1); // touches t1 only
    const all = [a, t1, t2, friend];
    expect(tableSituation(a, t1, all, { ...opts, ranged: false, distance: null }).gangUp).toBe(1);
    expect(tableSituation(a, t2, all, { ...opts, ranged: false, distance: null }).gangUp).toBe(0);
    expect(
      tableSituation(a, t2, all, { gangUp: false, rangeFromDistance: true, ranged: true, distance: 12.345 }),
    ).toEqual({ rangeInches: 12.3, inContact: true });
    // No range without the world option or a measure; no range for a melee weapon.
    expect(
      tableSituation(a, t2, all, { gangUp: false, rangeFromDistance: false, ranged: true, distance: 12 }).rangeInches,
    ).toBeUndefined();
    expect(tableSituation(a, t2, all, { ...opts, ranged: true, distance: null }).rangeInches).toBeUndefined();
    expect(tableSituation(a, t2, all, { ...opts, ranged: false, distance: 12 }).rangeInches).toBeUndefined();
  });
});
