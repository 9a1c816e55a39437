/**
 * The playground's URL dice (playground/dice.ts), in Node: fixed faces land on the rules core's
 * own die formulas; seeds repeat; bad faces are refused with the offending token.
 */
import { describe, expect, it } from "vitest";
import { parseDice } from "../../playground/dice";
import { rollDie, rollFudgeDice, seededRng } from "../../src/rules";

describe("playground dice from the URL", () => {
  it("fixed faces come out of the core's 4dF and dN rolls in order", () => {
    const d = parseDice("1,0,-1,-1,17/20,1/20,6/6");
    expect(d.mode).toBe("faces");
    expect(rollFudgeDice(4, d.rng)).toEqual([1, 0, -1, -1]);
    expect([rollDie(20, d.rng), rollDie(20, d.rng), rollDie(6, d.rng)]).toEqual([17, 1, 6]);
    expect(d.remaining()).toBe(0);
    expect(d.exhausted()).toBe(false);
    rollDie(6, d.rng);
    expect(d.exhausted()).toBe(true);
  });

  it("seed:N is the core's seeded generator", () => {
    const a = parseDice("seed:42");
    const b = seededRng(42);
    expect([a.rng(), a.rng(), a.rng()]).toEqual([b(), b(), b()]);
    expect(a.label).toBe("seed 42");
  });

  it("random by default; a bad face names itself", () => {
    expect(parseDice(null).mode).toBe("random");
    expect(parseDice("random").mode).toBe("random");
    expect(() => parseDice("1,2,0")).toThrow(/"2" is not a face/);
    expect(() => parseDice("21/20")).toThrow(/"21\/20"/);
  });
});
