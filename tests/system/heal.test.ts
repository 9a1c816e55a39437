import { describe, expect, it } from "vitest";
import {
  healDialogContext,
  healNoteLine,
  healingRequest,
  healsWithMedicalRoll,
  injuryRecoveryNoteLines,
} from "../../src/system/heal";
import { healWounds, updatedState } from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { healRollFormula, healRollTitle } from "../../src/system/rolling";
import { applyWound, trackStatus } from "../../src/rules";
import { defaultCharacterData, defaultWorldRules, type ActorDoc, type WorldRules } from "../../src/system/data";

const actor = (items: ActorDoc["items"] = [], system = defaultCharacterData()): ActorDoc => ({
  _id: "leroyleroyleroyl",
  name: "Leroy",
  type: "character",
  system,
  items,
  ownership: {},
});
const dice = { fudge: [1, 1, 0, -1], d20: [7, 15] as [number, number] };

describe("healing requests from the sheet's heal buttons", () => {
  it("kinds without inputs pass through", () => {
    expect(healingRequest("scratches", actor(), {}, dice, defaultWorldRules())).toEqual({ type: "scratches" });
    expect(healingRequest("endScene", actor(), {}, dice, defaultWorldRules())).toEqual({ type: "endScene" });
  });

  it("healing roll (Fudge §4.8): the healer's skill + 4dF", () => {
    expect(healingRequest("roll", actor(), { skill: 1 }, dice, defaultWorldRules())).toEqual({
      type: "roll",
      result: 2,
    });
  });

  it("natural healing: weeks, twice as fast with Rapid Healing", () => {
    expect(healingRequest("natural", actor(), { weeks: 2 }, dice, defaultWorldRules())).toEqual({
      type: "natural",
      weeks: 2,
    });
    const rapid = actor([
      {
        _id: "giftgiftgiftgift",
        name: "Rapid Healing",
        type: "gift",
        system: { effect: "rapidHealing", value: 0, description: "" },
      },
    ]);
    expect(healingRequest("natural", rapid, { weeks: 2 }, dice, defaultWorldRules())).toEqual({
      type: "natural",
      weeks: 2,
      rapid: true,
    });
  });

  it("Volt injury recovery: two d20, the character's Strength, no medical care by default", () => {
    expect(healingRequest("injuryRecovery", actor(), {}, dice, defaultWorldRules())).toEqual({
      type: "injuryRecovery",
      black: 7,
      white: 15,
      strength: 6,
      medical: 0,
    });
  });

  it('Volt: "A successful medical Background roll lowers the value used for that one recovery roll by its result" — the value is rolled, not typed', () => {
    const rules = defaultWorldRules();
    // Medical Background 10: 4 and 15 → success 4 → the recovery roll's value is lowered by 4.
    expect(
      healingRequest("injuryRecovery", actor(), { medicalValue: 10 }, { ...dice, medical: [4, 15] }, rules),
    ).toMatchObject({ black: 7, white: 15, medical: 4 });
    // Medical Background 3: 10 and 12 → failure → nothing lowered.
    expect(
      healingRequest("injuryRecovery", actor(), { medicalValue: 3 }, { ...dice, medical: [10, 12] }, rules),
    ).toMatchObject({ medical: 0 });
    // The old typed "result" is gone: a form's `medical` is no input of this dialog.
    expect(healingRequest("injuryRecovery", actor(), { medical: 3 }, dice, rules)).toMatchObject({ medical: 0 });
    expect(healsWithMedicalRoll("injuryRecovery", { medicalValue: 10 })).toBe(true);
    expect(healsWithMedicalRoll("injuryRecovery", { medicalValue: 0 })).toBe(false);
    expect(healsWithMedicalRoll("roll", { medicalValue: 10 })).toBe(false);
    // A medical value with no medical dice is a host bug, never a silent "no care".
    expect(() => healingRequest("injuryRecovery", actor(), { medicalValue: 10 }, dice, rules)).toThrow("not rolled");
    expect(() =>
      healingRequest("injuryRecovery", actor(), { medicalValue: 100 }, { ...dice, medical: [1, 1] }, rules),
    ).toThrow(expect.objectContaining({ field: "healing.medicalValue" }));
  });

  it("Volt: the note's lines show the medical roll's steps, then the recovery's", () => {
    const lines = injuryRecoveryNoteLines(
      { medicalValue: 10 },
      { medical: [4, 15] },
      [{ key: "K.Recovery", rule: "r", params: { a: 1 } }],
      (k, p) => `${k}${JSON.stringify(p)}`,
    );
    expect(lines).toEqual([
      'FUDGE.Volt.Step.MedicalRoll{"value":10}',
      'FUDGE.Volt.Step.RollSuccess{"value":10,"black":4,"white":15,"result":4}',
      'FUDGE.Volt.Step.MedicalLowers{"result":4}',
      'K.Recovery{"a":1}',
    ]);
    expect(injuryRecoveryNoteLines({}, {}, [], (k) => k)).toEqual([]);
  });

  it('Volt: "monthly by default; weekly or nightly per setting" — the dialog and the note name the world\'s interval', () => {
    const rules = { ...defaultWorldRules(), preset: "volt" as const, volt: { recovery: "weekly" as const } };
    expect(healDialogContext("injuryRecovery", "Leroy", rules)).toMatchObject({
      titleKey: "FUDGE.Heal.InjuryRecoveryEvery.weekly",
      noteKey: "FUDGE.Heal.InjuryRecoveryInterval.weekly",
    });
    expect(healDialogContext("injuryRecovery", "Leroy", rules).fields.map((f) => f.name)).toEqual(["medicalValue"]);
    expect(healDialogContext("roll", "Leroy", rules)).not.toHaveProperty("titleKey");
    expect(healRollTitle("injuryRecovery", actor(), rules)).toBe("FUDGE.Heal.InjuryRecoveryEvery.weekly");
    expect(healRollTitle("injuryRecovery", actor(), defaultWorldRules())).toBe(
      "FUDGE.Heal.InjuryRecoveryEvery.monthly",
    );
  });

  it("bad input is refused naming the field", () => {
    expect(() => healingRequest("natural", actor(), { weeks: -1 }, dice, defaultWorldRules())).toThrow(
      expect.objectContaining({ field: "healing.weeks" }),
    );
    expect(() => healingRequest("roll", actor(), { skill: 1.5 }, dice, defaultWorldRules())).toThrow(
      expect.objectContaining({ field: "healing.skill" }),
    );
  });

  it("the requests are accepted by the rules core (the heal actually runs)", () => {
    const rules = defaultWorldRules();
    expect(() => healWounds(actor(), healingRequest("roll", actor(), { skill: 1 }, dice, rules), rules)).not.toThrow();
    expect(() =>
      healWounds(actor(), healingRequest("natural", actor(), { weeks: 1 }, dice, rules), rules),
    ).not.toThrow();
    const volt = { ...rules, preset: "volt" as const };
    // Volt: Recovery — an Injury to recover from (row 8).
    const injured = actor();
    injured.system.woundTrack.state = { marks: { "8": "injury" } };
    expect(() =>
      healWounds(injured, healingRequest("injuryRecovery", injured, { medicalValue: 0 }, dice, volt), volt),
    ).not.toThrow();
  });
});

describe('RULES §2.5 natural healing: "optional Constitution roll: Fair for Hurt, Good for Very Hurt, Great for Incapacitated"', () => {
  const on = () => {
    const rules = defaultWorldRules();
    rules.fudgeTrack = { ...rules.fudgeTrack, healingConstitutionRoll: true };
    return rules;
  };
  // Constitution is Damage Capacity (Fudge §4.52 "tied to a character trait such as Constitution"): Good +1 here.
  const good = () => {
    const system = defaultCharacterData();
    system.attributes = { ...system.attributes, damageCapacity: 1 };
    return actor([], system);
  };
  const wounded = (level: string, rules: WorldRules) => {
    const a = good();
    a.system.woundTrack.state = applyWound(trackFor(a, rules), { level }).track.state;
    return a;
  };
  const levelAfter = (a: ActorDoc, fudge: number[], rules: WorldRules) => {
    const r = healWounds(a, healingRequest("natural", a, { weeks: 1 }, { fudge, d20: [1, 1] }, rules), rules);
    const after = structuredClone(a);
    after.system.woundTrack.state = updatedState(r.update);
    return trackStatus(trackFor(after, rules)).levelKey;
  };

  it("the world's option rolls 4dF for natural healing and sends the Constitution rolled degree (DC + 4dF) to the rules core", () => {
    expect(healRollFormula("natural", good(), on())).toBe("4dF");
    expect(healRollTitle("natural", good(), on())).toBe("FUDGE.Heal.ConstitutionRoll");
    expect(healingRequest("natural", good(), { weeks: 2 }, { fudge: [1, 1, 0, -1], d20: [1, 1] }, on())).toEqual({
      type: "natural",
      weeks: 2,
      constitution: 2,
    });
    // Off (the default), or a miniature: no roll, no Constitution.
    expect(healRollFormula("natural", good(), defaultWorldRules())).toBeUndefined();
    expect(healingRequest("natural", good(), { weeks: 2 }, dice, defaultWorldRules())).toEqual({
      type: "natural",
      weeks: 2,
    });
    expect(healRollFormula("natural", { type: "miniature" }, on())).toBeUndefined();
    expect(healRollFormula("roll", good(), on())).toBe("4dF");
    expect(() => healingRequest("natural", good(), { weeks: 1 }, { fudge: [1, 1], d20: [1, 1] }, on())).toThrow(
      expect.objectContaining({ field: "dice.fudge" }),
    );
  });

  it("a week heals a wound only when the roll makes its level: Fair for Hurt, Good for Very Hurt, Great for Incapacitated", () => {
    const rules = on();
    // DC Good +1: dice −1 → Fair, 0 → Good, +1 → Great.
    expect(levelAfter(wounded("hurt", rules), [-1, 0, 0, 0], rules)).toBeNull();
    expect(levelAfter(wounded("hurt", rules), [-1, -1, 0, 0], rules)).toBe("hurt");
    expect(levelAfter(wounded("veryHurt", rules), [-1, 0, 0, 0], rules)).toBe("veryHurt");
    expect(levelAfter(wounded("veryHurt", rules), [0, 0, 0, 0], rules)).toBe("hurt");
    expect(levelAfter(wounded("incapacitated", rules), [0, 0, 0, 0], rules)).toBe("incapacitated");
    expect(levelAfter(wounded("incapacitated", rules), [1, 0, 0, 0], rules)).toBe("veryHurt");
    // The option off: a week heals a level whatever the dice.
    expect(levelAfter(wounded("incapacitated", defaultWorldRules()), [-1, -1, -1, -1], defaultWorldRules())).toBe(
      "veryHurt",
    );
  });

  it("the DC-track variant heals by the same Constitution gate (RULES §2.4 #4)", () => {
    const rules = on();
    rules.fudge = { ...rules.fudge, dcVariant: "track" };
    const a = good();
    for (let i = 0; i < 3; i++)
      a.system.woundTrack.state = applyWound(trackFor(a, rules), { level: "hurt" }).track.state;
    // DC +1 → −2 (Poor: Very Hurt) needs Good.
    expect(levelAfter(a, [-1, 0, 0, 0], rules)).toBe("veryHurt");
    expect(levelAfter(a, [0, 0, 0, 0], rules)).toBe("hurt");
  });

  it("the healing note says the roll: trait, dice, result", () => {
    const line = healNoteLine("natural", good(), { fudge: [1, 0, 0, -1], d20: [1, 1] }, on());
    expect(line).toEqual({
      key: "FUDGE.Heal.ConstitutionNote",
      params: { trait: "Good (+1)", faces: "+ 0 0 −", rolled: "Good (+1)" },
    });
    expect(healNoteLine("natural", good(), dice, defaultWorldRules())).toBeNull();
    expect(healNoteLine("roll", good(), dice, on())).toBeNull();
  });
});
