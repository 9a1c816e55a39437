/**
 * Volt: Recovery (seed 001): "A successful roll using a suitable medical Background reduces the
 * Injury with its result for this particular roll (not permanently)." The medical Background is
 * a Volt roll (two d20, black and white) against its value; a success lowers the Injury recovery
 * roll's value by its result, a failure lowers nothing; value 0 is no medical care (no roll).
 */
import { describe, expect, it } from "vitest";
import { medicalRoll, injuryToRecover } from "../../src/rules/volt";
import { keyOf } from "./errors";

describe("the medical Background roll (Volt: Recovery)", () => {
  it('"A successful roll … reduces the Injury with its result": value 10, dice 4 and 15 → success 4 lowers by 4', () => {
    const r = medicalRoll(10, 4, 15);
    expect(r.roll?.success).toBe(true);
    expect(r.lowers).toBe(4);
    expect(r.steps.map((s) => s.key)).toEqual([
      "FUDGE.Volt.Step.MedicalRoll",
      "FUDGE.Volt.Step.RollSuccess",
      "FUDGE.Volt.Step.MedicalLowers",
    ]);
    expect(r.steps.every((s) => s.rule === "Volt: Recovery")).toBe(true);
    expect(r.steps[2].params).toEqual({ result: 4 });
  });

  it("only a successful roll lowers: value 3, dice 10 and 12 → failure lowers nothing", () => {
    const r = medicalRoll(3, 10, 12);
    expect(r.roll?.success).toBe(false);
    expect(r.lowers).toBe(0);
    expect(r.steps.at(-1)!.key).toBe("FUDGE.Volt.Step.MedicalFailed");
  });

  it("the result is the Volt roll's: value 25, dice 3 and 18 → 3 + 20 = 23 lowers by 23 (Volt: Rolls, values over 20)", () => {
    expect(medicalRoll(25, 3, 18).lowers).toBe(23);
  });

  it("value 0: no medical care, no roll, nothing lowered", () => {
    expect(medicalRoll(0, 20, 20)).toEqual({ value: 0, roll: null, lowers: 0, steps: [] });
  });

  it("bad values and faces are refused", () => {
    expect(keyOf(() => medicalRoll(-1, 1, 1))).toBe("FUDGE.Error.OutOfRange");
    expect(keyOf(() => medicalRoll(5, 0, 1))).toBe("FUDGE.Error.OutOfRange");
  });

  it('"uses the highest Injury as the value": the highest Injury ("+" counts), none on Stun only', () => {
    const track = (marks: Record<string, string>) => ({ config: { kind: "volt" }, state: { marks } });
    expect(injuryToRecover(track({ "4": "injury", "12": "injuryOnStun", "14": "stun" }))).toBe(12);
    expect(injuryToRecover(track({ "14": "stun" }))).toBeNull();
    expect(injuryToRecover(track({}))).toBeNull();
  });
});
