import { describe, expect, it } from "vitest";
import { RulesError } from "../../src/rules";
import { voltDie, voltRoll, voltRollOutcomes, voltSuccessChance } from "../../src/rules/volt";

describe("Volt roll", () => {
  it("seed: Damage 15, dice 9 and 13 → Injury 13", () => {
    const r = voltRoll(15, 9, 13);
    expect(r.success).toBe(true);
    expect(r.result).toBe(13);
  });

  it("value 22, dice 16 and 1 → 16 and 21 → success 21", () => {
    const r = voltRoll(22, 16, 1);
    expect(r.black.value).toBe(16);
    expect(r.white.value).toBe(21);
    expect(r.success).toBe(true);
    expect(r.result).toBe(21);
  });

  it("one success is enough; the result is the highest successful die", () => {
    expect(voltRoll(10, 4, 15)).toMatchObject({ success: true, result: 4 });
    expect(voltRoll(10, 15, 4)).toMatchObject({ success: true, result: 4 });
    expect(voltRoll(10, 10, 7)).toMatchObject({ success: true, result: 10 });
  });

  it("no success: the highest die rates the failure", () => {
    expect(voltRoll(10, 12, 17)).toMatchObject({ success: false, result: 17 });
    expect(voltRoll(0, 1, 1)).toMatchObject({ success: false, result: 1 });
    expect(voltRoll(-3, 5, 2)).toMatchObject({ success: false, result: 5 });
  });

  it("adds 20 as many times as the die still succeeds", () => {
    expect(voltDie(45, 3).value).toBe(43);
    expect(voltDie(45, 5).value).toBe(45);
    expect(voltDie(45, 6).value).toBe(26);
    expect(voltDie(20, 20).value).toBe(20);
    expect(voltDie(40, 20).value).toBe(40);
    expect(voltRoll(30, 20, 20)).toMatchObject({ success: true, result: 20 });
    expect(voltRoll(25, 7, 3)).toMatchObject({ success: true, result: 23 });
  });

  it("bad faces name the die", () => {
    expect(() => voltRoll(10, 0, 5)).toThrow(RulesError);
    try {
      voltRoll(10, 5, 21, "dice.damage");
    } catch (e) {
      expect((e as RulesError).field).toBe("dice.damage[1]");
    }
    expect(() => voltRoll(10.5, 1, 1)).toThrow(/value/);
  });
});

describe("voltRollOutcomes", () => {
  it("covers the 400 pairs exactly, matching a brute-force count", () => {
    for (const value of [-2, 0, 1, 7, 10, 15, 20, 21, 22, 30, 41, 60]) {
      const outcomes = voltRollOutcomes(value);
      expect(outcomes.reduce((s, o) => s + o.count, 0)).toBe(400);
      expect(outcomes.reduce((s, o) => s + o.p, 0)).toBeCloseTo(1, 12);
      const brute = new Map<string, number>();
      for (let b = 1; b <= 20; b++)
        for (let w = 1; w <= 20; w++) {
          const r = voltRoll(value, b, w);
          const k = `${r.success}:${r.result}`;
          brute.set(k, (brute.get(k) ?? 0) + 1);
        }
      expect(outcomes.length).toBe(brute.size);
      for (const o of outcomes) {
        expect(brute.get(`${o.success}:${o.result}`)).toBe(o.count);
        // the representative dice give the class's result
        expect(voltRoll(value, o.dice[0], o.dice[1])).toMatchObject({ success: o.success, result: o.result });
      }
    }
  });

  it("value 10: success 10 has 39 of 400 pairs, success 1 has 21, failure 20 has 19", () => {
    const o = voltRollOutcomes(10);
    expect(o.find((x) => x.success && x.result === 10)?.count).toBe(39);
    expect(o.find((x) => x.success && x.result === 1)?.count).toBe(21);
    expect(o.find((x) => !x.success && x.result === 20)?.count).toBe(19);
    expect(voltSuccessChance(10)).toBeCloseTo(1 - 0.25, 12);
    expect(voltSuccessChance(20)).toBe(1);
    expect(voltSuccessChance(0)).toBe(0);
  });
});
