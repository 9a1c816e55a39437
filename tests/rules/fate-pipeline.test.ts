import { describe, expect, it } from "vitest";
import { defaultFateConfig, fatePipeline, type FateTrackState } from "../../src/rules/fate";
import {
  enumerateDice,
  type AttackResolution,
  resolveAttack,
  rollAttack,
  applyWound,
  healTrack,
  newTrack,
  trackStatus,
  type Track,
  seededRng,
} from "../../src/rules";
import { DICE_OPTION_IDS, exactOdds, opposedDistribution, readDiceOption } from "../../src/rules";
import { caught, fieldOf } from "./errors";

const fresh = (): Track => newTrack(defaultFateConfig());
const plus = (n: number): number[] => [0, 1, 2, 3].map((i) => (i < n ? 1 : 0));
const minus = (n: number): number[] => [0, 1, 2, 3].map((i) => (i < n ? -1 : 0));

function request(over: { attacker?: object; defender?: object; situation?: object } = {}) {
  return {
    preset: "fate",
    attacker: { name: "Joe-Bob", skill: 2, track: fresh(), ...over.attacker },
    defender: { name: "Dylan", skill: 1, track: fresh(), ...over.defender },
    options: {},
    situation: { modifier: 0, ...over.situation },
  };
}

describe("fate pipeline", () => {
  it("margin = attacker − defender, read on the ladder", () => {
    // 2 + 2 = 4 vs 1 − 1 = 0: margin +4 → Hurt.
    const r = resolveAttack(request(), { attack: plus(2), defense: minus(1) });
    expect(r.numbers).toMatchObject({ attackerTotal: 4, defenderTotal: 0, relativeDegree: 4 });
    expect(r.outcome).toBe("wound");
    expect(r.woundKey).toBe("hurt");
    expect(r.wound).toEqual({ margin: 4 });
    expect(r.defenderAfter!.status.penalty).toBe(-1);
  });

  it("Fudge §1.36: a Fudge Point moves a side's result one level after the roll, and says whose", () => {
    const r = resolveAttack(request({ situation: { attackerFudgePoint: -1, defenderFudgePoint: 1 } }), {
      attack: plus(2),
      defense: minus(1),
    });
    expect(r.numbers).toMatchObject({ attackerTotal: 3, defenderTotal: 1, relativeDegree: 2 });
    expect(r.steps.filter((s) => s.key === "FUDGE.Step.Fudge.FudgePoint").map((s) => s.params)).toEqual([
      { value: "−1", name: "Joe-Bob" },
      { value: "+1", name: "Dylan" },
    ]);
    expect(fieldOf(() => resolveAttack(request({ situation: { attackerFudgePoint: 2 } }), {}))).toBe(
      "situation.attackerFudgePoint",
    );
  });

  it("margin 0 is Scratched (standoff), below 0 a miss; neither marks the ladder", () => {
    const s = resolveAttack(request(), { attack: minus(1), defense: plus(0) });
    expect(s.numbers.relativeDegree).toBe(0);
    expect(s.outcome).toBe("standoff");
    expect(s.wound).toBeNull();
    const m = resolveAttack(request(), { attack: minus(3), defense: plus(1) });
    expect(m.numbers.relativeDegree).toBe(-3);
    expect(m.outcome).toBe("miss");
    expect(m.defenderAfter).toBeNull();
  });

  it("each side rolls with its own ladder penalty, Clipped included, and Clipped is consumed", () => {
    let atk = applyWound(fresh(), { margin: 1 }).track; // Clipped: −1
    atk = applyWound(atk, { margin: 5 }).track; // Injured: −1
    const def = applyWound(fresh(), { margin: 1 }).track; // Clipped: −1
    const r = resolveAttack(request({ attacker: { track: atk }, defender: { track: def } }), {
      attack: plus(1),
      defense: plus(0),
    });
    // 2 + 1 − 2 = 1 vs 1 + 0 − 1 = 0 → margin 1, Clipped.
    expect(r.numbers).toMatchObject({
      attackerPenalty: -2,
      defenderPenalty: -1,
      attackerTotal: 1,
      defenderTotal: 0,
      relativeDegree: 1,
    });
    expect(r.followUps.map((f) => [f.type, f.target])).toEqual([
      ["clippedConsumed", "attacker"],
      ["clippedConsumed", "defender"],
    ]);
    // The defender's old Clipped box reset after its roll; the new Clipped takes a fresh box.
    expect((r.defenderAfter!.track.state as FateTrackState).marks.clipped).toEqual(["clipped", null]);
    // Applying the follow-up then the wound to the live track gives the preview.
    const live = applyWound(healTrack(def, { type: "consumeClipped" }).track, r.wound).track;
    expect(live.state).toEqual(r.defenderAfter!.track.state);
  });

  it("the defence skill is used when given, plus situational modifiers", () => {
    const r = resolveAttack(request({ defender: { defense: 3 }, situation: { modifier: 2, defenseModifier: -1 } }), {
      attack: plus(0),
      defense: plus(0),
    });
    expect(r.numbers).toMatchObject({ attackerTotal: 4, defenderTotal: 2, relativeDegree: 2 });
  });

  it("+7 takes the defender out", () => {
    const r = resolveAttack(request({ attacker: { skill: 4 } }), { attack: plus(4), defense: minus(0) });
    expect(r.numbers.relativeDegree).toBe(7);
    expect(r.woundKey).toBe("takenOut");
    expect(r.defenderAfter!.ended).toBe(true);
    expect(r.defenderAfter!.status.condition).toBe("takenOut");
  });

  it("exact odds: the outcome probabilities sum to 1 and match 4dF vs 4dF", () => {
    const req = fatePipeline.parseRequest(request({ attacker: { skill: 0 }, defender: { skill: 0 } }));
    const dist = new Map<string, number>();
    enumerateDice(
      fatePipeline.slots(req),
      (d) => fatePipeline.resolve(req, d),
      (res: AttackResolution, p) => {
        dist.set(res.outcome, (dist.get(res.outcome) ?? 0) + p);
      },
    );
    const total = [...dist.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 12);
    // P(tie) of two 4dF = Σ w² / 81² = 1 + 16 + 100 + 256 + 361 + 256 + 100 + 16 + 1 = 1107 / 6561.
    expect(dist.get("standoff")).toBeCloseTo(1107 / 6561, 12);
    expect(dist.get("miss")).toBeCloseTo(dist.get("wound")!, 12);
  });

  it("a live roll records both dice slots and re-derives from them", () => {
    const r = rollAttack(request(), seededRng(7));
    const again = resolveAttack(request(), r.dice);
    expect(again).toEqual(r);
  });

  it("bad input names the field", () => {
    expect(fieldOf(() => resolveAttack(request({ attacker: { skill: "Good" } }), {}))).toBe("attacker.skill");
    expect(fieldOf(() => resolveAttack(request({ defender: { defense: 1.5 } }), {}))).toBe("defender.defense");
    expect(fieldOf(() => resolveAttack(request({ situation: { modifier: "x" } }), {}))).toBe("situation.modifier");
    expect(fieldOf(() => resolveAttack(request({ defender: { name: undefined } }), {}))).toBe("defender.name");
    expect(fieldOf(() => resolveAttack(request(), { attack: plus(1) }))).toBe("dice.defense");
    expect(fieldOf(() => resolveAttack(request(), { attack: [1, 1, 2, 0], defense: plus(0) }))).toBe("dice.attack[2]");
    expect(fieldOf(() => resolveAttack(request({ defender: { track: { config: { kind: "nope" } } } }), {}))).toBe(
      "defender.track.config.kind",
    );
    const out = applyWound(fresh(), { margin: 9 }).track;
    expect(trackStatus(out).condition).toBe("takenOut");
    expect(
      fieldOf(() => resolveAttack(request({ defender: { track: out } }), { attack: plus(0), defense: plus(0) })),
    ).toBe("defender.track");
  });

  it("FATE ladder: a Taken Out attacker is out of the scene — refused before any die by checkAttacker, the check resolve makes", () => {
    const out = applyWound(fresh(), { margin: 9 }).track;
    const check = (req: object) => () => fatePipeline.checkAttacker!(fatePipeline.parseRequest(req));
    const e = caught(check(request({ attacker: { track: out } })));
    expect([e.key, e.field, e.params.name]).toEqual(["FUDGE.Error.Fate.TakenOut", "attacker.track", "Joe-Bob"]);
    expect(
      caught(() => resolveAttack(request({ attacker: { track: out } }), { attack: plus(0), defense: plus(0) })).key,
    ).toBe(e.key);
    expect(check(request())).not.toThrow();
    // The defender's side is read from his live track at Defend, not refused with the attacker.
    expect(check(request({ defender: { track: out } }))).not.toThrow();
  });

  it("never mutates the request", () => {
    const req = request({ defender: { track: applyWound(fresh(), { margin: 1 }).track } });
    const copy = JSON.parse(JSON.stringify(req));
    resolveAttack(req, { attack: plus(4), defense: minus(4) });
    expect(req).toEqual(copy);
  });
});

describe("fate pipeline with Fudge's dice alternatives (Fudge §3.21–3.22; FATE is a Fudge derivative)", () => {
  const withDice = (dice: string, over: Parameters<typeof request>[0] = {}) => ({
    ...request(over),
    options: { dice },
  });

  it("each side's roll is thrown with the world's dice and read as the option reads it", () => {
    const req = fatePipeline.parseRequest(withDice("3d6"));
    expect(fatePipeline.slots(req).map((s) => s.formula)).toEqual(["3d6", "3d6"]);
    // 3d6 on the default table: 17–18 read +4, 3–4 read −4. 2 + 4 = 6 vs 1 − 4 = −3: margin 9.
    const r = resolveAttack(withDice("3d6"), { attack: [6, 6, 5], defense: [1, 2, 1] });
    expect(r.numbers).toMatchObject({ attackerDice: 4, defenderDice: -4, attackerTotal: 6, defenderTotal: -3 });
    expect(r.dice).toEqual({ attack: [6, 6, 5], defense: [1, 2, 1] });
    // 4dF (or none) keeps Fudge dice; an unknown option is refused.
    expect(fatePipeline.slots(fatePipeline.parseRequest(withDice("4dF"))).map((s) => s.formula)).toEqual([
      "4dF",
      "4dF",
    ]);
    expect(caught(() => fatePipeline.parseRequest(withDice("2d10"))).key).toBeTruthy();
    // A d% throw its table rolls again is not a finished roll.
    expect(caught(() => resolveAttack(withDice("d%"), { attack: [95], defense: [40] })).key).toBe(
      "FUDGE.Error.Dice.Unfinished",
    );
  });

  for (const dice of DICE_OPTION_IDS)
    it(`${dice}: the exact odds are the option's opposed distribution (enumerated)`, () => {
      const odds = exactOdds(withDice(dice, { attacker: { skill: 1 }, defender: { skill: 0 } }));
      // Margin = 1 + (a − d): 0 is Scratched (standoff), below 0 a miss, above a wound.
      const byDegree = opposedDistribution(dice, 1, 0);
      const p = (f: (d: number) => boolean) => byDegree.filter((x) => f(x.degree)).reduce((s, x) => s + x.p, 0);
      expect(odds.outcomes.miss ?? 0).toBeCloseTo(
        p((d) => d < 0),
        12,
      );
      expect(odds.outcomes.standoff ?? 0).toBeCloseTo(
        p((d) => d === 0),
        12,
      );
      expect(odds.outcomes.wound ?? 0).toBeCloseTo(
        p((d) => d > 0),
        12,
      );
      // And by brute force over every throw of the option (4dF and d6−d6: small enough).
      if (dice === "4dF" || dice === "d6-d6") {
        const faces = dice === "4dF" ? [-1, 0, 1] : [1, 2, 3, 4, 5, 6];
        const n = dice === "4dF" ? 4 : 2;
        const throws: number[][] = [[]];
        for (let i = 0; i < n; i++)
          throws.splice(0, throws.length, ...throws.flatMap((t) => faces.map((f) => [...t, f])));
        let wound = 0;
        for (const a of throws)
          for (const d of throws) if (1 + readDiceOption(dice, a)! - readDiceOption(dice, d)! > 0) wound++;
        expect(odds.outcomes.wound).toBeCloseTo(wound / throws.length ** 2, 12);
      }
    });
});
