import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { datacard, type MiniDatacard } from "../../src/rules/miniatures/datacard";
import { SAMPLE_CARDS } from "./miniatures-samples";
import { LEGENDARY_TAIL_EPSILON, legendaryOutcomes, legendaryTotal, rollLegendary } from "../../src/rules/miniatures/legendary";
import {
  GUTS_TARGETS,
  gutsCheck,
  gutsEffectInfo,
  gutsRecheck,
  gutsTrigger,
  initialGutsState,
  nearDeathRoll,
  parseGutsState,
  terrifyingTarget,
} from "../../src/rules/miniatures/guts";
import { disengageCheck, movementCost, rangePenalty } from "../../src/rules/miniatures/movement";
import { seededRng } from "../../src/rules/dice";
import { fieldOf } from "./errors";

/** The card's printed MODF / RODF / DDF / HDDF (null = "N/A"), copied from the seed. */
const PRINTED: Record<keyof typeof SAMPLE_CARDS, { modf: number; rodf: number | null; ddf: number; hddf: number; movement: number }> = {
  kingKingsley: { modf: 7, rodf: null, ddf: 1, hddf: 0, movement: 5 },
  sirKnightly: { modf: 4, rodf: null, ddf: 3, hddf: 2, movement: 6 },
  yanniTheYeoman: { modf: 0, rodf: 3, ddf: 4, hddf: 1, movement: 5 },
  knavelyKnave: { modf: 7, rodf: null, ddf: 1, hddf: 0, movement: 5 },
  brutasTheBrute: { modf: 4, rodf: null, ddf: 3, hddf: 2, movement: 6 },
};

const card = (k: keyof typeof SAMPLE_CARDS): MiniDatacard => JSON.parse(JSON.stringify(SAMPLE_CARDS[k])) as MiniDatacard;


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
    let s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-2), target: 1, turn: 3, reason: "newWoundLevel" }).state;
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
    const s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-2), target: 1, turn: 3, reason: "newWoundLevel" }).state;
    expect(gutsRecheck(s, dF(0), 6, 0).check.total).toBe(3);
  });

  it("a new wound level forces an immediate check and forfeits the next +1 of the old one", () => {
    let s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-1), target: 1, turn: 1, reason: "newWoundLevel" }).state;
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
    // Turn 2 re-check of the first wound: its +1 for this turn is forfeited → bonus 0.
    let r = gutsRecheck(s, dF(0), 2, 0);
    expect(r.check.total).toBe(0);
    expect(r.state.pending[0]).toMatchObject({ bonus: 0, forfeitNext: 0, lastTurn: 2 });
    // Turn 3: +1 again.
    r = gutsRecheck(r.state, dF(0), 3, 0);
    expect(r.check.total).toBe(1);
    expect(r.check.passed).toBe(true);
    // The second wound's failure is still pending, now with effect 1.
    expect(r.state.effect).toBe(1);
    expect(r.state.pending).toHaveLength(1);
  });

  it("a friend shooting into the melee does not forfeit bonuses", () => {
    const s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-1), target: 1, turn: 1, reason: "newWoundLevel" }).state;
    const t = gutsTrigger(s, { guts: 0, faces: dF(0), target: GUTS_TARGETS.friendShoots, turn: 1, reason: "friendShoots" });
    expect(t.state.pending.map((p) => p.forfeitNext)).toEqual([0]);
    expect(t.check.passed).toBe(true);
  });

  it("stored state validates and names the field", () => {
    expect(parseGutsState(undefined, "guts")).toEqual(initialGutsState());
    const ok = parseGutsState({ pending: [{ target: 1, sinceTurn: 2, bonus: 0, forfeitNext: true, effect: 2 }] }, "g");
    expect(ok.effect).toBe(2);
    expect(ok.pending[0].forfeitNext).toBe(1);
    expect(fieldOf(() => parseGutsState({ pending: [{ target: 1, sinceTurn: 2, effect: 7 }] }, "attacker.gutsState"))).toBe("attacker.gutsState.pending[0].effect");
    expect(fieldOf(() => gutsRecheck(initialGutsState(), dF(0), 1, 0))).toBe("state.pending");
    const s = gutsTrigger(initialGutsState(), { guts: 0, faces: dF(-1), target: 1, turn: 4, reason: "newWoundLevel" }).state;
    expect(fieldOf(() => gutsRecheck(s, dF(0), 4, 0))).toBe("turn");
  });

  it("Near Death turn roll: ≥ +2 Very Hurt, ≤ −1 Dead, else still Near Death", () => {
    expect(nearDeathRoll(1, dF(1)).result).toBe("veryHurt");
    expect(nearDeathRoll(1, dF(0)).result).toBe("nearDeath");
    expect(nearDeathRoll(1, dF(-1)).result).toBe("nearDeath");
    expect(nearDeathRoll(1, dF(-2)).result).toBe("dead");
  });
});

describe("Movement, terrain, disengaging, range", () => {
  it("terrain multipliers, each inch or fraction charged whole", () => {
    expect(movementCost([{ terrain: "open", inches: 3 }]).cost).toBe(3);
    expect(movementCost([{ terrain: "rough", inches: 1.5 }]).cost).toBe(4);
    expect(movementCost([{ terrain: "swimming", inches: 2 }, { terrain: "climbing", inches: 1 }, { terrain: "down", inches: 1 }]).cost).toBe(7);
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
