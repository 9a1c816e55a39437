/** Fudge §4.52 (4) "temporary - until the battle is over": endBattleFor over an actor's wound log (pure). */
import { describe, expect, test } from "vitest";
import { endBattleFor, updatedState } from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { applyWound, trackStateKey } from "../../src/rules";
import type { ActorDoc } from "../../src/system/data";
import { rulesFor, theodora } from "./fixtures";

const record = (messageId: string, over: Record<string, unknown> = {}) => ({
  messageId,
  by: "gm",
  at: 1,
  before: null,
  after: null,
  fudgePointSpent: false,
  undone: false,
  undoneBy: "",
  ...over,
});

describe('endBattleFor: Willpower adjustments "until the battle is over" lapse when the combat ends', () => {
  const rules = rulesFor("fudge");
  const base = theodora();
  const unhurt = trackFor(base, rules);
  const actor: ActorDoc = structuredClone(base);
  (actor.system as { woundTrack: { state: unknown } }).woundTrack.state = applyWound(unhurt, {
    level: "hurt",
  }).track.state;
  actor.flags = {
    "fudge-wounds": {
      woundLog: {
        m1: record("m1", { lapses: [{ from: "hurt", to: "veryHurt" }] }),
        m2: record("m2", { undone: true, lapses: [{ from: "hurt", to: "nearDeath" }] }),
        m3: record("m3", { lapses: [{ from: "bogus", to: "hurt" }] }),
        m4: record("m4"),
      },
    },
  };

  test("the live wound goes to its unadjusted level; undone records are skipped, a malformed one is left and marked", () => {
    const r = endBattleFor(actor, rules)!;
    expect(trackStateKey({ config: unhurt.config, state: updatedState(r.update) })).toBe(
      trackStateKey(applyWound(unhurt, { level: "veryHurt" }).track),
    );
    const log = (r.update.flags as { "fudge-wounds": { woundLog: Record<string, { lapsed?: boolean }> } })[
      "fudge-wounds"
    ].woundLog;
    expect(Object.keys(log).sort()).toEqual(["m1", "m3"]);
    expect(log.m1.lapsed).toBe(true);
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Step.Track.BattleLapse");
  });

  test("a record claiming more than one level (a player may write his own character's log) is left and marked: the adjustment is one level or one point (Fudge §4.52)", () => {
    const claimed = structuredClone(actor);
    claimed.flags = {
      "fudge-wounds": {
        woundLog: {
          m5: record("m5", { lapses: [{ from: "hurt", to: "nearDeath" }] }),
          m6: record("m6", { lapses: [{ from: "hurt", to: "hurt" }] }),
        },
      },
    };
    const r = endBattleFor(claimed, rules)!;
    expect(trackStateKey({ config: unhurt.config, state: updatedState(r.update) })).toBe(
      trackStateKey(applyWound(unhurt, { level: "hurt" }).track),
    );
    const log = (r.update.flags as { "fudge-wounds": { woundLog: Record<string, { lapsed?: boolean }> } })[
      "fudge-wounds"
    ].woundLog;
    expect(log.m5.lapsed).toBe(true);
    expect(log.m6.lapsed).toBe(true);
  });

  test("a record the rules refuse is left whole (none of its lapses apply), the other records still apply; the notes say which", () => {
    const mixed = structuredClone(actor);
    mixed.flags = {
      "fudge-wounds": {
        woundLog: {
          m7: record("m7", {
            lapses: [
              { from: "hurt", to: "veryHurt" },
              { from: "hurt", to: "nearDeath" },
            ],
          }),
          m8: record("m8", { lapses: [{ from: "hurt", to: "veryHurt" }] }),
          m9: record("m9", { lapses: [{ from: "hurt", to: "scratch" }] }),
        },
      },
    };
    const r = endBattleFor(mixed, rules)!;
    // m7 refused as a whole; m8 moves the one Hurt wound to Very Hurt; m9 then finds no Hurt wound.
    expect(trackStateKey({ config: unhurt.config, state: updatedState(r.update) })).toBe(
      trackStateKey(applyWound(unhurt, { level: "veryHurt" }).track),
    );
    expect(r.notes).toEqual([
      {
        result: "refused",
        from: "",
        to: "",
        reason: {
          key: "FUDGE.Error.BattleLapseOneLevel",
          params: { field: "FUDGE.Field.value", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.nearDeath" },
        },
      },
      { result: "lapsed", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.veryHurt" },
      { result: "gone", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.scratch" },
    ]);
  });

  test("nothing pending (or already lapsed): null, no write", () => {
    expect(endBattleFor(base, rules)).toBeNull();
    const done = structuredClone(actor);
    for (const rec of Object.values(
      (done.flags!["fudge-wounds"] as { woundLog: Record<string, Record<string, unknown>> }).woundLog,
    ))
      rec.lapsed = true;
    expect(endBattleFor(done, rules)).toBeNull();
  });
});
