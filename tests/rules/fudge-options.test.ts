/** Fudge options the texts state that issue #10 added: each test names its text. */
import { describe, expect, it } from "vitest";
import { exactOdds, resolveAttack, applyWound, newTrack, type Track } from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";
import { caught } from "./errors";

const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));
const box = (): Track => newTrack(boxTrackConfig("standard"));
const knife = { name: "Knife", kind: "muscle", size: "small", sharp: true };
const fighter = (over: Record<string, unknown> = {}) => ({ name: "F", skill: 0, weapon: knife, track: box(), ...over });
const fudge = (attacker: object, defender: object, options: object = {}, situation: object = {}) => ({
  preset: "fudge",
  attacker,
  defender,
  options,
  situation,
});
const dice = (atk: number, def: number, more: Record<string, number[]> = {}) => ({
  attack: df(atk),
  defense: df(def),
  ...more,
});

describe("Fudge §4.7: a magic weapon", () => {
  it('"+1 for Magic" is added to the offensive damage factor', () => {
    const plain = resolveAttack(fudge(fighter(), fighter()), dice(2, 0));
    const magic = resolveAttack(fudge(fighter({ weapon: { ...knife, magic: 1 } }), fighter()), dice(2, 0));
    expect(magic.numbers.odf).toBe(plain.numbers.odf + 1);
    expect(magic.numbers.damageNumber).toBe(plain.numbers.damageNumber + 1);
    expect(magic.steps.map((s) => s.key)).toContain("FUDGE.Step.Fudge.WeaponMagic");
  });
});

describe("Fudge §4.31: weapon + shield 2 or more lower", () => {
  const big = { name: "Greatsword", kind: "muscle", size: "twoHanded", sharp: true }; // +4 against the knife's +1
  it("−1 to the side whose weapon + shield is 2 or more lower (melee), off by default", () => {
    const off = resolveAttack(fudge(fighter(), fighter({ weapon: big })), dice(0, 0));
    expect(off.numbers.attackerTotal).toBe(0);
    const on = resolveAttack(fudge(fighter(), fighter({ weapon: big }), { weaponShieldMismatch: true }), dice(0, 0));
    expect([on.numbers.attackerTotal, on.numbers.defenderTotal]).toEqual([-1, 0]);
    const other = resolveAttack(fudge(fighter({ weapon: big }), fighter(), { weaponShieldMismatch: true }), dice(0, 0));
    expect([other.numbers.attackerTotal, other.numbers.defenderTotal]).toEqual([0, -1]);
    // a large shield (+2) makes up the difference
    const shielded = resolveAttack(
      fudge(fighter({ shield: "large" }), fighter({ weapon: big }), { weaponShieldMismatch: true }),
      dice(0, 0),
    );
    expect(shielded.steps.map((s) => s.key)).not.toContain("FUDGE.Step.Fudge.WeaponShieldLower");
  });
});

describe("Fudge §4.58: Scale and criticals", () => {
  const giant = fighter({ massScale: 3, armor: { value: 4 } }); // DDF 7; knife ODF +1
  it("a critical success (attack dice +4) lets one point through", () => {
    // RD 4 + 1 − 7 = −2: no damage, unless critical
    expect(resolveAttack(fudge(fighter(), giant), dice(4, 0)).woundKey).toBeNull();
    const r = resolveAttack(fudge(fighter(), giant, { criticalLetsPointThrough: true }), dice(4, 0));
    expect(r.woundKey).toBe("scratch");
  });
  it("a damage roll when Scale alone stands between a Scratch and nothing: 1dF, + is a Scratch", () => {
    // RD 3 + 1 − 7 = −3; without the Scale 3 it would be 0: still nothing → no roll
    const none = resolveAttack(fudge(fighter(), giant, { scaleDamageRoll: true }), dice(3, 0));
    expect(none.dice.scale).toBeUndefined();
    // RD 4 + 1 − 7 = −2; +3 Scale → 1: Scale alone stands in the way → roll
    const plus = resolveAttack(fudge(fighter(), giant, { scaleDamageRoll: true }), dice(3, -1, { scale: [1] }));
    expect([plus.numbers.scaleRoll, plus.woundKey]).toEqual([1, "scratch"]);
    const zero = resolveAttack(fudge(fighter(), giant, { scaleDamageRoll: true }), dice(3, -1, { scale: [0] }));
    expect(zero.woundKey).toBeNull();
    // exact odds read the extra die only where it matters
    const o = exactOdds(fudge(fighter(), giant, { scaleDamageRoll: true }));
    expect(Object.values(o.outcomes).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
  });
});

describe("Fudge §4.62: a Good blow to the head knocks out (GM option)", () => {
  const sap = { name: "Sap", kind: "muscle", size: "small", stunCapable: true };
  it("a stun blow to the head with a Good (+1) or better result knocks the victim out", () => {
    const req = (opt: boolean) =>
      fudge(fighter({ skill: 1, weapon: sap }), fighter(), { headBlowKnockout: opt }, { stun: true, headBlow: true });
    const off = resolveAttack(req(false), dice(0, -2));
    expect(off.defenderAfter?.status.effects).toEqual(["stunned"]);
    const on = resolveAttack(req(true), dice(0, -2));
    expect(on.defenderAfter?.status.effects).toEqual(["knockedOut"]);
    expect(on.defenderAfter?.status.canAct).toBe(false);
    // a Fair blow (total 0) does not
    const fair = resolveAttack(
      fudge(
        fighter({ weapon: sap }),
        fighter({ skill: -2 }),
        { headBlowKnockout: true },
        { stun: true, headBlow: true },
      ),
      dice(0, 0),
    );
    expect(fair.defenderAfter?.status.effects).not.toContain("knockedOut");
  });
});

describe("Fudge §4.51: a Willpower roll to ease wound penalties", () => {
  const hurt = applyWound(box(), { level: "hurt" }).track;
  const veryHurt = applyWound(box(), { level: "veryHurt" }).track;
  it("meet the Difficulty: one less; beat it by 2: no penalty; fail: the full penalty", () => {
    const req = (track: Track) =>
      fudge(fighter({ willpower: 0, track }), fighter(), { willpowerVsPenalty: { difficulty: 0 } });
    expect(resolveAttack(req(veryHurt), dice(0, 0, { attackerWill: df(0) })).numbers.attackerTotal).toBe(-1);
    expect(resolveAttack(req(veryHurt), dice(0, 0, { attackerWill: df(2) })).numbers.attackerTotal).toBe(0);
    expect(resolveAttack(req(hurt), dice(0, 0, { attackerWill: df(-1) })).numbers.attackerTotal).toBe(-1);
    // without a penalty, or without Willpower, nothing is rolled
    expect(resolveAttack(req(box()), dice(0, 0)).dice.attackerWill).toBeUndefined();
  });
  it("the option is a request field, checked like the others", () => {
    expect(
      caught(() => resolveAttack(fudge(fighter(), fighter(), { willpowerVsPenalty: { difficulty: 99 } }), dice(0, 0)))
        .field,
    ).toBe("options.willpowerVsPenalty.difficulty");
  });
});
