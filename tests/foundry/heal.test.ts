import { describe, expect, it } from "vitest";
import { healingRequest } from "../../src/foundry/heal-pure";
import { healWounds } from "../../src/system/actions";
import { defaultCharacterData, defaultWorldRules, type ActorDoc } from "../../src/system/data";

const actor = (items: ActorDoc["items"] = [], system = defaultCharacterData()): ActorDoc => ({ _id: "leroyleroyleroyl", name: "Leroy", type: "character", system, items, ownership: {} });
const dice = { fudge: [1, 1, 0, -1], d20: [7, 15] as [number, number] };

describe("healing requests from the sheet's heal buttons", () => {
  it("kinds without inputs pass through", () => {
    expect(healingRequest("scratches", actor(), {}, dice)).toEqual({ type: "scratches" });
    expect(healingRequest("endScene", actor(), {}, dice)).toEqual({ type: "endScene" });
  });

  it("healing roll (Fudge §4.8): the healer's skill + 4dF", () => {
    expect(healingRequest("roll", actor(), { skill: 1 }, dice)).toEqual({ type: "roll", result: 2 });
  });

  it("natural healing: weeks, twice as fast with Rapid Healing", () => {
    expect(healingRequest("natural", actor(), { weeks: 2 }, dice)).toEqual({ type: "natural", weeks: 2 });
    const rapid = actor([{ _id: "giftgiftgiftgift", name: "Rapid Healing", type: "gift", system: { effect: "rapidHealing", value: 0, description: "" } }]);
    expect(healingRequest("natural", rapid, { weeks: 2 }, dice)).toEqual({ type: "natural", weeks: 2, rapid: true });
  });

  it("Volt injury recovery: two d20, the character's Strength and a medical result", () => {
    expect(healingRequest("injuryRecovery", actor(), { medical: 3 }, dice)).toEqual({ type: "injuryRecovery", black: 7, white: 15, strength: 6, medical: 3 });
  });

  it("bad input is refused naming the field", () => {
    expect(() => healingRequest("natural", actor(), { weeks: -1 }, dice)).toThrow(expect.objectContaining({ field: "healing.weeks" }));
    expect(() => healingRequest("roll", actor(), { skill: 1.5 }, dice)).toThrow(expect.objectContaining({ field: "healing.skill" }));
  });

  it("the requests are accepted by the rules core (the heal actually runs)", () => {
    const rules = defaultWorldRules();
    expect(() => healWounds(actor(), healingRequest("roll", actor(), { skill: 1 }, dice), rules)).not.toThrow();
    expect(() => healWounds(actor(), healingRequest("natural", actor(), { weeks: 1 }, dice), rules)).not.toThrow();
    const volt = { ...rules, preset: "volt" as const };
    expect(() => healWounds(actor(), healingRequest("injuryRecovery", actor(), { medical: 0 }, dice), volt)).not.toThrow();
  });
});
