/**
 * Issue #10, second independent check (lane 10f): the Fudge core preset against its texts —
 * seed 000 (Fudge 1995 §4.5x) and RULES.md §1–2 (facts *outside the seeds* come from the rest of
 * the public Fudge texts). One `it` per case, named by the sentence or example it checks; every
 * expected value was decided from the text before the code was run.
 */
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { resolveSamples } from "../../src/cli/samples";
import {
  FOUR_DF_WEIGHTS,
  describeLevel,
  standardLadder,
  resolveAttack,
  applyWound,
  endBattle,
  healTrack,
  newTrack,
  trackStatus,
  type Track,
} from "../../src/rules";
import {
  defensiveFactor,
  offensiveFactor,
  parseCombatant,
  unopposedRoll,
  factorBonus,
  relativeDegreeBonus,
  defaultFudgeOptions,
  boxTrackConfig,
  dcTrackConfig,
} from "../../src/rules/fudge";

/** 4dF faces with the given total. */
const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));
const std = (opts: Parameters<typeof boxTrackConfig>[1] = {}): Track => newTrack(boxTrackConfig("standard", opts));
const wound = (t: Track, ...ws: Array<Record<string, unknown>>): Track =>
  ws.reduce((tr, w) => applyWound(tr, w).track, t);
const lv = (level: string, more: Record<string, unknown> = {}) => ({ level, ...more });
const marks = (t: Track): Record<string, Array<string | null>> =>
  Object.fromEntries(
    Object.entries((t.state as { marks: Record<string, Array<{ level: string; stun?: boolean } | null>> }).marks).map(
      ([k, v]) => [k, v.map((m) => (m ? (m.stun ? "~" : "") + m.level : null))],
    ),
  );
const penalty = (t: Track): number => trackStatus(t).penalty;

const W = {
  none: { name: "Fist", kind: "muscle", size: "none" },
  martial: { name: "Karate", kind: "muscle", size: "martialArt" },
  knife: { name: "Knife", kind: "muscle", size: "small", sharp: true },
  blackjack: { name: "Blackjack", kind: "muscle", size: "small" },
  club: { name: "Billy club", kind: "muscle", size: "medium" },
  shortsword: { name: "Shortsword", kind: "muscle", size: "medium", sharp: true },
  broadsword: { name: "Broadsword", kind: "muscle", size: "large", sharp: true },
  greatsword: { name: "Greatsword", kind: "muscle", size: "twoHanded", sharp: true },
  poleaxe: { name: "Poleaxe", kind: "muscle", size: "twoHanded", sharp: true },
  mace: { name: "Large mace", kind: "muscle", size: "large", heavyBlunt: true },
};
type Over = Record<string, unknown>;
const fighter = (over: Over = {}) => ({ name: "F", skill: 0, weapon: W.club, track: std(), ...over });
const req = (attacker: Over, defender: Over, options: Over = {}, situation: Over = {}) => ({
  preset: "fudge",
  attacker: fighter(attacker),
  defender: fighter(defender),
  options,
  situation,
});
/** Attack with dice chosen for the given relative degree (both skills 0 unless set). */
const hit = (
  rd: number,
  attacker: Over,
  defender: Over,
  options: Over = {},
  more: Record<string, number[]> = {},
  situation: Over = {},
) => {
  const a = Math.min(4, rd);
  return resolveAttack(req(attacker, defender, options, situation), { attack: df(a), defense: df(a - rd), ...more });
};
const odf = (over: Over, options: Over = {}) =>
  offensiveFactor(parseCombatant(fighter(over), "a"), { ...defaultFudgeOptions(), ...options } as never).total;
const ddf = (over: Over, weapon: Over = W.club, options: Over = {}) =>
  defensiveFactor(
    parseCombatant(fighter(over), "d"),
    parseCombatant(fighter({ weapon }), "a").weapon,
    { ...defaultFudgeOptions(), ...options } as never,
    {},
  ).total;

const LEROY = {
  name: "Leroy",
  strength: 1,
  strengthScale: 0,
  weapon: W.broadsword,
  damageCapacity: 1,
  armor: { value: 3 },
};
const THEODORA = {
  name: "Theodora",
  strength: 3,
  strengthScale: 0,
  weapon: W.poleaxe,
  damageCapacity: 0,
  armor: { value: 2 },
};

describe("RULES §1: the ladder and 4dF", () => {
  it('"exact frequencies out of 81: 1, 4, 10, 16, 19, 16, 10, 4, 1"', () => {
    expect([...FOUR_DF_WEIGHTS]).toEqual([1, 4, 10, 16, 19, 16, 10, 4, 1]);
  });
  it('"Results outside the ladder are named from the nearest end: Superb +2 (= +5), Terrible −1 (= −4)" (without Legendary; with it, +5 is Legendary +1)', () => {
    expect(describeLevel(5, standardLadder({}, false)).label).toBe("Superb +2");
    expect(describeLevel(5).label).toBe("Legendary +1");
    expect(describeLevel(-4).label).toBe("Terrible −1");
    expect(describeLevel(4).label).toBe("Legendary");
  });
  it('"Unopposed: meet or beat a Difficulty Level (default Fair)": Fair trait, dice 0 → success; dice −1 → failure', () => {
    expect(unopposedRoll(0, df(0)).success).toBe(true);
    expect(unopposedRoll(0, df(-1)).success).toBe(false);
    expect(unopposedRoll(1, df(0), 2).success).toBe(false);
  });
  it('"RD ≤ 0 is no hit for the attacker (0 is a standoff)"', () => {
    expect(hit(0, {}, {}).outcome).toBe("standoff");
    expect(hit(-1, {}, {}).outcome).toBe("miss");
    expect(hit(0, {}, {}).hit).toBe(false);
  });
  it('"Wound penalties apply to every roll of the wounded character": a Hurt attacker rolls at −1, a Very Hurt defender at −2', () => {
    const r = resolveAttack(req({ track: wound(std(), lv("hurt")) }, { track: wound(std(), lv("veryHurt")) }), {
      attack: df(0),
      defense: df(0),
    });
    expect([r.numbers.attackerTotal, r.numbers.defenderTotal, r.numbers.relativeDegree]).toEqual([-1, -2, 1]);
  });
  it('Shields §4.31: "small +1 (melee only), medium +1 (melee) and +1 (ranged), large +2 (all combat)"', () => {
    const total = (shield: string, ranged: boolean) =>
      resolveAttack(req({ weapon: { ...W.club, ranged } }, { shield }), { attack: df(0), defense: df(0) }).numbers
        .attackerTotal;
    expect([total("small", false), total("small", true)]).toEqual([-1, 0]);
    expect([total("medium", false), total("medium", true)]).toEqual([-1, -1]);
    expect([total("large", false), total("large", true)]).toEqual([-2, -2]);
  });
});

describe("Fudge §4.54 Sample Wound Factors List", () => {
  it('Strength "+3 for Superb … -3 for Terrible" counts for muscle-powered weapons', () => {
    expect([3, 0, -3].map((strength) => odf({ strength, weapon: W.blackjack }))).toEqual([3, 0, -3]);
  });
  it('"-1 for no weapon, not using a Martial Art skill"; "+0 Martial Art skill, or for small weapons"', () => {
    expect([odf({ weapon: W.none }), odf({ weapon: W.martial }), odf({ weapon: W.blackjack })]).toEqual([-1, 0, 0]);
  });
  it('"+1 medium … +2 large one-handed … +3 most two-handed"', () => {
    expect(odf({ weapon: W.club })).toBe(1);
    expect(odf({ weapon: { ...W.club, size: "large" } })).toBe(2);
    expect(odf({ weapon: { ...W.club, size: "twoHanded" } })).toBe(3);
  });
  it('"+1 for sharpness (… knife becomes +1, shortsword +2, broadsword +3, greatsword +4, etc.)"', () => {
    expect([W.knife, W.shortsword, W.broadsword, W.greatsword].map((weapon) => odf({ weapon }))).toEqual([1, 2, 3, 4]);
  });
  it('"For a less lethal game, subtract 1 from each type of weapon except sharpness": knife 0, broadsword +2, fist −2', () => {
    const ll = { lessLethal: true };
    expect([odf({ weapon: W.knife }, ll), odf({ weapon: W.broadsword }, ll), odf({ weapon: W.none }, ll)]).toEqual([
      0, 2, -2,
    ]);
  });
  it("\"For Weapon's Strength (Guns, Crossbows, Beam weapons): +/- Strength of weapon\" — not the character's Strength", () => {
    expect(odf({ strength: 3, weapon: { name: "Pistol", kind: "fixed", strength: 2 } })).toBe(2);
  });
  it('"A superhero of Scale 10 using an ordinary pistol would *not* figure his Scale"; a scaled weapon would', () => {
    expect(odf({ strengthScale: 10, weapon: { name: "Pistol", kind: "fixed", strength: 2 } })).toBe(2);
    expect(
      odf({ strengthScale: 10, weapon: { name: "Giant pistol", kind: "fixed", strength: 2, scaledToAttacker: true } }),
    ).toBe(12);
    expect(odf({ strengthScale: 2, weapon: W.club })).toBe(3);
  });
  it('Armor "+1 light pliable … +4 heavy metal … +5 SF; magical armor may add"', () => {
    expect([1, 2, 3, 4, 5].map((value) => ddf({ armor: { value } }))).toEqual([1, 2, 3, 4, 5]);
    expect(ddf({ armor: { value: 4, magic: 2 } })).toBe(6);
  });
  it('"Plus the defender\'s Mass Scale … or a gift of Tough Hide"; DC "+3 … -3"', () => {
    expect(ddf({ massScale: 2, toughHide: 1, damageCapacity: -3 })).toBe(0);
    expect(ddf({ damageCapacity: 3 })).toBe(3);
  });
  it('"(If the defender has Mass other than Fair, or a gift of Tough Hide, it should also be figured in.)": Good Mass +1, Poor Mass −2', () => {
    expect(ddf({ mass: 1 })).toBe(1);
    expect(ddf({ mass: -2, armor: { value: 3 } })).toBe(1);
    expect(ddf({ mass: 1, massScale: 2, toughHide: 1 })).toBe(4);
    // RD 2, club +1 against Good Mass: 2 + 1 − 1 = 2 → Scratch (Hurt at Fair Mass: 3)
    expect(hit(2, {}, { mass: 1 }).numbers.damageNumber).toBe(2);
    expect(hit(2, {}, { mass: 1 }).steps.map((st) => st.key)).toContain("FUDGE.Step.Fudge.Mass");
  });
  it('"if using a large mace (+2 weapon) against plate armor (+4 armor), the armor only counts as +2"; halve, round down: +3 → +1', () => {
    expect(odf({ weapon: W.mace })).toBe(2);
    expect(ddf({ armor: { value: 4 } }, W.mace)).toBe(2);
    expect(ddf({ armor: { value: 3 } }, W.mace)).toBe(1);
    expect(ddf({ armor: { value: 3 } }, W.broadsword)).toBe(3);
  });
});

describe("Fudge §4.55 Leroy vs. Theodora", () => {
  it('"Offensive damage factors = 1+0+3 = 4 … Defensive damage factors = 1+0+3 = 4" (Leroy); "3+0+4 = 7 … 0+0+2 = 2" (Theodora)', () => {
    expect([odf(LEROY), ddf(LEROY), odf(THEODORA), ddf(THEODORA)]).toEqual([4, 4, 7, 2]);
  });
  it("\"Leroy's total damage factor against Theodora is 4-2 = 2. Theodora's total damage factor against Leroy is 7-4 = 3.\"", () => {
    expect(hit(2, LEROY, THEODORA).numbers.damageFactor).toBe(2);
    expect(hit(2, THEODORA, LEROY).numbers.damageFactor).toBe(3);
  });
  it('"If Leroy hits Theodora with a relative degree of +2 … a damage number of four … Theodora is Hurt, and at -1"', () => {
    const r = hit(2, LEROY, THEODORA);
    expect([r.numbers.damageNumber, r.woundKey, r.defenderAfter!.status.penalty]).toEqual([4, "hurt", -1]);
  });
  it("the sample characters of the packs give the same factors (2 and 3)", () => {
    const lt = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }) as never;
    const tl = resolveSamples({ preset: "fudge", attacker: "Theodora", defender: "Leroy" }) as never;
    const factor = (r: { attacker: Over; defender: Over }) => {
      const a = r.attacker as { skill: number };
      const d = r.defender as { defense: number };
      return resolveAttack(r, { attack: df(0), defense: df(a.skill - d.defense - 2) }).numbers.damageFactor;
    };
    expect([factor(lt), factor(tl)]).toEqual([2, 3]);
  });
  it('GM example: "Good Strength … Great hit with a broadsword … loser rolled Fair, Good DC and heavy leather armor … I\'d say the loser is Hurt" — the factors agree', () => {
    // ODF 1 + 3 = 4, DDF 1 + 2 = 3; Great (+2) against Fair (0): RD 2 → 2 + 1 = 3 → Hurt
    const r = resolveAttack(req({ strength: 1, weapon: W.broadsword }, { damageCapacity: 1, armor: { value: 2 } }), {
      attack: df(2),
      defense: df(0),
    });
    expect([r.numbers.relativeDegree, r.numbers.damageNumber, r.woundKey]).toEqual([2, 3, "hurt"]);
  });
});

describe("Fudge §4.55 Determining Wound Level", () => {
  // Knife +1 against no armor: factor +1; set the factor with armor.
  const at = (rd: number, factor: number, options: Over = {}) =>
    hit(
      rd,
      { weapon: W.knife },
      { armor: { value: Math.max(0, 1 - factor) }, toughHide: 0, massScale: Math.min(0, 1 - factor) },
      options,
    );
  it('"1,2 3,4 5,6 7,8 9+ — Scratch Hurt Very Hurt Incapac. Nr. Death": every number from 1 to 12', () => {
    const want = [
      "scratch",
      "scratch",
      "hurt",
      "hurt",
      "veryHurt",
      "veryHurt",
      "incapacitated",
      "incapacitated",
      "nearDeath",
      "nearDeath",
      "nearDeath",
      "nearDeath",
    ];
    for (let n = 1; n <= 12; n++) expect([n, at(2, n - 2).woundKey]).toEqual([n, want[n - 1]]);
  });
  it('"Note that there is no number given for Dead": damage number 20 is Near Death, not Dead', () => {
    const r = at(4, 16);
    expect([r.numbers.damageNumber, r.woundKey, r.defenderAfter!.status.condition]).toEqual([20, "nearDeath", "dying"]);
  });
  it('"If it\'s 0 or less, no damage is scored": RD 2 with factor −2 (0) and −3 (−1)', () => {
    expect([at(2, -2).outcome, at(2, -3).outcome]).toEqual(["noDamage", "noDamage"]);
    expect(at(2, -1).woundKey).toBe("scratch");
  });
  it('"A GM who believes the relative degree is more important … would double it": RD 3, factor +1 → 7 → Very Hurt (7-9)', () => {
    const r = at(3, 1, { doubleRd: true });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([7, "veryHurt"]);
  });
  it('double RD thresholds "1-3 4-6 7-9 10-12 13+": 3 Scratch, 4 Hurt, 6 Hurt, 10 Incap., 12 Incap., 13 Near Death', () => {
    const get = (n: number) => at(2, n - 4, { doubleRd: true }).woundKey;
    expect([3, 4, 6, 10, 12, 13].map(get)).toEqual([
      "scratch",
      "hurt",
      "hurt",
      "incapacitated",
      "incapacitated",
      "nearDeath",
    ]);
  });
  it('"These numbers can be customized by the GM": a track with its own thresholds is read by them', () => {
    const cfg = boxTrackConfig("standard");
    const own = newTrack({
      ...cfg,
      levels: cfg.levels.map((l, i) => ({ ...l, min: [2, 4, 6, 8, 10][i] })),
    } as typeof cfg);
    expect(hit(2, { weapon: W.knife }, { armor: { value: 2 }, track: own }).outcome).toBe("noDamage"); // 2 − 1 = 1 < 2
    expect(hit(3, { weapon: W.knife }, { armor: { value: 1 }, track: own }).woundKey).toBe("scratch"); // 3 + 0 = 3: Scratch 2-3
    expect(hit(4, { weapon: W.knife }, { armor: { value: 1 }, track: own }).woundKey).toBe("hurt"); // 4: Hurt 4-5
  });
  it('GM Situational roll: "-1 to +1 isn\'t significant … +3 or +4 adds a wound level or two"', () => {
    const gm = (roll: number) =>
      hit(
        2,
        {},
        {},
        { woundMode: "gmJudgement", gmSituationalRoll: true },
        { situational: df(roll) },
        { gmLevel: "hurt" },
      ).woundKey;
    expect([-1, 0, 1, 3, 4].map(gm)).toEqual(["hurt", "hurt", "hurt", "veryHurt", "incapacitated"]);
  });
  it("GM judgement: without the GM's pick there is no wound yet; with it, that is the wound", () => {
    expect(hit(3, {}, {}, { woundMode: "gmJudgement" }).outcome).toBe("gmJudgement");
    expect(hit(3, {}, {}, { woundMode: "gmJudgement" }, {}, { gmLevel: "veryHurt" }).woundKey).toBe("veryHurt");
  });
});

describe("Fudge §4.56 Grazing", () => {
  // Factor set by the knife (+1) and armor.
  const graze = (
    factor: number,
    attacker: Over = {},
    defender: Over = {},
    options: Over = {},
    more: Record<string, number[]> = {},
  ) =>
    hit(
      1,
      { weapon: W.knife, strength: Math.max(0, factor - 1), ...attacker },
      { armor: { value: Math.max(0, 1 - factor) }, ...defender },
      options,
      more,
    );
  it('"<0 Undamaged, 0-4 Scratch, 5+ Hurt": factors −1, 0, 4, 5, 9', () => {
    expect([-1, 0, 4, 5, 9].map((f) => graze(f).woundKey)).toEqual([null, "scratch", "scratch", "hurt", "hurt"]);
  });
  it('"a fist hitting plate mail won\'t hurt the armored knight in the slightest"', () => {
    expect(hit(1, { weapon: W.none }, { armor: { value: 4 } }).outcome).toBe("noDamage");
  });
  it("\"- unless it's a giant's fist\": a Scale 6 fist grazes the knight", () => {
    // ODF −1 + 6 = 5, DDF 4 → factor +1 → Scratch, raised by the Scale difference
    expect(hit(1, { weapon: W.none, strengthScale: 6 }, { armor: { value: 4 } }).woundKey).not.toBeNull();
  });
  it('"a giant\'s club could give a human a glancing blow that might inflict a Very Hurt result, but not necessarily Incapacitate"', () => {
    // Scale 5 giant, Great Strength, large club: ODF 2 + 5 + 2 = 9 vs an unarmoured human: factor 9
    const r = hit(1, { weapon: { ...W.club, size: "large" }, strength: 2, strengthScale: 5 }, {});
    expect(r.woundKey).toBe("veryHurt");
  });
  it('"If allowed, a damage roll shouldn\'t change the result of a graze by more than one level": +4 situational on a Scratch graze (factor 4) with a Very Hurt row at 8 → Hurt', () => {
    const table = [
      { min: 0, level: "scratch" },
      { min: 5, level: "hurt" },
      { min: 8, level: "veryHurt" },
    ];
    const opts = { damageRoll: "situational4dF", grazeDamageRoll: true, graze: { table } };
    expect(graze(4, {}, {}, opts, { damage: df(4) }).woundKey).toBe("hurt");
    expect(graze(4, {}, {}, opts, { damage: df(0) }).woundKey).toBe("scratch");
    expect(graze(0, {}, {}, opts, { damage: df(-4) }).woundKey).toBeNull();
    expect(graze(5, {}, {}, opts, { damage: df(-4) }).woundKey).toBe("scratch");
  });
  it('"A relative degree of +1 is treated as a *graze*" with double RD and with Min-Mid-Max too (graze table, no doubling, no 3d6)', () => {
    expect(graze(4, {}, {}, { doubleRd: true }).woundKey).toBe("scratch");
    expect(graze(5, {}, {}, { doubleRd: true }).woundKey).toBe("hurt");
    const mmm = graze(5, {}, {}, { woundMode: "minMidMax" });
    expect([mmm.woundKey, mmm.dice.damage]).toEqual(["hurt", undefined]);
  });
  it('"a tiger biting a mouse with a relative degree of +1 grazes the mouse as a cow grazes grass": with the Scale raise per point the graze reaches Near Death (the worst level a number reaches); the default one-level raise gives Very Hurt (documented choice)', () => {
    // Tiger Scale +3, bite as a sharp small weapon (+1); mouse Mass Scale −20: factor 0 + 3 + 1 + 20 = 24
    const tiger = { weapon: W.knife, strengthScale: 3 };
    const mouse = { massScale: -20 };
    expect(hit(1, tiger, mouse, { graze: { scaleRaise: "perPoint" } }).woundKey).toBe("nearDeath");
    expect(hit(1, tiger, mouse).woundKey).toBe("veryHurt");
  });
  it('"A GM may or may not allow a damage die roll on a graze": by default the roll is not made on a graze', () => {
    const r = graze(4, {}, {}, { damageRoll: "dfNumber" });
    expect([r.woundKey, r.numbers.damageRoll]).toEqual(["scratch", undefined]);
  });
});

describe("Fudge §4.57 Recording Wounds — the box track", () => {
  it('"A character takes a Very Hurt result … This character is at -2 to all skills"', () => {
    expect(penalty(wound(std(), lv("veryHurt")))).toBe(-2);
  });
  it('"If he then received a Hurt result … still at -2 … only the penalty for the highest recorded wound level counts"', () => {
    const t = wound(std(), lv("veryHurt"), lv("hurt"));
    expect([penalty(t), marks(t).hurt, marks(t).veryHurt]).toEqual([-2, ["hurt"], ["veryHurt"]]);
  });
  it('"takes another Hurt result … we have to go to Incapacitated … an "H" is recorded under the Incapacitated label"', () => {
    const t = wound(std(), lv("veryHurt"), lv("hurt"), lv("hurt"));
    expect(marks(t).incapacitated).toEqual(["hurt"]);
    expect(trackStatus(t).condition).toBe("cannotAct");
  });
  it('"a character that takes two Very Hurt results without taking any other hits is Incapacitated"', () => {
    const t = wound(std(), lv("veryHurt"), lv("veryHurt"));
    expect([trackStatus(t).levelKey, marks(t).hurt]).toEqual(["incapacitated", [null]]);
  });
  it('"A Scratch wound will not make a fighter Hurt until he receives his fourth Scratch"', () => {
    const three = wound(std(), lv("scratch"), lv("scratch"), lv("scratch"));
    expect(penalty(three)).toBe(0);
    const four = wound(three, lv("scratch"));
    expect([penalty(four), marks(four).hurt]).toEqual([-1, ["scratch"]]);
  });
  it('"Optionally, a Scratch will never raise a character\'s wound level beyond Very Hurt, no matter how many he takes"', () => {
    const t = wound(std({ scratchCap: true }), ...Array.from({ length: 8 }, () => lv("scratch")));
    expect([trackStatus(t).levelKey, trackStatus(t).condition, marks(t).incapacitated]).toEqual([
      "veryHurt",
      "able",
      [null],
    ]);
    const off = wound(std(), ...Array.from({ length: 7 }, () => lv("scratch")));
    expect(trackStatus(off).condition).toBe("dying");
  });
  it('"If there is no open box for a given wound result, the character takes the next highest": a Hurt still fills an open Hurt box under a marked Near Death', () => {
    const t = wound(std(), lv("nearDeath"));
    expect(trackStatus(t).condition).toBe("dying");
    const r = applyWound(t, lv("hurt"));
    expect([r.ended, marks(r.track).hurt]).toEqual([false, ["hurt"]]);
  });
  it("no open box at the wound's level or above: a second Near Death kills; so does a Hurt with Hurt..Near Death all marked", () => {
    const r = applyWound(wound(std(), lv("nearDeath")), lv("nearDeath"));
    expect([r.ended, r.status.condition]).toEqual([true, "dead"]);
    const full = wound(std(), lv("hurt"), lv("veryHurt"), lv("incapacitated"), lv("nearDeath"));
    expect(applyWound(full, lv("hurt")).status.condition).toBe("dead");
    expect(applyWound(full, lv("scratch")).status.condition).toBe("dying"); // the Scratch boxes are open
  });
  it('"for healing (and scarring) purposes, he has only received two Hurt wounds and one Very Hurt wound": a Good healing roll leaves one Hurt', () => {
    const t = wound(std(), lv("veryHurt"), lv("hurt"), lv("hurt"));
    const healed = healTrack(t, { type: "roll", result: 1 }).track;
    expect([trackStatus(healed).levelKey, penalty(healed)]).toEqual(["hurt", -1]);
  });
  it('"For a more cinematic campaign … add an extra box for Scratch, Hurt …": cinematic is 4/2/1/1/1', () => {
    const c = boxTrackConfig("cinematic");
    expect(c.levels.map((l) => l.boxes)).toEqual([4, 2, 1, 1, 1]);
    const t = wound(newTrack(c), lv("hurt"), lv("hurt"));
    expect([trackStatus(t).levelKey, penalty(t)]).toEqual(["hurt", -1]);
  });
  it("standard track: Scratch 3 (no penalty), Hurt 1 (−1), Very Hurt 1 (−2), Incapacitated 1 (cannot act), Near Death 1 (dying)", () => {
    expect(boxTrackConfig("standard").levels.map((l) => [l.key, l.boxes, l.effect])).toEqual([
      ["scratch", 3, "none"],
      ["hurt", 1, "penalty"],
      ["veryHurt", 1, "penalty"],
      ["incapacitated", 1, "cannotAct"],
      ["nearDeath", 1, "dying"],
    ]);
  });
  it('Automatic Death: "no roll needed to kill such a character"', () => {
    const r = applyWound(std(), { kill: true });
    expect([r.ended, r.status.condition]).toEqual([true, "dead"]);
  });
  it('"The Hurt result is not cumulative with the Very Hurt result" also against the attacker\'s roll', () => {
    const r = resolveAttack(req({ track: wound(std(), lv("veryHurt"), lv("hurt")) }, {}), {
      attack: df(0),
      defense: df(0),
    });
    expect(r.numbers.attackerTotal).toBe(-2);
  });
});

describe("Fudge §4.51 pain", () => {
  it('"expand Hurt and Very Hurt to Light Wound, Moderate Wound and Severe Wound … Severe Wound might be -3 … Moderate Wound = -1 … a Light Wound causes no penalty during combat … after combat … -1"', () => {
    const levels = [
      { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1 },
      { key: "lightWound", boxes: 1, penalty: 0, effect: "penalty", min: 3, afterCombatPenalty: -1 },
      { key: "moderateWound", boxes: 1, penalty: -1, effect: "penalty", min: 5 },
      { key: "severeWound", boxes: 1, penalty: -3, effect: "penalty", min: 7 },
      { key: "incapacitated", boxes: 1, penalty: -3, effect: "cannotAct", min: 9 },
      { key: "nearDeath", boxes: 1, penalty: -3, effect: "dying", min: 11 },
    ];
    const t = newTrack(boxTrackConfig("custom", { levels: levels as never }));
    const light = trackStatus(wound(t, lv("lightWound")));
    expect([light.penalty, light.afterCombatPenalty]).toEqual([0, -1]);
    expect(penalty(wound(t, lv("moderateWound")))).toBe(-1);
    expect(penalty(wound(t, lv("severeWound")))).toBe(-3);
    // a damage number of 7 (RD 6, club +1) is a Severe Wound on this track
    expect(hit(6, {}, { track: t }).woundKey).toBe("severeWound");
  });
  it('§4.56 graze table ("5+ Hurt") against that expanded track: attacks are not refused, a Hurt graze is its second level (Light Wound)', () => {
    const levels = ["scratch", "lightWound", "moderateWound", "severeWound", "incapacitated"].map((key, i) => ({
      key,
      boxes: 1,
      penalty: -Math.min(i, 3),
      effect: i === 4 ? "cannotAct" : i ? "penalty" : "none",
      min: 1 + 2 * i,
    }));
    const t = newTrack(boxTrackConfig("custom", { levels: levels as never }));
    // club +1, Strength +4: factor 5 → "Hurt" on the table; factor 0 (armor 1) → Scratch
    expect(hit(1, { strength: 4 }, { track: t }).woundKey).toBe("lightWound");
    expect(hit(1, {}, { track: t, armor: { value: 1 } }).woundKey).toBe("scratch");
    // a graze table naming a level no track has is still refused by name
    expect(() => hit(1, {}, { track: t }, { graze: { table: [{ min: 0, level: "bruise" }] } })).toThrow(
      /graze\.table\[0\]\.level|bruise/,
    );
  });
  it('"A gift of a High Pain Threshold will reduce the penalties by one level": Hurt 0, Very Hurt −1', () => {
    expect([
      penalty(wound(std({ painShift: -1 }), lv("hurt"))),
      penalty(wound(std({ painShift: -1 }), lv("veryHurt"))),
    ]).toEqual([0, -1]);
  });
  it('"a fault of a Low Pain Threshold will increase penalties by one": Hurt −2, Very Hurt −3', () => {
    expect([
      penalty(wound(std({ painShift: 1 }), lv("hurt"))),
      penalty(wound(std({ painShift: 1 }), lv("veryHurt"))),
    ]).toEqual([-2, -3]);
  });
  it('"a high Difficulty Level Willpower roll to reduce or even nullify penalties": a Hurt attacker who beats the DL by 2 rolls at 0', () => {
    const r = resolveAttack(
      req({ willpower: 2, track: wound(std(), lv("hurt")) }, {}, { willpowerVsPenalty: { difficulty: 2 } }),
      { attack: df(0), defense: df(0), attackerWill: df(2) },
    );
    expect(r.numbers.attackerTotal).toBe(0);
    const fail = resolveAttack(
      req({ willpower: 0, track: wound(std(), lv("hurt")) }, {}, { willpowerVsPenalty: { difficulty: 2 } }),
      { attack: df(0), defense: df(0), attackerWill: df(0) },
    );
    expect(fail.numbers.attackerTotal).toBe(-1);
  });
});

describe("Fudge §4.52 Damage Capacity variants", () => {
  // RD 4 with a club (+1) against DC +0, no armor: number 5 → Very Hurt; DC is rolled, not a factor.
  const dcRoll = (dc: number, roll: number, options: Over = {}, rd = 4) =>
    hit(rd, {}, { damageCapacity: dc }, { dcVariant: "roll", ...options }, { dc: df(roll) });
  it('DC roll: "Great or better: reduce the severity of the wound by one" — Great exactly', () => {
    expect(dcRoll(0, 2).woundKey).toBe("hurt");
  });
  it('DC roll: "Mediocre to Good: no adjustment" — Good and Mediocre', () => {
    expect([dcRoll(0, 1).woundKey, dcRoll(0, -1).woundKey]).toEqual(["veryHurt", "veryHurt"]);
  });
  it('DC roll: "Poor or worse: increase the severity of the wound by one"', () => {
    expect([dcRoll(0, -2).woundKey, dcRoll(-3, 0).woundKey]).toEqual(["incapacitated", "incapacitated"]);
  });
  it('DC roll: "instead of automatically granting a bonus": DC +3 is not in the DDF', () => {
    expect(dcRoll(3, -3).numbers.ddf).toBe(0);
  });
  it('DC roll "every time a character is hit for at least a Light Wound (Hurt result)": no roll on a Scratch', () => {
    const r = hit(2, { weapon: W.blackjack }, { damageCapacity: 0 }, { dcVariant: "roll" });
    expect([r.woundKey, r.numbers.dcRoll]).toEqual(["scratch", undefined]);
  });
  it('"This adjustment can either be one wound *level*, or simply one damage point": number 5 (Very Hurt) −1 point → 4 Hurt; 6 −1 point → 5 still Very Hurt', () => {
    expect(dcRoll(0, 2, { dcAdjust: "point" }).woundKey).toBe("hurt");
    expect(dcRoll(0, 2, { dcAdjust: "point" }, 5).woundKey).toBe("veryHurt");
    expect(dcRoll(0, 2, { dcAdjust: "level" }, 5).woundKey).toBe("hurt");
  });
  it('gift/fault: "Again, this adjustment can be one wound level, or one damage point": Damage Resistant on number 6 (Very Hurt) by a point → 5, still Very Hurt', () => {
    const r = hit(5, {}, { dcGift: "damageResistant" }, { dcVariant: "gift", dcAdjust: "point" });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([5, "veryHurt"]);
    expect(hit(5, {}, { dcGift: "fragile" }, { dcVariant: "gift", dcAdjust: "point" }).woundKey).toBe("incapacitated");
  });
  it('"a gift of Damage Resistant (reduces wound severity by one) or a fault of Fragile (increases wound severity by one)"', () => {
    expect(hit(4, {}, { dcGift: "damageResistant" }, { dcVariant: "gift" }).woundKey).toBe("hurt");
    expect(hit(4, {}, { dcGift: "fragile" }, { dcVariant: "gift" }).woundKey).toBe("incapacitated");
    expect(hit(4, {}, { dcGift: "none", damageCapacity: 3 }, { dcVariant: "gift" }).woundKey).toBe("veryHurt");
  });
  it('"Use a Willpower attribute instead of Damage Capacity … an adjustment to the wound level based on the result of a Willpower die roll"', () => {
    const r = hit(4, {}, { willpower: 2, damageCapacity: -3 }, { dcVariant: "willpower" }, { dc: df(0) });
    expect([r.numbers.ddf, r.woundKey]).toEqual([0, "hurt"]);
  });
  it('"This can be temporary - until the battle is over": the lapse brings the wound back to its level', () => {
    const r = hit(
      4,
      {},
      { willpower: 2 },
      { dcVariant: "willpower", willpowerAdjustment: "untilBattleEnds" },
      { dc: df(0) },
    );
    const lapse = r.followUps.find((f) => f.type === "battleLapse")!;
    expect(lapse.params).toEqual({ from: "hurt", to: "veryHurt" });
    const after = endBattle(r.defenderAfter!.track, [lapse.params as never]).track;
    expect(trackStatus(after).levelKey).toBe("veryHurt");
  });
});

describe("Fudge §4.57 Damage Capacity as the wound record", () => {
  const dc = (start: number, opts: Parameters<typeof dcTrackConfig>[1] = {}) => newTrack(dcTrackConfig(start, opts));
  it('"(In this case, Damage Capacity is not figured into determining wound severity.)"', () => {
    const r = hit(2, {}, { damageCapacity: 3, track: dc(3) }, { dcVariant: "track" });
    expect([r.numbers.ddf, r.numbers.damageNumber, r.woundKey]).toEqual([0, 3, "hurt"]);
  });
  it('"Each hit that is greater than a Scratch reduces … one level … reduced to Mediocre … Hurt: -1 … Poor … Very Hurt: -2 … Terrible … -3"', () => {
    const t1 = wound(dc(0), lv("hurt"));
    const t2 = wound(t1, lv("veryHurt"));
    const t3 = wound(t2, lv("incapacitated"));
    expect([penalty(t1), penalty(t2), penalty(t3)]).toEqual([-1, -2, -3]);
    expect(trackStatus(t3).canAct).toBe(true);
  });
  it('"- or Incapacitated, if a GM wishes to play it that way. Damage Capacity below Terrible is Incapacitated, at least"', () => {
    expect(trackStatus(wound(dc(0, { terrible: "incapacitated" }), lv("hurt"), lv("hurt"), lv("hurt"))).condition).toBe(
      "cannotAct",
    );
    expect(trackStatus(wound(dc(0), lv("hurt"), lv("hurt"), lv("hurt"), lv("hurt"))).condition).toBe("cannotAct");
  });
  it('"perhaps three Scratches equal one hit": two Scratches leave DC, the third lowers it', () => {
    const two = wound(dc(0), lv("scratch"), lv("scratch"));
    expect((two.state as { dc: number }).dc).toBe(0);
    expect((wound(two, lv("scratch")).state as { dc: number }).dc).toBe(-1);
  });
  it('"an undamaged character of Mediocre Damage Capacity is *not* at -1 … if he takes even one hit, he drops to Poor … and is at -2"', () => {
    expect(penalty(dc(-1))).toBe(0);
    expect(penalty(wound(dc(-1), lv("hurt")))).toBe(-2);
  });
  it("a Mediocre-DC character with only a Scratch has taken no hit: still not at −1", () => {
    expect(penalty(wound(dc(-1), lv("scratch")))).toBe(0);
  });
  it('"Healing in such a system cannot raise Damage Capacity above a character\'s undamaged level"', () => {
    const healed = healTrack(wound(dc(1), lv("hurt")), { type: "roll", result: 3 }).track;
    expect((healed.state as { dc: number }).dc).toBe(1);
  });
  it('a Good DC character: one hit leaves him at Fair, "no penalty"; a second hit → Mediocre −1', () => {
    expect(penalty(wound(dc(1), lv("hurt")))).toBe(0);
    expect(penalty(wound(dc(1), lv("hurt"), lv("hurt")))).toBe(-1);
  });
});

describe("RULES §2.2 options outside the seeds", () => {
  it('Min-Mid-Max bonus from damage factor: "<0 → −1 (−5 or worse → −2, optional), 0–2 → 0, 3–5 → +1, 6+ → +2"', () => {
    expect([-1, 0, 2, 3, 5, 6, -5].map((f) => factorBonus(f, false))).toEqual([-1, 0, 0, 1, 1, 2, -1]);
    expect(factorBonus(-5, true)).toBe(-2);
    expect(factorBonus(-4, true)).toBe(-1);
  });
  it('Min-Mid-Max bonus from RD: "2–3 → 0, 4–5 → +1, 6+ → +2"', () => {
    expect([2, 3, 4, 5, 6, 9].map(relativeDegreeBonus)).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it('"1dF added to the damage number": Leroy RD 2 (4, Hurt) with + → 5 Very Hurt', () => {
    const r = hit(2, LEROY, THEODORA, { damageRoll: "dfNumber" }, { damage: [1] });
    expect([r.numbers.damageNumber, r.woundKey]).toEqual([5, "veryHurt"]);
  });
  it('"1dF applied to the wound level": Hurt with − → Scratch', () => {
    expect(hit(2, LEROY, THEODORA, { damageRoll: "dfLevel" }, { damage: [-1] }).woundKey).toBe("scratch");
  });
  it('even/odd: "attacker won with an even die total: +1 to his offensive factor; the defender\'s even total: +1 to his defensive factor"', () => {
    // attacker +2 (even), defender 0 (even): both +1 → factor unchanged; attacker +3 (odd), defender +1 (odd): none
    const even = resolveAttack(req(LEROY, THEODORA, { damageRoll: "evenOdd" }), { attack: df(2), defense: df(0) });
    expect([even.numbers.odf, even.numbers.ddf]).toEqual([5, 3]);
    const odd = resolveAttack(req(LEROY, THEODORA, { damageRoll: "evenOdd" }), { attack: df(3), defense: df(1) });
    expect([odd.numbers.odf, odd.numbers.ddf]).toEqual([4, 2]);
  });
  it('"Stun attacks": Hurt → Stunned (one round), Very Hurt → Very Stunned (two rounds), Incapacitated → knocked out', () => {
    const stun = (level: string) => applyWound(std(), { level, stun: true }).status;
    expect(stun("hurt").effects).toEqual(["stunned"]);
    expect([stun("veryHurt").effects, stun("veryHurt").penalty]).toEqual([["veryStunned"], -2]);
    expect([stun("incapacitated").effects, stun("incapacitated").canAct]).toEqual([["knockedOut"], false]);
  });
  it('"a second Stun into Very Stunned"; "stun marks heal like Scratches"', () => {
    // cinematic: two Hurt boxes, so the second stun lands at Hurt too (Stunned → Very Stunned)
    const t = wound(
      newTrack(boxTrackConfig("cinematic")),
      { level: "hurt", stun: true },
      { level: "hurt", stun: true },
    );
    expect(marks(t).hurt).toEqual(["~hurt", "~hurt"]);
    expect(trackStatus(t).effects).toEqual(["veryStunned"]);
    const healed = healTrack(t, { type: "scratches" }).track;
    expect([trackStatus(healed).effects, trackStatus(healed).levelKey]).toEqual([[], null]);
  });
  it('"Pulling punches: the attacker names the worst wound level the blow may cause"', () => {
    expect(hit(4, LEROY, THEODORA, {}, {}, { pullPunch: "scratch" }).woundKey).toBe("scratch");
  });
  it('safeguard "at most three wound levels from one blow (unwounded → at worst Very Hurt; Hurt → may reach Near Death, never Dead)"', () => {
    const safe = () => std({ safeguards: { maxThreeLevels: true } });
    expect(trackStatus(wound(safe(), lv("nearDeath"))).levelKey).toBe("veryHurt");
    expect(trackStatus(wound(safe(), lv("hurt"), lv("dead"))).levelKey).toBe("nearDeath");
  });
  it('safeguard "nobody becomes Near Death unless they began the round Incapacitated"', () => {
    const t = () => std({ safeguards: { nearDeathNeedsIncapacitated: true } });
    expect(trackStatus(wound(t(), lv("nearDeath"))).levelKey).toBe("incapacitated");
    expect(
      trackStatus(wound(t(), lv("incapacitated"), lv("nearDeath", { beganRoundIncapacitated: true }))).levelKey,
    ).toBe("nearDeath");
  });
  it('safeguard "spend a Fudge Point to turn a deadly wound into a serious one"', () => {
    const t = wound(std({ safeguards: { fudgePointSaves: true } }), lv("nearDeath"));
    const r = applyWound(t, lv("hurt", { spendFudgePoint: true }));
    expect(r.status.condition).not.toBe("dead");
  });
});

describe("the CLI (fudge-rules) on the texts' examples", () => {
  it('resolve: "If Leroy hits Theodora with a relative degree of +2 … four … Hurt" with the sample characters', () => {
    const r = runCommand("resolve", {
      preset: "fudge",
      attacker: "Leroy",
      defender: "Theodora",
      dice: { attack: [0, 0, 0, 0], defense: [-1, 0, 0, 0] },
    }) as { numbers: Record<string, number>; woundKey: string };
    expect([r.numbers.relativeDegree, r.numbers.damageNumber, r.woundKey]).toEqual([2, 4, "hurt"]);
  });
  it('heal: the §4.57 example sheet (Very Hurt, Hurt, "H" in Incapacitated) healed with a Good roll keeps one Hurt', () => {
    const track = wound(std(), lv("veryHurt"), lv("hurt"), lv("hurt"));
    const r = runCommand("heal", { track, healing: { type: "roll", result: 1 } }) as {
      status: { levelKey: string; penalty: number };
    };
    expect([r.status.levelKey, r.status.penalty]).toEqual(["hurt", -1]);
  });
  it('kill: "Automatic Death … no roll needed"', () => {
    const r = runCommand("kill", { track: std() }) as { status: { condition: string } };
    expect(r.status.condition).toBe("dead");
  });
});

describe("RULES §2.5 healing", () => {
  it('"Scratches clear after the fight"', () => {
    const t = healTrack(wound(std(), lv("scratch"), lv("scratch"), lv("hurt")), { type: "scratches" }).track;
    expect([marks(t).scratch, marks(t).hurt]).toEqual([[null, null, null], ["hurt"]]);
  });
  it('"A healing roll heals each wound by levels: Good 1, Great 2, Superb 3": Great heals a Very Hurt; Superb an Incapacitated', () => {
    expect(trackStatus(healTrack(wound(std(), lv("veryHurt")), { type: "roll", result: 2 }).track).levelKey).toBeNull();
    expect(trackStatus(healTrack(wound(std(), lv("incapacitated")), { type: "roll", result: 2 }).track).levelKey).toBe(
      "hurt",
    );
    expect(
      trackStatus(healTrack(wound(std(), lv("incapacitated")), { type: "roll", result: 3 }).track).levelKey,
    ).toBeNull();
  });
  it('"two Hurt and one Very Hurt healed with a Good result → both Hurt gone, the Very Hurt becomes Hurt"', () => {
    const t = healTrack(wound(newTrack(boxTrackConfig("cinematic")), lv("hurt"), lv("hurt"), lv("veryHurt")), {
      type: "roll",
      result: 1,
    }).track;
    expect([marks(t).hurt, marks(t).veryHurt]).toEqual([["hurt", null], [null]]);
  });
  it('"Natural healing: one level per week of rest (Rapid Healing: twice as fast)"', () => {
    const vh = wound(std(), lv("veryHurt"));
    expect(trackStatus(healTrack(vh, { type: "natural", weeks: 1 }).track).levelKey).toBe("hurt");
    expect(trackStatus(healTrack(vh, { type: "natural", weeks: 1, rapid: true }).track).levelKey).toBeNull();
  });
  it('"optional Constitution roll: Fair for Hurt, Good for Very Hurt, Great for Incapacitated"', () => {
    const heal = (level: string, constitution: number) =>
      trackStatus(healTrack(wound(std(), lv(level)), { type: "natural", weeks: 1, constitution }).track).levelKey;
    expect([heal("hurt", 0), heal("hurt", -1)]).toEqual([null, "hurt"]);
    expect([heal("veryHurt", 1), heal("veryHurt", 0)]).toEqual(["hurt", "veryHurt"]);
    expect([heal("incapacitated", 2), heal("incapacitated", 1)]).toEqual(["veryHurt", "incapacitated"]);
  });
});
