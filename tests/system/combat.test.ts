import { describe, expect, it } from "vitest";
import {
  combatEndHealing,
  combatTurn,
  readRoundStart,
  roundStartFor,
  roundStartRecord,
  sceneEndHealing,
  turnEndHealing,
  turnStartTasks,
} from "../../src/system/combat";
import { readStunSnapshot, stunSnapshot, turnEndStunHealing } from "../../src/rules/fudge";
import { defaultWorldRules } from "../../src/system/data";
import type { TrackStatus } from "../../src/rules";

const st = (over: Partial<TrackStatus>): TrackStatus => ({
  penalty: 0,
  condition: "able",
  canAct: true,
  levelKey: null,
  effects: [],
  steps: [],
  ...over,
});

describe("turn start", () => {
  it("Miniatures: a Near Death model rolls Guts; a model with a failed check re-checks", () => {
    expect(
      turnStartTasks({
        preset: "miniatures",
        actorType: "miniature",
        status: st({ condition: "dying" }),
        gutsPending: true,
      }),
    ).toEqual([{ kind: "nearDeathGuts" }]);
    expect(turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({}), gutsPending: true })).toEqual(
      [{ kind: "gutsRecheck" }],
    );
    expect(
      turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({}), gutsPending: false }),
    ).toEqual([]);
    expect(
      turnStartTasks({
        preset: "miniatures",
        actorType: "miniature",
        status: st({ condition: "dead" }),
        gutsPending: true,
      }),
    ).toEqual([]);
  });

  it("other presets do nothing at turn start except noting FATE Clipped and a Fudge stun", () => {
    expect(
      turnStartTasks({
        preset: "fudge",
        actorType: "character",
        status: st({ condition: "dying" }),
        gutsPending: false,
      }),
    ).toEqual([]);
    expect(
      turnStartTasks({
        preset: "fate",
        actorType: "character",
        status: st({ effects: ["clipped"] }),
        gutsPending: false,
      }),
    ).toEqual([{ kind: "noteClipped" }]);
    expect(turnStartTasks({ preset: "fate", actorType: "character", status: null, gutsPending: false })).toEqual([]);
  });

  it("FATE: Clipped present at turn start is used up at turn end; one taken during the turn waits", () => {
    expect(turnEndHealing("fate", true, st({ effects: ["clipped"] }))).toBe("consumeClipped");
    expect(turnEndHealing("fate", false, st({ effects: ["clipped"] }))).toBeNull();
    expect(turnEndHealing("fate", true, st({}))).toBeNull();
    expect(turnEndHealing("fudge", true, st({ effects: ["clipped"] }))).toBeNull();
  });
});

describe("combat end and scene end", () => {
  it("Scratches clear at combat end per setting (Fudge §4.8); Volt rests off Stun", () => {
    const r = defaultWorldRules();
    expect(combatEndHealing(r)).toBe("scratches");
    expect(combatEndHealing({ ...r, clearScratchesAtCombatEnd: false })).toBeNull();
    expect(combatEndHealing({ ...r, preset: "miniatures" })).toBe("scratches");
    expect(combatEndHealing({ ...r, preset: "volt" })).toBe("rest");
    expect(combatEndHealing({ ...r, preset: "fate" })).toBeNull();
  });

  it("FATE Hurt clears at scene end; nothing else does", () => {
    const r = defaultWorldRules();
    expect(sceneEndHealing({ ...r, preset: "fate" })).toBe("endScene");
    expect(sceneEndHealing(r)).toBeNull();
  });

  it("combat turn counts from 1", () => {
    expect(combatTurn(0)).toBe(1);
    expect(combatTurn(null)).toBe(1);
    expect(combatTurn(4)).toBe(4);
  });
});

describe("Fudge §4.62: Stunned (one round) and Very Stunned (two rounds) count down at the end of the stunned character's own turns", () => {
  const stunned = (effect: string, rounds: number, marks = 1) => ({
    marks: { scratch: [null, null, null], hurt: Array.from({ length: marks }, () => ({ level: "hurt", stun: true })) },
    stun: { effect, rounds },
    dead: false,
  });

  it("a stunned or very stunned fighter's turn start notes the stun; knocked out does not count down (it lasts until the stun marks heal)", () => {
    expect(
      turnStartTasks({
        preset: "fudge",
        actorType: "character",
        status: st({ effects: ["stunned"] }),
        gutsPending: false,
      }),
    ).toEqual([{ kind: "noteStun" }]);
    expect(
      turnStartTasks({
        preset: "fudge",
        actorType: "npc",
        status: st({ effects: ["veryStunned"] }),
        gutsPending: false,
      }),
    ).toEqual([{ kind: "noteStun" }]);
    expect(
      turnStartTasks({
        preset: "fudge",
        actorType: "character",
        status: st({ effects: ["knockedOut"] }),
        gutsPending: false,
      }),
    ).toEqual([]);
    expect(turnStartTasks({ preset: "fudge", actorType: "character", status: st({}), gutsPending: false })).toEqual([]);
    expect(stunSnapshot(stunned("knockedOut", 0))).toBeNull();
    expect(stunSnapshot(null)).toBeNull();
    expect(stunSnapshot({ marks: {}, stun: null, dead: false })).toBeNull();
  });

  it("the turn's end takes one round off the stun noted at its start (the box track's endRound healing)", () => {
    const s = stunSnapshot(stunned("stunned", 1));
    expect(s).toEqual({ effect: "stunned", rounds: 1, marks: 1 });
    expect(turnEndStunHealing("fudge", s, stunSnapshot(stunned("stunned", 1)))).toBe("endRound");
    expect(
      turnEndStunHealing("fudge", stunSnapshot(stunned("veryStunned", 2)), stunSnapshot(stunned("veryStunned", 2))),
    ).toBe("endRound");
    expect(
      turnEndStunHealing("fudge", stunSnapshot(stunned("veryStunned", 1)), stunSnapshot(stunned("veryStunned", 1))),
    ).toBe("endRound");
  });

  it("a stun taken during the turn waits for his next turn: a second stun (Very Stunned, or its rounds restarted with a new mark) is not counted down", () => {
    const start = stunSnapshot(stunned("stunned", 1));
    expect(turnEndStunHealing("fudge", start, stunSnapshot(stunned("veryStunned", 2, 2)))).toBeNull();
    expect(
      turnEndStunHealing("fudge", stunSnapshot(stunned("veryStunned", 2)), stunSnapshot(stunned("veryStunned", 2, 2))),
    ).toBeNull();
    expect(turnEndStunHealing("fudge", null, stunSnapshot(stunned("stunned", 1)))).toBeNull();
    // Healed during the turn (the GM cleared it): nothing to count down.
    expect(turnEndStunHealing("fudge", start, null)).toBeNull();
    expect(turnEndStunHealing("miniatures", start, start)).toBeNull();
  });

  it("a stored note is read back only when well formed", () => {
    expect(readStunSnapshot({ combatantId: "c1", round: 2, effect: "stunned", rounds: 1, marks: 1 })).toEqual({
      effect: "stunned",
      rounds: 1,
      marks: 1,
    });
    expect(readStunSnapshot({ effect: "knockedOut", rounds: 0, marks: 1 })).toBeNull();
    expect(readStunSnapshot({ effect: "stunned", rounds: "1", marks: 1 })).toBeNull();
    expect(readStunSnapshot(null)).toBeNull();
  });
});

describe("Fudge §4.64: who began the round Incapacitated (the GM's round-start record)", () => {
  it("lists every combatant's actor, and those Incapacitated or worse (or knocked out) as the round starts", () => {
    const r = roundStartRecord(3, [
      { ref: "Actor.leroy", status: st({ condition: "cannotAct", levelKey: "incapacitated" }) },
      { ref: "Actor.theo", status: st({ levelKey: "hurt" }) },
      { ref: "Actor.ko", status: st({ condition: "cannotAct", effects: ["knockedOut"] }) },
      { ref: "Actor.nd", status: st({ condition: "dying" }) },
      { ref: "Actor.broken", status: null },
    ]);
    expect(r).toEqual({
      round: 3,
      actors: ["Actor.leroy", "Actor.theo", "Actor.ko", "Actor.nd", "Actor.broken"],
      incapacitated: ["Actor.leroy", "Actor.ko", "Actor.nd"],
    });
    expect(readRoundStart(r)).toEqual(r);
    expect(readRoundStart({ round: 1, actors: "x", incapacitated: [] })).toBeNull();
  });

  it("holds for an actor in a started combat, for the combat's current round only", () => {
    const rec = { round: 2, actors: ["Actor.leroy"], incapacitated: ["Actor.leroy"] };
    expect(roundStartFor("Actor.leroy", [{ started: true, round: 2, refs: ["Actor.leroy"], record: rec }])).toEqual(
      rec,
    );
    // Stepped back to round 1, or a round not recorded: none (his current track counts).
    expect(roundStartFor("Actor.leroy", [{ started: true, round: 1, refs: ["Actor.leroy"], record: rec }])).toBeNull();
    expect(roundStartFor("Actor.leroy", [{ started: false, round: 0, refs: ["Actor.leroy"], record: rec }])).toBeNull();
    expect(roundStartFor("Actor.other", [{ started: true, round: 2, refs: ["Actor.leroy"], record: rec }])).toBeNull();
    expect(
      roundStartFor("Actor.leroy", [{ started: true, round: 2, refs: ["Actor.leroy"], record: "forged" }]),
    ).toBeNull();
  });
});
