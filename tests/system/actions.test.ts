/** Every sheet and chat-card action as a pure function: updates, permissions, double-apply, undo, bad input. */
import { describe, expect, test } from "vitest";
import {
  applyDamage,
  authorize,
  canAct,
  clearScratches,
  defend,
  healWounds,
  recover,
  injuryRecovery,
  gutsCheckAction,
  gutsRecheckAction,
  nearDeathAction,
  resetTrack,
  resolveTarget,
  rollTrait,
  setActorField,
  startAttack,
  toggleWoundBox,
  undoDamage,
} from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { renderTrack, trackStatus, seededRng, RulesError, applyWound } from "../../src/rules";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { GM, PLAYER1, PLAYER2, STRANGER, goblin, item, knight, leroy, rulesFor, theodora } from "./fixtures";
import { editCustomLevels, fudgePointOffer, updatedState, wieldedAttacks } from "../../src/system/actions";
import { attackCardContext } from "../../src/system/card";
import { gutsNoteLines } from "../../src/system/guts-dialog";
import { characterSheetContext, miniatureSheetContext } from "../../src/system/sheet";
import { keyOf } from "../rules/errors";
import { findSample } from "../../src/cli/samples";
import { mergeLikeFoundry } from "../../src/system/updates";
import { readFileSync } from "node:fs";

/** Merges a nested update like Foundry's update: objects merge, arrays and leaves replace, "==key" replaces whole. */
function merge<T>(doc: T, update: unknown): T {
  const out = structuredClone(doc) as Record<string, unknown>;
  const walk = (o: Record<string, unknown>, u: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(u)) {
      if (k.startsWith("==")) o[k.slice(2)] = structuredClone(v);
      else if (
        v &&
        typeof v === "object" &&
        !Array.isArray(v) &&
        o[k] &&
        typeof o[k] === "object" &&
        !Array.isArray(o[k])
      )
        walk(o[k] as Record<string, unknown>, v as Record<string, unknown>);
      else o[k] = structuredClone(v);
    }
  };
  walk(out, update as Record<string, unknown>);
  return out as T;
}

const noDotted = (o: unknown): boolean =>
  o === null || typeof o !== "object"
    ? true
    : Object.entries(o as Record<string, unknown>).every(
        ([k, v]) => !k.includes(".") && (Array.isArray(v) ? true : noDotted(v)),
      );

describe("permissions", () => {
  test("canAct: owner and GM act, other players go through the relay", () => {
    expect(canAct(GM, leroy())).toBe("allow");
    expect(canAct(PLAYER1, leroy())).toBe("allow");
    expect(canAct(PLAYER2, leroy())).toBe("needsRelay");
    expect(canAct(STRANGER, { ownership: { default: 3 } })).toBe("allow");
  });

  test("authorize per action", () => {
    const rules = rulesFor("fudge");
    const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 1, 1] }, rules, PLAYER1);
    const t = card.targets[0];
    expect(authorize("toggleWoundBox", PLAYER2, leroy())).toBe("deny");
    expect(authorize("apply", PLAYER1, theodora(), card, t)).toBe("needsRelay"); // the attacker, via the GM
    expect(authorize("apply", PLAYER2, theodora(), card, t)).toBe("allow"); // the target's owner
    expect(authorize("apply", STRANGER, theodora(), card, t)).toBe("deny");
    expect(authorize("defend", PLAYER1, theodora(), card, t)).toBe("deny");
  });

  test("sheet actions refuse non-owners without changing anything", () => {
    const rules = rulesFor("fudge");
    const a = leroy();
    const before = structuredClone(a);
    expect(keyOf(() => toggleWoundBox(a, "scratch:0", rules, PLAYER2))).toBe("FUDGE.Error.NotPermitted");
    expect(keyOf(() => rollTrait(a, "attributes.strength", [0, 0, 0, 0], rules, { user: PLAYER2 }))).toBe(
      "FUDGE.Error.NotPermitted",
    );
    expect(keyOf(() => healWounds(a, { type: "scratches" }, rules, PLAYER2))).toBe("FUDGE.Error.NotPermitted");
    expect(keyOf(() => setActorField(a, "attributes.strength", 2, PLAYER2))).toBe("FUDGE.Error.NotPermitted");
    expect(keyOf(() => startAttack(a, "broadsword", [theodora()], {}, seededRng(1), rules, PLAYER2))).toBe(
      "FUDGE.Error.NotPermitted",
    );
    expect(a).toEqual(before);
  });
});

describe("wound boxes", () => {
  for (const preset of ["fudge", "fate", "volt", "miniatures"] as const) {
    test(`${preset}: toggling a box marks it, toggling again clears it; the penalty follows`, () => {
      const rules = rulesFor(preset);
      const a: ActorDoc = preset === "miniatures" ? knight() : leroy();
      const track = trackFor(a, rules);
      const rows = (track.config as { kind: string }).kind;
      expect(rows).toBeTruthy();
      // Pick the box of the first row with a penalty.
      const render = renderTrack(track);
      const row = render.rows.find((r) => (r.penalty ?? 0) < 0 && r.boxes.some((b) => !b.disabled))!;
      const box = row.boxes.find((b) => !b.disabled)!;
      const up = toggleWoundBox(a, box.ref, rules, PLAYER1);
      expect(noDotted(up)).toBe(true);
      const a2 = merge(a, up);
      const st = trackStatus(trackFor(a2, rules));
      expect(st.penalty).toBeLessThan(0);
      // A click cycles the box (Volt: empty → Stun → Injury → empty); it comes back clear.
      let a3 = merge(a2, toggleWoundBox(a2, box.ref, rules, GM));
      for (let i = 0; i < 3 && trackStatus(trackFor(a3, rules)).penalty !== 0; i++)
        a3 = merge(a3, toggleWoundBox(a3, box.ref, rules, GM));
      expect(trackStatus(trackFor(a3, rules)).penalty).toBe(0);
      expect(trackFor(a3, rules).state).toEqual(trackFor(a, rules).state);
      expect(a.system).toEqual((preset === "miniatures" ? knight() : leroy()).system); // input untouched
    });
  }

  test("a bad box reference is a keyed error and loses nothing", () => {
    const rules = rulesFor("fudge");
    const a = leroy();
    expect(() => toggleWoundBox(a, "nonsense:9", rules)).toThrow(RulesError);
    expect(keyOf(() => toggleWoundBox(a, "", rules))).toBe("FUDGE.Error.BadBoxRef");
    expect(a.system.woundTrack.state).toBeNull();
  });

  test("a stored state that does not fit the preset is an error; reset clears it", () => {
    const a = merge(leroy(), toggleWoundBox(leroy(), "hurt:0", rulesFor("fudge")));
    expect(() => trackFor(a, rulesFor("fate"))).toThrow(RulesError);
    const reset = resetTrack(a, PLAYER1);
    expect(reset).toEqual({ system: { woundTrack: { "==state": null } } });
    expect(keyOf(() => resetTrack(a, STRANGER))).toBe("FUDGE.Error.NotPermitted");
  });
});

describe("trait rolls", () => {
  test("Fudge: the wound penalty applies and the result is named on the ladder", () => {
    const rules = rulesFor("fudge");
    const hurt = merge(leroy(), toggleWoundBox(leroy(), "hurt:0", rules));
    const r = rollTrait(hurt, "attributes.strength", [1, 1, 0, 0], rules);
    // Strength Good +1, dice +2, Hurt −1 → Great (+2).
    expect(r.penalty).toBe(-1);
    expect(r.result).toBe(2);
    expect(r.resultName).toBe("Great");
    expect(r.success).toBe(true);
    const s = rollTrait(leroy(), "skill:leroySword", [-1, -1, -1, -1], rules);
    expect(s.result).toBe(-3);
    expect(s.success).toBe(false);
  });

  test("Volt: 2d20 under the value minus the penalty", () => {
    const rules = rulesFor("volt");
    const r = rollTrait(leroy(), "volt.willpower", [5, 12], rules);
    expect(r.success).toBe(true);
    expect(r.result).toBe(5);
    expect(keyOf(() => rollTrait(leroy(), "volt.willpower", [5], rules))).toBe("FUDGE.Error.BadLength");
  });

  test("Miniatures: stats roll with 4dF", () => {
    const r = rollTrait(knight(), "guts", [1, 0, 0, 0], rulesFor("miniatures"));
    expect(r.result).toBe(3);
  });

  test("bad traits and dice are keyed errors", () => {
    const rules = rulesFor("fudge");
    expect(keyOf(() => rollTrait(leroy(), "attributes.charm", [0, 0, 0, 0], rules))).toBe("FUDGE.Error.UnknownTrait");
    expect(keyOf(() => rollTrait(leroy(), "skill:nope", [0, 0, 0, 0], rules))).toBe("FUDGE.Error.NoSuchItem");
    expect(keyOf(() => rollTrait(leroy(), "skill:broadsword", [0, 0, 0, 0], rules))).toBe("FUDGE.Error.NotASkill");
    expect(() => rollTrait(leroy(), "attributes.strength", [0, 0, 2, 0], rules)).toThrow(RulesError);
  });

  test("a character who cannot act cannot roll", () => {
    const rules = rulesFor("fudge");
    const a = merge(leroy(), toggleWoundBox(leroy(), "incapacitated:0", rules));
    expect(keyOf(() => rollTrait(a, "attributes.strength", [0, 0, 0, 0], rules))).toBe("FUDGE.Error.CannotAct");
  });
});

describe("field edits", () => {
  test("valid edits return nested updates; form strings are parsed", () => {
    expect(setActorField(leroy(), "attributes.strength", "+2")).toEqual({ system: { attributes: { strength: 2 } } });
    expect(setActorField(leroy(), "attributes.strength", "\u22121")).toEqual({
      system: { attributes: { strength: -1 } },
    });
    expect(setActorField(leroy(), "woundTrack.preset", "epic")).toEqual({ system: { woundTrack: { preset: "epic" } } });
    expect(setActorField(goblin(), "pawn", false)).toEqual({ system: { pawn: false } });
    expect(setActorField(knight(), "movement", 6)).toEqual({ system: { movement: 6 } });
  });

  test("bad input names the field and keeps the data", () => {
    const a = leroy();
    const e = (() => {
      try {
        setActorField(a, "attributes.strength", "lots");
      } catch (err) {
        return err as RulesError;
      }
    })()!;
    expect(e.key).toBe("FUDGE.Error.NotInteger");
    expect(e.field).toBe("system.attributes.strength");
    expect(keyOf(() => setActorField(a, "attributes.strength", 99))).toBe("FUDGE.Error.OutOfRange");
    expect(keyOf(() => setActorField(a, "woundTrack.preset", "brutal"))).toBe("FUDGE.Error.NotOneOf");
    expect(keyOf(() => setActorField(a, "pawn", true))).toBe("FUDGE.Error.UnknownField"); // characters have no pawn
    expect(keyOf(() => setActorField(a, "attributes.__proto__", 1))).toBe("FUDGE.Error.UnknownField");
    expect(keyOf(() => setActorField(a, "notes", 3))).toBe("FUDGE.Error.NotString");
    expect(a).toEqual(leroy());
  });
});

describe("attack card loop", () => {
  const rules = rulesFor("fudge");

  function fudgeCard(attackFaces: number[], defenseFaces: number[]) {
    const card = startAttack(
      leroy(),
      "broadsword",
      [theodora()],
      { modifier: 0 },
      { attack: attackFaces },
      rules,
      PLAYER1,
    );
    expect(card.targets[0].defend).toBe("pending");
    expect(card.targets[0].resolution).toBeNull();
    return merge(card, { targets: defend(card, theodora(), defenseFaces, PLAYER2).system.targets });
  }

  test("Fudge: Leroy hits Theodora: RD, factors and wound from the rules core", () => {
    // Leroy Good +1 +2 = Superb (+3); Theodora Good +1 −1 = Fair (0): RD 3; factor +2 (seed 000) → 5 Very Hurt.
    const c = fudgeCard([1, 1, 0, 0], [0, 0, 0, -1]);
    const res = c.targets[0].resolution as { outcome: string; numbers: Record<string, number>; woundKey: string };
    expect(res.numbers.relativeDegree).toBe(3);
    expect(res.numbers.damageFactor).toBe(2);
    expect(res.woundKey).toBe("veryHurt");
    expect(resolveTarget(c.targets[0])).toEqual(res); // re-derivable from the recorded dice
  });

  test("apply marks the live track with exact before/after; applying twice is refused; undo restores", () => {
    const c = fudgeCard([1, 1, 0, 0], [0, 0, 0, -1]);
    const t0 = theodora();
    const ap = applyDamage(c, t0, GM, rules, { now: 5 });
    expect(noDotted(ap.actorUpdate)).toBe(true);
    const t1 = merge(t0, ap.actorUpdate);
    const c1 = merge(c, ap.cardUpdate.system ? { targets: ap.cardUpdate.system.targets } : {});
    expect(trackStatus(trackFor(t1, rules)).levelKey).toBe("veryHurt");
    expect(c1.targets[0].applied).toHaveLength(1);
    expect(c1.targets[0].applied[0].before).toEqual(trackFor(t0, rules).state);
    expect(c1.targets[0].applied[0].after).toEqual(t1.system.woundTrack.state);
    expect(keyOf(() => applyDamage(c1, t1, GM, rules))).toBe("FUDGE.Error.AlreadyApplied");
    const un = undoDamage(c1, t1, GM, rules);
    const t2 = merge(t1, un.actorUpdate);
    expect(trackFor(t2, rules).state).toEqual(trackFor(t0, rules).state);
    const c2 = merge(c1, { targets: un.cardUpdate.system.targets });
    expect(c2.targets[0].applied[0].undone).toBe(true);
    expect(keyOf(() => undoDamage(c2, t2, GM, rules))).toBe("FUDGE.Error.NothingToUndo");
    // After an undo the wound may be applied again.
    expect(() => applyDamage(c2, t2, GM, rules)).not.toThrow();
  });

  test("undo refuses when the track changed since, unless a GM forces it", () => {
    const c = fudgeCard([1, 1, 0, 0], [0, 0, 0, -1]);
    const ap = applyDamage(c, theodora(), PLAYER2, rules, { now: 1 });
    const c1 = merge(c, { targets: ap.cardUpdate.system.targets });
    const t1 = merge(theodora(), ap.actorUpdate);
    const t2 = merge(t1, toggleWoundBox(t1, "scratch:0", rules)); // someone clicked a box since
    expect(keyOf(() => undoDamage(c1, t2, GM, rules))).toBe("FUDGE.Error.UndoConflict");
    expect(keyOf(() => undoDamage(c1, t2, PLAYER2, rules, { force: true }))).toBe("FUDGE.Error.NotPermitted");
    const forced = undoDamage(c1, t2, GM, rules, { force: true });
    expect(merge(t2, forced.actorUpdate).system.woundTrack.state).toEqual(trackFor(theodora(), rules).state);
  });

  test("permissions on the card: defend, apply via relay, undo", () => {
    const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 0, 0] }, rules, PLAYER1);
    expect(keyOf(() => defend(card, theodora(), [0, 0, 0, 0], PLAYER1))).toBe("FUDGE.Error.NotYoursToDefend");
    expect(keyOf(() => defend(card, leroy(), [0, 0, 0, 0], GM))).toBe("FUDGE.Error.NotATarget");
    const c = merge(card, { targets: defend(card, theodora(), [0, 0, 0, -1], PLAYER2).system.targets });
    expect(keyOf(() => defend(c, theodora(), [0, 0, 0, 0], PLAYER2))).toBe("FUDGE.Error.AlreadyDefended");
    // The attacker does not own Theodora: the click must go through the GM, who re-checks.
    expect(keyOf(() => applyDamage(c, theodora(), PLAYER1, rules))).toBe("FUDGE.Error.NeedsRelay");
    expect(keyOf(() => applyDamage(c, theodora(), STRANGER, rules, { relayed: true }))).toBe(
      "FUDGE.Error.NotYoursToApply",
    );
    const ap = applyDamage(c, theodora(), PLAYER1, rules, { relayed: true, now: 2 });
    const c1 = merge(c, { targets: ap.cardUpdate.system.targets });
    const t1 = merge(theodora(), ap.actorUpdate);
    expect(keyOf(() => undoDamage(c1, t1, STRANGER, rules))).toBe("FUDGE.Error.NotYoursToUndo");
    expect(keyOf(() => undoDamage(c1, t1, PLAYER1, rules))).toBe("FUDGE.Error.NeedsRelay");
    expect(() => undoDamage(c1, t1, PLAYER1, rules, { relayed: true })).not.toThrow();
    expect(() => undoDamage(c1, t1, PLAYER2, rules)).not.toThrow(); // the target's owner
  });

  test("nothing to apply before the defence, or on a miss", () => {
    const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [-1, -1, 0, 0] }, rules, PLAYER1);
    expect(keyOf(() => applyDamage(card, theodora(), GM, rules))).toBe("FUDGE.Error.NotResolved");
    const c = merge(card, { targets: defend(card, theodora(), [1, 1, 0, 0], PLAYER2).system.targets });
    expect((c.targets[0].resolution as { hit: boolean }).hit).toBe(false);
    expect(keyOf(() => applyDamage(c, theodora(), GM, rules))).toBe("FUDGE.Error.NothingToApply");
  });

  test("bad attack input is a keyed error and the inputs stay as they were", () => {
    const a = leroy();
    expect(keyOf(() => startAttack(a, "broadsword", [], {}, seededRng(1), rules, PLAYER1))).toBe(
      "FUDGE.Error.NoTargets",
    );
    expect(keyOf(() => startAttack(a, "nope", [theodora()], {}, seededRng(1), rules, PLAYER1))).toBe(
      "FUDGE.Error.NoSuchItem",
    );
    expect(keyOf(() => startAttack(a, "scalemail", [theodora()], {}, seededRng(1), rules, PLAYER1))).toBe(
      "FUDGE.Error.NotAWeapon",
    );
    expect(() => startAttack(a, "broadsword", [theodora()], { modifier: 99 }, seededRng(1), rules, PLAYER1)).toThrow(
      RulesError,
    );
    expect(keyOf(() => startAttack(a, "broadsword", [theodora()], {}, {}, rules, PLAYER1))).toBe(
      "FUDGE.Error.MissingDice",
    );
    const card = startAttack(a, "broadsword", [theodora()], {}, { attack: [0, 0, 0, 0] }, rules, PLAYER1);
    const frozen = structuredClone(card);
    expect(() => defend(card, theodora(), [0, 0, 3, 0], PLAYER2)).toThrow(RulesError);
    expect(card).toEqual(frozen);
    expect(a).toEqual(leroy());
  });

  test("one attack roll is shared by every target", () => {
    const card = startAttack(
      leroy(),
      "broadsword",
      [theodora(), { ...goblin(), ownership: { default: 0 } }],
      {},
      seededRng(4),
      rulesFor("fudge"),
      PLAYER1,
    );
    expect(card.targets).toHaveLength(2);
    expect(card.targets[0].dice.attack).toEqual(card.targets[1].dice.attack);
    expect(card.attackDice.attack).toEqual(card.targets[0].dice.attack);
  });
});

describe("every preset runs the loop", () => {
  for (const preset of ["fudge", "fate", "volt", "miniatures"] as const) {
    test(`${preset}: attack → (defend) → apply → undo over many seeds`, () => {
      const rules = rulesFor(preset);
      let applied = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const a: ActorDoc = preset === "miniatures" ? knight() : leroy();
        const d: ActorDoc = preset === "miniatures" ? knight("knave", "Knave") : theodora();
        const w = a.items.find((i) => i.type === "weapon")!._id;
        let card: AttackCardData = startAttack(a, w, [d], {}, seededRng(seed), rules, PLAYER1);
        if (card.targets[0].defend === "pending")
          card = merge(card, {
            targets: defend(card, d, seededRng(seed + 100)() < 0.5 ? [0, 0, 0, 0] : [-1, 0, 0, 1], GM).system.targets,
          });
        const res = card.targets[0].resolution as { wound: unknown };
        expect(res).not.toBeNull();
        if (!res.wound) continue;
        applied++;
        const ap = applyDamage(card, d, GM, rules, { now: seed });
        const d1 = merge(d, ap.actorUpdate);
        const c1 = merge(card, { targets: ap.cardUpdate.system.targets });
        expect(keyOf(() => applyDamage(c1, d1, GM, rules))).toBe("FUDGE.Error.AlreadyApplied");
        const d2 = merge(d1, undoDamage(c1, d1, GM, rules).actorUpdate);
        expect(trackFor(d2, rules).state).toEqual(trackFor(d, rules).state);
      }
      expect(applied).toBeGreaterThan(0);
    });
  }

  test("FATE: the defender's Clipped is used up by the defence roll when the wound is applied", () => {
    const rules = rulesFor("fate");
    const t0 = merge(theodora(), toggleWoundBox(theodora(), "clipped:0", rules));
    expect(trackStatus(trackFor(t0, rules)).effects).toContain("clipped");
    let card = startAttack(leroy(), "broadsword", [t0], {}, { attack: [1, 1, 1, 0] }, rules, PLAYER1);
    card = merge(card, { targets: defend(card, t0, [0, 0, 0, 0], PLAYER2).system.targets });
    const ap = applyDamage(card, t0, GM, rules, { now: 0 });
    const st = trackStatus(trackFor(merge(t0, ap.actorUpdate), rules));
    expect(st.effects).not.toContain("clipped");
  });
});

describe("healing", () => {
  test("Fudge: clear Scratches keeps real wounds", () => {
    const rules = rulesFor("fudge");
    let a = merge(leroy(), toggleWoundBox(leroy(), "scratch:0", rules));
    a = merge(a, toggleWoundBox(a, "hurt:0", rules));
    const h = clearScratches(a, rules, PLAYER1);
    const a2 = merge(a, h.update);
    const st = trackStatus(trackFor(a2, rules));
    expect(st.levelKey).toBe("hurt");
    expect(
      (trackFor(a2, rules).state as { marks: { scratch: unknown[] } }).marks.scratch.every((m) => m === null),
    ).toBe(true);
  });

  test("Fudge: a Good healing roll heals one level (Fudge §4.8)", () => {
    const rules = rulesFor("fudge");
    const a = merge(leroy(), toggleWoundBox(leroy(), "hurt:0", rules));
    const a2 = merge(a, healWounds(a, { type: "roll", result: 1 }, rules).update);
    expect(trackStatus(trackFor(a2, rules)).levelKey).toBeNull();
    expect(() => healWounds(a, { type: "potion" }, rules)).toThrow(RulesError);
  });

  test("FATE: end of scene clears Hurt", () => {
    const rules = rulesFor("fate");
    const a = merge(leroy(), toggleWoundBox(leroy(), "hurt:0", rules));
    const a2 = merge(a, healWounds(a, { type: "endScene" }, rules).update);
    expect(trackStatus(trackFor(a2, rules)).penalty).toBe(0);
  });

  test("a plain key-by-key merge would keep cleared marks: updates replace the state whole", () => {
    const rules = rulesFor("volt");
    const a = merge(leroy(), { system: { woundTrack: { state: { marks: { "5": "stun", "12": "injury" } } } } });
    const h = healWounds(a, { type: "rest" }, rules);
    expect(Object.keys(h.update.system as object)).toEqual(["woundTrack"]);
    expect(trackFor(merge(a, h.update), rules).state).toEqual({ marks: { "12": "injury" } });
  });

  test("Volt: Recover clears the highest Stun on a success", () => {
    const rules = rulesFor("volt");
    const a = merge(leroy(), { system: { woundTrack: { state: { marks: { "5": "stun" } } } } });
    expect(trackStatus(trackFor(a, rules)).levelKey).not.toBeNull();
    const r = recover(a, 2, 3, rules, PLAYER1);
    expect(r.success).toBe(true);
    expect(trackFor(merge(a, r.update), rules).state).toEqual({ marks: {} });
    expect(keyOf(() => recover(a, 2, 3, rules, PLAYER2))).toBe("FUDGE.Error.NotPermitted");
    expect(keyOf(() => recover(knight(), 2, 3, rules))).toBe("FUDGE.Error.NotCharacter");
  });

  test('Volt: Recover "must be able to act": one who cannot act is refused before any die is rolled', () => {
    const rules = rulesFor("volt");
    const out = merge(leroy(), { system: { woundTrack: { state: { marks: { "3": "stun", "12": "stun" } } } } });
    expect(trackStatus(trackFor(out, rules)).canAct).toBe(false);
    expect(keyOf(() => recover(out, 2, 3, rules, PLAYER1))).toBe("FUDGE.Volt.Error.RecoverCannotAct");
  });
});

describe("Miniatures: Guts and Near Death", () => {
  const rules = rulesFor("miniatures");

  test("a failed Guts check records its effect; a later re-check can clear it", () => {
    const k = knight(); // Guts +2
    // Target +1 (new wound level), dice −4: total −2 fails by 3.
    const r = gutsCheckAction(k, { target: 1, reason: "newWoundLevel", turn: 1 }, [-1, -1, -1, -1], rules, PLAYER1);
    expect(r.passed).toBe(false);
    expect(r.effect).toBe(3);
    expect(noDotted(r.update)).toBe(true);
    const k2 = merge(k, r.update);
    expect(k2.system.gutsState.effect).toBe(3);
    const re = gutsRecheckAction(k2, [1, 0, 0, 0], 2, rules, PLAYER1);
    expect(re.passed).toBe(true);
    expect(merge(k2, re.update).system.gutsState).toEqual({ pending: [], effect: 0 });
    expect(keyOf(() => gutsCheckAction(leroy(), { target: 1, reason: "other", turn: 1 }, [0, 0, 0, 0], rules))).toBe(
      "FUDGE.Error.NotMiniature",
    );
    expect(keyOf(() => gutsCheckAction(k, { target: 1, reason: "other", turn: 1 }, [0, 0, 0, 0], rules, PLAYER2))).toBe(
      "FUDGE.Error.NotPermitted",
    );
  });

  test("the failed Guts effect stops the model attacking (the rules core refuses)", () => {
    const k = merge(
      knight(),
      gutsCheckAction(knight(), { target: 2, reason: "twoWoundLevels", turn: 1 }, [-1, -1, -1, 0], rules).update,
    );
    expect(k.system.gutsState.effect).toBeGreaterThanOrEqual(2);
    expect(() => startAttack(k, "knightSword", [knight("k2", "Knave")], {}, seededRng(1), rules, PLAYER1)).toThrow(
      RulesError,
    );
  });

  test("Near Death roll: −1 or less kills; otherwise no track change", () => {
    const k = merge(knight(), toggleWoundBox(knight(), "nearDeath:0", rules));
    expect(trackStatus(trackFor(k, rules)).condition).toBe("dying");
    // Guts +2 lowered by the Near Death penalty −2 = 0; dice −2 → −2: dead.
    const dead = nearDeathAction(k, [-1, -1, 0, 0], rules, PLAYER1);
    expect(dead.result).toBe("dead");
    expect(trackStatus(trackFor(merge(k, dead.update), rules)).condition).toBe("dead");
    const ok = nearDeathAction(k, [1, 1, 0, 0], rules, PLAYER1);
    expect(ok.result).toBe("veryHurt");
    expect(ok.update).toBeNull();
    expect(keyOf(() => nearDeathAction(knight(), [0, 0, 0, 0], rules))).toBe("FUDGE.Error.NotNearDeath");
  });

  test('a failure by 1 in force: "−1 to rolls" on the table\'s Guts check, re-check and Near Death roll (world rule miniatures.gutsRollPenalty, default every roll)', () => {
    const attackOnly = { ...rules, miniatures: { ...rules.miniatures, gutsRollPenalty: "attackRolls" as const } };
    expect(rules.miniatures.gutsRollPenalty).toBe("allRolls");
    // Knight Guts +2, target +2 (two levels), dice −1: 1 fails by 1.
    const k = merge(
      knight(),
      gutsCheckAction(knight(), { target: 2, reason: "twoWoundLevels", turn: 1 }, [-1, 0, 0, 0], rules, PLAYER1).update,
    );
    expect(k.system.gutsState.effect).toBe(1);
    const PENALTY = "FUDGE.Miniatures.Step.GutsRollPenalty";
    // Its re-check on turn 2: 2 + 1 − 1 + dice −1 = 1 < 2, still failed; the step names the rule. Under attackRolls: 2, passed.
    const re = gutsRecheckAction(k, [-1, 0, 0, 0], 2, rules, PLAYER1);
    expect([re.total, re.passed]).toEqual([1, false]);
    expect(re.steps.find((x) => x.key === PENALTY)).toMatchObject({ rule: "Miniatures: Guts", value: -1 });
    expect([
      gutsRecheckAction(k, [-1, 0, 0, 0], 2, attackOnly, PLAYER1).total,
      gutsRecheckAction(k, [-1, 0, 0, 0], 2, attackOnly, PLAYER1).passed,
    ]).toEqual([2, true]);
    // A new check while shaken (the Check Guts dialog): 2 − 1 + 0 against 1.
    const again = gutsCheckAction(k, { target: 1, reason: "other", turn: 2 }, [0, 0, 0, 0], rules, PLAYER1);
    expect(again.total).toBe(1);
    expect(gutsCheckAction(k, { target: 1, reason: "other", turn: 2 }, [0, 0, 0, 0], attackOnly, PLAYER1).total).toBe(
      2,
    );
    // The note lists the −1 beside what else counted.
    expect(gutsNoteLines(again, (key) => key)).toContain(PENALTY);
    expect(
      gutsNoteLines(
        gutsCheckAction(k, { target: 1, reason: "other", turn: 2 }, [0, 0, 0, 0], attackOnly, PLAYER1),
        (key) => key,
      ),
    ).not.toContain(PENALTY);
    // Near Death (Guts 2 − 2): − 1 + dice +2 = 1, still Near Death (attackRolls: 2, Very Hurt); dice 0: −1, dead (attackRolls: 0).
    const nd = merge(k, toggleWoundBox(k, "nearDeath:0", rules));
    expect(nearDeathAction(nd, [1, 1, 0, 0], rules, PLAYER1).result).toBe("nearDeath");
    expect(nearDeathAction(nd, [1, 1, 0, 0], attackOnly, PLAYER1).result).toBe("veryHurt");
    expect(nearDeathAction(nd, [0, 0, 0, 0], rules, PLAYER1).result).toBe("dead");
    expect(nearDeathAction(nd, [0, 0, 0, 0], attackOnly, PLAYER1).result).toBe("nearDeath");
  });

  test("a flying model falling Near Death takes its crash wound on Apply", () => {
    // A strong attacker (MODF +8) against an unarmoured flyer (DDF 0): wounds of 7–8 are Near Death.
    const flyer = { ...merge(knight("bird", "Bird"), { system: { flying: true, dexterity: 0 } }), items: [] };
    const brute = merge(knight(), { system: { strength: 4 } });
    brute.items = brute.items.map((i) => (i._id === "knightSword" ? merge(i, { system: { miniaturesDamage: 4 } }) : i));
    let seen = false;
    for (let seed = 1; seed <= 300 && !seen; seed++) {
      const card = startAttack(brute, "knightSword", [flyer], {}, seededRng(seed), rules, PLAYER1);
      const res = card.targets[0].resolution as {
        followUps: { type: string; params: { level: string } }[];
        defenderAfter: { track: { state: unknown } } | null;
      };
      if (!res.followUps.some((f) => f.type === "crashWound")) continue;
      seen = true;
      const ap = applyDamage(card, flyer, GM, rules, { now: 0 });
      // The live track after Apply equals the card's preview, crash wound included.
      expect(merge(flyer, ap.actorUpdate).system.woundTrack.state).toEqual(res.defenderAfter!.track.state);
    }
    // A crash needs a blow that reaches Near Death; with these stats some seed does.
    expect(seen).toBe(true);
  });
});

describe("more healing and follow-ups", () => {
  test("Volt Injury recovery uses the character's Strength", () => {
    const rules = rulesFor("volt");
    const a = merge(leroy(), { system: { woundTrack: { state: { marks: { "8": "injury" } } } } });
    const r = injuryRecovery(a, 3, 4, rules, 0, PLAYER1);
    expect(r.steps.length).toBeGreaterThan(0);
    expect(trackFor(merge(a, r.update), rules).state).not.toEqual(trackFor(a, rules).state);
    expect(keyOf(() => injuryRecovery(knight(), 3, 4, rules))).toBe("FUDGE.Error.NotCharacter");
  });

  test('Volt: Recovery "uses the highest Injury as the value": with no Injury (Stun only, or nothing) there is no roll to make — refused', () => {
    const rules = rulesFor("volt");
    for (const marks of [{}, { "6": "stun" }]) {
      const a = merge(leroy(), { system: { woundTrack: { state: { marks } } } });
      expect(keyOf(() => injuryRecovery(a, 3, 4, rules, 0, PLAYER1))).toBe("FUDGE.Volt.Error.NoInjuryToRecover");
      expect(
        keyOf(() =>
          healWounds(a, { type: "injuryRecovery", black: 1, white: 1, strength: 6, medical: 0 }, rules, PLAYER1),
        ),
      ).toBe("FUDGE.Volt.Error.NoInjuryToRecover");
    }
    // Other Volt healing is unchanged: Rest with nothing to clear still runs.
    expect(() => healWounds(leroy(), { type: "rest" }, rules, PLAYER1)).not.toThrow();
  });
});

describe("situations", () => {
  test("each preset receives only the situation fields it knows (Miniatures gang-up reaches the roll)", () => {
    const mini = rulesFor("miniatures");
    const card = startAttack(
      knight(),
      "knightSword",
      [knight("k2", "Knave")],
      { gangUp: 2, cover: true, stun: true },
      { attack: [0, 0, 0, 0], crash: [0, 0, 0, 0] },
      mini,
      PLAYER1,
    );
    const req = card.targets[0].request as { situation: Record<string, unknown> };
    expect(req.situation.gangUp).toBe(2);
    expect(req.situation.stun).toBeUndefined();
    expect((card.targets[0].resolution as { numbers: Record<string, number> }).numbers.gangUp).toBe(1);
    // The fudge preset rejects unknown fields; a Miniatures-only field is dropped, not sent.
    const f = startAttack(
      leroy(),
      "broadsword",
      [theodora()],
      { cover: true, modifier: 1 },
      { attack: [0, 0, 0, 0] },
      rulesFor("fudge"),
      PLAYER1,
    );
    expect((f.targets[0].request as { situation: Record<string, unknown> }).situation).toEqual({ modifier: 1 });
  });
});

describe("Miniatures: one attack per wielded weapon", () => {
  const rules = rulesFor("miniatures");
  test("a melee action attacks once with each wielded melee weapon; unequipped and ranged ones stay out", () => {
    expect(wieldedAttacks(knight(), "melee", rules)).toEqual(["knightSword"]);
    const twoBlades = knight();
    twoBlades.items.push(
      item("weapon", "Dagger", { miniaturesDamage: 0, statBasis: "strength", hands: 1 }, "knightDagger"),
    );
    expect(wieldedAttacks(twoBlades, "melee", rules)).toEqual(["knightSword", "knightDagger"]);
    expect(() => wieldedAttacks(knight(), "ranged", rules)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NoWieldedWeapon" }),
    );
  });
  test('each action wields the weapons of its kind: a 2h bow and a 1h sword both equipped shoot and stab ("Shoot all wielded ranged weapons" / "Melee attack with all wielded melee weapons")', () => {
    // Seed 004, Available Actions; Melee Combat: "A model cannot wield more weapons than will fit
    // in its available hands" — counted per action, so the bow carried does not fill the hands of a stab.
    const both = knight();
    both.items = both.items.map((i) =>
      i._id === "knightBow" ? { ...i, system: { ...i.system, equipped: true } } : i,
    ) as typeof both.items;
    expect(wieldedAttacks(both, "melee", rules)).toEqual(["knightSword"]);
    expect(wieldedAttacks(both, "ranged", rules)).toEqual(["knightBow"]);
  });
  test("Yanni the Yeoman (Shortbow 2h, Dagger 1h, both equipped) shoots with the bow and stabs with the dagger", () => {
    const yanni = findSample("Yanni the Yeoman", "yanni") as ActorDoc<"miniature">;
    const id = (name: string) => (yanni.items ?? []).find((i) => i.name === name)!._id;
    expect(wieldedAttacks(yanni, "ranged", rules)).toEqual([id("Shortbow")]);
    expect(wieldedAttacks(yanni, "melee", rules)).toEqual([id("Dagger")]);
    // The sheet offers the two actions, one attack each.
    expect(miniatureSheetContext(yanni, rules, { editable: true, owner: true }).miniature?.attackActions).toEqual([
      { kind: "melee", labelKey: "FUDGE.Sheet.AttackAll.melee", count: 1 },
      { kind: "ranged", labelKey: "FUDGE.Sheet.AttackAll.ranged", count: 1 },
    ]);
  });
  test("the weapons of one action must fit two hands", () => {
    const overloaded = knight();
    overloaded.items.push(
      item("weapon", "Greatsword", { miniaturesDamage: 3, statBasis: "strength", hands: 2 }, "knightGreatsword"),
    );
    expect(() => wieldedAttacks(overloaded, "melee", rules)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.Miniatures.TooManyHands" }),
    );
  });
  test("only miniatures have the action", () => {
    expect(() => wieldedAttacks(leroy(), "melee", rules)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NotAMiniature" }),
    );
  });
  test("the datacard sheet offers the action with the number of attacks", () => {
    const ctx = miniatureSheetContext(knight(), rules, { editable: true, owner: true });
    expect(ctx.miniature?.attackActions).toEqual([
      { kind: "melee", labelKey: "FUDGE.Sheet.AttackAll.melee", count: 1 },
    ]);
  });
});

describe("Fudge §4.64: spend a Fudge Point so that a deadly wound is not", () => {
  const rules = { ...rulesFor("fudge"), fudgeTrack: { ...rulesFor("fudge").fudgeTrack, safeguardFudgePoint: true } };
  /** Leroy with every box of his track marked: the next wound kills him. */
  function doomedLeroy(): ActorDoc<"character"> {
    const l = leroy();
    let t = trackFor(l, rules);
    for (const level of ["nearDeath", "incapacitated", "veryHurt", "hurt", "scratch", "scratch", "scratch"])
      t = applyWound(t, { level }).track;
    return {
      ...l,
      system: { ...l.system, fudgePoints: 2, woundTrack: { ...l.system.woundTrack, state: t.state } },
    } as ActorDoc<"character">;
  }
  function woundingCard(target: ActorDoc<"character">): AttackCardData {
    const card = startAttack(theodora(), "poleaxe", [target], {}, seededRng(3), rules, GM);
    return { ...card, ...defend(card, target, [-1, -1, -1, -1], GM).system };
  }

  test("the defender's owner is offered the point; spending it keeps him alive, costs one point, and Undo gives it back", () => {
    const l = doomedLeroy();
    const card = woundingCard(l);
    expect(fudgePointOffer(card, card.targets[0], l, rules)).toBe(true);
    const ctx = attackCardContext({ system: card }, rules, { user: PLAYER1, actor: () => l });
    expect(ctx.targets[0].canSpendFudgePoint).toBe(true);
    expect(
      attackCardContext({ system: card }, rules, { user: PLAYER2, actor: () => l }).targets[0].canSpendFudgePoint,
    ).toBe(false);

    const spent = applyDamage(card, l, PLAYER1, rules, { spendFudgePoint: true, relayed: true });
    expect(spent.ended).toBe(false);
    expect((spent.actorUpdate.system as { fudgePoints: number }).fudgePoints).toBe(1);
    const after = {
      ...l,
      flags: spent.actorUpdate.flags,
      system: {
        ...l.system,
        fudgePoints: 1,
        woundTrack: { ...l.system.woundTrack, state: updatedState(spent.actorUpdate) },
      },
    } as ActorDoc<"character">;
    expect(trackStatus(trackFor(after, rules)).condition).not.toBe("dead");
    const applied = { ...card, ...spent.cardUpdate.system } as AttackCardData;
    expect(applied.targets[0].applied[0].fudgePointSpent).toBe(true);
    const undone = undoDamage(applied, after, GM, rules);
    expect((undone.actorUpdate.system as { fudgePoints: number }).fudgePoints).toBe(2);

    // Without the point the same wound kills.
    expect(applyDamage(card, l, GM, rules).ended).toBe(true);
  });

  test("no offer without points, without the setting, or for a wound that does not kill; a forced spend is refused", () => {
    const l = doomedLeroy();
    const broke = { ...l, system: { ...l.system, fudgePoints: 0 } } as ActorDoc<"character">;
    const card = woundingCard(l);
    expect(fudgePointOffer(card, card.targets[0], broke, rules)).toBe(false);
    expect(fudgePointOffer(card, card.targets[0], l, rulesFor("fudge"))).toBe(false);
    const healthy = { ...leroy(), system: { ...leroy().system, fudgePoints: 2 } } as ActorDoc<"character">;
    const mild = woundingCard(healthy);
    expect(fudgePointOffer(mild, mild.targets[0], healthy, rules)).toBe(false);
    expect(() => applyDamage(card, broke, GM, rules, { spendFudgePoint: true })).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NoFudgePointSave" }),
    );
  });
});

describe("Fudge §4.57 custom wound track, edited on the sheet", () => {
  const rules = rulesFor("fudge");
  const withUpdate = (a: ActorDoc<"character">, u: { system: Record<string, unknown> }): ActorDoc<"character"> => {
    const wt = { ...a.system.woundTrack, ...((u.system.woundTrack as object) ?? {}) };
    return { ...a, system: { ...a.system, woundTrack: wt } } as ActorDoc<"character">;
  };
  test("choosing 'custom' starts from the standard levels, which the rules core then reads", () => {
    const l = withUpdate(leroy(), setActorField(leroy(), "woundTrack.preset", "custom", GM));
    expect(l.system.woundTrack.preset).toBe("custom");
    expect(l.system.woundTrack.customLevels!.map((x) => [x.key, x.boxes, x.penalty, x.threshold, x.effect])).toEqual([
      ["scratch", 3, 0, 1, ""],
      ["hurt", 1, -1, 3, ""],
      ["veryHurt", 1, -2, 5, ""],
      ["incapacitated", 1, -2, 7, "cannotAct"],
      ["nearDeath", 1, -2, 9, "dying"],
    ]);
    expect(renderTrack(trackFor(l, rules)).rows.map((r) => r.boxes.length)).toEqual([3, 1, 1, 1, 1]);
  });
  test("fields are range-checked, thresholds must rise, and levels are added and removed", () => {
    let l = withUpdate(leroy(), setActorField(leroy(), "woundTrack.preset", "custom", GM));
    l = withUpdate(l, setActorField(l, "woundTrack.customLevels.1.boxes", "2", GM));
    expect(renderTrack(trackFor(l, rules)).rows[1].boxes.length).toBe(2);
    expect(() => setActorField(l, "woundTrack.customLevels.1.boxes", "11", GM)).toThrow(
      expect.objectContaining({ field: "system.woundTrack.customLevels.1.boxes", key: "FUDGE.Error.OutOfRange" }),
    );
    expect(() => setActorField(l, "woundTrack.customLevels.1.penalty", "+1", GM)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.OutOfRange" }),
    );
    expect(() => setActorField(l, "woundTrack.customLevels.2.threshold", "2", GM)).toThrow(
      expect.objectContaining({ field: "system.woundTrack.customLevels.2.threshold" }),
    );
    expect(() => setActorField(l, "woundTrack.customLevels.9.boxes", "1", GM)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.UnknownField" }),
    );
    l = withUpdate(l, editCustomLevels(l, "add", -1, GM));
    expect(l.system.woundTrack.customLevels).toHaveLength(6);
    expect(l.system.woundTrack.customLevels![5]).toMatchObject({
      boxes: 1,
      penalty: -3,
      threshold: 11,
      effect: "dying",
    });
    l = withUpdate(l, editCustomLevels(l, "remove", 0, GM));
    expect(l.system.woundTrack.customLevels!.map((x) => x.key)).toEqual([
      "hurt",
      "veryHurt",
      "incapacitated",
      "nearDeath",
      "level6",
    ]);
    expect(() => editCustomLevels(l, "add", -1, STRANGER)).toThrow(RulesError);
  });
  test("a level that still holds marks is not removed (a localized sentence); an unmarked one leaves the track readable", () => {
    const merged = (a: ActorDoc<"character">, u: { system: Record<string, unknown> }) =>
      ({ ...a, system: mergeLikeFoundry(a.system, u.system) }) as ActorDoc<"character">;
    let l = merged(leroy(), setActorField(leroy(), "woundTrack.preset", "custom", GM));
    // Hurt marked (its own box), then a second Hurt rolls up into Very Hurt.
    l = merged(l, toggleWoundBox(l, "hurt:0", rules, GM) as { system: Record<string, unknown> });
    expect(() => editCustomLevels(l, "remove", 1, GM)).toThrow(
      expect.objectContaining({
        key: "FUDGE.Error.CustomLevelMarked",
        params: expect.objectContaining({ level: "FUDGE.Wound.hurt", count: 1 }),
      }),
    );
    // Removing an unmarked level: its row leaves the stored track with it, and the track still reads.
    const before = renderTrack(trackFor(l, rules)).rows.map((r) => [r.key, r.boxes.filter((b) => b.marked).length]);
    l = merged(l, editCustomLevels(l, "remove", 2, GM));
    expect(l.system.woundTrack.customLevels!.map((x) => x.key)).not.toContain("veryHurt");
    const after = renderTrack(trackFor(l, rules)).rows.map((r) => [r.key, r.boxes.filter((b) => b.marked).length]);
    expect(after).toEqual(before.filter(([k]) => k !== "veryHurt"));
    // The sentence a user reads names the level and the count.
    const en = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, string>;
    expect(en["FUDGE.Error.CustomLevelMarked"]).toMatch(/\{level\}.*\{count\}/);
  });
  test("the sheet shows the editor only for the custom preset", () => {
    const l = withUpdate(leroy(), setActorField(leroy(), "woundTrack.preset", "custom", GM));
    expect(characterSheetContext(l, rules, { editable: true, owner: true }).trackPreset?.custom).toHaveLength(5);
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true }).trackPreset?.custom).toBeNull();
  });
});

describe("the card names the live actors, whatever names its author stored", () => {
  test("a forged attacker name is not in the header nor in the headline (a miss names the attacker)", () => {
    const rules = rulesFor("fudge");
    const l = leroy();
    const th = theodora();
    const started = startAttack(th, "poleaxe", [l], {}, seededRng(3), rules, GM);
    const card = {
      ...started,
      ...defend(started, l, [1, 1, 1, 1], GM).system,
      attackerName: "The GM",
    } as AttackCardData;
    card.targets[0] = { ...card.targets[0], name: "Goblin" };
    const byId = (id: string) => ([l, th] as ActorDoc[]).find((a) => a._id === id || `Actor.${a._id}` === id);
    const ctx = attackCardContext({ system: card }, rules, { user: GM, actor: byId });
    expect(ctx.attackerName).toBe(th.name);
    expect(ctx.targets[0].headlineParams).toEqual({ name: l.name, attacker: th.name });
  });
});
