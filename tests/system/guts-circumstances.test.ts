/**
 * A miniature's Guts circumstances at the table (seed 004 "Sample characters"): the standing the
 * GM sets, what the table derives from live documents (src/system/guts.ts), the friends' checks for a
 * shot into a melee, and where they reach the sheet, the dialog, the card and the migration.
 */
import { describe, expect, test } from "vitest";
import { findSample } from "../../src/cli/samples";
import { applyWound, duelForecast } from "../../src/rules";
import { trackFor } from "../../src/system/combatant";
import type { ActorDoc, AttackCardData, MiniatureData } from "../../src/system/data";
import {
  duelGutsSituation,
  friendGutsRecord,
  friendGutsRoster,
  gutsCircumstances,
  gutsStandingOf,
  withFriendGutsRecord,
  FRIEND_GUTS_RECORD,
  type TableModel,
} from "../../src/system/guts";
import { migrateActorSystem } from "../../src/system/migrate";
import * as actions from "../../src/system/actions";
import { gutsChoiceFor, gutsDialogContext, gutsTraitLines } from "../../src/system/guts-dialog";
import { miniatureSheetContext } from "../../src/system/sheet";
import { attackCardContext } from "../../src/system/card";
import { GM, PLAYER1, loadLang, rulesFor } from "./fixtures";
import { fill } from "../../src/system/i18n";
import { duelRequest } from "../../src/system/attack-dialog";

const rules = rulesFor("miniatures");
const sample = (name: string, patch: Partial<MiniatureData["gutsStanding"]> = {}): ActorDoc => {
  const a = structuredClone(findSample(name, "a")) as unknown as ActorDoc<"miniature">;
  a.system.gutsStanding = { ...a.system.gutsStanding, ...patch };
  return a;
};
const nearDeath = (a: ActorDoc): ActorDoc => {
  const w = applyWound(trackFor(a, rules), { level: "nearDeath" });
  (a.system as MiniatureData).woundTrack.state = w.track.state;
  return a;
};
const model = (
  id: string,
  actor: ActorDoc,
  disposition: number,
  x: number | null,
  o: Partial<TableModel> = {},
): TableModel => ({
  id,
  actor,
  disposition,
  box: x === null ? null : { id, x, y: 10, w: 1, h: 1, disposition },
  inCombat: true,
  defeated: false,
  ...o,
});

describe('Leader: "all followers make Guts checks at -1 if the King has fallen"', () => {
  const yanni = sample("Yanni the Yeoman", { follower: true });
  const self = model("y", yanni, 1, 20);
  test("a follower whose side's Leader in the combat is Near Death: −1, and who", () => {
    const c = gutsCircumstances(
      yanni,
      { self, others: [self, model("k", nearDeath(sample("King Kingsley")), 1, 2)] },
      rules,
    );
    expect(c).toMatchObject({ leaderFallen: true, leader: "King Kingsley", nobleInMelee: false });
  });
  test("a Leader marked defeated in the tracker has fallen too", () => {
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), 1, 2, { defeated: true })] }, rules)
        .leaderFallen,
    ).toBe(true);
  });
  test("not while the Leader stands, nor for a Leader of the other side, one outside the combat, or a model that is no follower", () => {
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), 1, 2)] }, rules).leaderFallen,
    ).toBe(false);
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", nearDeath(sample("King Kingsley")), -1, 2)] }, rules)
        .leaderFallen,
    ).toBe(false);
    expect(
      gutsCircumstances(
        yanni,
        { self, others: [model("k", nearDeath(sample("King Kingsley")), 1, 2, { inCombat: false })] },
        rules,
      ).leaderFallen,
    ).toBe(false);
    const notFollower = sample("Yanni the Yeoman");
    expect(
      gutsCircumstances(
        notFollower,
        { self: { ...self, actor: notFollower }, others: [model("k", nearDeath(sample("King Kingsley")), 1, 2)] },
        rules,
      ).leaderFallen,
    ).toBe(false);
    // A fallen model without the Leader rule is no Leader.
    expect(
      gutsCircumstances(yanni, { self, others: [model("b", nearDeath(sample("Brutas the Brute")), 1, 2)] }, rules)
        .leaderFallen,
    ).toBe(false);
  });
  test("a model with no token or combatant derives nothing", () => {
    expect(
      gutsCircumstances(yanni, { self: null, others: [model("k", nearDeath(sample("King Kingsley")), 1, 2)] }, rules)
        .leaderFallen,
    ).toBe(false);
  });
});

describe('Noble presence: "peasants make Guts checks at -1 when in melee with the King"', () => {
  const yanni = sample("Yanni the Yeoman", { peasant: true });
  const self = model("y", yanni, -1, 20);
  test("a peasant in base contact with an enemy of Noble presence: −1, and who", () => {
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), 1, 21)] }, rules),
    ).toMatchObject({ nobleInMelee: true, noble: "King Kingsley" });
  });
  test("not a square away, not beside the King of its own side, not once he has fallen, not for a model that is no peasant", () => {
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), 1, 22)] }, rules).nobleInMelee,
    ).toBe(false);
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), -1, 21)] }, rules).nobleInMelee,
    ).toBe(false);
    // A neutral token is a bystander, nobody's enemy (src/rules/miniatures/table.ts areEnemies), as for contact and gang-up.
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", sample("King Kingsley"), 0, 21)] }, rules).nobleInMelee,
    ).toBe(false);
    expect(
      gutsCircumstances(
        yanni,
        { self: model("y", yanni, 0, 20), others: [model("k", sample("King Kingsley"), 1, 21)] },
        rules,
      ).nobleInMelee,
    ).toBe(false);
    expect(
      gutsCircumstances(yanni, { self, others: [model("k", nearDeath(sample("King Kingsley")), 1, 21)] }, rules)
        .nobleInMelee,
    ).toBe(false);
    const notPeasant = sample("Yanni the Yeoman");
    expect(
      gutsCircumstances(
        notPeasant,
        { self: { ...self, actor: notPeasant }, others: [model("k", sample("King Kingsley"), 1, 21)] },
        rules,
      ).nobleInMelee,
    ).toBe(false);
    expect(
      gutsCircumstances(
        yanni,
        { self: { ...self, box: null }, others: [model("k", sample("King Kingsley"), 1, 21)] },
        rules,
      ).nobleInMelee,
    ).toBe(false);
  });
});

describe("the standing the GM sets", () => {
  test("stored values that are not booleans count as off; other actor types have none", () => {
    const a = sample("Sir Knightly");
    (a.system as unknown as { gutsStanding: unknown }).gutsStanding = {
      defendingKing: "yes",
      peasant: 1,
      follower: true,
    };
    expect(gutsStandingOf(a)).toEqual({ defendingKing: false, peasant: false, follower: true });
    expect(
      gutsCircumstances(sample("Sir Knightly", { defendingKing: true }), { self: null, others: [] }, rules)
        .defendingKing,
    ).toBe(true);
  });

  test("the sheet shows them near Guts; Defending the King only to a Faithful model (or while set)", () => {
    const opts = { editable: true, owner: true };
    const keys = (a: ActorDoc) =>
      miniatureSheetContext(a as ActorDoc<"miniature">, rules, opts).miniature!.gutsStanding.map((s) => [
        s.key,
        s.checked,
      ]);
    expect(keys(sample("Sir Knightly", { defendingKing: true }))).toEqual([
      ["defendingKing", true],
      ["peasant", false],
      ["follower", false],
    ]);
    expect(keys(sample("Yanni the Yeoman", { peasant: true }))).toEqual([
      ["peasant", true],
      ["follower", false],
    ]);
    expect(keys(sample("Yanni the Yeoman", { defendingKing: true }))).toEqual([
      ["defendingKing", true],
      ["peasant", false],
      ["follower", false],
    ]);
  });

  test("the sheet's fields are checked like every other: booleans only", () => {
    const a = sample("Yanni the Yeoman");
    expect(actions.setActorField(a, "gutsStanding.follower", true, GM)).toEqual({
      system: { gutsStanding: { follower: true } },
    });
    expect(() => actions.setActorField(a, "gutsStanding.follower", "yes", GM)).toThrow(/true or false/);
  });

  test("migration: an older miniature gets them all off; a stored value is kept, yes/no text becomes a boolean", () => {
    const old: Record<string, unknown> = { strength: 1, guts: 2 };
    migrateActorSystem("miniature", old);
    expect(old.gutsStanding).toEqual({ defendingKing: false, peasant: false, follower: false });
    const kept: Record<string, unknown> = { gutsStanding: { follower: true, peasant: "on" } };
    migrateActorSystem("miniature", kept);
    expect(kept.gutsStanding).toEqual({ defendingKing: false, peasant: true, follower: true });
    const twice = structuredClone(kept);
    migrateActorSystem("miniature", twice);
    expect(twice).toEqual(kept);
  });
});

describe("the circumstances reach the check, its note and the dialog", () => {
  const lang = loadLang();
  const format = (k: string, p: Record<string, string | number>) => fill(lang[k] ?? k, p, (v) => lang[v] ?? v);

  test("a follower's wound check with the Leader fallen is one lower, and the note says why", () => {
    const yanni = sample("Yanni the Yeoman", { follower: true });
    const c = gutsCircumstances(
      yanni,
      { self: model("y", yanni, 1, 20), others: [model("k", nearDeath(sample("King Kingsley")), 1, 2)] },
      rules,
    );
    const trigger = { target: 1, reason: "newWoundLevel" as const, turn: 1 };
    const plain = actions.gutsCheckAction(yanni, trigger, [0, 0, 0, 0], rules, GM);
    const fallen = actions.gutsCheckAction(
      yanni,
      { ...trigger, nobleInMelee: c.nobleInMelee, leaderFallen: c.leaderFallen, defendingKing: c.defendingKing },
      [0, 0, 0, 0],
      rules,
      GM,
    );
    expect(fallen.total).toBe(plain.total - 1);
    expect(gutsTraitLines(fallen.steps, format)).toEqual(["A follower whose Leader has fallen: \u22121"]);
    expect(gutsTraitLines(plain.steps, format)).toEqual([]);
  });

  test("the Check Guts dialog is ticked from them (the player can still change it)", () => {
    const knightly = sample("Sir Knightly", { defendingKing: true });
    const choice = gutsChoiceFor([], undefined, { defendingKing: true, nobleInMelee: false, leaderFallen: true });
    const ctx = gutsDialogContext(knightly, choice);
    expect([ctx.defendingKing, ctx.nobleInMelee, ctx.leaderFallen]).toEqual([true, false, true]);
    expect(gutsChoiceFor([], undefined)).toMatchObject({ defendingKing: false, leaderFallen: false });
  });
});

describe("a friend shoots into the melee: the friends' checks", () => {
  const cand = (id: string, actor: ActorDoc, disposition = 1) => ({ id, ref: `Actor.${id}`, actor, disposition });
  test("of the GM's selection, only the shooter's friends who still fight and have not checked for this shot", () => {
    const roster = friendGutsRoster(
      { ref: "Actor.shooter", disposition: 1 },
      ["Actor.enemy"],
      [
        cand("friend", sample("Sir Knightly")),
        cand("friend", sample("Sir Knightly")),
        cand("shooter", sample("Yanni the Yeoman")),
        cand("enemy", sample("Brutas the Brute"), -1),
        cand("other", sample("Knavely Knave"), -1),
        cand("down", nearDeath(sample("King Kingsley"))),
        cand("done", sample("Yanni the Yeoman")),
        cand("pc", { _id: "pc", name: "Leroy", type: "character", system: {} as never, items: [] }),
      ],
      rules,
      (c) => c.id === "done",
    );
    expect(roster.check.map((c) => c.id)).toEqual(["friend"]);
    expect(roster.skipped.map((s) => s.reason)).toEqual([
      "shooter",
      "target",
      "notFriend",
      "down",
      "done",
      "notMiniature",
    ]);
  });
  test("a shooter without a token: any side", () => {
    expect(
      friendGutsRoster(
        { ref: "Actor.s", disposition: null },
        [],
        [cand("x", sample("Knavely Knave"), -1)],
        rules,
        () => false,
      ).check,
    ).toHaveLength(1);
  });
  test("the record of shots checked for: strings only, newest kept, bounded", () => {
    expect(friendGutsRecord({ friendShotGuts: ["a", 3, "b"] })).toEqual(["a", "b"]);
    expect(friendGutsRecord({ friendShotGuts: "a" })).toEqual([]);
    let r: string[] = [];
    for (let i = 0; i < FRIEND_GUTS_RECORD + 5; i++) r = withFriendGutsRecord(r, `m${i}`);
    expect(r).toHaveLength(FRIEND_GUTS_RECORD);
    expect(r.at(-1)).toBe(`m${FRIEND_GUTS_RECORD + 4}`);
    expect(withFriendGutsRecord(["a", "b"], "a")).toEqual(["b", "a"]);
  });

  test("the card names the friends' checks and offers the GM, and only the GM, the button", () => {
    const card = {
      preset: "miniatures",
      attackerId: "Actor.s",
      attackerName: "Yanni",
      weaponId: "bow",
      weaponName: "Bow",
      userId: "player1",
      situation: { friendShootsIntoMelee: true },
      attackDice: {},
      targets: [
        {
          actorId: "Actor.b",
          name: "Brutas",
          defend: "none",
          dice: {},
          request: {},
          applied: [],
          resolution: {
            outcome: "miss",
            hit: false,
            woundKey: null,
            wound: null,
            numbers: {},
            dice: {},
            steps: [],
            defenderAfter: null,
            followUps: [
              {
                type: "gutsCheck",
                target: "attacker",
                params: { who: "friendsInMelee", target: 0, reason: "friendShoots" },
              },
            ],
          },
        },
      ],
    } as unknown as AttackCardData;
    const view = (user: { id: string; isGM: boolean }) =>
      attackCardContext({ _id: "m1", system: card }, rules, { user, actor: () => undefined });
    expect(view(GM).canGutsFriends).toBe(true);
    expect(view(PLAYER1).canGutsFriends).toBe(false);
    expect(view(GM).targets[0].followUps.map((f) => f.labelKey)).toEqual(["FUDGE.FollowUp.gutsFriendsInMelee"]);
    const self = structuredClone(card);
    (self.targets[0].resolution as { followUps: { params: Record<string, unknown> }[] }).followUps[0].params.who =
      "self";
    expect(
      attackCardContext({ _id: "m1", system: self }, rules, { user: GM, actor: () => undefined }).canGutsFriends,
    ).toBe(false);
  });
});

describe("the duel forecast's circumstances (duelGutsSituation → duelRequest's gutsSituation)", () => {
  const none = { defendingKing: false, nobleInMelee: false, leaderFallen: false, noble: null, leader: null };
  test("a peasant dueling a model of Noble presence is in melee with it; against anyone else only when the table puts it in contact with one", () => {
    const yanni = sample("Yanni the Yeoman", { peasant: true });
    expect(duelGutsSituation(yanni, sample("King Kingsley"), null)).toEqual({ nobleInMelee: true });
    expect(duelGutsSituation(yanni, sample("Knavely Knave"), null)).toEqual({});
    expect(
      duelGutsSituation(yanni, sample("Knavely Knave"), { ...none, nobleInMelee: true, noble: "King Kingsley" }),
    ).toEqual({ nobleInMelee: true });
    // No peasant: the King's presence counts for nothing.
    expect(duelGutsSituation(sample("Yanni the Yeoman"), sample("King Kingsley"), null)).toEqual({});
  });
  test("Leader fallen only from the live table; defending the King from the standing", () => {
    const yanni = sample("Yanni the Yeoman", { follower: true });
    expect(duelGutsSituation(yanni, sample("Knavely Knave"), null)).toEqual({});
    expect(
      duelGutsSituation(yanni, sample("Knavely Knave"), { ...none, leaderFallen: true, leader: "King Kingsley" }),
    ).toEqual({ leaderFallen: true });
    expect(
      duelGutsSituation(sample("Sir Knightly", { defendingKing: true }), sample("Brutas the Brute"), null),
    ).toEqual({ defendingKing: true });
  });
  test("the request carries only the sides with a flag that holds, and only in a Miniatures world", () => {
    const [yanni, king] = [sample("Yanni the Yeoman", { peasant: true }), sample("King Kingsley")];
    const request = duelRequest(yanni, king, rules, {
      a: duelGutsSituation(yanni, king, null),
      b: duelGutsSituation(king, yanni, null),
    });
    expect(request.gutsSituation).toEqual({ a: { nobleInMelee: true } });
    expect(duelRequest(yanni, king, rules, { a: {}, b: {} }).gutsSituation).toBeUndefined();
    // The rules core reads it: Yanni's checks at −1 move the answer.
    expect(duelForecast(request, { budgetMs: 60_000 }).aOut).not.toBe(
      duelForecast(duelRequest(yanni, king, rules), { budgetMs: 60_000 }).aOut,
    );
  });
});
