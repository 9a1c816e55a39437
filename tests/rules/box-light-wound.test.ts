/**
 * Fudge §4.51: "maybe a Light Wound causes no penalty during combat (you don't notice such a
 * slight wound in the heat of battle), but after combat the character will be at -1 to all skills
 * until it's healed" — a box level's `afterCombatPenalty` and penaltyFor.
 */
import { describe, expect, it } from "vitest";
import { applyWound, healTrack, newTrack, penaltyFor, trackStatus, type Track, resolveAttack } from "../../src/rules";
import { boxTrackConfig, type BoxLevel, type BoxTrackConfig } from "../../src/rules/fudge";
import { caught } from "./errors";

// The text's expanded track: Light Wound (no penalty in combat, −1 after), Moderate −1, Severe −2.
const levels: BoxLevel[] = [
  { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1, tag: "S" },
  {
    key: "lightWound",
    label: "Light Wound",
    boxes: 1,
    penalty: 0,
    afterCombatPenalty: -1,
    effect: "none",
    min: 3,
    tag: "L",
  },
  { key: "moderateWound", label: "Moderate Wound", boxes: 1, penalty: -1, effect: "penalty", min: 5, tag: "M" },
  { key: "severeWound", label: "Severe Wound", boxes: 1, penalty: -2, effect: "penalty", min: 7, tag: "W" },
  { key: "incapacitated", boxes: 1, penalty: -2, effect: "cannotAct", min: 9, tag: "I" },
];
const track = (painShift = 0): Track => newTrack(boxTrackConfig("custom", { levels, painShift }));

describe('Fudge §4.51 "a Light Wound causes no penalty during combat … but after combat the character will be at -1 to all skills until it\'s healed"', () => {
  it("no penalty in combat, −1 out of combat, with a step naming the rule", () => {
    const s = trackStatus(applyWound(track(), { level: "lightWound" }).track);
    expect(s.penalty).toBe(0);
    expect(s.afterCombatPenalty).toBe(-1);
    expect([penaltyFor(s, true), penaltyFor(s, false)]).toEqual([0, -1]);
    expect(s.steps.find((x) => x.key === "FUDGE.Step.Box.AfterCombat")).toMatchObject({
      rule: "Fudge §4.51",
      value: -1,
    });
  });

  it('"until it\'s healed": healed, the after-combat penalty goes', () => {
    const hurt = applyWound(track(), { level: "lightWound" }).track;
    const s = trackStatus(healTrack(hurt, { type: "box", ref: "lightWound:0" }).track);
    expect([penaltyFor(s, true), penaltyFor(s, false)]).toEqual([0, 0]);
  });

  it("only the highest marked level counts (§4.57): a Moderate Wound over it is −1 in and out of combat", () => {
    const both = applyWound(applyWound(track(), { level: "lightWound" }).track, { level: "moderateWound" }).track;
    const s = trackStatus(both);
    expect(s.afterCombatPenalty).toBeUndefined();
    expect([penaltyFor(s, true), penaltyFor(s, false)]).toEqual([-1, -1]);
  });

  it("a level without it has one penalty (every built-in preset); a High Pain Threshold moves it like the combat penalty", () => {
    const std = trackStatus(applyWound(newTrack(boxTrackConfig("standard")), { level: "hurt" }).track);
    expect(std.afterCombatPenalty).toBeUndefined();
    expect(penaltyFor(std, false)).toBe(-1);
    const tough = trackStatus(applyWound(track(-1), { level: "lightWound" }).track);
    expect(penaltyFor(tough, false)).toBe(-1); // the combat penalty was already 0: shifted by 0
  });

  it("a standard track with an after-combat penalty on a level keeps it (not read as the built-in preset)", () => {
    const std = boxTrackConfig("standard").levels.map((l, i) =>
      i === 0 ? { ...l, afterCombatPenalty: -1 } : { ...l },
    );
    const t = newTrack(boxTrackConfig("custom", { levels: std }));
    expect((t.config as unknown as BoxTrackConfig).levels[0].afterCombatPenalty).toBe(-1);
    const s = trackStatus(applyWound(t, { level: "scratch" }).track);
    expect([penaltyFor(s, true), penaltyFor(s, false)]).toEqual([0, -1]);
  });

  it('"until it\'s healed": a Light Wound is a wound, not a Scratch — the after-fight Scratch clearing keeps it; a healing roll lowers a worse wound to it', () => {
    const hurt = applyWound(applyWound(track(), { level: "scratch" }).track, { level: "lightWound" }).track;
    const after = healTrack(hurt, { type: "scratches" }).track;
    expect(after.state).toMatchObject({
      marks: { scratch: [null, null, null], lightWound: [{ level: "lightWound" }] },
    });
    expect(penaltyFor(trackStatus(after), false)).toBe(-1);
    const moderate = applyWound(track(), { level: "moderateWound" }).track;
    const healed = healTrack(moderate, { type: "roll", result: 1 }).track;
    expect(trackStatus(healed).levelKey).toBe("lightWound");
  });

  it("rejects a bad value, naming the field", () => {
    const bad = levels.map((l, i) => (i === 1 ? { ...l, afterCombatPenalty: 2 } : l));
    expect(caught(() => boxTrackConfig("custom", { levels: bad })).field).toBe("config.levels[1].afterCombatPenalty");
  });

  it("an attack's steps name the expanded track's levels by their own labels (and an unlabelled level of the GM's own by its key), never a missing FUDGE.Wound.* key", () => {
    const own = levels.map((l) => (l.key === "severeWound" ? { ...l, key: "bruised", label: undefined } : l));
    const fighter = (t: Track) => ({
      name: "F",
      skill: 0,
      weapon: { name: "Club", kind: "muscle", size: "medium" },
      track: t,
    });
    const hit = (t: Track, attack: number[]) =>
      resolveAttack(
        { preset: "fudge", attacker: fighter(track()), defender: fighter(t), options: {} },
        { attack, defense: [0, 0, 0, 0] },
      );
    // RD +3, club +1 → damage number 4: Light Wound (min 3).
    const light = hit(track(), [1, 1, 1, 0]);
    expect(light.woundKey).toBe("lightWound");
    const levelParams = (r: typeof light) =>
      r.steps
        .flatMap((s) => Object.values(s.params ?? {}))
        .filter((v) => typeof v === "string" && /Wound|bruised/.test(v));
    expect(levelParams(light)).toContain("Light Wound");
    expect(
      levelParams(light).filter((v) =>
        /^FUDGE\.Wound\.(lightWound|moderateWound|severeWound|bruised)$/.test(v as string),
      ),
    ).toEqual([]);
    // RD +4 with a damage number of 7 on the track whose third level has no label: named "bruised".
    const t = newTrack(boxTrackConfig("custom", { levels: own as BoxLevel[] }));
    const bruised = resolveAttack(
      { preset: "fudge", attacker: { ...fighter(track()), strength: 2 }, defender: fighter(t), options: {} },
      { attack: [1, 1, 1, 1], defense: [0, 0, 0, 0] },
    );
    expect(bruised.woundKey).toBe("bruised");
    const wound = bruised.steps.find((s) => s.key === "FUDGE.Step.Fudge.Wound");
    expect(wound?.params?.level).toBe("bruised");
  });
});
