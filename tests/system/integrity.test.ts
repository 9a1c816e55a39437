/**
 * The integrity rule as pure functions (src/system/integrity.ts): card limits, the GM-side
 * re-derivation from live actors and recorded dice, and the wound log on the target actor as
 * the only source of Undo, "applied once" and Fudge Point refunds. The same forgeries run
 * through the real relay handler over the v13 test host in tests/foundry/integrity.test.ts.
 */
import { describe, expect, test } from "vitest";
import { applyDamage, defend, startAttack, undoDamage } from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { applyWound, trackStatus, type Track, seededRng } from "../../src/rules";

/** A Hurt marked on a fresh track (Fudge §4.57). */
const applyWoundState = (t: Track): unknown => applyWound(t, { level: "hurt" }).track.state;
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import {
  CARD_LIMITS,
  WOUND_LOG_LIMIT,
  checkCard,
  defenceFacesOf,
  defenceLogUpdate,
  woundLogOf,
  type WoundRecord,
} from "../../src/system/integrity";
import { rederiveTarget } from "../../src/system/rederive";
import { GM, PLAYER1, PLAYER2, PRESET_IDS, STRANGER, knight, leroy, rulesFor, theodora } from "./fixtures";
import { mergeLikeFoundry } from "../../src/system/updates";
import { keyOf } from "../rules/errors";
import { findSample } from "../../src/cli/samples";

const rules = rulesFor("fudge");
const MSG = "message1";

/** Leroy (PLAYER1) attacks Theodora (PLAYER2) with his broadsword; Theodora has defended. */
function honestCard(attack = [1, 1, 0, 0], defence = [0, 0, 0, -1]): AttackCardData {
  const card = startAttack(leroy(), "broadsword", [theodora()], { modifier: 0 }, { attack }, rules, PLAYER1);
  return { ...card, targets: defend(card, theodora(), defence, PLAYER2).system.targets };
}
const live = (
  over: Partial<{
    attacker: ActorDoc | null;
    defender: ActorDoc;
    author: typeof PLAYER1 | null;
    defenceFaces: number[] | null;
  }> = {},
) => ({ attacker: leroy(), defender: theodora(), author: PLAYER1, ...over });
const withTarget = (card: AttackCardData, patch: Record<string, unknown>): AttackCardData => ({
  ...card,
  targets: [{ ...card.targets[0], ...patch }],
});
const withFlags = (a: ActorDoc, flags: unknown): ActorDoc => ({ ...a, flags: flags as Record<string, unknown> });
/** The actor after an Apply/Undo update: its new track state and wound log. */
function updated(a: ActorDoc<"character">, u: { system: unknown; flags?: unknown }): ActorDoc<"character"> {
  const state = (u.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"];
  return {
    ...a,
    flags: u.flags as Record<string, unknown>,
    system: { ...a.system, woundTrack: { ...a.system.woundTrack, state } },
  };
}

describe("card limits", () => {
  test("a real card passes unchanged", () => {
    const c = honestCard();
    expect(checkCard(c)).toBe(c);
  });
  test.each([
    ["not an object", "x"],
    [
      "too many targets",
      {
        ...honestCard(),
        targets: Array.from({ length: CARD_LIMITS.targets + 1 }, (_, i) => ({
          ...honestCard().targets[0],
          actorId: `Actor.${i}`,
        })),
      },
    ],
    ["the same target twice", { ...honestCard(), targets: [honestCard().targets[0], honestCard().targets[0]] }],
    ["a huge name", withTarget(honestCard(), { name: "x".repeat(10_000) })],
    ["absurd dice", withTarget(honestCard(), { dice: { attack: [1e9, 0, 0, 0] } })],
    ["too many faces", withTarget(honestCard(), { dice: { attack: Array(1000).fill(0) } })],
    ["an unknown preset", { ...honestCard(), preset: "gurps" }],
    [
      "too many steps",
      withTarget(honestCard(), {
        resolution: { outcome: "wound", steps: Array(CARD_LIMITS.steps + 1).fill({ key: "x" }) },
      }),
    ],
    [
      "too many follow-ups",
      withTarget(honestCard(), {
        resolution: { outcome: "wound", steps: [], followUps: Array(CARD_LIMITS.followUps + 1).fill({}) },
      }),
    ],
  ])("%s is refused with a clear error", (_why, raw) => {
    expect(keyOf(() => checkCard(raw))).toBe("FUDGE.Error.Card.Malformed");
  });
  test("a bloated card is refused before anything reads it", () => {
    const big = withTarget(honestCard(), { request: { padding: "x".repeat(CARD_LIMITS.chars) } });
    expect(keyOf(() => checkCard(big))).toBe("FUDGE.Error.Card.TooLarge");
  });
});

describe("re-derivation from the live actors and the recorded dice", () => {
  test("an honest card re-derives to what it shows", () => {
    const c = honestCard();
    const r = rederiveTarget(c, c.targets[0], live(), rules);
    expect(r.differs).toBe(false);
    expect(r.resolution.woundKey).toBe((c.targets[0].resolution as { woundKey: string }).woundKey);
  });

  test("a forged outcome ({wound: dead}) is ignored: the re-derived wound is applied and the card says it differed", () => {
    const c = honestCard();
    const forged = withTarget(c, {
      resolution: { ...(c.targets[0].resolution as object), woundKey: "dead", wound: { level: "dead" }, followUps: [] },
    });
    const r = rederiveTarget(forged, forged.targets[0], live(), rules);
    expect(r.differs).toBe(true);
    expect(r.resolution.woundKey).toBe("veryHurt");
    const ap = applyDamage(forged, theodora(), GM, rules, {
      messageId: MSG,
      resolution: r.resolution,
      differs: r.differs,
    });
    const after = {
      ...theodora(),
      system: {
        ...theodora().system,
        woundTrack: {
          ...theodora().system.woundTrack,
          state: (ap.actorUpdate.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"],
        },
      },
    };
    expect(trackStatus(trackFor(after, rules)).condition).not.toBe("dead");
    expect(ap.cardUpdate.system.targets[0].differs).toBe(true);
  });

  test("a forged request (a Legendary attacker) is never read: the live attacker is", () => {
    const c = honestCard();
    const req = structuredClone(c.targets[0].request) as { attacker: { skill: number } };
    req.attacker.skill = 10;
    const r = rederiveTarget(withTarget(c, { request: req }), c.targets[0], live(), rules);
    expect(r.resolution.numbers.relativeDegree).toBe(
      (c.targets[0].resolution as { numbers: { relativeDegree: number } }).numbers.relativeDegree,
    );
  });

  test("an attacker changed since the attack: the live result is used and marked as different", () => {
    const c = honestCard();
    const stronger = leroy();
    stronger.system.attributes.strength = 3;
    const r = rederiveTarget(c, c.targets[0], live({ attacker: stronger }), rules);
    expect(r.differs).toBe(true);
  });

  test("the attacker must belong to the message's author (not the card's userId)", () => {
    const c = { ...honestCard(), userId: STRANGER.id };
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live({ author: STRANGER }), rules))).toBe(
      "FUDGE.Error.Integrity.NotAuthorsAttacker",
    );
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live({ author: null }), rules))).toBe(
      "FUDGE.Error.Integrity.NotAuthorsAttacker",
    );
    expect(rederiveTarget(c, c.targets[0], live({ author: GM }), rules).differs).toBe(false); // a GM may post for anyone
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live({ attacker: null }), rules))).toBe(
      "FUDGE.Error.Integrity.AttackerGone",
    );
  });

  test.each([
    ["a face out of range", { dice: { attack: [5, 5, 5, 5], defense: [0, 0, 0, -1] } }],
    ["a missing face", { dice: { attack: [1, 1, 1], defense: [0, 0, 0, -1] } }],
    ["a roll this attack does not make", { dice: { attack: [1, 1, 0, 0], defense: [0, 0, 0, -1], bonus: [1] } }],
    ["a per-target attack roll unlike the card's", { dice: { attack: [1, 1, 1, 1], defense: [0, 0, 0, -1] } }],
  ])("recorded dice are range-checked: %s is refused", (_why, patch) => {
    const c = withTarget(honestCard(), patch);
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live(), rules))).toBe("FUDGE.Error.Integrity.Dice");
  });

  test("a roll the resolution does not read is range-checked too: a miss with forged damage dice is refused, honest ones re-derive", () => {
    // The world rolls 1dF damage; on a miss the card still records it (rolled before the defence).
    const dfRules = { ...rules, fudge: { ...rules.fudge, damageRoll: "dfNumber" as const } };
    const card = startAttack(
      leroy(),
      "broadsword",
      [theodora()],
      { modifier: 0 },
      { attack: [-1, -1, -1, -1], damage: [1] },
      dfRules,
      PLAYER1,
    );
    const c = { ...card, targets: defend(card, theodora(), [1, 1, 1, 1], PLAYER2).system.targets };
    const honest = rederiveTarget(c, c.targets[0], live(), dfRules);
    expect(honest.resolution.outcome).toBe("miss");
    expect(honest.resolution.dice.damage).toBeUndefined(); // not read …
    const forged = withTarget(c, { dice: { ...c.targets[0].dice, damage: [7] } });
    expect(keyOf(() => rederiveTarget(forged, forged.targets[0], live(), dfRules))).toBe("FUDGE.Error.Integrity.Dice"); // … yet checked
  });

  test("per-target situations (the table's range per target; RULES §3 \"Ranged: −1 per full or partial multiple of the weapon's Range beyond the first\"): the GM re-derives each target under its own, and range-checks it", () => {
    const mini = rulesFor("miniatures");
    const yanni = {
      ...(findSample("Yanni the Yeoman", "yanni") as ActorDoc),
      ownership: { default: 0, [PLAYER1.id]: 3 },
    };
    const bow = (yanni.items ?? []).find((i) => i.name === "Shortbow")!._id;
    const near = knight("near", "Near");
    const far = knight("far", "Far");
    // Shortbow Range 18": 10" is within Range, 40" is −2.
    const card = startAttack(
      yanni,
      bow,
      [near, far],
      {},
      { attack: [1, 1, 1, 0], crash: [0, 0, 0, 0] },
      mini,
      PLAYER1,
      [
        { rangeInches: 10, inContact: false },
        { rangeInches: 40, inContact: false },
      ],
    );
    const penalty = (i: number) =>
      (card.targets[i].resolution as { numbers: Record<string, number> }).numbers.rangePenalty;
    expect([penalty(0), penalty(1)]).toEqual([0, -2]);
    expect(card.targets.map((t) => t.situation)).toEqual([
      { rangeInches: 10, inContact: false },
      { rangeInches: 40, inContact: false },
    ]);
    expect(card.situation).toEqual({});
    const liveMini = (defender: ActorDoc) => ({ attacker: yanni, defender, author: PLAYER1 });
    const r = [
      rederiveTarget(card, card.targets[0], liveMini(near), mini),
      rederiveTarget(card, card.targets[1], liveMini(far), mini),
    ];
    expect(r.map((x) => x.differs)).toEqual([false, false]);
    expect(r.map((x) => x.resolution.numbers.rangePenalty)).toEqual([0, -2]);
    // A target's situation is a claim like the card's: range-checked, and checked for shape.
    const forged = { ...card, targets: [{ ...card.targets[0], situation: { gangUp: 99 } }, card.targets[1]] };
    expect(keyOf(() => rederiveTarget(forged, forged.targets[0], liveMini(near), mini))).toBe(
      "FUDGE.Error.Integrity.Situation",
    );
    expect(keyOf(() => checkCard({ ...card, targets: [{ ...card.targets[0], situation: [1] }] }))).toBe(
      "FUDGE.Error.Card.Malformed",
    );
    // A card without target situations (older cards) re-derives under the card's situation, as before.
    const old = startAttack(
      yanni,
      bow,
      [far],
      { rangeInches: 40 },
      { attack: [1, 1, 1, 0], crash: [0, 0, 0, 0] },
      mini,
      PLAYER1,
    );
    expect(old.targets[0].situation).toBeUndefined();
    expect(rederiveTarget(old, old.targets[0], liveMini(far), mini).resolution.numbers.rangePenalty).toBe(-2);
  });

  test("a situation an attack may not claim (a GM-judgement level, an out-of-range modifier) is refused", () => {
    for (const situation of [{ gmLevel: "dead" }, { modifier: 50 }, { modifier: 1.5 }, { spendFudgePoint: true }]) {
      const c = { ...honestCard(), situation };
      expect(keyOf(() => rederiveTarget(c, c.targets[0], live(), rules))).toBe("FUDGE.Error.Integrity.Situation");
    }
  });

  test("every option the attack dialog offers may be claimed (a card made through the dialog re-derives)", async () => {
    const { situationFields } = await import("../../src/system/attack-dialog");
    const { CLAIMABLE_SITUATION } = await import("../../src/system/rederive");
    const weapon = { system: { ranged: true, stunCapable: true } } as never;
    for (const p of PRESET_IDS) {
      const r = rulesFor(p);
      const fields = situationFields(p, weapon, {}, { ...r, fudge: { ...r.fudge, headBlowKnockout: true } });
      expect(
        fields.map((f) => f.name).filter((n) => !(n in CLAIMABLE_SITUATION[p])),
        p,
      ).toEqual([]);
      // A number the form accepts is one the card may carry.
      for (const f of fields.filter((x) => x.type === "number")) {
        const spec = (CLAIMABLE_SITUATION[p] as Record<string, { min: number; max: number }>)[f.name];
        expect([f.min >= spec.min, f.max <= spec.max], `${p} ${f.name}`).toEqual([true, true]);
      }
    }
    // The options a datacard's gift or fault adds (Skilled backstabber, Poor melee combatant).
    const { findSample } = await import("../../src/cli/samples");
    const parties = { attacker: findSample("Knavely Knave", "a"), targets: [findSample("Yanni the Yeoman", "b")] };
    const mini = situationFields("miniatures", null, {}, rulesFor("miniatures"), parties).map((f) => f.name);
    expect(mini).toEqual(expect.arrayContaining(["fromBehind", "disengaging"]));
    expect(mini.filter((n) => !(n in CLAIMABLE_SITUATION.miniatures))).toEqual([]);
    const c = { ...honestCard(), situation: { stun: true, headBlow: true } };
    expect(
      rederiveTarget(c, c.targets[0], live(), { ...rules, fudge: { ...rules.fudge, headBlowKnockout: true } })
        .resolution.outcome,
    ).toBeTypeOf("string");
  });

  test("no defence roll yet, a changed preset, a target that is not the card's: refused", () => {
    const pending = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 0, 0] }, rules, PLAYER1);
    expect(keyOf(() => rederiveTarget(pending, pending.targets[0], live(), rules))).toBe("FUDGE.Error.NotResolved");
    const c = honestCard();
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live(), rulesFor("fate")))).toBe(
      "FUDGE.Error.Integrity.PresetChanged",
    );
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live({ defender: leroy() }), rules))).toBe(
      "FUDGE.Error.NotATarget",
    );
  });
});

describe("the defence roll is the defender's record, not the card's", () => {
  test("an attacker who rewrites the defence faces on his own card gets the recorded roll", () => {
    const c = honestCard([1, 1, 0, 0], [1, 1, 1, 1]); // Theodora rolled well: a miss
    const forged = withTarget(c, {
      dice: { ...c.targets[0].dice, defense: [-1, -1, -1, -1] },
      defendDice: [-1, -1, -1, -1],
    });
    const recorded = withFlags(
      theodora(),
      defenceLogUpdate(theodora(), { messageId: MSG, faces: [1, 1, 1, 1], by: PLAYER2.id, at: 1 }),
    );
    const honest = rederiveTarget(
      c,
      c.targets[0],
      live({ defender: recorded, defenceFaces: defenceFacesOf(recorded, MSG) }),
      rules,
    );
    const r = rederiveTarget(
      forged,
      forged.targets[0],
      live({ defender: recorded, defenceFaces: defenceFacesOf(recorded, MSG) }),
      rules,
    );
    expect(r.resolution.woundKey).toBe(honest.resolution.woundKey);
    expect(r.resolution.dice.defense).toEqual([1, 1, 1, 1]);
  });
  test("no recorded defence: not resolved, whatever the card says", () => {
    const c = honestCard();
    expect(keyOf(() => rederiveTarget(c, c.targets[0], live({ defenceFaces: null }), rules))).toBe(
      "FUDGE.Error.NotResolved",
    );
  });
});

describe("the wound log on the target actor", () => {
  test("applied once is the log's word: resetting the card's applied list does not apply twice", () => {
    const c = honestCard();
    const ap = applyDamage(c, theodora(), GM, rules, { messageId: MSG, now: 1 });
    const t1 = withFlags(theodora(), ap.actorUpdate.flags);
    const forged = withTarget(c, { applied: [] });
    expect(keyOf(() => applyDamage(forged, t1, GM, rules, { messageId: MSG }))).toBe("FUDGE.Error.AlreadyApplied");
    // Another card's wound on the same actor is its own record.
    expect(() => applyDamage(c, t1, GM, rules, { messageId: "message2" })).not.toThrow();
  });

  test("Undo restores the log's before, never the card's; a forged before cannot heal a foe", () => {
    const c = honestCard();
    const ap = applyDamage(c, theodora(), GM, rules, { messageId: MSG, now: 1 });
    const wounded = updated(theodora(), ap.actorUpdate);
    const forgedCard = withTarget({ ...c, targets: ap.cardUpdate.system.targets }, {});
    forgedCard.targets[0].applied[0].before = { marks: { forged: true } };
    const un = undoDamage(forgedCard, wounded, GM, rules, { messageId: MSG });
    expect((un.actorUpdate.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"]).toEqual(
      trackFor(theodora(), rules).state,
    );
    // With no record (a card that claims an apply the log never saw), there is nothing to undo.
    expect(keyOf(() => undoDamage(forgedCard, theodora(), GM, rules, { messageId: MSG }))).toBe(
      "FUDGE.Error.NothingToUndo",
    );
  });

  test("Fudge Points come back only by a record that says one was spent", () => {
    const c = honestCard();
    const ap = applyDamage(c, theodora(), GM, rules, { messageId: MSG, now: 1 });
    const cardClaim = { ...c, targets: ap.cardUpdate.system.targets };
    cardClaim.targets[0].applied[0].fudgePointSpent = true;
    const wounded = updated(theodora(), ap.actorUpdate);
    const un = undoDamage(cardClaim, wounded, GM, rules, { messageId: MSG });
    expect((un.actorUpdate.system as { fudgePoints?: number }).fudgePoints).toBeUndefined();
  });

  test("Undo's permission: the applier (from the log), the target's owner or a GM; not whoever the card names", () => {
    const c = honestCard();
    const ap = applyDamage(c, theodora(), PLAYER1, rules, { messageId: MSG, relayed: true });
    const wounded = updated(theodora(), ap.actorUpdate);
    const forged = {
      ...c,
      targets: ap.cardUpdate.system.targets.map((t) => ({
        ...t,
        applied: t.applied.map((a) => ({ ...a, userId: STRANGER.id })),
      })),
    };
    expect(keyOf(() => undoDamage(forged, wounded, STRANGER, rules, { messageId: MSG, relayed: true }))).toBe(
      "FUDGE.Error.NotYoursToUndo",
    );
    expect(() => undoDamage(forged, wounded, PLAYER1, rules, { messageId: MSG, relayed: true })).not.toThrow();
  });

  const logRec = (i: number): WoundRecord => ({
    messageId: `m${i}`,
    by: GM.id,
    at: i + 1,
    before: null,
    after: null,
    fudgePointSpent: false,
    undone: true,
    undoneBy: GM.id,
  });
  const fullLog = () => Object.fromEntries(Array.from({ length: WOUND_LOG_LIMIT }, (_, i) => [`m${i}`, logRec(i)]));

  test("the log is capped: one record sent, the oldest dropped, the horizon moved past its card", () => {
    let a: ActorDoc = withFlags(theodora(), { "fudge-wounds": { woundLog: fullLog() } });
    expect(woundLogOf(a)).toHaveLength(WOUND_LOG_LIMIT);
    const ap = applyDamage(honestCard(), a, GM, rules, { messageId: MSG });
    const scope = (ap.actorUpdate.flags as { "fudge-wounds": { woundLog: object; logHorizon: object } })[
      "fudge-wounds"
    ];
    expect(Object.keys(scope.woundLog)).toEqual([MSG, "-=m0"]);
    expect(scope.logHorizon).toEqual({ woundLog: 1 }); // m0's card time (its write time: it has no `posted`)
    a = withFlags(a, mergeLikeFoundry(a.flags, ap.actorUpdate.flags));
    const log = woundLogOf(a);
    expect(log).toHaveLength(WOUND_LOG_LIMIT);
    expect(log.at(-1)!.messageId).toBe(MSG);
  });

  test("malformed entries are ignored, and a log holding them is rewritten whole in one replacement", () => {
    let a: ActorDoc = withFlags(theodora(), {
      "fudge-wounds": { woundLog: { ...fullLog(), junk: { junk: true }, x: "x", m99: logRec(5) } },
    });
    expect(woundLogOf(a)).toHaveLength(WOUND_LOG_LIMIT); // junk, and a record filed under another card's key, are ignored
    const ap = applyDamage(honestCard(), a, GM, rules, { messageId: MSG });
    const scope = (ap.actorUpdate.flags as { "fudge-wounds": Record<string, Record<string, unknown>> })["fudge-wounds"];
    expect(scope.woundLog).toBeUndefined();
    expect(Object.keys(scope["==woundLog"])).toHaveLength(WOUND_LOG_LIMIT);
    expect(Object.keys(scope["==woundLog"])).not.toContain("junk");
    a = withFlags(a, mergeLikeFoundry(a.flags, ap.actorUpdate.flags));
    expect(Object.keys((a.flags!["fudge-wounds"] as { woundLog: object }).woundLog)).toHaveLength(WOUND_LOG_LIMIT);
    expect(woundLogOf(a).at(-1)!.messageId).toBe(MSG);
  });

  test("a card posted at or before the horizon with no record left is refused; a newer one is applied", () => {
    const a: ActorDoc = withFlags(theodora(), {
      "fudge-wounds": { woundLog: fullLog(), logHorizon: { woundLog: 1_000 } },
    });
    expect(keyOf(() => applyDamage(honestCard(), a, GM, rules, { messageId: MSG, posted: 1_000 }))).toBe(
      "FUDGE.Error.CardBeyondLog",
    );
    expect(() => applyDamage(honestCard(), a, GM, rules, { messageId: MSG, posted: 1_001 })).not.toThrow();
    // A record still in the log decides by itself (Undo, then Apply again, is allowed).
    expect(() => applyDamage(honestCard(), a, GM, rules, { messageId: "m3", posted: 5 })).not.toThrow();
  });
});

describe("every preset: an honest card re-derives to what it showed", () => {
  test.each(PRESET_IDS)("%s", (preset) => {
    const r = rulesFor(preset);
    const mini = preset === "miniatures";
    const attacker = mini ? knight() : leroy();
    const defender = mini ? knight("yanni", "Yanni") : theodora();
    const weapon = mini ? "knightSword" : "broadsword";
    for (let seed = 1; seed <= 20; seed++) {
      let card = startAttack(attacker, weapon, [defender], {}, seededRng(seed), r, PLAYER1);
      if (card.targets[0].defend === "pending")
        card = { ...card, targets: defend(card, defender, [0, 0, 1, -1], PLAYER2).system.targets };
      const got = rederiveTarget(card, card.targets[0], { attacker, defender, author: PLAYER1 }, r);
      expect(got.differs, `${preset} seed ${seed}`).toBe(false);
    }
  });
});

describe("Fudge Points move only by the defender's owner", () => {
  test("the attacker cannot spend the defender's Fudge Point for him (even through the GM)", () => {
    const r = rulesFor("fudge", { fudgeTrack: { ...rulesFor("fudge").fudgeTrack, safeguardFudgePoint: true } });
    const c = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 1, 1] }, r, PLAYER1);
    const card = { ...c, targets: defend(c, theodora(), [-1, -1, -1, -1], PLAYER2).system.targets };
    expect(
      keyOf(() => applyDamage(card, theodora(), PLAYER1, r, { messageId: MSG, relayed: true, spendFudgePoint: true })),
    ).toBe("FUDGE.Error.FudgePointNotYours");
  });
});

describe("the attacker counts as he rolled: wounds applied to him after his card was posted do not count (attackerAsPosted)", () => {
  const volt = rulesFor("volt");
  const POSTED = 1_000_000;
  /** Leroy's broadsword on Theodora (Volt: attack 16 against Guard 10, dice 12 and 14: a Full Hit). */
  const voltCard = (a: ActorDoc = leroy()) =>
    startAttack(a, "broadsword", [theodora()], {}, { attack: [12, 14], damage: [5, 9] }, volt, PLAYER1);
  /** Leroy with `state` on his track, put there at time `at` by a card "counter" (his wound log's record: before = unwounded). */
  function wounded(state: unknown, at: number, r = volt): ActorDoc {
    const base = leroy();
    const before = trackFor(base, r).state;
    const record: WoundRecord = {
      messageId: "counter",
      by: GM.id,
      at,
      before,
      after: state,
      fudgePointSpent: false,
      undone: false,
      undoneBy: "",
    };
    return {
      ...base,
      flags: { "fudge-wounds": { woundLog: { counter: record } } },
      system: { ...base.system, woundTrack: { ...base.system.woundTrack, state } },
    } as ActorDoc;
  }
  const injury9 = { marks: { "9": "injury" } };

  test('Volt: "penalty = that of the highest marked row" when the dice were rolled — an Injury on row 9 (−5) applied since leaves his Full Hit as it was', () => {
    const c = voltCard();
    const shown = c.targets[0].resolution as { outcome: string; numbers: { hits: number } };
    expect([shown.outcome, shown.numbers.hits]).toEqual(["wound", 2]);
    const after = wounded(injury9, POSTED + 5000);
    expect(trackStatus(trackFor(after, volt)).penalty).toBe(-5);
    const r = rederiveTarget(
      c,
      c.targets[0],
      { attacker: after, defender: theodora(), author: PLAYER1, postedAt: POSTED },
      volt,
    );
    expect([r.resolution.outcome, (r.resolution.numbers as { hits: number }).hits, r.differs]).toEqual([
      "wound",
      2,
      false,
    ]);
    // Without the card's time, the live attacker at −5 misses: what Apply did before.
    expect(
      rederiveTarget(c, c.targets[0], { attacker: after, defender: theodora(), author: PLAYER1 }, volt).resolution
        .outcome,
    ).toBe("miss");
  });

  test("Volt: knocked out since (a Stun above the top row), his earlier attack still lands", () => {
    const c = voltCard();
    const out = wounded({ marks: { "12": "stun" } }, POSTED + 5000);
    expect(trackStatus(trackFor(out, volt)).canAct).toBe(false);
    expect(
      keyOf(() => rederiveTarget(c, c.targets[0], { attacker: out, defender: theodora(), author: PLAYER1 }, volt)),
    ).toBe("FUDGE.Volt.Error.CannotAct");
    expect(
      rederiveTarget(c, c.targets[0], { attacker: out, defender: theodora(), author: PLAYER1, postedAt: POSTED }, volt)
        .differs,
    ).toBe(false);
  });

  test("a wound applied before the card was posted counts; an undone one does not; a record that no longer fits the track leaves the live attacker", () => {
    const earlier = wounded(injury9, POSTED - 1);
    const c = voltCard(earlier);
    expect((c.targets[0].resolution as { outcome: string }).outcome).toBe("miss");
    expect(
      rederiveTarget(
        c,
        c.targets[0],
        { attacker: earlier, defender: theodora(), author: PLAYER1, postedAt: POSTED },
        volt,
      ).differs,
    ).toBe(false);
    const later = wounded(injury9, POSTED + 1);
    const record = woundLogOf(later)[0];
    const undone = withFlags(later, { "fudge-wounds": { woundLog: { counter: { ...record, undone: true } } } });
    expect(
      rederiveTarget(
        voltCard(),
        voltCard().targets[0],
        { attacker: undone, defender: theodora(), author: PLAYER1, postedAt: POSTED },
        volt,
      ).resolution.outcome,
    ).toBe("miss");
    const reshaped = withFlags(later, {
      "fudge-wounds": { woundLog: { counter: { ...record, before: { marks: { "40": "injury" } } } } },
    });
    expect(
      rederiveTarget(
        voltCard(),
        voltCard().targets[0],
        { attacker: reshaped, defender: theodora(), author: PLAYER1, postedAt: POSTED },
        volt,
      ).resolution.outcome,
    ).toBe("miss");
  });

  test("Fudge §4.51: Hurt (−1) since he rolled, his attack keeps the skill he rolled with", () => {
    const c = honestCard([1, 0, 0, 0], [0, 0, 0, 0]);
    const hurtState = trackFor(
      {
        ...leroy(),
        system: { ...leroy().system, woundTrack: { ...leroy().system.woundTrack, state: null } },
      } as ActorDoc,
      rules,
    );
    const marked = applyWoundState(hurtState);
    const hurt = wounded(marked, POSTED + 10, rules);
    expect(trackStatus(trackFor(hurt, rules)).penalty).toBe(-1);
    expect(rederiveTarget(c, c.targets[0], { ...live({ attacker: hurt }), postedAt: POSTED }, rules).differs).toBe(
      false,
    );
    expect(rederiveTarget(c, c.targets[0], live({ attacker: hurt }), rules).differs).toBe(true);
  });
});
