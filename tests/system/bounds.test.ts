/**
 * Issue #25 (2), the pure side of the bounds: the rules core's Guts parser and trigger keep at
 * most GUTS_PENDING_MAX failures (the worst effect stays in force); the migration's clamps cut a
 * stored system, card and actor logs to their bounds and say what they cut.
 */
import { describe, expect, it } from "vitest";
import { GUTS_PENDING_MAX, boundedPending, gutsTrigger, parseGutsState } from "../../src/rules/miniatures";
import { STORE_BOUNDS, clampCard, clampSystem } from "../../src/system/bounds";
import { CARD_LIMITS } from "../../src/system/card-limits";
import { clampActorLogs } from "../../src/system/log-clamps";
import { WOUND_LOG_LIMIT } from "../../src/system/actor-logs";

const failure = (i: number, effect = 1) => ({
  reason: "newWoundLevel",
  target: 0,
  sinceTurn: i,
  bonus: 0,
  forfeitNext: 0,
  lastTurn: i,
  effect,
});

describe("Guts failures in force are bounded in the rules core", () => {
  it(`the parser refuses ${GUTS_PENDING_MAX + 1} (and the issue's 2,000); it reads ${GUTS_PENDING_MAX}`, () => {
    const state = (n: number) => ({ pending: Array.from({ length: n }, (_, i) => failure(i)), effect: 1 });
    expect(() => parseGutsState(state(2000), "gutsState")).toThrow();
    expect(() => parseGutsState(state(GUTS_PENDING_MAX + 1), "gutsState")).toThrow();
    expect(parseGutsState(state(GUTS_PENDING_MAX), "gutsState").pending).toHaveLength(GUTS_PENDING_MAX);
  });

  it("a failure past the bound puts aside the mildest, oldest first: a failure by 4 stays in force", () => {
    const pending = [failure(0, 4), ...Array.from({ length: GUTS_PENDING_MAX - 1 }, (_, i) => failure(i + 1, 1))];
    const state = parseGutsState({ pending, effect: 4 }, "gutsState");
    // Guts 0 against target 5 with all − faces: a failure by 4 or more.
    const next = gutsTrigger(state, {
      guts: 0,
      faces: [-1, -1, -1, -1],
      target: 5,
      turn: 20,
      reason: "terrifying",
    }).state;
    expect(next.pending).toHaveLength(GUTS_PENDING_MAX);
    expect(next.pending[0].sinceTurn).toBe(0);
    expect(next.pending.some((p) => p.sinceTurn === 1)).toBe(false);
    expect(next.pending[next.pending.length - 1].sinceTurn).toBe(20);
    expect(next.effect).toBe(4);
  });

  it("boundedPending keeps the order and the worst effects", () => {
    const kept = boundedPending([
      failure(0, 2),
      ...Array.from({ length: GUTS_PENDING_MAX }, (_, i) => failure(i + 1, 3)),
      failure(99, 1),
    ]);
    expect(kept).toHaveLength(GUTS_PENDING_MAX);
    expect(kept.map((p) => p.effect)).toEqual(Array(GUTS_PENDING_MAX).fill(3));
  });
});

describe("the migration's clamps", () => {
  it("a stored miniature, character and weapon: what is over its bound is cut and counted", () => {
    const mini = { gutsState: { pending: Array.from({ length: 2000 }, (_, i) => failure(i)), effect: 1 } };
    expect(clampSystem("miniature", mini)).toEqual([{ path: "gutsState.pending", count: 2000 - GUTS_PENDING_MAX }]);
    expect(mini.gutsState.pending).toHaveLength(GUTS_PENDING_MAX);

    const hero = {
      notes: `<p>${"n".repeat(150_000)}</p>`,
      defenseSkill: "d".repeat(300),
      woundTrack: {
        label: "Wounds",
        state: { junk: "x".repeat(30_000) },
        customLevels: Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`.padEnd(100, "k"), label: "L" })),
      },
    };
    const cuts = clampSystem("character", hero);
    expect(cuts.map((c) => c.path)).toEqual([
      "notes",
      "defenseSkill",
      "woundTrack.state",
      "woundTrack.customLevels",
      ...Array.from({ length: STORE_BOUNDS.customLevels }, (_, i) => `woundTrack.customLevels.${i}.key`),
    ]);
    expect(hero.notes.length).toBeLessThanOrEqual(STORE_BOUNDS.richText);
    expect(hero.notes).toMatch(/^<p>n+$/);
    expect(hero.woundTrack.state).toBeNull();
    expect(hero.woundTrack.customLevels).toHaveLength(STORE_BOUNDS.customLevels);
    expect(hero.woundTrack.customLevels[0].key).toHaveLength(STORE_BOUNDS.key);

    // HTML is not cut inside a tag or a character reference.
    const cutInTag = { description: `${"a".repeat(STORE_BOUNDS.richText - 1_005)}<strong>&amp;${"b".repeat(2_000)}` };
    clampSystem("weapon", cutInTag);
    expect(cutInTag.description).toBe("a".repeat(STORE_BOUNDS.richText - 1_005));

    const within = { notes: "<p>short</p>", woundTrack: { state: null, customLevels: [] } };
    expect(clampSystem("character", within)).toEqual([]);
  });

  it("a stored card: its first 16 targets, its newest 24 history entries per target", () => {
    const card = {
      targets: Array.from({ length: 40 }, (_, i) => ({
        actorId: `Actor.a${i}`,
        applied: Array.from({ length: 30 }, (_, j) => ({ at: j })),
      })),
    };
    const cuts = clampCard("attackCard", card);
    expect(cuts[0]).toEqual({ path: "targets", count: 40 - CARD_LIMITS.targets });
    expect(card.targets).toHaveLength(CARD_LIMITS.targets);
    expect(card.targets[0].applied).toHaveLength(CARD_LIMITS.applied);
    expect(card.targets[0].applied[0]).toEqual({ at: 30 - CARD_LIMITS.applied });
    expect(clampCard("attackCard", card)).toEqual([]);
  });

  it("a 20,000-record wound log: its newest 40 records, the horizon moved past the rest", () => {
    const woundLog: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) {
      const messageId = `m${String(i).padStart(15, "0")}`;
      woundLog[messageId] = {
        messageId,
        by: "u",
        at: i + 1,
        posted: i + 1,
        before: null,
        after: null,
        fudgePointSpent: false,
        undone: false,
        undoneBy: "",
      };
    }
    woundLog.junk = "not a record";
    const { update, cuts } = clampActorLogs({ flags: { "fudge-wounds": { woundLog } } });
    expect(cuts).toEqual([{ path: "flags.fudge-wounds.woundLog", count: 20_001 - WOUND_LOG_LIMIT }]);
    expect(Object.keys(update!["==woundLog"] as object)).toHaveLength(WOUND_LOG_LIMIT);
    expect(update!.logHorizon).toEqual({ woundLog: 20_000 - WOUND_LOG_LIMIT });
    expect(clampActorLogs({ flags: { "fudge-wounds": { woundLog: update!["==woundLog"] } } }).update).toBeNull();
  });
});
