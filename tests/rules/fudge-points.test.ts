/** Fudge Points as the text uses them (Fudge §1.36, §4.64): spend records, validation, refund. */
import { describe, expect, it } from "vitest";
import { character } from "../../src/rules";
import { boxTrack, boxTrackConfig } from "../../src/rules/fudge";
import { caught } from "./errors";

const { spendFudgePoint, refundFudgePoint, parseFudgePointPool, fudgePointChange, awardFudgePoints } = character;

const pool = (points = 3): character.FudgePointPool => parseFudgePointPool({ actor: "leroy", points });
const base = { id: "s1", at: "2026-11-28T23:00:00Z", by: "leroy", target: "card1.attack" };

describe("each use the text gives", () => {
  it("alters a roll's result one level, up or down", () => {
    expect(fudgePointChange({ ...base, use: "alterRoll", from: 1, direction: 1 })).toMatchObject({ from: 1, to: 2 });
    expect(fudgePointChange({ ...base, use: "alterRoll", from: -2, direction: -1 })).toMatchObject({
      from: -2,
      to: -3,
    });
    expect(caught(() => fudgePointChange({ ...base, use: "alterRoll", from: 0, direction: 2 })).key).toBe(
      "FUDGE.Error.OutOfRange",
    );
    expect(caught(() => fudgePointChange({ ...base, use: "alterRoll", from: 0, direction: 0 })).key).toBe(
      "FUDGE.Error.FudgePoints.Direction",
    );
  });
  it("an automatic success on an Unopposed action up to Superb and up to 3 levels above the trait", () => {
    // Fair trait (0), Great difficulty (+2): within the limits.
    expect(fudgePointChange({ ...base, use: "unopposedSuccess", trait: 0, difficulty: 2 })).toMatchObject({
      from: 0,
      to: 2,
    });
    expect(fudgePointChange({ ...base, use: "unopposedSuccess", trait: 0, difficulty: 3 }).to).toBe(3); // Superb, exactly 3 above
  });
  it("after the dice: from the rolled result to the Difficulty met; a roll that already succeeds is refused", () => {
    expect(fudgePointChange({ ...base, use: "unopposedSuccess", trait: 0, difficulty: 2, from: -1 })).toMatchObject({
      from: -1,
      to: 2,
    });
    expect(
      caught(() => fudgePointChange({ ...base, use: "unopposedSuccess", trait: 0, difficulty: 2, from: 2 })).key,
    ).toBe("FUDGE.Error.FudgePoints.AlreadySuccess");
    // The limits still apply.
    expect(
      caught(() => fudgePointChange({ ...base, use: "unopposedSuccess", trait: 0, difficulty: 4, from: 0 })).key,
    ).toBe("FUDGE.Error.FudgePoints.BeyondLimit");
  });
  it("past Superb, or more than 3 levels above the trait, only with the GM's leave", () => {
    expect(caught(() => fudgePointChange({ ...base, use: "unopposedSuccess", trait: 2, difficulty: 4 })).key).toBe(
      "FUDGE.Error.FudgePoints.BeyondLimit",
    );
    expect(caught(() => fudgePointChange({ ...base, use: "unopposedSuccess", trait: -2, difficulty: 2 })).key).toBe(
      "FUDGE.Error.FudgePoints.BeyondLimit",
    );
    expect(fudgePointChange({ ...base, use: "unopposedSuccess", trait: 2, difficulty: 4, gmAllows: true }).to).toBe(4);
  });
  it("a wound reduced one level: a Hurt (2) becomes a Scratch (1), a Scratch none", () => {
    expect(fudgePointChange({ ...base, use: "reduceWound", from: 2 })).toMatchObject({ from: 2, to: 1 });
    expect(fudgePointChange({ ...base, use: "reduceWound", from: 1 })).toMatchObject({ from: 1, to: 0 });
    expect(caught(() => fudgePointChange({ ...base, use: "reduceWound", from: 0 })).field).toBe("from");
  });
  it("the §4.64 save records the level the box track turned the blow into", () => {
    expect(fudgePointChange({ ...base, use: "deathSave", from: 6, to: 4 })).toMatchObject({ from: 6, to: 4 });
    expect(caught(() => fudgePointChange({ ...base, use: "deathSave", from: 4, to: 4 })).field).toBe("to");
  });
});

describe("spend and refund", () => {
  it("a spend is a record on the spender's own pool: who, use, cost, what it changed", () => {
    const r = spendFudgePoint(pool(), { ...base, use: "alterRoll", from: 1, direction: 1 });
    expect(r.pool.points).toBe(2);
    expect(r.spend).toEqual({
      id: "s1",
      at: base.at,
      who: "leroy",
      use: "alterRoll",
      cost: 1,
      change: { target: "card1.attack", from: 1, to: 2 },
    });
    expect(r.rule).toBe("Fudge §1.36");
    expect(r.pool.log).toEqual([r.spend]);
  });
  it("refund gives the points back and drops the record", () => {
    const r = spendFudgePoint(pool(), { ...base, use: "reduceWound", from: 2 });
    const back = refundFudgePoint(r.pool, "s1");
    expect(back.pool).toEqual(pool());
    expect(caught(() => refundFudgePoint(back.pool, "s1")).key).toBe("FUDGE.Error.FudgePoints.UnknownSpend");
  });
  it("cannot spend points one does not have", () => {
    const e = caught(() => spendFudgePoint(pool(0), { ...base, use: "alterRoll", from: 0, direction: 1 }));
    expect(e.key).toBe("FUDGE.Error.FudgePoints.NotEnough");
    expect(e.params).toMatchObject({ cost: 1, points: 0 });
  });
  it("a world may price a use higher; the pool must hold that much", () => {
    const costs = { unopposedSuccess: 2 };
    expect(
      caught(() => spendFudgePoint(pool(1), { ...base, use: "unopposedSuccess", trait: 0, difficulty: 1 }, costs)).key,
    ).toBe("FUDGE.Error.FudgePoints.NotEnough");
    expect(
      spendFudgePoint(pool(2), { ...base, use: "unopposedSuccess", trait: 0, difficulty: 1 }, costs).pool.points,
    ).toBe(0);
  });
  it("one never spends another's points", () => {
    const e = caught(() =>
      spendFudgePoint(pool(), { ...base, by: "theodora", use: "alterRoll", from: 0, direction: 1 }),
    );
    expect(e.key).toBe("FUDGE.Error.FudgePoints.NotYours");
    expect(
      caught(() =>
        parseFudgePointPool({
          actor: "leroy",
          points: 1,
          log: [{ ...base, who: "theodora", use: "alterRoll", cost: 1, change: { target: "c", from: 0, to: 1 } }],
        }),
      ).field,
    ).toBe("fudgePoints.log[0].who");
  });
  it("a duplicate spend id is refused; evicted spends cannot be refunded", () => {
    const one = spendFudgePoint(pool(), { ...base, use: "alterRoll", from: 0, direction: 1 }).pool;
    expect(caught(() => spendFudgePoint(one, { ...base, use: "alterRoll", from: 0, direction: 1 })).key).toBe(
      "FUDGE.Error.FudgePoints.DuplicateId",
    );
    let p = pool(character.MAX_FUDGE_POINTS);
    for (let i = 0; i < character.MAX_FUDGE_POINT_LOG + 2; i++)
      p = spendFudgePoint(p, { ...base, id: `s${i}`, use: "alterRoll", from: 0, direction: 1 }).pool;
    expect(p.log).toHaveLength(character.MAX_FUDGE_POINT_LOG);
    expect(caught(() => refundFudgePoint(p, "s0")).key).toBe("FUDGE.Error.FudgePoints.UnknownSpend");
    expect(refundFudgePoint(p, "s2").pool.points).toBe(p.points + 1);
  });
  it("the GM awards points, bounded", () => {
    expect(awardFudgePoints(pool(1), 2).points).toBe(3);
    expect(caught(() => awardFudgePoints(pool(character.MAX_FUDGE_POINTS), 1)).key).toBe(
      "FUDGE.Error.FudgePoints.TooMany",
    );
    expect(caught(() => parseFudgePointPool({ actor: "leroy", points: -1 })).field).toBe("fudgePoints.points");
  });
});

describe("the §4.64 save with the box track's safeguard", () => {
  it("the track turns the deadly wound; the spend records it from and to, and the pool pays", () => {
    const config = boxTrackConfig("standard", { safeguards: { fudgePointSaves: true } });
    const ordinal = (key: string) => config.levels.findIndex((l) => l.key === key) + 1;
    const dead = config.levels.length + 1; // past the track's last level: the blow that kills
    const applied = boxTrack.apply(config, boxTrack.initial(config), { level: "dead", spendFudgePoint: true });
    expect(applied.status.levelKey).toBe("nearDeath");
    const r = spendFudgePoint(pool(1), {
      ...base,
      use: "deathSave",
      target: "card7.wound",
      from: dead,
      to: ordinal(applied.status.levelKey!),
    });
    expect(r.rule).toBe("Fudge §4.64");
    expect(r.spend.change).toEqual({ target: "card7.wound", from: dead, to: ordinal("nearDeath") });
    expect(r.pool.points).toBe(0);
    // No point left: the save is refused before the track is asked.
    expect(
      caught(() => spendFudgePoint(r.pool, { ...base, id: "s2", use: "deathSave", target: "c", from: 6, to: 5 })).key,
    ).toBe("FUDGE.Error.FudgePoints.NotEnough");
  });
});
