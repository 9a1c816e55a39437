import { describe, expect, it } from "vitest";
import {
  enumerateDice,
  recordedDice,
  type AttackResolution,
  pipelineFor,
  resolveAttack,
  rollAttack,
  seededRng,
  applyWound,
  newTrack,
  trackStatus,
  type Track,
} from "../../src/rules";
import { boxTrackConfig, dcTrackConfig, fudgePipeline, type FudgeRequest } from "../../src/rules/fudge";
import { defaultFateConfig } from "../../src/rules/fate";
import { caught, fieldOf } from "./errors";

const box = (preset: "standard" | "pawn" | "miniatures" = "standard", doubleRd = false): Track =>
  newTrack(boxTrackConfig(preset, { doubleRd }));

// Fudge §4.55 worked example (seed 000): Leroy and Theodora. Combat skills are not given in the
// example; both are Good (+1) here.
const LEROY = {
  name: "Leroy",
  pc: true,
  skill: 1,
  strength: 1,
  damageCapacity: 1,
  weapon: { name: "Broadsword", kind: "muscle", size: "large", sharp: true },
  armor: { value: 3 },
};
const THEODORA = {
  name: "Theodora",
  pc: false,
  skill: 1,
  strength: 3,
  damageCapacity: 0,
  weapon: { name: "Poleaxe", kind: "muscle", size: "twoHanded", sharp: true },
  armor: { value: 2 },
};

type Json = Record<string, unknown>;

function request(
  over: { attacker?: Json; defender?: Json; options?: Json; situation?: Json; defTrack?: Track; atkTrack?: Track } = {},
): Json {
  return {
    preset: "fudge",
    attacker: { ...LEROY, track: over.atkTrack ?? box(), ...over.attacker },
    defender: { ...THEODORA, track: over.defTrack ?? box(), ...over.defender },
    options: over.options ?? {},
    situation: over.situation ?? {},
  };
}

/** 4dF faces for a total. */
const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));

/** Resolve with the attack / defence dice totals and any other slots. */
function resolve(req: Json, atk: number, def: number, more: Record<string, number[]> = {}): AttackResolution {
  return resolveAttack(req, { attack: df(atk), defense: df(def), ...more });
}

const keys = (r: AttackResolution) => r.steps.map((s) => s.key);
const stepOf = (r: AttackResolution, key: string) => r.steps.find((s) => s.key === key);

describe("fudge pipeline: registration", () => {
  it("is registered as the opposed fudge preset", () => {
    expect(pipelineFor("fudge")).toBe(fudgePipeline);
    expect(fudgePipeline.exchange).toBe("opposed");
  });
  it("names its slots from the options", () => {
    const slots = (options: Json) =>
      fudgePipeline.slots(fudgePipeline.parseRequest(request({ options }))).map((s) => `${s.id}:${s.formula}`);
    expect(slots({})).toEqual(["attack:4dF", "defense:4dF"]);
    expect(slots({ damageRoll: "dfNumber" })).toEqual(["attack:4dF", "defense:4dF", "damage:1dF"]);
    expect(slots({ damageRoll: "situational4dF" })).toEqual(["attack:4dF", "defense:4dF", "damage:4dF"]);
    expect(slots({ damageRoll: "evenOdd" })).toEqual(["attack:4dF", "defense:4dF"]);
    expect(slots({ woundMode: "minMidMax", damageRoll: "dfNumber" })).toEqual([
      "attack:4dF",
      "defense:4dF",
      "damage:3d6",
    ]);
    expect(slots({ dcVariant: "roll" })).toEqual(["attack:4dF", "defense:4dF", "dc:4dF"]);
    expect(slots({ woundMode: "gmJudgement", gmSituationalRoll: true })).toEqual([
      "attack:4dF",
      "defense:4dF",
      "situational:4dF",
    ]);
  });
});

describe("fudge pipeline: the seed example (Fudge §4.55)", () => {
  it("Leroy hits Theodora with RD +2: damage number 4 → Hurt, Theodora at −1", () => {
    const r = resolve(request(), 1, 0);
    expect(r.outcome).toBe("wound");
    expect(r.hit).toBe(true);
    expect(r.numbers).toMatchObject({ attackerTotal: 2, defenderTotal: 1, relativeDegree: 1 });
    // RD +1 is a graze: adjust the dice for a +2 hit.
    const hit = resolve(request(), 2, 0);
    expect(hit.numbers).toMatchObject({
      attackerTotal: 3,
      defenderTotal: 1,
      relativeDegree: 2,
      odf: 4,
      ddf: 2,
      damageFactor: 2,
      damageNumber: 4,
    });
    expect(hit.woundKey).toBe("hurt");
    expect(hit.wound).toEqual({ level: "hurt" });
    expect(hit.defenderAfter?.status.penalty).toBe(-1);
    expect(hit.defenderAfter?.status.levelKey).toBe("hurt");
    expect(hit.dice).toEqual({ attack: [1, 1, 0, 0], defense: [0, 0, 0, 0] });
    expect(stepOf(hit, "FUDGE.Step.Fudge.DamageNumber")).toMatchObject({
      value: 4,
      rule: "Fudge §4.55",
      params: { level: "FUDGE.Wound.hurt", value: "+4" },
    });
  });

  it("Theodora → Leroy: total damage factor +3", () => {
    const req = request({ attacker: { ...THEODORA, track: box() }, defender: { ...LEROY, track: box() } });
    const r = resolve(req, 2, 0); // RD +2: 2 + 3 = 5 → Very Hurt
    expect(r.numbers).toMatchObject({ odf: 7, ddf: 4, damageFactor: 3, damageNumber: 5 });
    expect(r.woundKey).toBe("veryHurt");
  });

  it("every step names its rule", () => {
    const r = resolve(request(), 2, 0);
    for (const s of r.steps) expect(s.rule).toMatch(/^Fudge §\d/);
    expect(keys(r)).toContain("FUDGE.Step.Fudge.RelativeDegree");
    expect(keys(r)).toContain("FUDGE.Step.Fudge.Odf");
    expect(keys(r)).toContain("FUDGE.Step.Fudge.Ddf");
  });

  it("does not mutate its input", () => {
    const req = request();
    const copy = JSON.parse(JSON.stringify(req));
    resolve(req, 4, -4);
    expect(req).toEqual(copy);
  });
});

describe("fudge pipeline: the opposed roll", () => {
  it("RD 0 is a standoff, below 0 a miss; relativeDegree is always set", () => {
    const s = resolve(request(), 0, 0);
    expect(s).toMatchObject({ outcome: "standoff", hit: false, woundKey: null, wound: null, defenderAfter: null });
    expect(s.numbers.relativeDegree).toBe(0);
    const m = resolve(request(), -2, 1);
    expect(m.outcome).toBe("miss");
    expect(m.numbers.relativeDegree).toBe(-3);
  });

  it("wound penalties of both sides apply (highest marked level only)", () => {
    const hurt = applyWound(box(), { level: "hurt" }).track;
    const veryHurt = applyWound(hurt, { level: "veryHurt" }).track;
    const r = resolve(request({ atkTrack: veryHurt, defTrack: hurt }), 2, 0);
    expect(r.numbers).toMatchObject({ attackerTotal: 1, defenderTotal: 0, relativeDegree: 1 });
  });

  it("situational modifiers and all-out attack / defence (Fudge §4.31)", () => {
    const r = resolve(request({ situation: { modifier: 1, defenderModifier: -1 } }), 0, 0);
    expect(r.numbers.relativeDegree).toBe(2);
    const allOut = resolve(request({ situation: { allOutAttack: true } }), 1, 0);
    // +1 to skill: RD 2; +1 to ODF on the hit: factor 3, damage number 5 → Very Hurt.
    expect(allOut.numbers).toMatchObject({ relativeDegree: 2, odf: 5, damageFactor: 3, damageNumber: 5 });
    expect(allOut.woundKey).toBe("veryHurt");
    const def = resolve(request({ situation: { allOutDefense: true } }), 2, 0);
    expect(def.numbers.relativeDegree).toBe(0);
  });

  it("Fudge §1.36: a Fudge Point moves a side's result one level, after every other factor, and says whose", () => {
    const r = resolve(request({ situation: { attackerFudgePoint: 1, defenderFudgePoint: -1 } }), 0, 0);
    const plain = resolve(request(), 0, 0);
    expect(r.numbers.attackerTotal).toBe(plain.numbers.attackerTotal + 1);
    expect(r.numbers.defenderTotal).toBe(plain.numbers.defenderTotal - 1);
    expect(r.numbers.relativeDegree).toBe(plain.numbers.relativeDegree + 2);
    expect(stepOf(r, "FUDGE.Step.Fudge.FudgePoint")).toMatchObject({ rule: "Fudge §1.36", value: 1 });
    // One level, up or down: a card's request cannot claim two.
    expect(fieldOf(() => resolve(request({ situation: { defenderFudgePoint: -2 } }), 0, 0))).toBe(
      "situation.defenderFudgePoint",
    );
  });

  it("an all-out attacker who ties or loses hands the win to the defender, with +2 damage", () => {
    const r = resolve(request({ situation: { allOutAttack: true } }), -1, 0);
    expect(r.outcome).toBe("standoff");
    expect(r.followUps).toHaveLength(1);
    expect(r.followUps[0]).toMatchObject({
      type: "allOutCounter",
      target: "attacker",
      params: { relativeDegree: 0, damageBonus: 2 },
    });
    expect(resolve(request(), -1, 0).followUps).toHaveLength(0);
  });

  it("shields lower the opponent's skill: small +1 melee only, medium +1 both, large +2 (Fudge §4.31)", () => {
    const rd = (shield: string, ranged: boolean, atkShield = "none") =>
      resolve(
        request({ defender: { shield }, attacker: { shield: atkShield, weapon: { ...LEROY.weapon, ranged } } }),
        0,
        0,
      ).numbers.relativeDegree;
    expect([rd("small", false), rd("medium", false), rd("large", false)]).toEqual([-1, -1, -2]);
    expect([rd("small", true), rd("medium", true), rd("large", true)]).toEqual([0, -1, -2]);
    // The attacker's shield lowers the defender's roll in melee, not against a ranged attack.
    expect(rd("none", false, "large")).toBe(2);
    expect(rd("none", true, "large")).toBe(0);
  });
});

describe("fudge pipeline: double RD and thresholds (Fudge §4.55)", () => {
  it("2 × RD + factor, read on the double threshold table", () => {
    // RD 2, factor 2: 6. Single table: Very Hurt (5–6). Double table (4–6): Hurt — Fudge §4.55 "The
    // numbers above the wound levels should be adjusted in this case", so a track still carrying the
    // single defaults is read with the doubled ones.
    const single = resolve(request({ options: { doubleRd: true } }), 2, 0);
    expect(single.numbers.damageNumber).toBe(6);
    expect(single.woundKey).toBe("hurt");
    const dbl = resolve(request({ options: { doubleRd: true }, defTrack: box("standard", true) }), 2, 0);
    expect(dbl.woundKey).toBe("hurt");
    expect(keys(dbl)).toContain("FUDGE.Step.Fudge.DoubleRd");
    // RD 5: 10 + 2 = 12 → Incapacitated (10–12); RD 6: 14 → Near Death (13+).
    expect(resolve(request({ options: { doubleRd: true }, defTrack: box("standard", true) }), 4, -1).woundKey).toBe(
      "incapacitated",
    );
    expect(resolve(request({ options: { doubleRd: true }, defTrack: box("standard", true) }), 4, -2).woundKey).toBe(
      "nearDeath",
    );
  });

  it("standard thresholds 1–2 Scratch, 3–4 Hurt, 5–6 Very Hurt, 7–8 Incapacitated, 9+ Near Death", () => {
    // Factor 2; RD r gives r + 2.
    const level = (rd: number) =>
      resolve(request({ attacker: { skill: 0 }, defender: { skill: 0 } }), Math.min(rd, 4), Math.min(rd, 4) - rd)
        .woundKey;
    expect([2, 3, 4, 5, 6, 7].map(level)).toEqual([
      "hurt",
      "veryHurt",
      "veryHurt",
      "incapacitated",
      "incapacitated",
      "nearDeath",
    ]);
  });

  it("a damage number of 0 or less does no damage", () => {
    // Unarmed Mediocre-strength attacker vs plate: ODF −2, DDF 4 → factor −6; RD 2 → −4.
    const r = resolve(
      request({
        attacker: { strength: -1, weapon: { kind: "muscle", size: "none" } },
        defender: { armor: { value: 4 } },
      }),
      2,
      0,
    );
    expect(r.numbers.damageNumber).toBe(-4);
    expect(r).toMatchObject({ outcome: "noDamage", hit: true, woundKey: null, wound: null, defenderAfter: null });
  });

  it("a track with a number for Dead (Miniatures preset) can be killed by the number", () => {
    const r = resolve(request({ attacker: { strength: 3 }, defTrack: box("miniatures") }), 4, -3);
    // RD 7 + (3 + 3 − 2) = 11 ≥ 9 → dead.
    expect(r.woundKey).toBe("dead");
    expect(r.defenderAfter?.status.condition).toBe("dead");
    expect(r.defenderAfter?.ended).toBe(true);
  });
});

describe("fudge pipeline: grazes (Fudge §4.56)", () => {
  // RD 1 with the seed's attacker: attack total 1 + 1 vs 1 + 0.
  const graze = (over: Parameters<typeof request>[0] = {}, more: Record<string, number[]> = {}) =>
    resolve(request(over), 1, 0, more);

  it("by the graze table: <0 Undamaged, 0–4 Scratch, 5+ Hurt", () => {
    expect(graze().numbers.relativeDegree).toBe(1);
    expect(graze().woundKey).toBe("scratch"); // factor 2
    expect(graze({ defender: { armor: { value: 5 } } })).toMatchObject({ outcome: "noDamage", woundKey: null }); // −1
    expect(graze({ defender: { armor: { value: 4 } } }).woundKey).toBe("scratch"); // 0
  });

  it("graze boundaries 4 and 5", () => {
    expect(graze({ attacker: { strength: 3 } }).numbers.damageFactor).toBe(4);
    expect(graze({ attacker: { strength: 3 } }).woundKey).toBe("scratch");
    expect(graze({ attacker: { strength: 4 } }).numbers.damageFactor).toBe(5);
    expect(graze({ attacker: { strength: 4 } }).woundKey).toBe("hurt");
  });

  it("an editable table", () => {
    const options = {
      graze: {
        table: [
          { min: -3, level: "scratch" },
          { min: 2, level: "veryHurt" },
        ],
      },
    };
    expect(graze({ options }).woundKey).toBe("veryHurt");
    expect(graze({ options, defender: { armor: { value: 6 } } }).woundKey).toBe("scratch"); // −2
  });

  it("raised by a positive Scale difference (one level by default, or per point, or not at all)", () => {
    // A giant (Strength Scale 2) grazes a human: the factor grows by 2 → 4: Scratch, raised one level → Hurt.
    const giant = { attacker: { strengthScale: 2 } };
    expect(graze(giant).numbers.damageFactor).toBe(4);
    expect(graze(giant).woundKey).toBe("hurt");
    expect(stepOf(graze(giant), "FUDGE.Step.Fudge.GrazeScale")?.value).toBe(1);
    expect(graze({ ...giant, options: { graze: { scaleRaise: "perPoint" } } }).woundKey).toBe("veryHurt");
    expect(graze({ ...giant, options: { graze: { scaleRaise: "none" } } }).woundKey).toBe("scratch");
    // A fist on plate does nothing — unless it is a giant's fist (Scale 3: factor −1 + 3 − 4 = −2, Undamaged, raised).
    const fist = {
      attacker: { strength: 0, weapon: { kind: "muscle", size: "none" } },
      defender: { armor: { value: 4 } },
    };
    expect(graze(fist).woundKey).toBe(null);
    const giantFist = { ...fist, attacker: { ...fist.attacker, strengthScale: 3 } };
    expect(graze(giantFist).numbers.damageFactor).toBe(-2);
    // …but the factor already holds the Scale: even a hit of RD 2 would do nothing (2 − 2 = 0), so
    // the raise may not lift the graze above that.
    expect(graze(giantFist).woundKey).toBe(null);
    expect(keys(graze(giantFist))).toContain("FUDGE.Step.Fudge.GrazeScaleCapped");
    expect(graze({ ...giantFist, attacker: { ...giantFist.attacker, strength: 1 } }).woundKey).toBe("scratch"); // factor −1: RD 2 gives 1, a Scratch
    // Per point: Scale 3, factor 5 → Hurt + 3 = Near Death, capped at RD 2's 7 = Incapacitated.
    const big = graze({ attacker: { strengthScale: 3 }, options: { graze: { scaleRaise: "perPoint" } } });
    expect(big.numbers.damageFactor).toBe(5);
    expect(big.woundKey).toBe("incapacitated");
    // A fixed weapon's Scale does not count unless scaled to the attacker.
    expect(graze({ attacker: { strengthScale: 2, weapon: { kind: "fixed", strength: 2 } } }).woundKey).toBe("scratch");
  });

  it("a tougher defender's Scale does not lower a graze beyond the factor", () => {
    expect(graze({ defender: { massScale: 1 } }).woundKey).toBe("scratch"); // factor 1
  });

  it("damage rolls move a graze by one level at most, and only with grazeDamageRoll", () => {
    const big = { damageRoll: "situational4dF" };
    expect(graze({ options: big }, { damage: df(4) }).woundKey).toBe("scratch"); // roll not used on grazes
    expect(graze({ options: big }, {}).dice.damage).toBeUndefined();
    const on = { ...big, grazeDamageRoll: true };
    // Factor 2 + 4 = 6 → Hurt: one level above Scratch.
    expect(graze({ options: on }, { damage: df(4) }).woundKey).toBe("hurt");
    // Factor 2 − 4 = −2 → Undamaged: one level below Scratch.
    expect(graze({ options: on }, { damage: df(-4) }).woundKey).toBe(null);
    // Clamped: strength 4 gives factor 5 (Hurt); −4 → 1 (Scratch), fine; +... stays within one.
    const strong = { attacker: { strength: 4 } };
    expect(graze({ ...strong, options: on }, { damage: df(-4) }).woundKey).toBe("scratch");
    expect(
      graze(
        {
          ...strong,
          options: {
            ...on,
            graze: {
              table: [
                { min: 0, level: "scratch" },
                { min: 5, level: "hurt" },
                { min: 6, level: "veryHurt" },
                { min: 7, level: "incapacitated" },
              ],
            },
          },
        },
        { damage: df(4) },
      ).woundKey,
    ).toBe("veryHurt");
    // dfLevel on a graze.
    expect(graze({ options: { damageRoll: "dfLevel", grazeDamageRoll: true } }, { damage: [1] }).woundKey).toBe("hurt");
  });
});

describe("fudge pipeline: damage rolls (Fudge §4.61)", () => {
  it("dfNumber: 1dF added to the damage number", () => {
    const r = resolve(request({ options: { damageRoll: "dfNumber" } }), 2, 0, { damage: [1] });
    expect(r.numbers).toMatchObject({ damageRoll: 1, damageNumber: 5 });
    expect(r.woundKey).toBe("veryHurt");
    // The text's example: 4 points, −1 → 3: still Hurt.
    expect(resolve(request({ options: { damageRoll: "dfNumber" } }), 2, 0, { damage: [-1] }).woundKey).toBe("hurt");
  });

  it("dfLevel: 1dF applied to the wound level (−1 turns Hurt into a Scratch)", () => {
    expect(resolve(request({ options: { damageRoll: "dfLevel" } }), 2, 0, { damage: [-1] }).woundKey).toBe("scratch");
    expect(resolve(request({ options: { damageRoll: "dfLevel" } }), 2, 0, { damage: [1] }).woundKey).toBe("veryHurt");
    expect(resolve(request({ options: { damageRoll: "dfLevel" } }), 2, 0, { damage: [0] }).woundKey).toBe("hurt");
    // No damage, no level roll.
    const none = resolve(request({ options: { damageRoll: "dfLevel" }, defender: { armor: { value: 9 } } }), 2, 0);
    expect(none.outcome).toBe("noDamage");
    expect(none.dice.damage).toBeUndefined();
  });

  it("evenOdd: the winner's even total +1 ODF, the loser's even total +1 DDF", () => {
    const opt = { options: { damageRoll: "evenOdd" } };
    // Attack +2 (even), defence 0 (even): +1 / +1 → factor 2, number 4.
    const both = resolve(request(opt), 2, 0);
    expect(both.numbers).toMatchObject({ odf: 5, ddf: 3, damageFactor: 2, damageNumber: 4 });
    expect(keys(both)).toEqual(expect.arrayContaining(["FUDGE.Step.Fudge.EvenAttack", "FUDGE.Step.Fudge.EvenDefense"]));
    // The text's example: defender rolls 0 (even), attacker +3 (odd): the damage number drops by one.
    const def = resolve(request(opt), 3, 0);
    expect(def.numbers).toMatchObject({ relativeDegree: 3, odf: 4, ddf: 3, damageNumber: 4 });
    // Attack +2 (even), defence −1 (odd): +1 ODF only.
    expect(resolve(request(opt), 2, -1).numbers).toMatchObject({ odf: 5, ddf: 2, damageNumber: 6 });
  });

  it("situational4dF: a 4dF roll added to the damage number", () => {
    const r = resolve(request({ options: { damageRoll: "situational4dF" } }), 2, 0, { damage: [1, 1, 1, 0] });
    expect(r.numbers).toMatchObject({ damageRoll: 3, damageNumber: 7 });
    expect(r.woundKey).toBe("incapacitated");
  });

  it("a missing damage slot is a named error", () => {
    const e = caught(() => resolve(request({ options: { damageRoll: "dfNumber" } }), 2, 0));
    expect(e.field).toBe("dice.damage");
    expect(e.key).toBe("FUDGE.Error.MissingDice");
  });
});

describe("fudge pipeline: Min-Mid-Max (Fudge §4.63)", () => {
  const mmm = { woundMode: "minMidMax" };
  it("reads one of 3d6 by the total bonus; the factor is not added to RD", () => {
    // Factor 2 (bonus 0), RD 2 (bonus 0): median. Dice 1, 4, 6 → 4 → Hurt.
    const r = resolve(request({ options: mmm }), 2, 0, { damage: [6, 1, 4] });
    expect(r.numbers).toMatchObject({ mmmBonus: 0, mmmRead: 4, damageNumber: 4 });
    expect(r.woundKey).toBe("hurt");
    // RD 4 (bonus +1): max → 6 → Very Hurt.
    expect(resolve(request({ options: mmm }), 4, 0, { damage: [6, 1, 4] }).woundKey).toBe("veryHurt");
    // Strength 4: factor 5 (+1), RD 6 (+2): bonus 3 → max + 2 = 8 → Incapacitated.
    expect(
      resolve(request({ options: mmm, attacker: { strength: 4 } }), 4, -2, { damage: [6, 1, 4] }).numbers.mmmRead,
    ).toBe(8);
  });
  it("negative factors read low; the severe −2 bonus is optional", () => {
    const weak = { attacker: { strength: -3, weapon: { kind: "muscle", size: "small" } } }; // ODF −3, factor −5
    expect(resolve(request({ ...weak, options: mmm }), 2, 0, { damage: [3, 5, 6] }).numbers).toMatchObject({
      mmmBonus: -1,
      mmmRead: 3,
    });
    const severe = resolve(request({ ...weak, options: { ...mmm, minMidMax: { severeNegative: true } } }), 2, 0, {
      damage: [3, 5, 6],
    });
    expect(severe.numbers).toMatchObject({ mmmBonus: -2, mmmRead: 2 });
    expect(severe.woundKey).toBe("scratch");
    // min − 1 of a 1 is 0: no damage.
    expect(
      resolve(request({ ...weak, options: { ...mmm, minMidMax: { severeNegative: true } } }), 2, 0, {
        damage: [1, 5, 6],
      }).outcome,
    ).toBe("noDamage");
  });
  it("uses an edited reading table", () => {
    const table = [{ min: -10, die: "max", add: 3 }];
    expect(
      resolve(request({ options: { ...mmm, minMidMax: { table } } }), 2, 0, { damage: [1, 1, 6] }).numbers.mmmRead,
    ).toBe(9);
  });
  it("grazes use the graze table and roll no 3d6", () => {
    const r = resolve(request({ options: mmm }), 1, 0);
    expect(r.woundKey).toBe("scratch");
    expect(r.dice.damage).toBeUndefined();
  });
  it("rejects bad 3d6", () => {
    expect(caught(() => resolve(request({ options: mmm }), 2, 0, { damage: [1, 7, 2] })).field).toBe("dice.damage[1]");
    expect(caught(() => resolve(request({ options: mmm }), 2, 0, { damage: [1, 2] })).field).toBe("dice.damage");
  });
});

describe("fudge pipeline: GM judgement (Fudge §4.55)", () => {
  const gm = { woundMode: "gmJudgement" };
  it("shows factors and RD and waits for the GM's level", () => {
    const r = resolve(request({ options: gm }), 2, 0);
    expect(r).toMatchObject({ outcome: "gmJudgement", hit: true, woundKey: null, wound: null, defenderAfter: null });
    expect(r.numbers).toMatchObject({ relativeDegree: 2, odf: 4, ddf: 2, damageFactor: 2 });
  });
  it("applies the GM's pick", () => {
    expect(resolve(request({ options: gm, situation: { gmLevel: "veryHurt" } }), 2, 0).woundKey).toBe("veryHurt");
    expect(resolve(request({ options: gm, situation: { gmLevel: "none" } }), 2, 0).outcome).toBe("noDamage");
  });
  it("a Situational 4dF: −2..+2 no change, +3 one level worse, +4 two", () => {
    const o = { options: { ...gm, gmSituationalRoll: true }, situation: { gmLevel: "hurt" } };
    expect(resolve(request(o), 2, 0, { situational: df(1) }).woundKey).toBe("hurt");
    expect(resolve(request(o), 2, 0, { situational: df(-4) }).woundKey).toBe("hurt");
    const two = resolve(request(o), 2, 0, { situational: df(2) });
    expect(two.woundKey).toBe("hurt");
    expect(keys(two)).toContain("FUDGE.Step.Fudge.SituationalGmCall");
    expect(resolve(request(o), 2, 0, { situational: df(3) }).woundKey).toBe("veryHurt");
    expect(resolve(request(o), 2, 0, { situational: df(4) }).woundKey).toBe("incapacitated");
    // The roll is read only once the GM has picked.
    expect(resolve(request({ options: { ...gm, gmSituationalRoll: true } }), 2, 0).dice.situational).toBeUndefined();
  });
});

describe("fudge pipeline: Damage Capacity variants (Fudge §4.52)", () => {
  it("roll: Great or better one level less, Mediocre..Good none, Poor or worse one more — only for Hurt or worse", () => {
    const o = (dc: number) => request({ options: { dcVariant: "roll" }, defender: { damageCapacity: dc } });
    // Without DC as a factor the seed hit is still 4 (DC 0): Hurt.
    expect(resolve(o(0), 2, 0, { dc: df(2) }).woundKey).toBe("scratch"); // Great
    expect(resolve(o(0), 2, 0, { dc: df(1) }).woundKey).toBe("hurt"); // Good
    expect(resolve(o(0), 2, 0, { dc: df(-1) }).woundKey).toBe("hurt"); // Mediocre
    expect(resolve(o(0), 2, 0, { dc: df(-2) }).woundKey).toBe("veryHurt"); // Poor
    const r = resolve(o(2), 2, 0, { dc: df(0) });
    expect(r.numbers.dcRoll).toBe(2);
    expect(r.woundKey).toBe("scratch");
    // DC is not a defensive factor in this variant.
    expect(resolve(o(3), 2, 0, { dc: df(-4) }).numbers.ddf).toBe(2);
    // A Scratch makes no DC roll.
    const scratch = resolve(o(0), 1, 0);
    expect(scratch.woundKey).toBe("scratch");
    expect(scratch.dice.dc).toBeUndefined();
  });
  it("roll with point adjustment: one damage point", () => {
    const o = request({ options: { dcVariant: "roll", dcAdjust: "point" } });
    const r = resolve(o, 2, 0, { dc: df(2) });
    expect(r.numbers.damageNumber).toBe(3);
    expect(r.woundKey).toBe("hurt");
    expect(resolve(o, 2, 0, { dc: df(-3) }).numbers.damageNumber).toBe(5);
    // With a 1dF level shift already made, the point moves the level only as far as the number's level moves.
    const lvl = request({ options: { dcVariant: "roll", dcAdjust: "point", damageRoll: "dfLevel" } });
    const both = resolve(lvl, 2, 0, { damage: [1], dc: df(2) }); // 4 → Hurt, +1 level → Very Hurt; 4 − 1 = 3 is still Hurt
    expect(both.numbers.damageNumber).toBe(3);
    expect(both.woundKey).toBe("veryHurt");
    expect(resolve(lvl, 3, 0, { damage: [1], dc: df(2) }).woundKey).toBe("veryHurt"); // 5 → VH, +1 → Inc; 4 → Hurt: one less
  });
  it("the defender's wound penalty applies to the DC roll", () => {
    const hurt = applyWound(box(), { level: "hurt" }).track;
    const r = resolve(request({ options: { dcVariant: "roll" }, defTrack: hurt }), 3, 0, { dc: df(2) });
    expect(r.numbers.dcRoll).toBe(1);
  });
  it("gift: Damage Resistant one less, Fragile one more (level or point)", () => {
    const gift = (g: string, dcAdjust = "level") =>
      resolve(request({ options: { dcVariant: "gift", dcAdjust }, defender: { dcGift: g } }), 2, 0);
    expect(gift("none").woundKey).toBe("hurt");
    expect(gift("damageResistant").woundKey).toBe("scratch");
    expect(gift("fragile").woundKey).toBe("veryHurt");
    expect(gift("fragile", "point").numbers.damageNumber).toBe(5);
    expect(gift("damageResistant", "point").woundKey).toBe("hurt");
    // A miss is not made worse by Fragile.
    expect(
      resolve(request({ options: { dcVariant: "gift" }, defender: { dcGift: "fragile", armor: { value: 9 } } }), 2, 0)
        .outcome,
    ).toBe("noDamage");
  });
  it("willpower: as the roll, with Willpower", () => {
    const r = resolve(
      request({ options: { dcVariant: "willpower" }, defender: { willpower: 2, damageCapacity: -3 } }),
      2,
      0,
      { dc: df(0) },
    );
    expect(r.numbers.dcRoll).toBe(2);
    expect(r.woundKey).toBe("scratch");
    expect(caught(() => resolve(request({ options: { dcVariant: "willpower" } }), 2, 0)).field).toBe(
      "defender.willpower",
    );
  });
  it("track: DC records the wound and is not a defensive factor (Fudge §4.57)", () => {
    const dcTrack = newTrack(dcTrackConfig(2));
    const r = resolve(
      request({ options: { dcVariant: "track" }, defender: { damageCapacity: 2 }, defTrack: dcTrack }),
      2,
      0,
    );
    expect(r.numbers).toMatchObject({ ddf: 2, damageNumber: 4 });
    expect(r.wound).toEqual({ level: "hurt" });
    expect((r.defenderAfter?.track.state as { dc: number }).dc).toBe(1);
    // The box track with the factor variant counts DC +2: factor 0, damage number 2 → Scratch.
    expect(resolve(request({ defender: { damageCapacity: 2 } }), 2, 0).woundKey).toBe("scratch");
    // A DC track never takes stun marks.
    const stun = resolve(
      request({
        options: { dcVariant: "track" },
        defTrack: dcTrack,
        attacker: { weapon: { ...LEROY.weapon, stunCapable: true } },
        situation: { stun: true },
      }),
      2,
      0,
    );
    expect(stun.wound).toEqual({ level: "hurt" });
    expect(keys(stun)).toContain("FUDGE.Step.Fudge.StunNoBoxTrack");
  });
  it("a DC track names wounds with its own thresholds (double RD)", () => {
    const dcTrack = newTrack(dcTrackConfig(0, { doubleRd: true }));
    const r = resolve(request({ options: { dcVariant: "track", doubleRd: true }, defTrack: dcTrack }), 2, 0);
    expect(r.numbers.damageNumber).toBe(6);
    expect(r.woundKey).toBe("hurt");
    expect(
      caught(() =>
        resolve(request({ options: { dcVariant: "track" }, defTrack: dcTrack, situation: { pullPunch: "out" } }), 2, 0),
      ).field,
    ).toBe("situation.pullPunch");
  });
  it("track variant needs a DC track", () => {
    expect(caught(() => resolve(request({ options: { dcVariant: "track" } }), 2, 0)).field).toBe(
      "defender.track.config.kind",
    );
  });
});

describe("fudge pipeline: stun and pulled punches (Fudge §4.62)", () => {
  const club = { ...LEROY.weapon, name: "Club", sharp: false, stunCapable: true };
  it("a stun attack marks a stun wound with a stun-capable weapon", () => {
    const r = resolve(request({ attacker: { weapon: club, strength: 2 }, situation: { stun: true } }), 2, 0);
    expect(r.wound).toEqual({ level: "hurt", stun: true });
    expect(r.defenderAfter?.status.effects).toContain("stunned");
    const notCapable = resolve(request({ situation: { stun: true } }), 2, 0);
    expect(notCapable.wound).toEqual({ level: "hurt" });
    expect(keys(notCapable)).toContain("FUDGE.Step.Fudge.StunNotCapable");
  });
  it("pulling a punch caps the level", () => {
    const r = resolve(request({ situation: { pullPunch: "scratch" } }), 4, 0);
    expect(r.numbers.damageNumber).toBe(6);
    expect(r.woundKey).toBe("scratch");
    expect(keys(r)).toContain("FUDGE.Step.Fudge.PullPunch");
    expect(resolve(request({ situation: { pullPunch: "incapacitated" } }), 4, 0).woundKey).toBe("veryHurt");
  });
  it("passes the safeguard facts to the box track", () => {
    const r = resolve(
      request({ situation: { beganRoundIncapacitated: true, spendFudgePoint: true }, defender: { fudgePoints: 1 } }),
      2,
      0,
    );
    expect(r.wound).toEqual({ level: "hurt", beganRoundIncapacitated: true, spendFudgePoint: true });
  });
});

describe("fudge pipeline: other tracks", () => {
  it("an NPC pawn track: Hurt or Out", () => {
    const r = resolve(request({ defTrack: box("pawn") }), 4, 0); // 6 → Very Hurt range → out
    expect(r.woundKey).toBe("out");
    expect(r.defenderAfter?.ended).toBe(true);
  });
  it("a shift never goes past the worst level", () => {
    const r = resolve(request({ options: { damageRoll: "dfLevel" }, attacker: { strength: 4 } }), 4, -2, {
      damage: [1],
    });
    expect(r.numbers.damageNumber).toBe(11);
    expect(r.woundKey).toBe("nearDeath");
  });
});

describe("fudge pipeline: live rolls and exact odds", () => {
  it("rollAttack records exactly the dice it read", () => {
    const r = rollAttack(request({ options: { damageRoll: "dfNumber" } }), seededRng(7));
    const again = resolveAttack(request({ options: { damageRoll: "dfNumber" } }), r.dice);
    expect(again).toEqual(r);
    if (r.numbers.relativeDegree < 2) expect(r.dice.damage).toBeUndefined();
  });
  it("enumeration over all outcomes sums to 1, and the hit chance of equal fighters is P(RD ≥ 1)", () => {
    const req = fudgePipeline.parseRequest(
      request({ options: { damageRoll: "dfLevel", dcVariant: "roll" } }),
    ) as FudgeRequest;
    let total = 0;
    let hit = 0;
    enumerateDice(
      fudgePipeline.slots(req),
      (dice) => fudgePipeline.resolve(req, dice),
      (r, p) => {
        total += p;
        if (r.hit) hit += p;
      },
    );
    expect(total).toBeCloseTo(1, 12);
    // Equal skills: P(4dF − 4dF ≥ 1) = (1 − P(tie)) / 2.
    const w = [1, 4, 10, 16, 19, 16, 10, 4, 1];
    const tie = w.reduce((s, x) => s + x * x, 0) / 81 ** 2;
    expect(hit).toBeCloseTo((1 - tie) / 2, 12);
  });
});

describe("fudge pipeline: bad input names the field", () => {
  const bad = (mutate: (r: Json) => void): string => {
    const r = request() as Json & { attacker: Json; defender: Json };
    mutate(r);
    return caught(() => fudgePipeline.parseRequest(r)).field;
  };
  const atk = (f: string, v: unknown) => (r: Json) => ((r.attacker as Json)[f] = v);
  const weapon = (f: string, v: unknown) => (r: Json) =>
    (((r.attacker as Json).weapon as Json) = { ...LEROY.weapon, [f]: v });

  it.each([
    ["preset", (r: Json) => (r.preset = "fate"), "preset"],
    ["unknown top field", (r: Json) => (r.extra = 1), "extra"],
    ["attacker", (r: Json) => (r.attacker = 3), "attacker"],
    ["name", atk("name", 5), "attacker.name"],
    ["pc", atk("pc", "yes"), "attacker.pc"],
    ["skill", atk("skill", "Good"), "attacker.skill"],
    ["skill missing", atk("skill", undefined), "attacker.skill"],
    ["defense", atk("defense", 1.5), "attacker.defense"],
    ["strength", atk("strength", 99), "attacker.strength"],
    ["strengthScale", atk("strengthScale", "big"), "attacker.strengthScale"],
    ["massScale", atk("massScale", "big"), "attacker.massScale"],
    ["damageCapacity", atk("damageCapacity", "Fair"), "attacker.damageCapacity"],
    ["willpower", atk("willpower", "x"), "attacker.willpower"],
    ["armor", atk("armor", 3), "attacker.armor"],
    ["armor.value", atk("armor", { value: -1 }), "attacker.armor.value"],
    ["armor.magic", atk("armor", { value: 1, magic: "+1" }), "attacker.armor.magic"],
    ["shield", atk("shield", "tower"), "attacker.shield"],
    ["toughHide", atk("toughHide", -1), "attacker.toughHide"],
    ["dcGift", atk("dcGift", "tough"), "attacker.dcGift"],
    ["fudgePoints", atk("fudgePoints", -1), "attacker.fudgePoints"],
    ["track", atk("track", undefined), "attacker.track"],
    ["track kind", atk("track", { config: { kind: "nope" } }), "attacker.track.config.kind"],
    ["unknown combatant field", atk("agility", 1), "attacker.agility"],
    ["weapon", atk("weapon", undefined), "attacker.weapon"],
    ["weapon.name", weapon("name", 1), "attacker.weapon.name"],
    ["weapon.kind", weapon("kind", "laser"), "attacker.weapon.kind"],
    ["weapon.size", weapon("size", "huge"), "attacker.weapon.size"],
    ["weapon.size missing", weapon("size", undefined), "attacker.weapon.size"],
    ["weapon.sharp", weapon("sharp", 1), "attacker.weapon.sharp"],
    [
      "weapon.strength (fixed)",
      (r: Json) => ((r.attacker as Json).weapon = { kind: "fixed" }),
      "attacker.weapon.strength",
    ],
    ["weapon.scaledToAttacker", weapon("scaledToAttacker", "no"), "attacker.weapon.scaledToAttacker"],
    ["weapon.heavyBlunt", weapon("heavyBlunt", 0), "attacker.weapon.heavyBlunt"],
    ["weapon.scalePiercing", weapon("scalePiercing", true), "attacker.weapon.scalePiercing"],
    ["weapon.ranged", weapon("ranged", "bow"), "attacker.weapon.ranged"],
    ["weapon.stunCapable", weapon("stunCapable", null), "attacker.weapon.stunCapable"],
    ["weapon unknown", weapon("reach", 2), "attacker.weapon.reach"],
    ["defender", (r: Json) => (r.defender = null), "defender"],
    ["defender.skill", (r: Json) => ((r.defender as Json).skill = "Fair"), "defender.skill"],
    [
      "defender track kind",
      (r: Json) => ((r.defender as Json).track = newTrack(defaultFateConfig())),
      "defender.track.config.kind",
    ],
    ["options", (r: Json) => (r.options = []), "options"],
    ["options.damageRoll", (r: Json) => (r.options = { damageRoll: "d6" }), "options.damageRoll"],
    [
      "graze level unknown",
      (r: Json) => (r.options = { graze: { table: [{ min: 0, level: "maimed" }] } }),
      "options.graze.table[0].level",
    ],
    ["situation", (r: Json) => (r.situation = "x"), "situation"],
    ["situation.modifier", (r: Json) => (r.situation = { modifier: "+1" }), "situation.modifier"],
    ["situation.defenderModifier", (r: Json) => (r.situation = { defenderModifier: 40 }), "situation.defenderModifier"],
    ["situation.allOutAttack", (r: Json) => (r.situation = { allOutAttack: 1 }), "situation.allOutAttack"],
    ["situation.allOutDefense", (r: Json) => (r.situation = { allOutDefense: "y" }), "situation.allOutDefense"],
    ["situation.stun", (r: Json) => (r.situation = { stun: "y" }), "situation.stun"],
    ["situation.pullPunch", (r: Json) => (r.situation = { pullPunch: "bruise" }), "situation.pullPunch"],
    ["situation.pullPunch type", (r: Json) => (r.situation = { pullPunch: 2 }), "situation.pullPunch"],
    [
      "situation.beganRoundIncapacitated",
      (r: Json) => (r.situation = { beganRoundIncapacitated: 1 }),
      "situation.beganRoundIncapacitated",
    ],
    ["situation.spendFudgePoint", (r: Json) => (r.situation = { spendFudgePoint: "y" }), "situation.spendFudgePoint"],
    [
      "situation.spendFudgePoint none left",
      (r: Json) => ((r.situation = { spendFudgePoint: true }), ((r.defender as Json).fudgePoints = 0)),
      "situation.spendFudgePoint",
    ],
    ["situation.gmLevel", (r: Json) => (r.situation = { gmLevel: "ouch" }), "situation.gmLevel"],
    ["situation unknown", (r: Json) => (r.situation = { cover: 1 }), "situation.cover"],
  ])("%s", (_name, mutate, field) => {
    expect(bad(mutate as (r: Json) => void)).toBe(field);
  });

  it("bad recorded dice name the slot", () => {
    expect(caught(() => resolveAttack(request(), { attack: [1, 0, 0, 0] })).field).toBe("dice.defense");
    expect(caught(() => resolveAttack(request(), { attack: [1, 0, 0, 2], defense: df(0) })).field).toBe(
      "dice.attack[3]",
    );
    expect(caught(() => resolveAttack(request(), { attack: [1, 0, 0], defense: df(0) })).field).toBe("dice.attack");
    const req = fudgePipeline.parseRequest(request({ options: { dcVariant: "roll" } }));
    expect(
      caught(() =>
        fudgePipeline.resolve(req, recordedDice({ attack: df(2), defense: df(0) }, fudgePipeline.slots(req))),
      ).field,
    ).toBe("dice.dc");
  });
});

it("defender status after a wound matches trackStatus of the applied track", () => {
  const r = resolve(request(), 3, 0);
  expect(r.defenderAfter).not.toBeNull();
  expect(trackStatus(r.defenderAfter!.track)).toEqual(r.defenderAfter!.status);
});

describe("fudge pipeline: the attacker's own refusals, before any die (checkAttacker)", () => {
  const stunned = applyWound(box(), { level: "hurt", stun: true }).track;
  const veryStunned = applyWound(box(), { level: "veryHurt", stun: true }).track;
  const incapacitated = applyWound(box(), { level: "incapacitated" }).track;
  const check = (req: Json) => () => fudgePipeline.checkAttacker!(fudgePipeline.parseRequest(req));

  it('Fudge §4.62: "a stunned character cannot attack"; Very Stunned: "no attacks" — refused by the check the resolution makes', () => {
    expect(trackStatus(stunned).effects).toEqual(["stunned"]);
    expect(trackStatus(veryStunned).effects).toEqual(["veryStunned"]);
    for (const atkTrack of [stunned, veryStunned]) {
      const e = caught(check(request({ atkTrack })));
      expect([e.key, e.field, e.params.name]).toEqual(["FUDGE.Error.Fudge.StunnedNoAttack", "attacker.track", "Leroy"]);
      // One source of truth: the resolution refuses with the same error.
      expect(caught(() => resolve(request({ atkTrack }), 0, 0)).key).toBe(e.key);
    }
  });

  it('Fudge §4.57: an Incapacitated character "can\'t fight any more" — refused', () => {
    const e = caught(check(request({ atkTrack: incapacitated })));
    expect([e.key, e.field]).toEqual(["FUDGE.Error.Fudge.CannotAct", "attacker.track"]);
    expect(caught(() => resolve(request({ atkTrack: incapacitated }), 0, 0)).key).toBe(e.key);
  });

  it("a fit attacker passes; the defender's own stun (all-out defence, decided at Defend on his live track) is not the attacker's refusal", () => {
    expect(check(request())).not.toThrow();
    const withStunnedDefender = request({ defTrack: stunned, situation: { allOutDefense: true } });
    expect(check(withStunnedDefender)).not.toThrow();
    // Fudge §4.62 "cannot … all-out defend": still refused when the exchange resolves.
    expect(caught(() => resolve(withStunnedDefender, 0, 0)).key).toBe("FUDGE.Error.Fudge.StunnedNoAllOutDefense");
  });
});
