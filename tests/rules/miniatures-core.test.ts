import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  datacard,
  type MiniDatacard,
  LEGENDARY_TAIL_EPSILON,
  legendaryOutcomes,
  legendaryTotal,
  rollLegendary,
  GUTS_ROLL_PENALTY_RULES,
  GUTS_TARGETS,
  gutsCheck,
  gutsRollPenalty,
  gutsRollPenaltyRule,
  nearDeathGuts,
  type GutsRules,
  gutsEffectInfo,
  gutsRecheck,
  gutsTrigger,
  initialGutsState,
  nearDeathRoll,
  parseGutsState,
  terrifyingTarget,
  disengageCheck,
  movementCost,
  rangePenalty,
} from "../../src/rules/miniatures";
import { SAMPLE_CARDS } from "./miniatures-samples";
import { seededRng, signed, applyWound, newTrack, trackStatus } from "../../src/rules";
import { fieldOf } from "./errors";
import { boxTrackConfig } from "../../src/rules/fudge";

/** The card's printed MODF / RODF / DDF / HDDF (null = "N/A"), copied from the seed. */
const PRINTED: Record<
  keyof typeof SAMPLE_CARDS,
  { modf: number; rodf: number | null; ddf: number; hddf: number; movement: number }
> = {
  kingKingsley: { modf: 7, rodf: null, ddf: 1, hddf: 0, movement: 5 },
  sirKnightly: { modf: 4, rodf: null, ddf: 3, hddf: 2, movement: 6 },
  yanniTheYeoman: { modf: 0, rodf: 3, ddf: 4, hddf: 1, movement: 5 },
  knavelyKnave: { modf: 7, rodf: null, ddf: 1, hddf: 0, movement: 5 },
  brutasTheBrute: { modf: 4, rodf: null, ddf: 3, hddf: 2, movement: 6 },
};

const card = (k: keyof typeof SAMPLE_CARDS): MiniDatacard =>
  JSON.parse(JSON.stringify(SAMPLE_CARDS[k])) as MiniDatacard;

/** Faces with a given 4dF total (no Legendary re-roll needed below +4). */
const dF = (total: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(total) ? Math.sign(total) : 0));

describe("Miniatures datacards: the seed's five samples", () => {
  it.each(Object.keys(PRINTED) as (keyof typeof SAMPLE_CARDS)[])("%s prints its MODF / RODF / DDF / HDDF", (k) => {
    const d = datacard(card(k));
    expect({ modf: d.modf, rodf: d.rodf, ddf: d.ddf, hddf: d.hddf, movement: d.movement }).toEqual(PRINTED[k]);
  });

  it("Yanni's dagger is Strength-based (+0), his bow adds no stat", () => {
    const d = datacard(card("yanniTheYeoman"));
    expect(d.weapons.map((w) => [w.name, w.kind, w.odf])).toEqual([
      ["Shortbow", "ranged", 3],
      ["Dagger", "melee", 0],
    ]);
  });

  it("wound penalties lower the stats and what is built on them (not HDDF by default)", () => {
    const d = datacard(card("sirKnightly"), -2);
    expect(d).toMatchObject({ strength: 0, dexterity: -2, guts: 0, movement: 4, modf: 2, ddf: 1, hddf: 2 });
    // Miniatures: "RODF is the weapon's damage. If any stat bonus is added, it will be stated": the bow adds no stat, so no penalty.
    expect(datacard(card("yanniTheYeoman"), -1).rodf).toBe(3);
    expect(datacard(card("sirKnightly"), -2, { penaltyLowersHddf: true }).hddf).toBe(0);
  });

  it("derives each (card, penalty, option) once: the same frozen card again, another for another penalty or option", () => {
    // A forecast's enumeration asks for the same two cards at every leaf (issue 34).
    const c = card("sirKnightly");
    const d = datacard(c, -2);
    expect(datacard(c, -2)).toBe(d);
    expect(Object.isFrozen(d) && Object.isFrozen(d.steps) && Object.isFrozen(d.weapons[0].steps)).toBe(true);
    expect(datacard(c, -1)).not.toBe(d);
    expect(datacard(c, -2, { penaltyLowersHddf: true })).not.toBe(d);
    expect(datacard(c, -2, { penaltyLowersHddf: true }).hddf).toBe(0);
    expect(datacard(card("sirKnightly"), -2)).toEqual(d); // another card object: derived again, the same numbers
    expect(fieldOf(() => datacard(c, -0.5))).toBe("penalty"); // never a stored card for a bad penalty
  });

  it("a ranged weapon may add a stat where it says so; a Dexterity melee weapon uses Dexterity", () => {
    const c = card("yanniTheYeoman");
    c.weapons = [
      { name: "Sling", hands: 1, kind: "ranged", damage: 1, stat: "none", range: 12, rangedStat: "strength" },
      { name: "Rapier", hands: 1, kind: "melee", damage: 1, stat: "dexterity" },
    ];
    c.strength = 1;
    const d = datacard(c);
    expect(d.rodf).toBe(2);
    expect(d.modf).toBe(4);
  });

  it("the seed's example: +2 Strength and a +1 longsword make a Melee ODF of +3", () => {
    const c = card("sirKnightly");
    c.weapons = [{ name: "Longsword", hands: 1, kind: "melee", damage: 1, stat: "strength" }];
    expect(datacard(c).modf).toBe(3);
  });

  it("a positive penalty is refused", () => {
    expect(fieldOf(() => datacard(card("sirKnightly"), 1))).toBe("penalty");
  });
});

describe("Legendary roll", () => {
  it("an unmodified roll below +4 is just 4dF", () => {
    expect(legendaryTotal([1, 1, 1, 0], "f").total).toBe(3);
    expect(legendaryTotal([-1, -1, -1, -1], "f").total).toBe(-4);
  });

  it("+4 is rolled again, ignoring − faces, and added", () => {
    expect(legendaryTotal([1, 1, 1, 1, 1, -1, 0, -1], "f")).toEqual({ total: 5, base: 4, rerolls: [1] });
    expect(legendaryTotal([1, 1, 1, 1, -1, -1, -1, -1], "f").total).toBe(4);
  });

  it("a re-roll of four + rolls again (chained)", () => {
    expect(legendaryTotal([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, -1], "f")).toEqual({ total: 10, base: 4, rerolls: [4, 2] });
  });

  it("bad records name the field", () => {
    expect(fieldOf(() => legendaryTotal([1, 1, 1, 1], "dice.attack"))).toBe("dice.attack");
    expect(fieldOf(() => legendaryTotal([1, 1, 1, 0, 1, 1, 0, 0], "dice.attack"))).toBe("dice.attack[4]");
    expect(fieldOf(() => legendaryTotal([1, 1, 1, 1, 1, 1], "dice.attack"))).toBe("dice.attack");
    expect(fieldOf(() => legendaryTotal([1, 1, 2, 1], "dice.attack"))).toBe("dice.attack[2]");
    expect(fieldOf(() => legendaryTotal("1111", "dice.attack"))).toBe("dice.attack");
  });

  it("outcome classes are exact, sum to 1, and fold the tail below 1e-15", () => {
    const o = legendaryOutcomes();
    const sum = o.reduce((a, b) => a + b.p, 0);
    expect(sum).toBeCloseTo(1, 14);
    // Every class reads back as its own total, consecutive from −4.
    o.forEach((c, i) => expect(legendaryTotal(c.dice, "c").total).toBe(i - 4));
    expect(o[0].p).toBeCloseTo(1 / 81, 15);
    // P(total = 4) = P(+4) · P(re-roll shows no +) = 1/81 · 16/81.
    expect(o[8].p).toBeCloseTo(16 / 6561, 15);
    // P(total = 8) = (1/81)(1/81)(16/81): a re-roll of four + then a re-roll of none.
    expect(o[12].p).toBeCloseTo(16 / 81 ** 3, 18);
    // Below +4 the classes are 4dF's 1, 4, 10, 16, 19, 16, 10, 4 / 81.
    expect(o.slice(0, 8).map((c) => Math.round(c.p * 81))).toEqual([1, 4, 10, 16, 19, 16, 10, 4]);
    const last = o[o.length - 1];
    const secondLast = o[o.length - 2];
    expect(last.p).toBeLessThan(secondLast.p);
    // The last class holds everything above the class before it, which was not yet below epsilon.
    expect(last.p).toBeGreaterThanOrEqual(LEGENDARY_TAIL_EPSILON);
    expect(last.p).toBeLessThan(1e-13);
    expect(o.length).toBeGreaterThan(30);
    expect(o.length).toBeLessThan(50);
  });

  it("a coarser epsilon truncates earlier and still sums to 1", () => {
    const o = legendaryOutcomes(1e-4);
    // P(total > 5) = 1/81 · (24 + 8 + 1)/81 ≈ 0.005 ≥ 1e-4; P(total > 8) = (1/81)² · 65/81 ≈ 1.2e-4; P(> 9) ≈ 7.3e-5 < 1e-4.
    expect(legendaryTotal(o[o.length - 1].dice, "c").total).toBe(9);
    expect(o.reduce((a, b) => a + b.p, 0)).toBeCloseTo(1, 14);
  });

  it("rolled totals follow the outcome classes (seeded Monte Carlo, 5σ)", () => {
    const rng = seededRng(2026);
    const n = 200_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const t = legendaryTotal(rollLegendary(rng), "f").total;
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    legendaryOutcomes().forEach((c, i) => {
      const expected = n * c.p;
      const sd = Math.sqrt(n * c.p * (1 - c.p));
      expect(Math.abs((counts.get(i - 4) ?? 0) - expected)).toBeLessThanOrEqual(5 * sd + 1);
    });
  });

  it("rolled faces always parse (property)", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const faces = rollLegendary(seededRng(seed));
        const r = legendaryTotal(faces, "f");
        expect(r.total).toBeGreaterThanOrEqual(-4);
      }),
    );
  });
});

describe("Guts", () => {
  it("targets: new wound level +1, two levels +2, friend shoots +0, Terrifying 0 + gifts", () => {
    expect(GUTS_TARGETS).toEqual({ newWoundLevel: 1, twoWoundLevels: 2, friendShoots: 0 });
    expect(terrifyingTarget(1)).toBe(1);
    expect(terrifyingTarget(2)).toBe(2);
  });

  it("the failure table 0..4 and beyond", () => {
    // Guts +1 vs target +2: dice +1 → 3 passes; 0 → 1 fails by 1; −4 → −3 fails by 5 → effect 4.
    expect(gutsCheck(1, 0, dF(1), 2)).toMatchObject({ total: 2, passed: true, margin: 0, effect: 0 });
    const rows = [0, -1, -2, -3, -4].map((t) => gutsCheck(1, 0, dF(t), 2));
    expect(rows.map((r) => [r.margin, r.effect])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 4],
    ]);
    expect(gutsEffectInfo(0)).toMatchObject({ rollPenalty: 0, mayAttack: true, flees: false, helpless: false });
    expect(gutsEffectInfo(1)).toMatchObject({ rollPenalty: -1, mayAttack: true });
    expect(gutsEffectInfo(2)).toMatchObject({ rollPenalty: 0, mayAttack: false, flees: false });
    expect(gutsEffectInfo(3)).toMatchObject({ mayAttack: false, flees: true, freeAttackBonus: 1 });
    expect(gutsEffectInfo(4)).toMatchObject({ helpless: true, mayAttack: false });
  });

  it("modifiers count, and the check is a Legendary roll", () => {
    expect(gutsCheck(0, -1, dF(1), 1).passed).toBe(false);
    expect(gutsCheck(0, 0, [1, 1, 1, 1, 1, 0, 0, 0], 5).total).toBe(5);
  });

  it("cumulative +1 per turn from the turn after the wound", () => {
    // Turn 3: Hurt (target +1), Guts 0, rolls −2 → fails by 3.
    let s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-2),
      target: 1,
      turn: 3,
      reason: "newWoundLevel",
    }).state;
    expect(s.effect).toBe(3);
    expect(s.pending).toHaveLength(1);
    // Turn 4: +1; rolls −1 → 0 < 1, still failed; the old effect stays in force.
    let r = gutsRecheck(s, dF(-1), 4, 0);
    expect(r.check.total).toBe(0);
    expect(r.check.passed).toBe(false);
    expect(r.state.effect).toBe(3);
    s = r.state;
    // Turn 5: +2; rolls −1 → 1 ≥ 1, passes.
    r = gutsRecheck(s, dF(-1), 5, 0);
    expect(r.check.total).toBe(1);
    expect(r.state).toEqual({ pending: [], effect: 0 });
  });

  it("a skipped turn still counts toward the bonus", () => {
    const s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-2),
      target: 1,
      turn: 3,
      reason: "newWoundLevel",
    }).state;
    expect(gutsRecheck(s, dF(0), 6, 0).check.total).toBe(3);
  });

  it("a new wound level forces an immediate check and forfeits the next +1 of the old one", () => {
    let s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-1),
      target: 1,
      turn: 1,
      reason: "newWoundLevel",
    }).state;
    expect(s.effect).toBe(2);
    // Turn 2 (before the re-check): another wound level, immediate check fails by 1.
    const t = gutsTrigger(s, { guts: 0, faces: dF(0), target: 1, turn: 2, reason: "newWoundLevel" });
    expect(t.check.effect).toBe(1);
    s = t.state;
    expect(s.pending.map((p) => [p.target, p.forfeitNext])).toEqual([
      [1, 1],
      [1, 0],
    ]);
    expect(s.effect).toBe(2);
    // Turn 2 re-check of the first wound: its +1 for this turn is forfeited → bonus 0. (The bonus
    // alone: the second failure's −1 to rolls left out, gutsRollPenalty "attackRolls"; below for it.)
    const bonusOnly = { gutsRollPenalty: "attackRolls" } as const;
    let r = gutsRecheck(s, dF(0), 2, 0, 0, 0, {}, bonusOnly);
    expect(r.check.total).toBe(0);
    expect(r.state.pending[0]).toMatchObject({ bonus: 0, forfeitNext: 0, lastTurn: 2 });
    // …and under the default rule the failure by 1 in force lowers that re-check too: 0 + 0 − 1.
    expect(gutsRecheck(s, dF(0), 2, 0).check.total).toBe(-1);
    // Turn 3: +1 again.
    r = gutsRecheck(r.state, dF(0), 3, 0, 0, 0, {}, bonusOnly);
    expect(r.check.total).toBe(1);
    expect(r.check.passed).toBe(true);
    // The second wound's failure is still pending, now with effect 1.
    expect(r.state.effect).toBe(1);
    expect(r.state.pending).toHaveLength(1);
  });

  it("a friend shooting into the melee does not forfeit bonuses", () => {
    const s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-1),
      target: 1,
      turn: 1,
      reason: "newWoundLevel",
    }).state;
    const t = gutsTrigger(s, {
      guts: 0,
      faces: dF(0),
      target: GUTS_TARGETS.friendShoots,
      turn: 1,
      reason: "friendShoots",
    });
    expect(t.state.pending.map((p) => p.forfeitNext)).toEqual([0]);
    expect(t.check.passed).toBe(true);
  });

  it("stored state validates and names the field", () => {
    expect(parseGutsState(undefined, "guts")).toEqual(initialGutsState());
    const ok = parseGutsState({ pending: [{ target: 1, sinceTurn: 2, bonus: 0, forfeitNext: true, effect: 2 }] }, "g");
    expect(ok.effect).toBe(2);
    expect(ok.pending[0].forfeitNext).toBe(1);
    expect(
      fieldOf(() => parseGutsState({ pending: [{ target: 1, sinceTurn: 2, effect: 7 }] }, "attacker.gutsState")),
    ).toBe("attacker.gutsState.pending[0].effect");
    expect(fieldOf(() => gutsRecheck(initialGutsState(), dF(0), 1, 0))).toBe("state.pending");
    const s = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(-1),
      target: 1,
      turn: 4,
      reason: "newWoundLevel",
    }).state;
    expect(fieldOf(() => gutsRecheck(s, dF(0), 4, 0))).toBe("turn");
  });

  it("Near Death turn roll: ≥ +2 Very Hurt, ≤ −1 Dead, else still Near Death", () => {
    expect(nearDeathRoll(1, dF(1)).result).toBe("veryHurt");
    expect(nearDeathRoll(1, dF(0)).result).toBe("nearDeath");
    expect(nearDeathRoll(1, dF(-1)).result).toBe("nearDeath");
    expect(nearDeathRoll(1, dF(-2)).result).toBe("dead");
  });
});

describe('Guts: a failure by 1 — "1 Model is at a -1 to rolls (Rolls only, not stats)"', () => {
  const PENALTY = "FUDGE.Miniatures.Step.GutsRollPenalty";
  const failure = (effect: number, target = 1) => ({
    reason: "newWoundLevel" as const,
    target,
    sinceTurn: 1,
    bonus: 0,
    forfeitNext: 0,
    lastTurn: 1,
    effect: effect as 1,
  });
  const stateOf = (...effects: number[]) => parseGutsState({ pending: effects.map((e) => failure(e)) }, "state");
  const attackOnly = { gutsRollPenalty: "attackRolls" } as const;

  it("is −1 while a failure by 1 is in force, whatever else is (not cumulative); 0 without one", () => {
    expect([[], [1], [1, 1], [2], [3], [4], [2, 1], [4, 1]].map((e) => gutsRollPenalty(stateOf(...e)))).toEqual([
      0, -1, -1, 0, 0, 0, -1, -1,
    ]);
    expect(gutsRollPenalty(undefined)).toBe(0);
  });

  it("an immediate check made while shaken is one lower, with the step naming the rule before the roll; attackRolls leaves it", () => {
    const t = { guts: 1, faces: dF(0), target: 1, turn: 2, reason: "newWoundLevel" as const };
    const shaken = gutsTrigger(stateOf(1), t);
    expect([shaken.check.total, shaken.check.passed, shaken.check.effect]).toEqual([0, false, 1]);
    const keys = shaken.steps.map((x) => x.key);
    expect(keys.indexOf(PENALTY)).toBeGreaterThanOrEqual(0);
    expect(keys.indexOf(PENALTY)).toBeLessThan(keys.indexOf("FUDGE.Miniatures.Step.GutsRoll"));
    expect(shaken.steps.find((x) => x.key === PENALTY)).toMatchObject({ rule: "Miniatures: Guts", value: -1 });
    // The GutsRoll step's modifiers include it: Guts +1, modifiers −1, dice +0 = 0.
    expect(shaken.steps.find((x) => x.key === "FUDGE.Miniatures.Step.GutsRoll")!.params).toMatchObject({
      guts: "+1",
      modifiers: "\u22121",
      total: signed(0),
    });
    const literal = gutsTrigger(stateOf(1), t, attackOnly);
    expect([literal.check.total, literal.check.passed]).toEqual([1, true]);
    expect(literal.steps.map((x) => x.key)).not.toContain(PENALTY);
    // A failure by 2 or more is not "−1 to rolls"; no failure, no step.
    for (const s of [stateOf(2), stateOf(4), initialGutsState()]) {
      expect(gutsTrigger(s, t).check.total).toBe(1);
      expect(gutsTrigger(s, t).steps.map((x) => x.key)).not.toContain(PENALTY);
    }
  });

  it("the check that fails by 1 is not lowered by its own failure; the re-check of that very failure is (the model is at −1 while it lasts)", () => {
    // Guts 0, target +1, dice 0: fails by 1 → −1 to rolls from now on.
    const first = gutsTrigger(initialGutsState(), {
      guts: 0,
      faces: dF(0),
      target: 1,
      turn: 1,
      reason: "newWoundLevel",
    });
    expect([first.check.total, first.check.effect]).toEqual([0, 1]);
    expect(first.steps.map((x) => x.key)).not.toContain(PENALTY);
    // Turn 2: bonus +1, −1 shaken, dice 0 → 0 against 1: still failed (under attackRolls it would pass).
    const r = gutsRecheck(first.state, dF(0), 2, 0);
    expect([r.check.total, r.check.passed]).toEqual([0, false]);
    expect(r.steps.map((x) => x.key).slice(0, 2)).toEqual(["FUDGE.Miniatures.Step.GutsBonus", PENALTY]);
    expect(gutsRecheck(first.state, dF(0), 2, 0, 0, 0, {}, attackOnly).check).toMatchObject({ total: 1, passed: true });
    // Turn 3: bonus +2 − 1 → passes on a 0; the failure ends, and the −1 with it.
    const r3 = gutsRecheck(r.state, dF(0), 3, 0);
    expect([r3.check.total, r3.check.passed, gutsRollPenalty(r3.state)]).toEqual([1, true, 0]);
  });

  it("another failure by 1 in force lowers the re-check of a failure by 2 (each effect lasts until its own re-check passes)", () => {
    const s = parseGutsState({ pending: [failure(2, 3), failure(1)] }, "state");
    expect(gutsRecheck(s, dF(0), 2, 2).check.total).toBe(2); // Guts 2 + bonus 1 − 1 + 0
    expect(gutsRecheck(s, dF(0), 2, 2, 0, 0, {}, attackOnly).check.total).toBe(3);
  });

  it("the Near Death roll is a roll: −1 while a failure by 1 is in force (Guts 1, dice +1: Very Hurt becomes still Near Death)", () => {
    expect(nearDeathRoll(1, dF(1), 0, "faces", stateOf(1)).result).toBe("nearDeath");
    const r = nearDeathRoll(1, dF(1), 0, "faces", stateOf(1));
    expect(r.total).toBe(1);
    expect(r.steps[0]).toMatchObject({ key: PENALTY, rule: "Miniatures: Guts", value: -1 });
    expect(r.steps[1].params).toMatchObject({ modifiers: "\u22121" });
    expect(nearDeathRoll(1, dF(1), 0, "faces", stateOf(1), attackOnly).result).toBe("veryHurt");
    expect(nearDeathRoll(1, dF(1), 0, "faces", stateOf(2)).result).toBe("veryHurt");
    // Guts 0, dice 0: −1 → Dead.
    expect(nearDeathRoll(0, dF(0), 0, "faces", stateOf(1)).result).toBe("dead");
  });

  it("nearDeathGuts on the box track reads the state the same way", () => {
    const track = applyWound(newTrack(boxTrackConfig("miniatures")), { level: "nearDeath" }).track;
    expect(nearDeathGuts(track, 1, dF(1)).result).toBe("veryHurt");
    expect(nearDeathGuts(track, 1, dF(1), 0, stateOf(1)).result).toBe("nearDeath");
    expect(nearDeathGuts(track, 0, dF(0), 0, stateOf(1))).toMatchObject({ result: "dead" });
    expect(trackStatus(nearDeathGuts(track, 0, dF(0), 0, stateOf(1)).track).condition).toBe("dead");
    expect(nearDeathGuts(track, 1, dF(1), 0, stateOf(1), attackOnly).result).toBe("veryHurt");
  });

  it("a rule outside the list is refused by name, everywhere it is read", () => {
    const bad = { gutsRollPenalty: "someRolls" } as unknown as GutsRules;
    const t = { guts: 0, faces: dF(0), target: 1, turn: 1, reason: "other" as const };
    for (const f of [
      () => gutsTrigger(initialGutsState(), t, bad),
      () => gutsRecheck(stateOf(1), dF(0), 2, 0, 0, 0, {}, bad),
      () => nearDeathRoll(0, dF(0), 0, "faces", stateOf(1), bad),
    ])
      expect(f).toThrow(expect.objectContaining({ field: "options.gutsRollPenalty", key: "FUDGE.Error.NotOneOf" }));
    expect(gutsRollPenaltyRule(undefined)).toBe("allRolls");
    expect(GUTS_ROLL_PENALTY_RULES).toEqual(["allRolls", "attackRolls"]);
  });
});

describe("Movement, terrain, disengaging, range", () => {
  it("terrain multipliers, each inch or fraction charged whole", () => {
    expect(movementCost([{ terrain: "open", inches: 3 }]).cost).toBe(3);
    expect(movementCost([{ terrain: "rough", inches: 1.5 }]).cost).toBe(4);
    expect(
      movementCost([
        { terrain: "swimming", inches: 2 },
        { terrain: "climbing", inches: 1 },
        { terrain: "down", inches: 1 },
      ]).cost,
    ).toBe(7);
    expect(movementCost([{ terrain: "flying", inches: 6 }]).cost).toBe(3);
    expect(fieldOf(() => movementCost([{ terrain: "lava", inches: 1 }]))).toBe("path[0].terrain");
  });

  it("disengage: Dexterity check equal to or above the enemy's higher of Strength and Dexterity", () => {
    const brute = { strength: 2, dexterity: 0 };
    expect(disengageCheck(3, brute, dF(-1))).toMatchObject({ target: 2, total: 2, escaped: true, freeAttack: false });
    expect(disengageCheck(3, brute, dF(-2))).toMatchObject({ escaped: false, freeAttack: true });
    expect(disengageCheck(0, { strength: 0, dexterity: 1 }, dF(1)).escaped).toBe(true);
  });

  it("range: −1 per full or partial multiple beyond the first", () => {
    expect([0, 10, 18, 19, 36, 37, 54, 55].map((d) => rangePenalty(18, d))).toEqual([0, 0, 0, -1, -1, -2, -2, -3]);
  });
});
