/**
 * The Fudge Miniatures Battles sample datacards' gifts and faults that have a tabletop effect
 * (seed 004 "Sample characters"; docs/rules-api.md "Gifts and faults with a rule"): each rule by
 * its sentence, hand-computed, in the attack pipeline, the Guts checks and the duel forecast.
 * A gift or fault without `rule` stays text only: every request without one answers as before.
 */
import { describe, expect, it } from "vitest";
import {
  MINI_TRAIT_RULES,
  parseDatacard,
  type MiniTraitRule,
  gutsCheck,
  gutsRecheck,
  gutsTrigger,
  initialGutsState,
  parseGutsState,
  type GutsRollPenaltyRule,
  legendaryOutcomes,
  legendaryTotal,
  gutsMind,
  gutsTurnStart,
  mindSpace,
  type DuelGutsSituation,
  type MindSpace,
} from "../../src/rules/miniatures";
import { resolveAttack, duelForecast as forecastOnTheClock, applyWound, newTrack } from "../../src/rules";

/** The forecasts here are checked for their figures, not their speed: no time budget, so a loaded machine changes nothing. */
const duelForecast: typeof forecastOnTheClock = (input, opts = {}) =>
  forecastOnTheClock(input, { budgetMs: Number.POSITIVE_INFINITY, ...opts });
import { boxTrackConfig, effectivePenalties, type BoxTrackConfig } from "../../src/rules/fudge";
import { sampleModel, SAMPLE_CARDS } from "./miniatures-samples";
import { caught } from "./errors";
import { runCommand } from "../../src/cli/run";

type Key = keyof typeof SAMPLE_CARDS;
/** The rule each sample's gift and fault carries (Brutas's Terrifying appearance is the `terrifying` count). */
const RULES: Record<Key, [MiniTraitRule | null, MiniTraitRule | null]> = {
  kingKingsley: ["noblePresence", "leader"],
  sirKnightly: ["faithful", "chivalrous"],
  yanniTheYeoman: ["steadfast", "poorMelee"],
  knavelyKnave: ["backstabber", "selfInterest"],
  brutasTheBrute: [null, "mercenary"],
};
type Model = Record<string, unknown> & { gift?: Record<string, unknown>; fault?: Record<string, unknown> };
/** A sample with its gift and fault given their rules. */
function ruled(k: Key, only?: MiniTraitRule): Model {
  const m = sampleModel(k) as Model;
  const [g, f] = RULES[k];
  if (g && (!only || only === g)) m.gift = { ...m.gift!, rule: g };
  if (f && (!only || only === f)) m.fault = { ...m.fault!, rule: f };
  return m;
}
const miniTrack = () => newTrack(boxTrackConfig("miniatures"));
/** Faces with a given 4dF total (no Legendary re-roll needed below +4). */
const dF = (total: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(total) ? Math.sign(total) : 0));
const attack = (attacker: Model, defender: Model, situation: Record<string, unknown> = {}) => ({
  preset: "miniatures",
  attacker,
  defender,
  situation,
});
/** P(Legendary total satisfies f), from the exact outcome classes. */
const pDice = (f: (d: number) => boolean): number =>
  legendaryOutcomes().reduce((s, o) => s + (f(legendaryTotal(o.dice, "d").total) ? o.p : 0), 0);
/**
 * A Terrifying ogre that can never wound anyone (a −20 club; DDF −5, so every blow wounds it):
 * in a duel against it only the Guts checks and the traits decide who leaves.
 */
const OGRE: Model = {
  name: "Harmless Ogre",
  strength: 0,
  dexterity: -5,
  guts: 0,
  weapons: [{ name: "Club", hands: 1, kind: "melee", damage: -20, stat: "strength" }],
  terrifying: 1,
  track: miniTrack(),
};

describe("datacard: a gift's or fault's rule", () => {
  it("reads the rules of MINI_TRAIT_RULES and a value (default 1, kept absent)", () => {
    expect(MINI_TRAIT_RULES).toEqual([
      "steadfast",
      "mercenary",
      "selfInterest",
      "chivalrous",
      "backstabber",
      "poorMelee",
      "faithful",
      "noblePresence",
      "leader",
    ]);
    const c = parseDatacard(
      { ...ruled("yanniTheYeoman"), gift: { name: "Steadfast", rule: "steadfast", value: 2 } },
      "card",
    );
    expect(c.gift).toEqual({ name: "Steadfast", rule: "steadfast", value: 2 });
    expect(c.fault).toEqual({
      name: "Poor melee combatant",
      effect: 'opponents get +1 to "free" disengagement attack',
      rule: "poorMelee",
    });
    // Both are optional; a text-only trait parses as it always did.
    const plain = parseDatacard(sampleModel("kingKingsley"), "card");
    expect(plain.gift).toEqual(SAMPLE_CARDS.kingKingsley.gift);
    expect("gift" in parseDatacard({ ...sampleModel("kingKingsley"), gift: undefined, fault: null }, "card")).toBe(
      false,
    );
  });
  it("refuses an unknown rule, or a bad value, naming the field (localized)", () => {
    const e = caught(() =>
      parseDatacard({ ...sampleModel("knavelyKnave"), fault: { name: "Berserk", rule: "berserk" } }, "attacker"),
    );
    expect([e.field, e.key, e.params?.rule]).toEqual([
      "attacker.fault.rule",
      "FUDGE.Error.Miniatures.TraitRule",
      "berserk",
    ]);
    expect(
      caught(() => parseDatacard({ ...sampleModel("knavelyKnave"), gift: { name: "X", rule: 3 } }, "c")).field,
    ).toBe("c.gift.rule");
    expect(
      caught(() =>
        parseDatacard({ ...sampleModel("knavelyKnave"), gift: { name: "X", rule: "steadfast", value: -1 } }, "c"),
      ).field,
    ).toBe("c.gift.value");
    expect(
      caught(() =>
        parseDatacard({ ...sampleModel("knavelyKnave"), gift: { name: "X", rule: "steadfast", value: 1.5 } }, "c"),
      ).field,
    ).toBe("c.gift.value");
    // Through an attack request: the side's path.
    expect(
      caught(() =>
        resolveAttack(
          attack(
            { ...sampleModel("knavelyKnave"), gift: { name: "X", rule: "Backstabber" } },
            sampleModel("kingKingsley"),
          ),
          { attack: dF(0) },
        ),
      ).field,
    ).toBe("attacker.gift.rule");
  });
});

describe("attack pipeline", () => {
  it('Skilled backstabber: "+1 ODF when attacking from behind" (Knavely, MODF 7, on Yanni, DDF 4: dice 0 → 8, wound 4)', () => {
    const behind = resolveAttack(attack(ruled("knavelyKnave"), ruled("yanniTheYeoman"), { fromBehind: true }), {
      attack: dF(0),
    });
    expect([behind.numbers.attackerTotal, behind.numbers.relativeDegree, behind.numbers.backstab]).toEqual([8, 4, 1]);
    expect(behind.steps.some((s) => s.key === "FUDGE.Miniatures.Step.Trait.backstabber")).toBe(true);
    // Not from behind, or text only: 7, wound 3.
    const front = resolveAttack(attack(ruled("knavelyKnave"), ruled("yanniTheYeoman")), { attack: dF(0) });
    const textOnly = resolveAttack(attack(sampleModel("knavelyKnave"), ruled("yanniTheYeoman"), { fromBehind: true }), {
      attack: dF(0),
    });
    expect([front.numbers.attackerTotal, textOnly.numbers.attackerTotal, "backstab" in front.numbers]).toEqual([
      7,
      7,
      false,
    ]);
    // A trait's value is its size.
    const two = resolveAttack(
      attack(
        { ...ruled("knavelyKnave"), gift: { name: "Backstabber", rule: "backstabber", value: 2 } },
        ruled("yanniTheYeoman"),
        { fromBehind: true },
      ),
      { attack: dF(0) },
    );
    expect(two.numbers.attackerTotal).toBe(9);
  });
  it("Poor melee combatant: \"opponents get +1 to 'free' disengagement attack\" (Brutas, MODF 4, on Yanni, DDF 4: dice 0 → 5)", () => {
    const free = resolveAttack(attack(ruled("brutasTheBrute"), ruled("yanniTheYeoman"), { disengaging: true }), {
      attack: dF(0),
    });
    expect([free.numbers.attackerTotal, free.numbers.poorMelee, free.outcome]).toEqual([5, 1, "wound"]);
    const plain = resolveAttack(attack(ruled("brutasTheBrute"), ruled("yanniTheYeoman")), { attack: dF(0) });
    expect(plain.numbers.attackerTotal).toBe(4);
    // Only the defender's fault counts: Yanni disengaged from by a Poor melee combatant gets nothing.
    expect(
      resolveAttack(attack(ruled("yanniTheYeoman"), ruled("yanniTheYeoman"), { weapon: "Dagger", disengaging: true }), {
        attack: dF(0),
      }).numbers.attackerTotal,
    ).toBe(1);
  });
  it('Chivalrous: "Cannot strike a defenseless opponent" — Near Death or helpless (Guts failure by 4, or the situation), not surprised', () => {
    const knight = ruled("sirKnightly");
    let nd = miniTrack();
    nd = applyWound(nd, { level: "nearDeath" }).track;
    const refused = [
      [{ ...ruled("brutasTheBrute"), track: nd }, {}, "defender.track"],
      [ruled("brutasTheBrute"), { helpless: true }, "situation.helpless"],
      [
        {
          ...ruled("brutasTheBrute"),
          gutsState: { pending: [{ reason: "terrifying", target: 1, sinceTurn: 0, effect: 4 }] },
        },
        {},
        "defender.gutsState.effect",
      ],
    ] as const;
    for (const [d, s, field] of refused) {
      const e = caught(() => resolveAttack(attack(knight, d as Model, s), { attack: dF(0) }));
      expect([e.field, e.key, e.params?.name]).toEqual([field, "FUDGE.Error.Miniatures.Chivalrous", "Sir Knightly"]);
      // Text only: the strike goes in (at HDDF).
      expect(resolveAttack(attack(sampleModel("sirKnightly"), d as Model, s), { attack: dF(0) }).hit).toBe(true);
    }
    // Surprised, or running (failure by 3): not defenceless.
    expect(resolveAttack(attack(knight, ruled("brutasTheBrute"), { surprised: true }), { attack: dF(0) }).hit).toBe(
      true,
    );
    expect(
      resolveAttack(
        attack(knight, {
          ...ruled("brutasTheBrute"),
          gutsState: { pending: [{ reason: "other", target: 3, sinceTurn: 0, effect: 3 }] },
        }),
        { attack: dF(0) },
      ).hit,
    ).toBe(true);
  });
  it('Self-interest: "will flee combat if wounded" — a fleesCombat follow-up on any wound it survives able to act (a Scratch too), none when it falls Near Death', () => {
    // Brutas MODF 4 on Knavely DDF 1: dice −3 → wound 0, a Scratch.
    const scratch = resolveAttack(attack(ruled("brutasTheBrute"), ruled("knavelyKnave")), { attack: dF(-3) });
    expect(scratch.woundKey).toBe("scratch");
    expect(scratch.followUps.filter((f) => f.type === "fleesCombat").map((f) => [f.target, f.params])).toEqual([
      ["defender", { rule: "selfInterest" }],
    ]);
    // +3 more: wound 6, Very Hurt: a Guts check and the flight.
    const vh = resolveAttack(attack(ruled("brutasTheBrute"), ruled("knavelyKnave"), { modifier: 3 }), {
      attack: dF(0),
    });
    expect([vh.woundKey, vh.followUps.map((f) => f.type)]).toEqual(["veryHurt", ["gutsCheck", "fleesCombat"]]);
    // Wound 7: Near Death, it cannot run.
    const down = resolveAttack(attack(ruled("brutasTheBrute"), ruled("knavelyKnave"), { modifier: 4 }), {
      attack: dF(0),
    });
    expect([down.woundKey, down.followUps.map((f) => f.type)]).toEqual(["nearDeath", ["nearDeath"]]);
    // A miss, or the fault as text only: no flight.
    expect(resolveAttack(attack(ruled("brutasTheBrute"), ruled("knavelyKnave")), { attack: dF(-4) }).followUps).toEqual(
      [],
    );
    expect(
      resolveAttack(attack(ruled("brutasTheBrute"), sampleModel("knavelyKnave")), { attack: dF(-3) }).followUps,
    ).toEqual([]);
  });
  it("the situation's flags are refused when not true or false", () => {
    for (const f of ["fromBehind", "disengaging"])
      expect(
        caught(() =>
          resolveAttack(attack(ruled("knavelyKnave"), ruled("yanniTheYeoman"), { [f]: "yes" }), { attack: dF(0) }),
        ).field,
      ).toBe(`situation.${f}`);
  });
});

describe("Guts checks", () => {
  const yanni = ruled("yanniTheYeoman");
  it('Steadfast: "+1 to Guts check when being charged by Terrifying opponent" — being charged only (Yanni Guts 1, target 1, dice −1: 1 passes; charging: 0 fails by 1)', () => {
    const charged = gutsTrigger(initialGutsState(), {
      guts: 1,
      faces: dF(-1),
      target: 1,
      turn: 1,
      reason: "terrifying",
      gift: yanni.gift as never,
      beingCharged: true,
    });
    expect([charged.check.total, charged.check.passed, charged.check.steps[0].key]).toEqual([
      1,
      true,
      "FUDGE.Miniatures.Step.Trait.steadfast",
    ]);
    const charging = gutsTrigger(initialGutsState(), {
      guts: 1,
      faces: dF(-1),
      target: 1,
      turn: 1,
      reason: "terrifying",
      gift: yanni.gift as never,
    });
    expect([charging.check.total, charging.check.margin]).toEqual([0, 1]);
    // Another reason, or the gift as text only: no +1.
    expect(
      gutsTrigger(initialGutsState(), {
        guts: 1,
        faces: dF(-1),
        target: 1,
        turn: 1,
        reason: "newWoundLevel",
        gift: yanni.gift as never,
        beingCharged: true,
      }).check.total,
    ).toBe(0);
    expect(
      gutsTrigger(initialGutsState(), {
        guts: 1,
        faces: dF(-1),
        target: 1,
        turn: 1,
        reason: "terrifying",
        gift: sampleModel("yanniTheYeoman").gift as never,
        beingCharged: true,
      }).check.total,
    ).toBe(0);
  });
  it('Mercenary: "will flee the combat on any failed Guts check" — check, trigger and re-check carry fleesCombat (Brutas Guts 2, target 2: dice −1 fails)', () => {
    const fault = ruled("brutasTheBrute").fault as never;
    expect(gutsCheck(2, 0, dF(-1), 2, "faces", { fault }).fleesCombat).toBe(true);
    expect(gutsCheck(2, 0, dF(0), 2, "faces", { fault }).fleesCombat).toBe(false);
    expect(gutsCheck(2, 0, dF(-1), 2).fleesCombat).toBe(false);
    const t = gutsTrigger(initialGutsState(), {
      guts: 2,
      faces: dF(-1),
      target: 2,
      turn: 1,
      reason: "twoWoundLevels",
      fault,
    });
    expect([t.fleesCombat, t.check.fleesCombat, t.steps.at(-1)!.key]).toEqual([
      true,
      true,
      "FUDGE.Miniatures.Step.Trait.mercenary",
    ]);
    // A re-check on turn 2 (+1), at −1 while that failure by 1 lasts (Miniatures: Guts, "−1 to
    // rolls"): dice −1 → 2 + 1 − 1 − 1 = 1 < 2 fails, flees; dice 0 passes.
    expect(gutsRecheck(t.state, dF(-1), 2, 2, 0, 0, { fault }).fleesCombat).toBe(true);
    expect(gutsRecheck(t.state, dF(0), 2, 2, 0, 0, { fault }).fleesCombat).toBe(false);
    // With the −1 on attack rolls only, dice −1 passes.
    expect(gutsRecheck(t.state, dF(-1), 2, 2, 0, 0, { fault }, { gutsRollPenalty: "attackRolls" }).fleesCombat).toBe(
      false,
    );
  });
  it('Faithful: "+1 to Guts checks when defending the King"; the King\'s Noble presence and Leader: −1 to peasants in melee with him and to followers once he has fallen', () => {
    const gift = ruled("sirKnightly").gift as never;
    expect(gutsCheck(2, 0, dF(0), 1, "faces", { gift, defendingKing: true }).total).toBe(3);
    expect(gutsCheck(2, 0, dF(0), 1, "faces", { gift }).total).toBe(2);
    expect(gutsCheck(2, 0, dF(0), 1, "faces", { defendingKing: true }).total).toBe(2);
    expect(gutsCheck(1, 0, dF(0), 1, "faces", { nobleInMelee: true }).total).toBe(0);
    expect(gutsCheck(1, 0, dF(0), 1, "faces", { nobleInMelee: true, leaderFallen: true }).total).toBe(-1);
    // The steps name each modifier before the roll; the roll's modifiers include them.
    const c = gutsCheck(1, 1, dF(0), 1, "faces", { gift, defendingKing: true, leaderFallen: true });
    expect(c.steps.map((s) => s.key)).toEqual([
      "FUDGE.Miniatures.Step.Trait.faithful",
      "FUDGE.Miniatures.Step.Trait.leader",
      "FUDGE.Miniatures.Step.GutsRoll",
      "FUDGE.Miniatures.Step.GutsPassed",
    ]);
    expect(c.steps[2].params?.modifiers).toBe("+1");
  });
  it("bad flags are refused by name", () => {
    expect(caught(() => gutsCheck(1, 0, dF(0), 1, "faces", { defendingKing: 1 as never })).field).toBe("defendingKing");
    expect(
      caught(() =>
        gutsTrigger(initialGutsState(), {
          guts: 1,
          faces: dF(0),
          target: 1,
          turn: 0,
          reason: "terrifying",
          beingCharged: "yes" as never,
        }),
      ).field,
    ).toBe("beingCharged");
    expect(
      caught(() =>
        gutsRecheck(
          parseGutsState({ pending: [{ reason: "other", target: 1, sinceTurn: 0, effect: 1 }] }, "s"),
          dF(0),
          1,
          1,
          0,
          0,
          { leaderFallen: null as never },
        ),
      ).field,
    ).toBe("leaderFallen");
  });
});

describe("duel forecast", () => {
  describe("the circumstances of every Guts check (gutsSituation)", () => {
    // With Near Death rolls off, Guts is read only by the Guts checks: a circumstance that adds m to
    // every check must answer as the same model with Guts + m (the charge check, the checks after a
    // wound and the re-checks alike; the merged minds' floor moves with it).
    const withGuts = (m: Model, d: number): Model => ({ ...m, guts: (m.guts as number) + d });
    const close = (x: { aOut: number; bOut: number }, y: { aOut: number; bOut: number }): void => {
      expect(x.aOut).toBeCloseTo(y.aOut, 12);
      expect(x.bOut).toBeCloseTo(y.bOut, 12);
    };
    it('Noble presence, "peasants make Guts checks at -1 when in melee with the King": Yanni (a peasant) against King Kingsley answers as Yanni with Guts one lower', () => {
      const base = {
        preset: "miniatures",
        a: ruled("yanniTheYeoman"),
        b: ruled("kingKingsley"),
        nearDeathRolls: false,
      };
      const noble = duelForecast({ ...base, gutsSituation: { a: { nobleInMelee: true } } }, { budgetMs: 60_000 });
      close(noble, duelForecast({ ...base, a: withGuts(ruled("yanniTheYeoman"), -1) }, { budgetMs: 60_000 }));
      // It matters: the plain duel answers otherwise.
      expect(Math.abs(noble.aOut - duelForecast(base, { budgetMs: 60_000 }).aOut)).toBeGreaterThan(1e-4);
    });
    it('Leader, "all followers make Guts checks at -1 if the King has fallen", with Noble presence: −2, as Guts two lower', () => {
      const base = {
        preset: "miniatures",
        a: ruled("kingKingsley"),
        b: ruled("brutasTheBrute"),
        nearDeathRolls: false,
      };
      const both = duelForecast(
        { ...base, gutsSituation: { b: { nobleInMelee: true, leaderFallen: true } } },
        { budgetMs: 60_000 },
      );
      close(both, duelForecast({ ...base, b: withGuts(ruled("brutasTheBrute"), -2) }, { budgetMs: 60_000 }));
      expect(both.bFled).toBeGreaterThan(duelForecast(base, { budgetMs: 60_000 }).bFled! + 1e-4);
    });
    it('Faithful, "+1 to Guts checks when defending the King": Sir Knightly defending him answers as Guts one higher; without Faithful the flag changes nothing', () => {
      const base = { preset: "miniatures", a: ruled("sirKnightly"), b: ruled("brutasTheBrute"), nearDeathRolls: false };
      const faithful = duelForecast({ ...base, gutsSituation: { a: { defendingKing: true } } }, { budgetMs: 60_000 });
      close(faithful, duelForecast({ ...base, a: withGuts(ruled("sirKnightly"), 1) }, { budgetMs: 60_000 }));
      const plain = duelForecast(base, { budgetMs: 60_000 });
      expect(Math.abs(faithful.aOut - plain.aOut)).toBeGreaterThan(1e-6);
      const brutas = duelForecast({ ...base, gutsSituation: { b: { defendingKing: true } } }, { budgetMs: 60_000 });
      expect(brutas.aOut).toBe(plain.aOut);
      expect(brutas.bOut).toBe(plain.bOut);
    });
    it("the merged minds' floor moves with the circumstances: a failure needing the floor passes its next re-check whatever is rolled, at the model's lowest Guts; two more do not", () => {
      const card = parseDatacard(ruled("sirKnightly"), "card");
      const config = card.track.config as unknown as BoxTrackConfig;
      const lowest = card.guts + Math.min(0, ...effectivePenalties(config));
      const keptAsIs = (situation: DuelGutsSituation, gutsRollPenalty: GutsRollPenaltyRule): MindSpace => ({
        floor: -100,
        reduce: false,
        situation,
        gift: card.gift,
        fault: card.fault,
        gutsRollPenalty,
      });
      // A failure by 1: under "allRolls" its own re-check is at −1 (Miniatures: Guts, "−1 to rolls").
      const pPass = (need: number, situation: DuelGutsSituation, rule: GutsRollPenaltyRule): number => {
        const state = parseGutsState({ pending: [{ reason: "other", target: need, sinceTurn: 0, effect: 1 }] }, "s");
        return gutsTurnStart(gutsMind(state, keptAsIs(situation, rule)), lowest, keptAsIs(situation, rule))
          .filter(([m]) => m.state.pending.length === 0)
          .reduce((t, [, p]) => t + p, 0);
      };
      // Faithful defending the King +1; Noble presence and Leader fallen −2; none. The −1 to rolls
      // of a failure by 1 moves the floor one lower under "allRolls" (the default), not under "attackRolls".
      for (const [rule, shaken] of [
        ["allRolls", -1],
        ["attackRolls", 0],
      ] as const)
        for (const [situation, modifier] of [
          [{ defendingKing: true }, 1],
          [{ nobleInMelee: true, leaderFallen: true }, -2],
          [{}, 0],
        ] as const) {
          const space = mindSpace(card, config, true, situation, rule);
          expect(space.modifier).toBe(modifier);
          expect(space.floor).toBe(lowest - 4 + modifier + shaken);
          expect(pPass(space.floor, situation, rule)).toBeCloseTo(1, 12);
          // The re-check gains its +1, so one more passes for sure too; two more fail on the lowest
          // Legendary roll (−4, 1 of 81): the floor is within one of as high as it can be.
          expect(pPass(space.floor + 1, situation, rule)).toBeCloseTo(1, 12);
          expect(pPass(space.floor + 2, situation, rule)).toBeCloseTo(80 / 81, 12);
        }
      expect(mindSpace(card, config, true).floor).toBe(lowest - 5);
    });
    it("bad circumstances are refused by name, and outside the Miniatures preset", () => {
      const base = { preset: "miniatures", a: ruled("yanniTheYeoman"), b: ruled("kingKingsley") };
      expect(caught(() => duelForecast({ ...base, gutsSituation: { c: {} } })).field).toBe("gutsSituation.c");
      expect(caught(() => duelForecast({ ...base, gutsSituation: { a: { brave: true } } })).field).toBe(
        "gutsSituation.a.brave",
      );
      expect(caught(() => duelForecast({ ...base, gutsSituation: { a: { leaderFallen: "yes" } } })).field).toBe(
        "gutsSituation.a.leaderFallen",
      );
      expect(caught(() => duelForecast({ ...base, gutsSituation: [] })).field).toBe("gutsSituation");
      expect(caught(() => duelForecast({ preset: "fudge", a: {}, b: {}, gutsSituation: {} })).key).toBe(
        "FUDGE.Error.ForecastGutsSituationPreset",
      );
    });
  });
  const steadfastMercenary = (): Model => ({
    ...ruled("yanniTheYeoman"),
    fault: { name: "Mercenary", rule: "mercenary" },
  });
  it("Steadfast at the Terrifying charge, hand-computed: a Steadfast Mercenary Yanni charged by a harmless Terrifying ogre flees with 15/81 (Guts 1 + 1 + dice < 1), charging with 31/81", () => {
    const charged = duelForecast({ preset: "miniatures", a: steadfastMercenary(), b: OGRE, first: "b" });
    expect(charged.exact).toBe(true);
    expect(charged.aOut).toBeCloseTo(15 / 81, 12);
    expect(charged.bOut).toBeCloseTo(66 / 81, 9);
    const charging = duelForecast({ preset: "miniatures", a: steadfastMercenary(), b: OGRE, first: "a" });
    expect(charging.aOut).toBeCloseTo(31 / 81, 12);
    // Steadfast as text only: being charged, 31/81 too.
    const textOnly = duelForecast({
      preset: "miniatures",
      a: { ...steadfastMercenary(), gift: { name: "Steadfast" } },
      b: OGRE,
      first: "b",
    });
    expect(textOnly.aOut).toBeCloseTo(31 / 81, 12);
  });
  it("Mercenary, hand-computed: Brutas (Guts 2) charged by the ogre flees with 15/81; a pending failure by 1 re-checked at +1 − 1 flees with 15/81 (5/81 with the −1 on attack rolls only); text only, he never leaves", () => {
    const merc = duelForecast({ preset: "miniatures", a: ruled("brutasTheBrute"), b: OGRE, first: "b" });
    expect(merc.aOut).toBeCloseTo(15 / 81, 12);
    const plain = duelForecast({ preset: "miniatures", a: sampleModel("brutasTheBrute"), b: OGRE, first: "b" });
    expect(plain.aOut).toBeLessThan(1e-9);
    const gutsState = { pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 0, effect: 1 }] };
    // Miniatures: Guts — "1 Model is at a -1 to rolls": 2 + 1 − 1 + dice < 1 on dice ≤ −2 (15/81); without the −1, dice ≤ −3 (5/81).
    const recheck = duelForecast({
      preset: "miniatures",
      a: { ...ruled("brutasTheBrute"), gutsState },
      b: OGRE,
      terrifyingCharge: false,
    });
    expect(recheck.aOut).toBeCloseTo(15 / 81, 12);
    const attackOnly = duelForecast({
      preset: "miniatures",
      a: { ...ruled("brutasTheBrute"), gutsState },
      b: OGRE,
      terrifyingCharge: false,
      options: { gutsRollPenalty: "attackRolls" },
    });
    expect(attackOnly.aOut).toBeCloseTo(5 / 81, 12);
    // Without Guts checks a Mercenary has nothing to fail.
    expect(
      duelForecast({ preset: "miniatures", a: ruled("brutasTheBrute"), b: OGRE, gutsChecks: false }).aOut,
    ).toBeLessThan(1e-9);
  });
  it('Mercenary: "will flee the combat on any failed Guts check" — a re-check failed at the start of its turn means it has fled before it strikes: its blow never lands', () => {
    // A foe every blow of Brutas kills (DDF −20: a wound of 20 or more, Dead), Brutas second in order but striking first.
    const victim: Model = { ...OGRE, name: "Victim", terrifying: 0, dexterity: -20 };
    const gutsState = { pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 0, effect: 1 }] };
    const f = duelForecast({
      preset: "miniatures",
      a: victim,
      b: { ...ruled("brutasTheBrute"), gutsState },
      first: "b",
      terrifyingCharge: false,
    });
    expect(f.exact).toBe(true);
    // The re-check of a failure by 1 is at −1 (Miniatures: Guts, "−1 to rolls"): fails on dice ≤ −2.
    expect(f.bOut).toBeCloseTo(15 / 81, 12);
    expect(f.aOut).toBeCloseTo(66 / 81, 12);
  });
  it("Self-interest, hand-computed: Knavely struck first by an archer of MODF −2 flees on any wound short of Near Death (dice 3..9 of the Legendary roll); text only, he kills the archer next", () => {
    const archer: Model = {
      ...OGRE,
      name: "Archer",
      terrifying: 0,
      dexterity: -20,
      weapons: [{ name: "Knife", hands: 1, kind: "melee", damage: -2, stat: "strength" }],
    };
    const selfish = duelForecast({ preset: "miniatures", a: ruled("knavelyKnave"), b: archer, first: "b" });
    const flees = pDice((d) => d >= 3 && d <= 9);
    expect(selfish.aOut).toBeGreaterThanOrEqual(flees - 1e-12);
    expect(selfish.aOut).toBeLessThanOrEqual(pDice((d) => d >= 3) + 1e-12);
    expect(flees).toBeCloseTo(5 / 81, 3); // less the rare Legendary re-rolls that bring him Near Death
    expect(
      duelForecast({ preset: "miniatures", a: sampleModel("knavelyKnave"), b: archer, first: "b" }).aOut,
    ).toBeLessThan(1e-3);
    // Already wounded and able to run as the duel starts: he has fled.
    const scratched = { ...ruled("knavelyKnave"), track: applyWound(miniTrack(), { level: "scratch" }).track };
    expect(duelForecast({ preset: "miniatures", a: scratched, b: archer }).aOut).toBe(1);
  });
  it("Chivalrous, hand-computed: Sir Knightly never strikes an armored foe lying Near Death; it dies of its own rolls (Guts 2 − 2: dice ≤ −1) before it recovers (≥ +2) with 31/46", () => {
    const nd = applyWound(miniTrack(), { level: "nearDeath" }).track;
    // Armor 20: once up again, Sir Knightly cannot wound it (dice ≥ 16 needed), and its axe wins in the end.
    const tower: Model = {
      name: "Tower",
      strength: 4,
      dexterity: 0,
      guts: 2,
      armor: 20,
      weapons: [{ name: "Axe", hands: 2, kind: "melee", damage: 6, stat: "strength" }],
      track: nd,
    };
    const f = duelForecast({ preset: "miniatures", a: ruled("sirKnightly"), b: tower }, { budgetMs: 60_000 });
    const die = pDice((d) => d <= -1);
    const rec = pDice((d) => d >= 2);
    expect([die, rec].map((x) => Math.round(x * 81))).toEqual([31, 15]);
    expect(f.bOut).toBeCloseTo(die / (die + rec), 6);
  });
  it("the sample pairings: Knavely's Self-interest, Brutas's Mercenary and Sir Knightly's Chivalrous change their duels (figures in docs/rules-api.md)", () => {
    const win = (a: Model, b: Model): number => duelForecast({ preset: "miniatures", a, b }, { budgetMs: 60_000 }).bOut;
    // Figures with a Guts failure by 1 at −1 to every roll (the default rule; docs/rules-api.md).
    // Knavely against the King (both MODF 7, DDF 1: every blow wounds): without the fault he wins 0.9083 striking first.
    expect(win(ruled("knavelyKnave"), ruled("kingKingsley"))).toBeCloseTo(0.7983, 3);
    expect(win(ruled("kingKingsley"), ruled("knavelyKnave"))).toBeGreaterThan(0.9999);
    expect(win(ruled("knavelyKnave", "backstabber"), ruled("kingKingsley"))).toBeCloseTo(0.9083, 3);
    // Sir Knightly against the King: 0.6517 → 0.6054 when he will not strike a King lying Near Death.
    expect(win(ruled("sirKnightly"), ruled("kingKingsley"))).toBeCloseTo(0.6054, 3);
    expect(win(ruled("sirKnightly", "faithful"), ruled("kingKingsley"))).toBeCloseTo(0.6517, 3);
  }, 60_000);
  it("Poor melee combatant in the duel: the free attack on Yanni when he runs from a Terrifying charge (Guts failure by 3) is at +2, not +1", () => {
    // Brutas charges Yanni (Steadfast as text only here): Yanni fails by 3 with 10/81 and runs; Brutas strikes at once.
    const duel = (y: Model): number =>
      duelForecast({ preset: "miniatures", a: ruled("brutasTheBrute", "steadfast"), b: y }, { budgetMs: 60_000 }).bOut;
    const poor = duel(ruled("yanniTheYeoman", "poorMelee"));
    const plain = duel(sampleModel("yanniTheYeoman"));
    expect(poor).toBeGreaterThan(plain + 1e-4);
  }, 60_000);
  it("Brutas's Mercenary: his duel against the King changes from 0.7324 to 0.6526 (exact; 0.7228 to 0.6352 with the −1 of a Guts failure by 1 on attack rolls only)", () => {
    const f = duelForecast(
      { preset: "miniatures", a: ruled("brutasTheBrute"), b: ruled("kingKingsley") },
      { budgetMs: 60_000 },
    );
    expect([f.exact, f.method]).toEqual([true, "chain"]);
    expect(f.bOut).toBeCloseTo(0.6526, 3);
    expect(
      duelForecast(
        {
          preset: "miniatures",
          a: ruled("brutasTheBrute"),
          b: ruled("kingKingsley"),
          options: { gutsRollPenalty: "attackRolls" },
        },
        { budgetMs: 60_000 },
      ).bOut,
    ).toBeCloseTo(0.6352, 3);
  }, 60_000);
  it("the sampled estimate plays the same turns: Knavely (Self-interest) vs Sir Knightly (Chivalrous) within its 99% interval of the exact answer", () => {
    const duel = { preset: "miniatures", a: ruled("knavelyKnave"), b: ruled("sirKnightly") };
    const exact = duelForecast(duel);
    const est = duelForecast({ ...duel, method: "sample" });
    expect(exact.exact).toBe(true);
    expect(Math.abs(est.aOut - exact.aOut)).toBeLessThanOrEqual(est.estimate!.halfWidth.aOut);
    expect(Math.abs(est.bOut - exact.bOut)).toBeLessThanOrEqual(est.estimate!.halfWidth.bOut);
    expect(Math.abs(est.expectedExchanges! - exact.expectedExchanges!)).toBeLessThanOrEqual(
      est.estimate!.exchangesHalfWidth! + 5e-5,
    );
    // And the traits move the estimate as they move the exact answer (0.8536 without them).
    expect(exact.bOut).toBeCloseTo(0.3631, 3);
  }, 60_000);
});

describe("fudge-rules (CLI)", () => {
  it("guts takes the model's gift and fault and the situation's flags, and answers fleesCombat", () => {
    const yanni = ruled("yanniTheYeoman");
    const r = runCommand("guts", {
      guts: 1,
      reason: "terrifying",
      beingCharged: true,
      gift: yanni.gift,
      dice: dF(-1),
    }) as { check: { total: number; passed: boolean }; fleesCombat: boolean };
    expect([r.check.total, r.check.passed, r.fleesCombat]).toEqual([1, true, false]);
    const merc = runCommand("guts", {
      guts: 2,
      reason: "twoWoundLevels",
      fault: ruled("brutasTheBrute").fault,
      dice: dF(-1),
      turn: 1,
    }) as { state: unknown; fleesCombat: boolean };
    expect(merc.fleesCombat).toBe(true);
    const again = runCommand("guts", {
      check: "recheck",
      guts: 2,
      state: merc.state,
      turn: 2,
      fault: ruled("brutasTheBrute").fault,
      dice: dF(-2),
    }) as { fleesCombat: boolean };
    expect(again.fleesCombat).toBe(true);
    const king = runCommand("guts", {
      guts: 2,
      reason: "newWoundLevel",
      gift: ruled("sirKnightly").gift,
      defendingKing: true,
      nobleInMelee: true,
      leaderFallen: true,
      dice: dF(0),
    }) as { check: { total: number } };
    expect(king.check.total).toBe(1);
    // Bad input: the field by name.
    expect(
      caught(() =>
        runCommand("guts", { guts: 1, reason: "terrifying", gift: { name: "X", rule: "brave" }, dice: dF(0) }),
      ).field,
    ).toBe("gift.rule");
    expect(
      caught(() => runCommand("guts", { guts: 1, reason: "terrifying", beingCharged: 1, dice: dF(0) })).field,
    ).toBe("beingCharged");
  });
  it("resolve and odds take the situation's fromBehind and disengaging", () => {
    const r = runCommand("resolve", {
      ...attack(ruled("knavelyKnave"), ruled("yanniTheYeoman"), { fromBehind: true }),
      dice: { attack: dF(0) },
    }) as { numbers: Record<string, number> };
    expect(r.numbers.attackerTotal).toBe(8);
    const o = runCommand("odds", attack(ruled("brutasTheBrute"), ruled("yanniTheYeoman"), { disengaging: true })) as {
      hit: number;
    };
    const o0 = runCommand("odds", attack(ruled("brutasTheBrute"), ruled("yanniTheYeoman"))) as { hit: number };
    // Brutas MODF 4 against DDF 4: hits on dice ≥ 0, with the +1 on dice ≥ −1.
    expect(o.hit).toBeCloseTo(
      pDice((d) => d >= -1),
      12,
    );
    expect(o0.hit).toBeCloseTo(
      pDice((d) => d >= 0),
      12,
    );
  });
});
