/**
 * Issue #10: the places where the rules core disagreed with the texts. Each test quotes the
 * sentence it checks (seed 000 = Fudge 1995 §4.5x, seed 004 = Fudge Miniatures Battles).
 */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import { exactOdds, resolveAttack, applyWound, newTrack, type Track } from "../../src/rules";
import { fudgeSlots, parseFudgeRequest, boxTrackConfig, dcTrackConfig } from "../../src/rules/fudge";
import { datacard, parseDatacard } from "../../src/rules/miniatures";
import { SAMPLE_CARDS } from "./miniatures-samples";
import { caught } from "./errors";

const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));
const box = (): Track => newTrack(boxTrackConfig("standard"));
const marked = (...wounds: Array<Record<string, unknown>>): Track =>
  wounds.reduce((t, w) => applyWound(t, w).track, box());

const fighter = (name: string, skill: number, track: Track = box()) => ({
  name,
  skill,
  weapon: { name: "Sword", kind: "muscle", size: "medium", sharp: true },
  track,
});
const fudge = (attacker: object, defender: object, situation: object = {}, options: object = {}) => ({
  preset: "fudge",
  attacker,
  defender,
  situation,
  options,
});

describe("Fudge §4.62 stun", () => {
  const stunned = () => marked({ level: "hurt", stun: true });
  it('"a stunned character … −1 to defend": skill 0, roll 0 → total −1', () => {
    const r = resolveAttack(fudge(fighter("A", 0), fighter("D", 0, stunned())), { attack: df(0), defense: df(0) });
    expect(r.numbers.defenderTotal).toBe(-1);
    expect(r.numbers.relativeDegree).toBe(1);
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Step.Fudge.StunnedDefense");
  });
  it('"a stunned character cannot attack or all-out defend"', () => {
    expect(
      caught(() => resolveAttack(fudge(fighter("A", 0, stunned()), fighter("D", 0)), { attack: df(0), defense: df(0) }))
        .key,
    ).toBe("FUDGE.Error.Fudge.StunnedNoAttack");
    const e = caught(() =>
      resolveAttack(fudge(fighter("A", 0), fighter("D", 0, stunned()), { allOutDefense: true }), {
        attack: df(0),
        defense: df(0),
      }),
    );
    expect([e.key, e.field]).toEqual(["FUDGE.Error.Fudge.StunnedNoAllOutDefense", "situation.allOutDefense"]);
  });
  it('Very Stunned: "no attacks", −2 to all (defending too, no extra −1)', () => {
    const very = marked({ level: "veryHurt", stun: true });
    expect(
      caught(() => resolveAttack(fudge(fighter("A", 0, very), fighter("D", 0)), { attack: df(0), defense: df(0) })).key,
    ).toBe("FUDGE.Error.Fudge.StunnedNoAttack");
    const r = resolveAttack(fudge(fighter("A", 0), fighter("D", 0, very)), { attack: df(0), defense: df(0) });
    expect(r.numbers.defenderTotal).toBe(-2);
  });
});

describe("Fudge §4.57 Incapacitated", () => {
  it('"The character is indeed Incapacitated - he can\'t fight any more": he cannot attack', () => {
    for (const level of ["incapacitated", "nearDeath"]) {
      const e = caught(() =>
        resolveAttack(fudge(fighter("A", 2, marked({ level })), fighter("D", 0)), { attack: df(0), defense: df(0) }),
      );
      expect([e.key, e.field]).toEqual(["FUDGE.Error.Fudge.CannotAct", "attacker.track"]);
    }
  });
});

describe("Fudge §4.55 double relative degree", () => {
  // "The numbers above the wound levels should be adjusted in this case: 1-3 4-6 7-9 10-12 13+"
  it("Leroy RD 2 → 2×2 + 2 = 6 is Hurt with the sample characters (thresholds adjusted)", () => {
    const req = resolveSamples({
      preset: "fudge",
      attacker: "Leroy",
      defender: "Theodora",
      options: { doubleRd: true },
    });
    const leroy = req.attacker as { skill: number };
    const theodora = req.defender as { defense: number };
    // dice chosen so that RD = 2 whatever the samples' skills are
    const atk = 0;
    const def = leroy.skill - theodora.defense - 2;
    if (Math.abs(def) > 4) throw new Error("sample skills out of dice range");
    const r = resolveAttack(req, { attack: df(atk), defense: df(def) });
    expect(r.numbers.relativeDegree).toBe(2);
    expect(r.numbers.damageNumber).toBe(6);
    expect(r.woundKey).toBe("hurt");
  });
  it("a literal standard track is read with the doubled thresholds too; a track with its own thresholds keeps them", () => {
    const a = { ...fighter("A", 2), strength: 0 };
    const d = { ...fighter("D", 0), armor: { value: 1 } };
    // ODF 2 (medium +1, sharp +1), DDF 1 → factor +1; RD 3 → 2×3 + 1 = 7 → Very Hurt (7-9)
    const r = resolveAttack(fudge(a, d, {}, { doubleRd: true }), { attack: df(1), defense: df(0) });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([7, "veryHurt"]);
    const std = boxTrackConfig("standard");
    const own = newTrack({
      ...std,
      levels: std.levels.map((l, i) => ({ ...l, min: [1, 2, 3, 4, 5][i] })),
    } as typeof std);
    const q = resolveAttack(fudge(a, { ...d, track: own }, {}, { doubleRd: true }), { attack: df(1), defense: df(0) });
    expect(q.woundKey).toBe("nearDeath");
  });
});

describe("Miniatures: penalties lower stats, not weapons", () => {
  // "RODF is the weapon's damage. If any stat bonus is added, it will be stated in the weapon's
  // description." — "increased wound levels carry penalties to all stats, not rolls."
  it("a Hurt archer with a bow of damage 3 still shoots at 3; his Strength-based dagger drops", () => {
    const card = parseDatacard(
      { ...SAMPLE_CARDS.yanniTheYeoman, track: newTrack(boxTrackConfig("miniatures")) },
      "card",
    );
    const hurt = datacard(card, -1);
    expect(hurt.rodf).toBe(3);
    expect(hurt.weapons.find((w) => w.name === "Dagger")!.odf).toBe(-1);
    expect(hurt.ddf).toBe(datacard(card, 0).ddf - 1);
  });
});

describe("odds for a defender already wounded", () => {
  it("a miss leaves him as he was: worst level and condition afterwards sum to 1", () => {
    const o = exactOdds(fudge(fighter("A", -3), fighter("D", 0, marked({ level: "hurt" }))));
    const sum = (m: Record<string, number>) => Object.values(m).reduce((x, y) => x + y, 0);
    expect(sum(o.trackResults)).toBeCloseTo(1, 12);
    expect(sum(o.conditions)).toBeCloseTo(1, 12);
    expect(o.trackResults.none ?? 0).toBe(0);
    expect(o.trackResults.hurt).toBeGreaterThan(0.8);
  });
});

describe("Fudge §4.63 Min-Mid-Max with the double-RD option on", () => {
  // §4.63 (RULES §2.2): "roll 3d6 and read one die compared with the standard thresholds; the
  // factor is not added to RD" — the §4.55 doubled thresholds (1-3 4-6 …) go with the doubled RD,
  // which this mode does not use.
  const mmm = { woundMode: "minMidMax", doubleRd: true };
  it('"compared with the standard thresholds": a read of 3 is Hurt (3-4), not a Scratch (1-3)', () => {
    // factor 0 → bonus 0, RD 2 → bonus 0: the median of 1, 3, 6 is read
    const r = resolveAttack(fudge(fighter("A", 0), { ...fighter("D", 0), armor: { value: 2 } }, {}, mmm), {
      attack: df(2),
      defense: df(0),
      damage: [1, 3, 6],
    });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([3, "hurt"]);
  });
  it("a read of 5 is Very Hurt (5-6) on the DC track too", () => {
    const d = { ...fighter("D", 0), armor: { value: 2 }, track: newTrack(dcTrackConfig(0)) };
    const r = resolveAttack(fudge(fighter("A", 0), d, {}, { ...mmm, dcVariant: "track" }), {
      attack: df(2),
      defense: df(0),
      damage: [1, 5, 6],
    });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([5, "veryHurt"]);
  });
  it("the sample characters' tracks carry the standard thresholds in this mode (and the doubled ones in the factor mode)", () => {
    const mins = (options: object) =>
      (
        (
          resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora", options }).defender as {
            track: Track;
          }
        ).track.config as unknown as { levels: Array<{ min: number }> }
      ).levels.map((l) => l.min);
    expect(mins(mmm)).toEqual([1, 3, 5, 7, 9]);
    expect(mins({ doubleRd: true })).toEqual([1, 4, 7, 10, 13]);
  });
});

describe("Fudge §4.52 (1) Damage Capacity without a roll", () => {
  // "For certain types of damage - perhaps from a stun ray or a quarterstaff across the ribs - the
  // GM can use the values from +3 to -3 without requiring a roll."
  const staff = (dcWithoutRoll: boolean) => ({
    ...fighter("A", 0),
    weapon: { name: "Quarterstaff", kind: "muscle", size: "medium", dcWithoutRoll },
  });
  const d = { ...fighter("D", 0), damageCapacity: 2 };
  const roll = { dcVariant: "roll" };
  it('"the GM can use the values from +3 to -3 without requiring a roll": DC +2 is a defensive factor, no DC roll is read', () => {
    // RD 4, ODF +1, DDF +2 (DC) → 4 − 1 = 3 → Hurt; no "dc" dice given, none needed
    const r = resolveAttack(fudge(staff(true), d, {}, roll), { attack: df(4), defense: df(0) });
    expect([r.numbers.ddf, r.numbers.damageNumber, r.woundKey, r.numbers.dcRoll]).toEqual([2, 3, "hurt", undefined]);
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Step.Fudge.DcWithoutRoll");
    expect(fudgeSlots(parseFudgeRequest(fudge(staff(true), d, {}, roll))).map((s) => s.id)).not.toContain("dc");
  });
  it("other weapons still make the DC roll (DC is no factor): RD 4 + 1 = 5, a Great DC roll makes it Hurt", () => {
    const r = resolveAttack(fudge(staff(false), d, {}, roll), { attack: df(4), defense: df(0), dc: df(0) });
    expect([r.numbers.ddf, r.numbers.damageNumber, r.numbers.dcRoll, r.woundKey]).toEqual([0, 5, 2, "hurt"]);
  });
  it("the other variants are unchanged by the field (factor: DC counts anyway; gift: DC is no factor)", () => {
    expect(resolveAttack(fudge(staff(true), d), { attack: df(4), defense: df(0) }).numbers.ddf).toBe(2);
    expect(
      resolveAttack(fudge(staff(true), d, {}, { dcVariant: "gift" }), { attack: df(4), defense: df(0) }).numbers.ddf,
    ).toBe(0);
  });
});
