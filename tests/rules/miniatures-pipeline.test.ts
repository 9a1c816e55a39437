import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  miniaturesPipeline,
  nearDeathGuts,
  datacard,
  parseDatacard,
  legendaryOutcomes,
  attacksOfAction,
} from "../../src/rules/miniatures";
import { SAMPLE_CARDS, sampleModel } from "./miniatures-samples";
import { boxTrackConfig, type BoxTrackState } from "../../src/rules/fudge";
import {
  enumerateDice,
  type AttackResolution,
  resolveAttack,
  rollAttack,
  applyWound,
  newTrack,
  trackStatus,
  type Track,
  seededRng,
} from "../../src/rules";
import { fieldOf } from "./errors";

type CardKey = keyof typeof SAMPLE_CARDS;
const healthy = (): Track => newTrack(boxTrackConfig("miniatures"));
const wounded = (...levels: string[]): Track => levels.reduce((t, level) => applyWound(t, { level }).track, healthy());
const model = (k: CardKey, over: Record<string, unknown> = {}) => ({
  ...JSON.parse(JSON.stringify(SAMPLE_CARDS[k])),
  track: healthy(),
  ...over,
});
/** Faces with a given 4dF total below +4 (no Legendary re-roll). */
const dF = (total: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(total) ? Math.sign(total) : 0));

function attack(
  a: CardKey | object,
  d: CardKey | object,
  situation: Record<string, unknown> = {},
  options: Record<string, unknown> = {},
) {
  return {
    preset: "miniatures",
    attacker: typeof a === "string" ? model(a as CardKey) : a,
    defender: typeof d === "string" ? model(d as CardKey) : d,
    options,
    situation,
  };
}

describe("Miniatures attack: 4dF + ODF vs DDF, the target does not roll", () => {
  it("hit when the total equals or beats DDF; wound = total − DDF, 0 is a Scratch", () => {
    // Sir Knightly MODF +4 vs Brutas DDF +3.
    const tie = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: dF(-1) });
    expect(tie.numbers).toMatchObject({ odf: 4, defense: 3, attackerTotal: 3, damageNumber: 0 });
    expect(tie.outcome).toBe("wound");
    expect(tie.woundKey).toBe("scratch");
    const miss = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: dF(-2) });
    expect(miss.outcome).toBe("miss");
    expect(miss.hit).toBe(false);
    expect(miss.defenderAfter).toBeNull();
    const hurt = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: dF(3) });
    expect(hurt.numbers.damageNumber).toBe(4);
    expect(hurt.woundKey).toBe("hurt");
    expect(hurt.defenderAfter!.status.penalty).toBe(-1);
    expect(Object.keys(hurt.dice)).toEqual(["attack"]);
  });

  it("9+ is Dead", () => {
    // King MODF +7 vs Knave DDF +1: +3 → 10 − 1 = 9.
    const r = resolveAttack(attack("kingKingsley", "knavelyKnave"), { attack: dF(3) });
    expect(r.numbers.damageNumber).toBe(9);
    expect(r.woundKey).toBe("dead");
    expect(r.defenderAfter!.status.condition).toBe("dead");
    expect(r.defenderAfter!.ended).toBe(true);
  });

  it("gang-up: +1 when one or more other models attack the same enemy (not +1 each)", () => {
    const one = resolveAttack(attack("sirKnightly", "brutasTheBrute", { gangUp: 1 }), { attack: dF(-2) });
    expect(one.numbers.attackerTotal).toBe(3);
    expect(one.outcome).toBe("wound");
    const three = resolveAttack(attack("sirKnightly", "brutasTheBrute", { gangUp: 3 }), { attack: dF(-2) });
    expect(three.numbers.attackerTotal).toBe(3);
  });

  it("wound penalties lower the attacker's MODF and the defender's DDF, not the roll", () => {
    const a = model("sirKnightly", { track: wounded("hurt") });
    const d = model("brutasTheBrute", { track: wounded("veryHurt") });
    const r = resolveAttack(attack(a, d), { attack: dF(0) });
    expect(r.numbers).toMatchObject({ odf: 3, ddf: 1, defense: 1, attackerTotal: 3, damageNumber: 2, modifiers: 0 });
  });

  it("situational modifier (e.g. the backstabber's +1) adds to the roll", () => {
    const r = resolveAttack(attack("knavelyKnave", "sirKnightly", { modifier: 1 }), { attack: dF(0) });
    expect(r.numbers.attackerTotal).toBe(8);
  });

  it("the Legendary roll: +4 is rolled again and added, chained", () => {
    // Sir Knightly +4, dice 4 + (4 + 1) = 9 → total 13 vs DDF 3 → 10: Dead.
    const r = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, -1, 0] });
    expect(r.numbers.dice).toBe(9);
    expect(r.numbers.attackerTotal).toBe(13);
    expect(r.dice.attack).toHaveLength(12);
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Miniatures.Step.Legendary");
    expect(fieldOf(() => resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: [1, 1, 1, 1] }))).toBe(
      "dice.attack",
    );
  });
});

describe("Miniatures: Near Death, helpless, surprised", () => {
  it("attacks on a Near Death model hit automatically and only roll to wound, against HDDF", () => {
    const brutas = model("brutasTheBrute", { track: wounded("nearDeath") });
    // Yanni's dagger (MODF +0) rolls −1: against a healthy Brutas (DDF +3) a miss…
    const normal = resolveAttack(attack("yanniTheYeoman", "brutasTheBrute", { weapon: "Dagger" }), { attack: dF(-1) });
    expect(normal.outcome).toBe("miss");
    // …against a Near Death Brutas a hit, rolled against HDDF +2: −1 − 2 → no wound.
    const nd = resolveAttack(attack("yanniTheYeoman", brutas, { weapon: "Dagger" }), { attack: dF(-1) });
    expect(nd.hit).toBe(true);
    expect(nd.outcome).toBe("noDamage");
    expect(nd.numbers.defense).toBe(2);
    expect(nd.steps.map((s) => s.key)).toContain("FUDGE.Miniatures.Step.AutoHit");
    // +3 → 3 − 2 = 1, a Scratch.
    const hit = resolveAttack(attack("yanniTheYeoman", brutas, { weapon: "Dagger" }), { attack: dF(3) });
    expect(hit.numbers.damageNumber).toBe(1);
    expect(hit.woundKey).toBe("scratch");
  });

  it("helpless or surprised targets use HDDF (but must still be hit)", () => {
    for (const s of [{ helpless: true }, { surprised: true }]) {
      const r = resolveAttack(attack("yanniTheYeoman", "brutasTheBrute", { weapon: 1, ...s }), { attack: dF(2) });
      expect(r.numbers.defense).toBe(2);
      expect(r.numbers.damageNumber).toBe(0);
      const miss = resolveAttack(attack("yanniTheYeoman", "brutasTheBrute", { weapon: 1, ...s }), { attack: dF(1) });
      expect(miss.outcome).toBe("miss");
    }
  });

  it("a model terrified by a Guts failure of 4 counts as helpless", () => {
    const d = model("brutasTheBrute", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 4 }] } });
    expect(resolveAttack(attack("sirKnightly", d), { attack: dF(0) }).numbers.defense).toBe(2);
  });
});

describe("Miniatures: ranged attacks", () => {
  const bow = (situation: Record<string, unknown>) =>
    attack("yanniTheYeoman", "kingKingsley", { weapon: "shortbow", ...situation });

  it('range multiples: Range 18": 18 → 0, 19 → −1, 37 → −2', () => {
    const at = (d: number) => resolveAttack(bow({ rangeInches: d }), { attack: dF(0) }).numbers;
    expect(at(18)).toMatchObject({ rangePenalty: 0, attackerTotal: 3 });
    expect(at(19)).toMatchObject({ rangePenalty: -1, attackerTotal: 2 });
    expect(at(36)).toMatchObject({ rangePenalty: -1 });
    expect(at(37)).toMatchObject({ rangePenalty: -2, attackerTotal: 1 });
  });

  it("gang-up is a melee bonus unless options.gangUpRanged", () => {
    expect(resolveAttack(bow({ gangUp: 1 }), { attack: dF(0) }).numbers).toMatchObject({ gangUp: 0, attackerTotal: 3 });
    const r = resolveAttack({ ...bow({ gangUp: 1 }), options: { gangUpRanged: true } }, { attack: dF(0) });
    expect(r.numbers).toMatchObject({ gangUp: 1, attackerTotal: 4 });
  });

  it("cover is −1", () => {
    const r = resolveAttack(bow({ rangeInches: 10, cover: true }), { attack: dF(0) });
    expect(r.numbers).toMatchObject({ cover: -1, attackerTotal: 2 });
  });

  it("no shooting in base contact unless the weapon allows it", () => {
    expect(fieldOf(() => resolveAttack(bow({ inContact: true }), { attack: dF(0) }))).toBe("situation.inContact");
    const yanni = model("yanniTheYeoman");
    yanni.weapons[0].shootInContact = true;
    expect(
      resolveAttack(attack(yanni, "kingKingsley", { weapon: 0, inContact: true }), { attack: dF(0) }).outcome,
    ).toBe("wound");
  });

  it("melee needs base contact unless the weapon has reach", () => {
    expect(
      fieldOf(() => resolveAttack(attack("sirKnightly", "kingKingsley", { inContact: false }), { attack: dF(0) })),
    ).toBe("situation.inContact");
    const k = model("sirKnightly");
    k.weapons[0] = { name: "Spear", hands: 2, kind: "melee", damage: 2, stat: "strength", range: 2 };
    expect(resolveAttack(attack(k, "kingKingsley", { inContact: false, rangeInches: 2 }), { attack: dF(0) }).hit).toBe(
      true,
    );
    expect(
      fieldOf(() => resolveAttack(attack(k, "kingKingsley", { inContact: false, rangeInches: 3 }), { attack: dF(0) })),
    ).toBe("situation.rangeInches");
  });

  it("shooting into a melee calls for the shooter's friends there to check Guts at +0", () => {
    const r = resolveAttack(bow({ friendShootsIntoMelee: true }), { attack: dF(-4) });
    expect(r.followUps).toEqual([
      expect.objectContaining({
        type: "gutsCheck",
        target: "attacker",
        params: expect.objectContaining({ who: "friendsInMelee", target: 0 }),
      }),
    ]);
  });
});

describe("Miniatures: the track through the pipeline", () => {
  it("four Scratches from healthy: Scratch, Scratch, Hurt, Very Hurt; a fifth → Near Death", () => {
    let brutas = model("brutasTheBrute");
    const seen: (string | null)[] = [];
    const guts: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Aim each blow at a wound number of 1 against Brutas's current DDF (3 + his wound penalty).
      const ddf = datacard(parseDatacard(brutas, "d"), trackStatus(brutas.track).penalty).ddf;
      const r = resolveAttack(attack("sirKnightly", brutas), { attack: dF(ddf + 1 - 4) });
      expect(r.woundKey).toBe("scratch");
      expect(r.numbers.damageNumber).toBe(1);
      brutas = { ...brutas, track: r.defenderAfter!.track };
      seen.push(r.defenderAfter!.status.levelKey);
      guts.push(r.followUps.map((f) => `${f.type}:${f.params.target ?? ""}`).join(","));
    }
    expect(seen).toEqual(["scratch", "scratch", "hurt", "veryHurt", "nearDeath"]);
    const st = brutas.track.state as BoxTrackState;
    expect(st.marks.scratch).toEqual([{ level: "scratch" }, { level: "scratch" }]);
    expect(st.marks.hurt).toEqual([{ level: "scratch" }]);
    expect(st.marks.veryHurt).toEqual([{ level: "scratch" }]);
    expect(st.marks.nearDeath).toEqual([{ level: "scratch" }]);
    // Guts: none for Scratches, +1 for each new wound level, then the Near Death fall.
    expect(guts).toEqual(["", "", "gutsCheck:1", "gutsCheck:1", "nearDeath:"]);
    expect(trackStatus(brutas.track)).toMatchObject({ condition: "dying", canAct: false });
  });

  it("the seed's diagram: a 4 wound is Hurt (−1 to all stats), then a 5 wound Very Hurt (−2)", () => {
    // Sir Knightly +4 vs Brutas DDF 3: +3 → 7 − 3 = 4.
    const first = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: dF(3) });
    expect(first.numbers.damageNumber).toBe(4);
    expect(first.defenderAfter!.status).toMatchObject({ levelKey: "hurt", penalty: -1 });
    const brutas = model("brutasTheBrute", { track: first.defenderAfter!.track });
    const hurtCard = datacard(parseDatacard(brutas, "d"), first.defenderAfter!.status.penalty);
    expect(hurtCard).toMatchObject({ strength: 1, dexterity: -1, guts: 1, movement: 5, modf: 3, ddf: 2 });
    // Against DDF 2 now: +3 → 7 − 2 = 5.
    const second = resolveAttack(attack("sirKnightly", brutas), { attack: dF(3) });
    expect(second.numbers.damageNumber).toBe(5);
    expect(second.defenderAfter!.status).toMatchObject({ levelKey: "veryHurt", penalty: -2 });
    const st = second.defenderAfter!.track.state as BoxTrackState;
    expect([st.marks.scratch, st.marks.hurt, st.marks.veryHurt, st.marks.nearDeath]).toEqual([
      [null, null],
      [{ level: "hurt" }],
      [{ level: "veryHurt" }],
      [null],
    ]);
  });

  it("two wound levels from one attack call for a Guts check at +2", () => {
    // Healthy → Very Hurt (wound 5).
    const r = resolveAttack(attack("sirKnightly", "brutasTheBrute"), { attack: [1, 1, 1, 1, 0, 0, 0, 0] });
    expect(r.numbers.damageNumber).toBe(5);
    expect(r.woundKey).toBe("veryHurt");
    expect(r.followUps).toEqual([
      expect.objectContaining({
        type: "gutsCheck",
        target: "defender",
        params: expect.objectContaining({ target: 2, reason: "twoWoundLevels" }),
      }),
    ]);
    // Hurt → Very Hurt is one level: +1.
    const h = resolveAttack(attack("sirKnightly", model("brutasTheBrute", { track: wounded("hurt") })), {
      attack: [1, 1, 1, 1, 0, 0, 0, 0],
    });
    expect(h.followUps[0].params).toMatchObject({ target: 1, reason: "newWoundLevel" });
  });

  it("a flying model reaching Near Death takes a further 4dF+5 crash wound", () => {
    const flyer = model("brutasTheBrute", { flying: true, track: wounded("hurt") });
    // Brutas Hurt: DDF 3 − 1 = 2; King +7 + 2 = 9 → wound 7 → Near Death; crash dice −4 → 1 → a Scratch.
    const soft = resolveAttack(attack("kingKingsley", flyer), { attack: dF(2), crash: dF(-4) });
    expect(soft.numbers).toMatchObject({ damageNumber: 7, crashDamage: 1 });
    expect(soft.woundKey).toBe("nearDeath");
    expect(soft.dice.crash).toEqual(dF(-4));
    expect(soft.followUps.map((f) => f.type)).toEqual(["crashWound", "nearDeath"]);
    expect((soft.defenderAfter!.track.state as BoxTrackState).marks.scratch).toEqual([{ level: "scratch" }, null]);
    // Crash dice +4 then 0 → 9: Dead.
    const hard = resolveAttack(attack("kingKingsley", flyer), { attack: dF(2), crash: [1, 1, 1, 1, 0, 0, 0, 0] });
    expect(hard.numbers.crashDamage).toBe(9);
    expect(hard.defenderAfter!.status.condition).toBe("dead");
    expect(hard.followUps.map((f) => f.type)).toEqual(["crashWound"]);
    // A walking model does not crash and never reads the crash dice.
    const walker = resolveAttack(attack("kingKingsley", model("brutasTheBrute", { track: wounded("hurt") })), {
      attack: dF(2),
    });
    expect(walker.dice.crash).toBeUndefined();
    expect(fieldOf(() => resolveAttack(attack("kingKingsley", flyer), { attack: dF(2) }))).toBe("dice.crash");
  });

  it("Near Death turn roll on the track: recover to Very Hurt, die, or stay", () => {
    const t = wounded("hurt", "nearDeath");
    const up = nearDeathGuts(t, 1, dF(1));
    expect(up.result).toBe("veryHurt");
    expect(trackStatus(up.track)).toMatchObject({ levelKey: "veryHurt", condition: "able", canAct: true, penalty: -2 });
    const down = nearDeathGuts(t, 1, dF(-2));
    expect(down.result).toBe("dead");
    expect(trackStatus(down.track).condition).toBe("dead");
    // After five Scratches: the Near Death box clears, the overflowed Scratch in Very Hurt stays.
    const five = wounded("scratch", "scratch", "scratch", "scratch", "scratch");
    const up5 = nearDeathGuts(five, 1, dF(1));
    const st5 = up5.track.state as BoxTrackState;
    expect([st5.marks.veryHurt, st5.marks.nearDeath]).toEqual([[{ level: "scratch" }], [null]]);
    expect(trackStatus(up5.track)).toMatchObject({ levelKey: "veryHurt", canAct: true });
    const stay = nearDeathGuts(t, 1, dF(0));
    expect(stay.track.state).toEqual(t.state);
    expect(fieldOf(() => nearDeathGuts(healthy(), 1, dF(0)))).toBe("track");
  });
});

describe("Miniatures: Guts effects on the attacker", () => {
  it("a failure by 1 is −1 to rolls", () => {
    const a = model("sirKnightly", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 1 }] } });
    const r = resolveAttack(attack(a, "brutasTheBrute"), { attack: dF(0) });
    expect(r.numbers).toMatchObject({ gutsPenalty: -1, attackerTotal: 3, odf: 4 });
  });

  it("a failure by 2 or more: may not attack", () => {
    const a = model("sirKnightly", { gutsState: { pending: [{ target: 1, sinceTurn: 1, effect: 2 }] } });
    expect(fieldOf(() => resolveAttack(attack(a, "brutasTheBrute"), { attack: dF(0) }))).toBe(
      "attacker.gutsState.effect",
    );
  });

  it("Near Death or dead models cannot attack; the dead cannot be attacked", () => {
    expect(
      fieldOf(() =>
        resolveAttack(attack(model("sirKnightly", { track: wounded("nearDeath") }), "brutasTheBrute"), {
          attack: dF(0),
        }),
      ),
    ).toBe("attacker.track");
    expect(
      fieldOf(() =>
        resolveAttack(attack("sirKnightly", model("brutasTheBrute", { track: wounded("dead") })), { attack: dF(0) }),
      ),
    ).toBe("defender.track");
  });
});

describe("Miniatures: exact odds and live rolls", () => {
  it("enumeration over the Legendary classes sums to 1 and matches the 4dF table", () => {
    const req = miniaturesPipeline.parseRequest(attack("sirKnightly", "brutasTheBrute"));
    const dist = new Map<string, number>();
    let total = 0;
    enumerateDice(
      miniaturesPipeline.slots(req),
      (d) => miniaturesPipeline.resolve(req, d),
      (r: AttackResolution, p) => {
        dist.set(r.outcome, (dist.get(r.outcome) ?? 0) + p);
        total += p;
      },
    );
    expect(total).toBeCloseTo(1, 13);
    // +4 vs 3: a miss needs 4dF ≤ −2: (1 + 4 + 10) / 81.
    expect(dist.get("miss")).toBeCloseTo(15 / 81, 13);
  });

  it("exact odds for any ODF vs DDF: P(hit) = P(Legendary 4dF ≥ DDF − ODF) (property)", () => {
    const dist = legendaryOutcomes();
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 4 }),
        fc.integer({ min: -3, max: 4 }),
        fc.integer({ min: -3, max: 4 }),
        fc.boolean(),
        (str, dex, armor, flying) => {
          const a = model("sirKnightly", { strength: str });
          const d = model("brutasTheBrute", { dexterity: dex, armor, flying, track: wounded("veryHurt") });
          const req = miniaturesPipeline.parseRequest(attack(a, d));
          let total = 0;
          let hit = 0;
          enumerateDice(
            miniaturesPipeline.slots(req),
            (r) => miniaturesPipeline.resolve(req, r),
            (res: AttackResolution, p) => {
              total += p;
              if (res.hit) hit += p;
            },
          );
          expect(total).toBeCloseTo(1, 12);
          // DDF = Dexterity + armor + shield 1 − 2 (Very Hurt); MODF = longsword 2 + Strength.
          const need = dex + armor + 1 - 2 - (2 + str);
          const expected = dist.reduce((s, c, i) => s + (i - 4 >= need ? c.p : 0), 0);
          expect(hit).toBeCloseTo(expected, 12);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a live roll re-derives from its recorded dice", () => {
    for (let seed = 0; seed < 30; seed++) {
      const req = attack("kingKingsley", model("brutasTheBrute", { flying: true, track: wounded("veryHurt") }));
      const r = rollAttack(req, seededRng(seed));
      expect(resolveAttack(req, r.dice)).toEqual(r);
    }
  });
});

describe("Miniatures: bad input names the field", () => {
  it.each([
    [{ attacker: { strength: "Good" } }, "attacker.strength"],
    [
      { attacker: { weapons: [{ name: "Axe", hands: 3, kind: "melee", damage: 2, stat: "strength" }] } },
      "attacker.weapons[0].hands",
    ],
    [
      { attacker: { weapons: [{ name: "Axe", hands: 1, kind: "thrown", damage: 2, stat: "strength" }] } },
      "attacker.weapons[0].kind",
    ],
    [{ attacker: { weapons: [{ name: "Axe", hands: 1, kind: "melee", damage: 2 }] } }, "attacker.weapons[0].stat"],
    [{ attacker: { weapons: [{ name: "Bow", hands: 2, kind: "ranged", damage: 2 }] } }, "attacker.weapons[0].range"],
    [{ defender: { armor: 1.5 } }, "defender.armor"],
    [{ defender: { movement: -1 } }, "defender.movement"],
    [{ defender: { track: { config: { kind: "fate" } } } }, "defender.track.config.kind"],
    [{ defender: { flying: "yes" } }, "defender.flying"],
    [{ situation: { weapon: "Halberd" } }, "situation.weapon"],
    [{ situation: { weapon: 4 } }, "situation.weapon"],
    [{ situation: { gangUp: -1 } }, "situation.gangUp"],
    [{ situation: { cover: "yes" } }, "situation.cover"],
    [{ situation: { rangeInches: "far" } }, "situation.rangeInches"],
    [{ options: { penaltyLowersHddf: 1 } }, "options.penaltyLowersHddf"],
    [{ options: { gangUpRanged: "no" } }, "options.gangUpRanged"],
  ])("%j → %s", (patch, field) => {
    const p = patch as {
      attacker?: Record<string, unknown>;
      defender?: Record<string, unknown>;
      situation?: Record<string, unknown>;
      options?: Record<string, unknown>;
    };
    const req = attack(
      model("sirKnightly", p.attacker ?? {}),
      model("brutasTheBrute", p.defender ?? {}),
      p.situation ?? {},
      p.options ?? {},
    );
    expect(fieldOf(() => resolveAttack(req, { attack: dF(0) }))).toBe(field);
  });

  it("never mutates the request", () => {
    const req = attack(model("kingKingsley"), model("brutasTheBrute", { flying: true, track: wounded("hurt") }));
    const copy = JSON.parse(JSON.stringify(req));
    resolveAttack(req, { attack: dF(3), crash: dF(0) });
    expect(req).toEqual(copy);
  });
});

describe("Miniatures: one attack per weapon wielded", () => {
  it("attacksOfAction lists the wielded weapons of the action's kind, within two hands", () => {
    const yanni = parseDatacard(sampleModel("yanniTheYeoman"), "yanni");
    expect(attacksOfAction(yanni, ["Shortbow"], "ranged")).toEqual([0]);
    expect(attacksOfAction(yanni, ["dagger"], "melee")).toEqual([1]);
    expect(attacksOfAction(yanni, ["Dagger"], "ranged")).toEqual([]);
    // Shortbow 2h + dagger 1h do not fit in two hands.
    expect(fieldOf(() => attacksOfAction(yanni, ["Shortbow", "Dagger"], "ranged"))).toBe("wielded");
    expect(fieldOf(() => attacksOfAction(yanni, ["Dagger", "Dagger"], "melee"))).toBe("wielded");
    expect(fieldOf(() => attacksOfAction(yanni, ["Club"], "melee"))).toBe("wielded[0]");
    const twoDaggers = parseDatacard(
      {
        ...sampleModel("yanniTheYeoman"),
        weapons: [
          { name: "Left dagger", hands: 1, kind: "melee", damage: 0, stat: "dexterity" },
          { name: "Right dagger", hands: 1, kind: "melee", damage: 0, stat: "dexterity" },
        ],
      },
      "y",
    );
    expect(attacksOfAction(twoDaggers, [0, 1], "melee")).toEqual([0, 1]);
  });

  it("sampleModel gives a ready combatant with an unhurt Miniatures track", () => {
    const r = resolveAttack(
      {
        preset: "miniatures",
        attacker: sampleModel("kingKingsley"),
        defender: sampleModel("sirKnightly"),
        options: {},
        situation: {},
      },
      { attack: dF(0) },
    );
    expect(r.numbers).toMatchObject({ odf: 7, defense: 3, damageNumber: 4 });
    expect(r.woundKey).toBe("hurt");
  });
});
