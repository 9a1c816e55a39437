import { describe, expect, it } from "vitest";
import { combatEndHealing, combatTurn, sceneEndHealing, turnEndHealing, turnStartTasks } from "../../src/foundry/combat-pure";
import { defaultWorldRules } from "../../src/system/data";
import type { TrackStatus } from "../../src/rules/track";

const st = (over: Partial<TrackStatus>): TrackStatus => ({ penalty: 0, condition: "able", canAct: true, levelKey: null, effects: [], steps: [], ...over });

describe("turn start", () => {
  it("Miniatures: a Near Death model rolls Guts; a model with a failed check re-checks", () => {
    expect(turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({ condition: "dying" }), gutsPending: true })).toEqual([{ kind: "nearDeathGuts" }]);
    expect(turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({}), gutsPending: true })).toEqual([{ kind: "gutsRecheck" }]);
    expect(turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({}), gutsPending: false })).toEqual([]);
    expect(turnStartTasks({ preset: "miniatures", actorType: "miniature", status: st({ condition: "dead" }), gutsPending: true })).toEqual([]);
  });

  it("other presets do nothing at turn start except noting FATE Clipped", () => {
    expect(turnStartTasks({ preset: "fudge", actorType: "character", status: st({ condition: "dying" }), gutsPending: false })).toEqual([]);
    expect(turnStartTasks({ preset: "fate", actorType: "character", status: st({ effects: ["clipped"] }), gutsPending: false })).toEqual([{ kind: "noteClipped" }]);
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
