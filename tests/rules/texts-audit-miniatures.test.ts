/**
 * Second independent check of the `miniatures` preset against seed 004 (Fudge Miniatures Battles)
 * and RULES.md §3. One `it` per case, named by the sentence or example it checks; the expected
 * value is read from the text, not from the code. Attacks go through the CLI's own command path
 * (`runCommand`, the same code `bin/fudge-rules.mjs` runs, with the pack's sample characters).
 */
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";
import { resolveSamples } from "../../src/cli/samples";
import {
  datacard,
  parseDatacard,
  gutsCheck,
  gutsEffectInfo,
  gutsRecheck,
  gutsTrigger,
  initialGutsState,
  legendaryTotal,
  disengageCheck,
  movementCost,
  rangePenalty,
} from "../../src/rules/miniatures";
import { applyWound, newTrack, trackStatus, type Track } from "../../src/rules";
import { boxTrackConfig, type BoxTrackState } from "../../src/rules/fudge";
import type { AttackResolution } from "../../src/rules";
import { fieldOf } from "./errors";

type Sample = "King Kingsley" | "Sir Knightly" | "Yanni the Yeoman" | "Knavely Knave" | "Brutas the Brute";
const healthy = (): Track => newTrack(boxTrackConfig("miniatures"));
const wounded = (...levels: string[]): Track => levels.reduce((t, level) => applyWound(t, { level }).track, healthy());
/** The pack's sample character as a Miniatures combatant (what the CLI maps a name to), with changes. */
const model = (name: Sample, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...(resolveSamples({ preset: "miniatures", attacker: name, defender: name }).attacker as Record<string, unknown>),
  ...over,
});
/** Faces with a given 4dF total below +4 (no Legendary re-roll). */
const dF = (total: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(total) ? Math.sign(total) : 0));
const resolve = (
  attacker: Sample | object,
  defender: Sample | object,
  dice: Record<string, number[]>,
  situation: Record<string, unknown> = {},
  options: Record<string, unknown> = {},
) => runCommand("resolve", { preset: "miniatures", attacker, defender, options, situation, dice }) as AttackResolution;
const marks = (t: Track): boolean[] => {
  const m = (t.state as BoxTrackState).marks;
  return ["scratch", "hurt", "veryHurt", "nearDeath", "dead"].flatMap((k) => m[k].map((x) => x !== null));
};

describe("Making a character / the datacard", () => {
  it('"a model with +2 Strength and a +1 longsword has a Melee ODF of +3"', () => {
    const c = parseDatacard(
      {
        ...model("Sir Knightly"),
        weapons: [{ name: "Longsword", hands: 1, kind: "melee", damage: 1, stat: "strength" }],
      },
      "c",
    );
    expect(datacard(c).modf).toBe(3);
  });

  it('"MODF is the weapon\'s damage plus Strength (or Dexterity)": a Dexterity weapon adds Dexterity', () => {
    const c = parseDatacard(
      {
        ...model("Yanni the Yeoman"),
        weapons: [{ name: "Rapier", hands: 1, kind: "melee", damage: 1, stat: "dexterity" }],
      },
      "c",
    );
    expect(datacard(c).modf).toBe(4);
  });

  it('"RODF is the weapon\'s damage": Yanni (Dexterity +3) shoots his +3 shortbow at RODF +3', () => {
    const r = resolve("Yanni the Yeoman", "King Kingsley", { attack: dF(0) }, { weapon: "Shortbow" });
    expect(r.numbers.odf).toBe(3);
  });

  it('"Each stat starts out at +0, except for Movement, which starts out at 5"": a card without Movement moves 5"', () => {
    const { movement: _m, ...rest } = model("Sir Knightly");
    expect(datacard(parseDatacard(rest, "c")).movement).toBe(5);
  });

  it.each([
    ["King Kingsley", 7, 1, 0, 5],
    ["Sir Knightly", 4, 3, 2, 6],
    ["Yanni the Yeoman", 0, 4, 1, 5],
    ["Knavely Knave", 7, 1, 0, 5],
    ["Brutas the Brute", 4, 3, 2, 6],
  ] as const)(
    'sample datacard %s prints MODF %i, DDF %i, HDDF %i, Movement %i" (CLI sample)',
    (name, modf, ddf, hddf, movement) => {
      const melee = name === "Yanni the Yeoman" ? { weapon: "Dagger" } : {};
      const r = resolve(name, name, { attack: dF(0) }, melee);
      expect([r.numbers.odf, r.numbers.ddf, r.numbers.hddf]).toEqual([modf, ddf, hddf]);
      expect(datacard(parseDatacard(model(name), "c")).movement).toBe(movement);
    },
  );

  it('"RODF N/A" on the four cards without a ranged weapon; Brutas has his Terrifying gift', () => {
    for (const n of ["King Kingsley", "Sir Knightly", "Knavely Knave", "Brutas the Brute"] as const)
      expect(datacard(parseDatacard(model(n), "c")).rodf).toBeNull();
    expect(model("Brutas the Brute").terrifying).toBe(1);
  });
});

describe("Ground rules: the Legendary roll", () => {
  it('"On an unmodified roll of +4, re-roll, ignoring all [-] results, and add": +4 then [+,+,−,0] = 6', () => {
    expect(legendaryTotal([1, 1, 1, 1, 1, 1, -1, 0], "f").total).toBe(6);
  });

  it("a re-roll of all − adds nothing: +4 then [−,−,−,−] = 4", () => {
    expect(legendaryTotal([1, 1, 1, 1, -1, -1, -1, -1], "f").total).toBe(4);
  });

  it("the attack roll is a Legendary roll: Sir Knightly +4, dice +4 then +2 → 10 vs Brutas DDF 3 → 7, Near Death", () => {
    const r = resolve("Sir Knightly", "Brutas the Brute", { attack: [1, 1, 1, 1, 1, 1, 0, 0] });
    expect(r.numbers).toMatchObject({ dice: 6, attackerTotal: 10, damageNumber: 7 });
    expect(r.woundKey).toBe("nearDeath");
  });

  it("a +4 without its re-roll is refused (the record must hold it)", () => {
    expect(fieldOf(() => resolve("Sir Knightly", "Brutas the Brute", { attack: [1, 1, 1, 1] }))).toBe("dice.attack");
  });
});

describe("Melee Combat", () => {
  it('"equals or beats the defender\'s DDF": Sir Knightly +4 rolls −1 = 3 vs Brutas DDF 3 → hit, wound 0 = Scratch', () => {
    const r = resolve("Sir Knightly", "Brutas the Brute", { attack: dF(-1) });
    expect(r).toMatchObject({ outcome: "wound", hit: true, woundKey: "scratch" });
    expect(r.numbers.damageNumber).toBe(0);
  });

  it("one below DDF misses: rolls −2 = 2 vs 3", () => {
    const r = resolve("Sir Knightly", "Brutas the Brute", { attack: dF(-2) });
    expect(r).toMatchObject({ outcome: "miss", hit: false, woundKey: null });
  });

  it.each([
    [dF(-4), 0, "scratch"],
    [dF(-2), 2, "scratch"],
    [dF(-1), 3, "hurt"],
    [dF(0), 4, "hurt"],
    [dF(1), 5, "veryHurt"],
    [dF(2), 6, "veryHurt"],
    [dF(3), 7, "nearDeath"],
    [[1, 1, 1, 1, -1, -1, -1, -1], 8, "nearDeath"],
  ] as const)(
    '"a wound equal to the relative degree (total-DDF)": King +7 rolls %j vs Sir Knightly DDF 3 → %i = %s (track 0-2/3-4/5-6/7-8)',
    (faces, wound, level) => {
      const r = resolve("King Kingsley", "Sir Knightly", { attack: [...faces] });
      expect(r.numbers.damageNumber).toBe(wound);
      expect(r.woundKey).toBe(level);
    },
  );

  it('"9+ Dead": King +7 rolls +3 vs Knavely DDF 1 → 9', () => {
    const r = resolve("King Kingsley", "Knavely Knave", { attack: dF(3) });
    expect(r.numbers.damageNumber).toBe(9);
    expect(r.defenderAfter!.status.condition).toBe("dead");
  });

  it('"If more than one model are attacking a single enemy, each attack gains a +1 bonus to hit": rolls −2 now hits', () => {
    const r = resolve("Sir Knightly", "Brutas the Brute", { attack: dF(-2) }, { gangUp: 1 });
    expect(r.numbers.attackerTotal).toBe(3);
    expect(r.outcome).toBe("wound");
  });

  it("the gang-up bonus is +1, not +1 per extra model: three others still +1", () => {
    expect(resolve("Sir Knightly", "Brutas the Brute", { attack: dF(0) }, { gangUp: 3 }).numbers.attackerTotal).toBe(5);
  });

  it('"Melee attacks must be made in base-to-base contact with the target model unless otherwise stated"', () => {
    expect(fieldOf(() => resolve("Sir Knightly", "Brutas the Brute", { attack: dF(0) }, { inContact: false }))).toBe(
      "situation.inContact",
    );
  });

  it('"surprised or helpless, use the target\'s HDDF": King +7 rolls 0 vs Sir Knightly HDDF 2 → 5, Very Hurt', () => {
    for (const s of [{ helpless: true }, { surprised: true }]) {
      const r = resolve("King Kingsley", "Sir Knightly", { attack: dF(0) }, s);
      expect(r.numbers.defense).toBe(2);
      expect(r.woundKey).toBe("veryHurt");
    }
  });
});

describe("Ranged Combat", () => {
  it('"Attacker rolls 4dF plus RODF versus the target\'s DDF": Yanni +3 rolls 0 vs King DDF 1 → 2, Scratch', () => {
    const r = resolve("Yanni the Yeoman", "King Kingsley", { attack: dF(0) }, { weapon: "Shortbow" });
    expect(r.numbers).toMatchObject({ attackerTotal: 3, defense: 1, damageNumber: 2 });
    expect(r.woundKey).toBe("scratch");
  });

  it.each([
    [18, 0],
    [18.5, -1],
    [36, -1],
    [36.5, -2],
    [54, -2],
    [55, -3],
  ])(
    '"-1 penalty for every multiple of the weapon\'s Range or portion thereof": Shortbow 18" at %s" → %i',
    (distance, penalty) => {
      expect(rangePenalty(18, distance)).toBe(penalty);
      const r = resolve(
        "Yanni the Yeoman",
        "King Kingsley",
        { attack: dF(0) },
        { weapon: "Shortbow", rangeInches: distance },
      );
      expect(r.numbers.attackerTotal).toBe(3 + penalty);
    },
  );

  it('"If the target is behind cover, the attacker\'s roll is modified by -1"', () => {
    const r = resolve("Yanni the Yeoman", "King Kingsley", { attack: dF(0) }, { weapon: "Shortbow", cover: true });
    expect(r.numbers.attackerTotal).toBe(2);
  });

  it('"Ranged weapons may not be fired while in base-to-base contact with an enemy"', () => {
    expect(
      fieldOf(() =>
        resolve("Yanni the Yeoman", "King Kingsley", { attack: dF(0) }, { weapon: "Shortbow", inContact: true }),
      ),
    ).toBe("situation.inContact");
  });

  it('"a friend shoots into the combat: Target number is +0" — the shooter\'s friends in that melee check Guts at +0', () => {
    const r = resolve(
      "Yanni the Yeoman",
      "King Kingsley",
      { attack: dF(-4) },
      { weapon: "Shortbow", friendShootsIntoMelee: true },
    );
    expect(r.followUps.map((f) => [f.type, f.params.who, f.params.target])).toEqual([
      ["gutsCheck", "friendsInMelee", 0],
    ]);
  });
});

describe("Wounds", () => {
  it('"Model takes a 4 wound (Hurt) and is at -1 to all stats": Strength, Dexterity, Guts and Movement each −1', () => {
    const r = resolve("Sir Knightly", "Brutas the Brute", { attack: dF(3) });
    expect(r.numbers.damageNumber).toBe(4);
    expect(marks(r.defenderAfter!.track)).toEqual([false, false, true, false, false, false]);
    const d = datacard(parseDatacard(model("Brutas the Brute"), "c"), r.defenderAfter!.status.penalty);
    expect([d.strength, d.dexterity, d.guts, d.movement]).toEqual([1, -1, 1, 5]);
  });

  it('"Model then takes a 5 wound (Very Hurt) and is at -2 to all stats": boxes Hurt and Very Hurt', () => {
    const brutas = model("Brutas the Brute", { track: wounded("hurt") });
    // Brutas Hurt: DDF 3 − 1 = 2; Sir Knightly +4 rolls +3 → 7 − 2 = 5.
    const r = resolve("Sir Knightly", brutas, { attack: dF(3) });
    expect(r.numbers).toMatchObject({ ddf: 2, damageNumber: 5 });
    expect(marks(r.defenderAfter!.track)).toEqual([false, false, true, true, false, false]);
    expect(r.defenderAfter!.status.penalty).toBe(-2);
  });

  it('"Model Takes four Scratches which carries over through Hurt, Very Hurt": the diagram [X][X] [X] [X] [ ] [ ] (from healthy)', () => {
    expect(marks(wounded("scratch", "scratch", "scratch", "scratch"))).toEqual([true, true, true, true, false, false]);
    expect(trackStatus(wounded("scratch", "scratch", "scratch", "scratch", "scratch")).condition).toBe("dying");
  });

  it('read in sequence with the diagram before it (Hurt and Very Hurt marked), two Scratches fill the boxes and the next "carries over through Hurt, Very Hurt, and into a Near Death"', () => {
    const seq = wounded("hurt", "veryHurt", "scratch", "scratch");
    expect(marks(seq)).toEqual([true, true, true, true, false, false]);
    const third = applyWound(seq, { level: "scratch" }).track;
    expect(marks(third)).toEqual([true, true, true, true, true, false]);
    expect(trackStatus(third).condition).toBe("dying");
  });

  it('"increased wound levels carry penalties to all stats, not rolls": a Very Hurt King swings at MODF 5, the dice unchanged', () => {
    const king = model("King Kingsley", { track: wounded("veryHurt") });
    const r = resolve(king, "Sir Knightly", { attack: dF(0) });
    expect(r.numbers).toMatchObject({ odf: 5, modifiers: 0, attackerTotal: 5 });
  });

  it('"When a model becomes Near Death, it falls … and cannot do anything else": it cannot attack', () => {
    expect(
      fieldOf(() =>
        resolve(model("King Kingsley", { track: wounded("nearDeath") }), "Sir Knightly", { attack: dF(0) }),
      ),
    ).toBe("attacker.track");
  });

  it('"If it was flying at the time, it takes an additional 4dF+5 wound": crash dice 0 → 5, Very Hurt marked too', () => {
    const flyer = model("Brutas the Brute", { flying: true });
    // King +7 rolls +3 = 10 vs DDF 3 → 7: Near Death; the crash wound 0 + 5 = 5 (Very Hurt).
    const r = resolve("King Kingsley", flyer, { attack: dF(3), crash: dF(0) });
    expect(r.numbers).toMatchObject({ damageNumber: 7, crashDamage: 5 });
    expect(marks(r.defenderAfter!.track)).toEqual([false, false, false, true, true, false]);
    expect(r.followUps.map((f) => f.type)).toContain("crashWound");
  });

  it('"This may well result in the model becoming Dead": crash dice +4 then 0 (Legendary) → 9, Dead', () => {
    const r = resolve("King Kingsley", model("Brutas the Brute", { flying: true }), {
      attack: dF(3),
      crash: [1, 1, 1, 1, 0, 0, 0, 0],
    });
    expect(r.numbers.crashDamage).toBe(9);
    expect(r.defenderAfter!.status.condition).toBe("dead");
  });

  it("a model already Near Death does not crash again (it is on the ground)", () => {
    const r = resolve("King Kingsley", model("Brutas the Brute", { flying: true, track: wounded("nearDeath") }), {
      attack: dF(-4),
    });
    expect(r.dice.crash).toBeUndefined();
  });

  it.each([
    [2, "veryHurt"],
    [1, "nearDeath"],
    [0, "nearDeath"],
    [-1, "dead"],
  ] as const)(
    '"If the modified roll is a +2 or better, it becomes merely Very Hurt … -1 or less, it becomes Dead": roll %i → %s (CLI guts)',
    (total, result) => {
      // Guts 0 + 4dF: the modified roll is the dice total.
      const r = runCommand("guts", { check: "nearDeath", track: wounded("nearDeath"), guts: 0, dice: dF(total) }) as {
        result: string;
        status: { levelKey: string; canAct: boolean };
      };
      expect(r.result).toBe(result);
      if (result === "veryHurt") expect(r.status).toMatchObject({ levelKey: "veryHurt", canAct: true });
    },
  );

  it("\"The attack is assumed to automatically hit, and is made against the target's HDDF\": Yanni's dagger rolls −1 vs a Near Death Brutas (DDF 3, HDDF 2)", () => {
    const brutas = model("Brutas the Brute", { track: wounded("nearDeath") });
    const r = resolve("Yanni the Yeoman", brutas, { attack: dF(-1) }, { weapon: "Dagger" });
    expect(r.hit).toBe(true);
    expect(r.numbers.defense).toBe(2);
    // Dagger +0 rolls +2 → 2 − HDDF 2 = 0: a Scratch, though 2 is below his DDF 3.
    const s = resolve("Yanni the Yeoman", brutas, { attack: dF(2) }, { weapon: "Dagger" });
    expect(s).toMatchObject({ hit: true, woundKey: "scratch" });
    expect(s.numbers.damageNumber).toBe(0);
  });

  it("a Near Death model takes further wounds on the track (overflow as §2.3): a 5 marks Very Hurt, a 7 makes it Dead", () => {
    const r = resolve("King Kingsley", model("Brutas the Brute", { track: wounded("nearDeath") }), { attack: dF(0) });
    expect(r.numbers.damageNumber).toBe(5);
    expect(r.defenderAfter!.status.condition).toBe("dying");
    const r3 = resolve("King Kingsley", model("Brutas the Brute", { track: wounded("nearDeath") }), { attack: dF(2) });
    expect(r3.numbers.damageNumber).toBe(7);
    expect(r3.defenderAfter!.status.condition).toBe("dead");
  });
});

describe("Guts", () => {
  it('"Model takes a new Wound Level (Scratch to Hurt …): Target number is +1"', () => {
    const r = resolve("Sir Knightly", model("Brutas the Brute", { track: wounded("scratch") }), { attack: dF(3) });
    expect(r.woundKey).toBe("hurt");
    expect(r.followUps.find((f) => f.type === "gutsCheck")!.params).toMatchObject({
      target: 1,
      reason: "newWoundLevel",
    });
  });

  it('"Hurt to Very Hurt": +1', () => {
    // Sir Knightly Hurt: DDF 2; King +7 rolls 0 → 5.
    const r = resolve("King Kingsley", model("Sir Knightly", { track: wounded("hurt") }), { attack: dF(0) });
    expect(r.woundKey).toBe("veryHurt");
    expect(r.followUps.find((f) => f.type === "gutsCheck")!.params).toMatchObject({
      target: 1,
      reason: "newWoundLevel",
    });
  });

  it('"Model suffers two wound levels in a single attack (Scratch to Very Hurt): Target number is +2"', () => {
    // King +7 rolls +1 → 8 − 3 = 5.
    const r = resolve("King Kingsley", model("Sir Knightly", { track: wounded("scratch") }), { attack: dF(1) });
    expect(r.woundKey).toBe("veryHurt");
    expect(r.followUps.find((f) => f.type === "gutsCheck")!.params).toMatchObject({
      target: 2,
      reason: "twoWoundLevels",
    });
  });

  it('"Terrifying … Target number is 0 plus the number of "Terrifying" gifts": two gifts → target 2 (CLI guts)', () => {
    const r = runCommand("guts", { check: "check", reason: "terrifying", terrifying: 2, guts: 1, dice: dF(0) }) as {
      check: { target: number; passed: boolean; margin: number };
    };
    expect(r.check).toMatchObject({ target: 2, passed: false, margin: 1 });
  });

  it.each([
    [1, -1, true, false, false],
    [2, 0, false, false, false],
    [3, 0, false, true, false],
    [4, 0, false, false, true],
  ] as const)(
    "margin of failure %i: roll penalty %i, may attack %s, runs %s, helpless %s",
    (margin, rollPenalty, mayAttack, flees, helpless) => {
      // Guts +1 vs target +1: dice −margin fails by margin.
      const c = gutsCheck(1, 0, dF(-margin), 1);
      expect([c.passed, c.margin, c.effect]).toEqual([false, margin, margin]);
      expect(gutsEffectInfo(c.effect)).toMatchObject({ rollPenalty, mayAttack, flees, helpless });
    },
  );

  it('"3 … Enemies in base contact with it get an immediate free attack at +1"', () => {
    expect(gutsEffectInfo(3).freeAttackBonus).toBe(1);
  });

  it('"1 Model is at a -1 to rolls (Rolls only, not stats)": the attack total drops, MODF does not', () => {
    const a = model("Sir Knightly", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 1 }] } });
    const r = resolve(a, "Brutas the Brute", { attack: dF(0) });
    expect(r.numbers).toMatchObject({ odf: 4, gutsPenalty: -1, attackerTotal: 3 });
  });

  it('"2 Model may not attack"', () => {
    const a = model("Sir Knightly", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 2 }] } });
    expect(fieldOf(() => resolve(a, "Brutas the Brute", { attack: dF(0) }))).toBe("attacker.gutsState.effect");
  });

  it('"4 … enemies treat it as a helpless target": attacks on it use HDDF', () => {
    const d = model("Brutas the Brute", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 4 }] } });
    expect(resolve("King Kingsley", d, { attack: dF(0) }).numbers.defense).toBe(2);
  });

  it("a failure by more than 4 has the effect of 4 (the table's last row)", () => {
    expect(gutsCheck(-2, 0, dF(-4), 1).effect).toBe(4);
  });

  it("meeting the target passes (Choice: a failure by 0 would act normally anyway)", () => {
    expect(gutsCheck(1, 0, dF(0), 1)).toMatchObject({ passed: true, margin: 0, effect: 0 });
  });

  it('"It gains a cumulative +1 to this Guts roll every turn starting the turn after it took the wound level"', () => {
    const s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-3),
      target: 1,
      turn: 1,
      reason: "newWoundLevel",
    }).state;
    expect(s.effect).toBe(4);
    const t2 = gutsRecheck(s, dF(-1), 2, 0);
    expect(t2.check.total).toBe(0); // −1 + 1
    expect(t2.state.effect).toBe(4); // "or continue to suffer the effects of the previous failure"
    const t3 = gutsRecheck(t2.state, dF(-1), 3, 0);
    expect(t3.check.total).toBe(1); // −1 + 2
    expect(t3.state.pending).toEqual([]);
  });

  it('"If it suffers another wound level before it passes … immediately make a Guts check for the new wound level, AND it loses the next +1 bonus"', () => {
    let s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-3),
      target: 1,
      turn: 1,
      reason: "newWoundLevel",
    }).state;
    const now = gutsTrigger(s, { guts: 0, faces: dF(1), target: 1, turn: 1, reason: "newWoundLevel" });
    expect(now.check.passed).toBe(true);
    s = now.state;
    // Turn 2: the +1 of turn 2 is lost → bonus 0; turn 3: +1.
    const t2 = gutsRecheck(s, dF(0), 2, 0);
    expect(t2.check.total).toBe(0);
    expect(gutsRecheck(t2.state, dF(0), 3, 0).check.total).toBe(1);
  });

  it('Choice: a new wound level forfeits the next +1 of every failure still pending, a Terrifying one too (the text names only "the check for the first wound")', () => {
    let s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-3), target: 1, turn: 1, reason: "terrifying" }).state;
    s = gutsTrigger(s, { guts: 0, faces: dF(1), target: 1, turn: 1, reason: "newWoundLevel" }).state;
    expect(gutsRecheck(s, dF(0), 2, 0).check.total).toBe(0);
  });

  it('Mercenary Brutas: "will flee the combat on any failed Guts check" (CLI guts, his pack fault)', () => {
    const fault = model("Brutas the Brute").fault;
    const fail = runCommand("guts", { check: "check", reason: "newWoundLevel", guts: 2, fault, dice: dF(-2) }) as {
      fleesCombat: boolean;
    };
    const pass = runCommand("guts", { check: "check", reason: "newWoundLevel", guts: 2, fault, dice: dF(-1) }) as {
      fleesCombat: boolean;
    };
    expect([fail.fleesCombat, pass.fleesCombat]).toEqual([true, false]);
  });

  it('Steadfast Yanni: "+1 to Guts check when being charged by Terrifying opponent" (not when charging)', () => {
    const gift = model("Yanni the Yeoman").gift;
    const charged = runCommand("guts", {
      check: "check",
      reason: "terrifying",
      terrifying: 1,
      guts: 1,
      gift,
      beingCharged: true,
      dice: dF(0),
    }) as { check: { total: number } };
    const charging = runCommand("guts", {
      check: "check",
      reason: "terrifying",
      terrifying: 1,
      guts: 1,
      gift,
      dice: dF(0),
    }) as { check: { total: number } };
    expect([charged.check.total, charging.check.total]).toEqual([2, 1]);
  });

  it("Faithful +1 defending the King; Noble presence −1 and Leader −1 for the checking model", () => {
    const gift = model("Sir Knightly").gift;
    const t = (o: Record<string, unknown>) =>
      (
        runCommand("guts", { check: "check", reason: "newWoundLevel", guts: 0, dice: dF(0), ...o }) as {
          check: { total: number };
        }
      ).check.total;
    expect([t({ gift, defendingKing: true }), t({ nobleInMelee: true }), t({ leaderFallen: true })]).toEqual([
      1, -1, -1,
    ]);
  });
});

describe("Exact odds (CLI odds) from the 4dF table and the Legendary re-roll", () => {
  type Odds = { hit: number; woundLevels: Record<string, number>; death: number };
  const odds = (attacker: Sample, defender: Sample) =>
    runCommand("odds", { preset: "miniatures", attacker, defender }) as Odds;

  it("Sir Knightly +4 vs Brutas DDF 3: hit on 4dF ≥ −1 = 66/81; Scratch (wound 0-2) 51/81; Hurt 14/81", () => {
    const o = odds("Sir Knightly", "Brutas the Brute");
    expect(o.hit).toBeCloseTo(66 / 81, 12);
    expect(o.woundLevels.scratch).toBeCloseTo(51 / 81, 12);
    expect(o.woundLevels.hurt).toBeCloseTo(14 / 81, 12);
  });

  it("…Very Hurt needs wound 5-6, a Legendary total of +4 or +5: (16 + 32)/81²; Dead needs +8 or more: 1/81²", () => {
    // +4 then a re-roll with no +: 16/81 of re-rolls; one +: 32/81 (4 ways × 8 for the other three dice showing − or 0).
    const o = odds("Sir Knightly", "Brutas the Brute");
    expect(o.woundLevels.veryHurt).toBeCloseTo(48 / 81 ** 2, 14);
    expect(o.death).toBeCloseTo(1 / 81 ** 2, 14);
  });

  it("King +7 vs Knavely DDF 1 always hits; Dead (9+) needs 4dF ≥ +3: 5/81", () => {
    const o = odds("King Kingsley", "Knavely Knave");
    expect(o.hit).toBe(1);
    expect(o.death).toBeCloseTo(5 / 81, 12);
  });
});

describe("Sample characters' gifts and faults in the attack", () => {
  it('Knavely Knave, "+1 ODF when attacking from behind"', () => {
    expect(
      resolve("Knavely Knave", "Sir Knightly", { attack: dF(0) }, { fromBehind: true }).numbers.attackerTotal,
    ).toBe(8);
  });

  it('Yanni, Poor melee combatant: "opponents get +1 to "free" disengagement attack"', () => {
    expect(
      resolve("Brutas the Brute", "Yanni the Yeoman", { attack: dF(0) }, { disengaging: true }).numbers.attackerTotal,
    ).toBe(5);
  });

  it('Sir Knightly, Chivalrous: "Cannot strike a defenseless opponent" (a Near Death one)', () => {
    expect(
      fieldOf(() =>
        resolve("Sir Knightly", model("Brutas the Brute", { track: wounded("nearDeath") }), { attack: dF(0) }),
      ),
    ).toBe("defender.track");
  });

  it('Knavely Knave, Self-interest: "will flee combat if wounded."', () => {
    const r = resolve("Sir Knightly", "Knavely Knave", { attack: dF(-2) });
    expect(r.woundKey).toBe("scratch");
    expect(r.followUps.map((f) => f.type)).toContain("fleesCombat");
  });
});

describe("Disengaging, Movement, Terrain", () => {
  it('"unless the model succeeds in a Dexterity check that equals or beats the enemy\'s Strength or Dexterity, whichever is greater"', () => {
    const brutas = { strength: 2, dexterity: 0 };
    expect(disengageCheck(1, brutas, dF(1))).toMatchObject({ target: 2, escaped: true, freeAttack: false });
    expect(disengageCheck(1, brutas, dF(0))).toMatchObject({ escaped: false, freeAttack: true });
  });

  it.each([
    ["open", 3, 3],
    ["rough", 3, 6],
    ["swimming", 2, 4],
    ["climbing", 2, 4],
    ["flying", 4, 2],
    ["down", 2, 2],
    ["rough", 0.5, 2],
  ] as const)('terrain %s, %s" costs %s" of movement ("Each inch or fraction thereof")', (terrain, inches, cost) => {
    expect(movementCost([{ terrain, inches }]).cost).toBe(cost);
  });

  it('"it cannot move more than its new movement stat": a Very Hurt Sir Knightly moves 4"', () => {
    expect(datacard(parseDatacard(model("Sir Knightly"), "c"), -2).movement).toBe(4);
  });
});
