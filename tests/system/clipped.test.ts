/**
 * FATE Clipped at the table (seed 003: "Loser is -1 penalty to their next action … Box resets after
 * that action … Penalty only taken once"), src/system/clipped.ts: each side's roll on a card
 * resets its own box, hit or miss; re-deriving the card later counts that side as it rolled; Apply
 * never resets a Clipped taken since. The host runs the same on Foundry in
 * tests/foundry-host/clipped.test.ts.
 */
import { describe, expect, test } from "vitest";
import { applyDamage, defend, rollTrait, startAttack, toggleWoundBox, undoDamage } from "../../src/system/actions";
import {
  CLIPPED_LOG_LIMIT,
  attackClippedUpdate,
  clippedLogOf,
  defenceRollUpdate,
  rollsWhileClipped,
  traitClippedUpdate,
} from "../../src/system/clipped";
import { turnEndHealing } from "../../src/system/combat";
import { trackFor } from "../../src/system/combatant";
import { defenceRecordOf } from "../../src/system/integrity";
import { rederiveTarget } from "../../src/system/rederive";
import { trackStatus } from "../../src/rules";
import type { AttackResolution } from "../../src/rules";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { mergeLikeFoundry, safeTrackUpdate } from "../../src/system/updates";
import { GM, PLAYER1, PLAYER2, leroy, rulesFor, theodora } from "./fixtures";

const rules = rulesFor("fate");
const MSG = "message1";

/** The actor after an update, merged as Foundry's server does. */
function after<T extends ActorDoc>(doc: T, u: { system: unknown; flags?: unknown }): T {
  const safe = safeTrackUpdate((doc as ActorDoc).system, u);
  return mergeLikeFoundry(doc, safe) as T;
}
const clippedOn = (doc: ActorDoc) => trackStatus(trackFor(doc, rules)).effects.includes("clipped");
const clip = <T extends ActorDoc>(doc: T): T => after(doc, toggleWoundBox(doc, "clipped:0", rules));
const marks = (doc: ActorDoc) => (trackFor(doc, rules).state as { marks: Record<string, (string | null)[]> }).marks;

/** Leroy attacks Theodora; Theodora defends with `defence` and records the roll (the Defend click). */
function exchange(attacker: ActorDoc, defender: ActorDoc, attack: number[], defence: number[]) {
  const card0 = startAttack(attacker, "broadsword", [defender], {}, { attack }, rules, PLAYER1);
  const card: AttackCardData = { ...card0, targets: defend(card0, defender, defence, PLAYER2).system.targets };
  const defended = after(
    defender,
    defenceRollUpdate(defender, rules, { messageId: MSG, faces: defence, by: PLAYER2.id, at: 1 }),
  );
  return { card, defended, shown: card.targets[0].resolution as AttackResolution };
}

describe("the defender's Defend roll is his next action", () => {
  test.each([
    ["missed", [-1, -1, 0, 0], [1, 1, 0, 0]],
    ["scratched", [0, 0, 0, 0], [1, 0, 0, 0]],
    ["wounded", [1, 1, 1, 1], [-1, -1, -1, -1]],
  ])(
    "a Clipped defender %s: the box resets with the roll, which is recorded as made while Clipped",
    (_why, attack, defence) => {
      const t0 = clip(theodora());
      const { defended, shown } = exchange(leroy(), t0, attack, defence);
      expect(shown.followUps.some((f) => f.type === "clippedConsumed" && f.target === "defender")).toBe(true);
      expect(clippedOn(defended)).toBe(false);
      expect(defenceRecordOf(defended, MSG)).toMatchObject({ faces: defence, clipped: true });
      // The turn's end must not burn a Clipped taken after this roll.
      expect((defended.flags?.["fudge-wounds"] as Record<string, unknown>).clippedAtTurnStart).toBe(false);
    },
  );

  test("a defender who is not Clipped: the roll is recorded as such, and the track is not written", () => {
    const u = defenceRollUpdate(theodora(), rules, { messageId: MSG, faces: [0, 0, 0, 0], by: PLAYER2.id, at: 1 });
    expect(u.system).toEqual({});
    expect(defenceRecordOf(after(theodora(), u), MSG)?.clipped).toBe(false);
    // Another preset: never Clipped.
    expect(
      defenceRecordOf(
        after(
          theodora(),
          defenceRollUpdate(theodora(), rulesFor("fudge"), {
            messageId: MSG,
            faces: [0, 0, 0, 0],
            by: PLAYER2.id,
            at: 1,
          }),
        ),
        MSG,
      )?.clipped,
    ).toBe(false);
  });

  test("Apply after it: the card's wound lands as shown, and a Clipped taken since the roll stays", () => {
    const t0 = clip(theodora());
    const { card, defended, shown } = exchange(leroy(), t0, [1, 1, 1, 1], [-1, -1, -1, -1]);
    // Clipped again by someone else before the GM applies this card.
    const later = clip(defended);
    const live = rederiveTarget(
      card,
      card.targets[0],
      { attacker: leroy(), defender: later, author: PLAYER1, defenceFaces: [-1, -1, -1, -1], messageId: MSG },
      rules,
    );
    expect(live.differs).toBe(false);
    expect(live.resolution.numbers.defenderPenalty).toBe(shown.numbers.defenderPenalty);
    const ap = applyDamage(card, later, GM, rules, { messageId: MSG, resolution: live.resolution, now: 2 });
    const hit = after(later, ap.actorUpdate);
    expect(clippedOn(hit)).toBe(true);
    expect(marks(hit).clipped.filter((m) => m !== null)).toHaveLength(1);
    // Undo gives back the track as Apply found it: the new Clipped, not the one the roll used up.
    const undone = after(
      hit,
      undoDamage({ ...card, targets: ap.cardUpdate.system.targets }, hit, GM, rules, { messageId: MSG }).actorUpdate,
    );
    expect(marks(undone)).toEqual(marks(later));
  });

  test("the re-derivation counts the defender as he rolled (and would not without his record)", () => {
    const t0 = clip(theodora());
    const { card, defended, shown } = exchange(leroy(), t0, [1, 0, 0, 0], [0, 0, 0, 0]);
    expect(shown.outcome).toBe("wound");
    const sides = { attacker: leroy(), defender: defended, author: PLAYER1, defenceFaces: [0, 0, 0, 0] };
    expect(rederiveTarget(card, card.targets[0], { ...sides, messageId: MSG }, rules).differs).toBe(false);
    expect(rederiveTarget(card, card.targets[0], sides, rules).differs).toBe(true);
  });

  test("a defence record from before this release (no `clipped`): Apply uses the box up, as it did", () => {
    const t0 = clip(theodora());
    const { card } = exchange(leroy(), t0, [1, 1, 1, 1], [-1, -1, -1, -1]);
    const legacy = {
      ...t0,
      flags: {
        "fudge-wounds": { defenceLog: { [MSG]: { messageId: MSG, faces: [-1, -1, -1, -1], by: PLAYER2.id, at: 1 } } },
      },
    };
    const live = rederiveTarget(
      card,
      card.targets[0],
      { attacker: leroy(), defender: legacy, author: PLAYER1, defenceFaces: [-1, -1, -1, -1], messageId: MSG },
      rules,
    );
    expect(live.differs).toBe(false);
    const hit = after(
      legacy,
      applyDamage(card, legacy, GM, rules, { messageId: MSG, resolution: live.resolution, now: 2 }).actorUpdate,
    );
    expect(marks(hit).clipped.every((m) => m === null)).toBe(true);
  });
});

describe("the attacker's attack roll is his next action", () => {
  test("posting the card resets his box once, by his owner (or a GM); not for another user, not twice", () => {
    const a = clip(leroy());
    expect(attackClippedUpdate(a, rules, PLAYER2, MSG, 0)).toBeNull();
    expect(attackClippedUpdate(a, rulesFor("fudge"), PLAYER1, MSG, 0)).toBeNull();
    expect(attackClippedUpdate(leroy(), rules, PLAYER1, MSG, 0)).toBeNull();
    expect(attackClippedUpdate(a, rules, GM, MSG, 0)).not.toBeNull();
    const a1 = after(a, attackClippedUpdate(a, rules, PLAYER1, MSG, 5)!);
    expect(clippedOn(a1)).toBe(false);
    expect(clippedLogOf(a1)).toEqual([{ messageId: MSG, by: PLAYER1.id, at: 5 }]);
    // A Clipped he takes afterwards is not this card's to reset.
    expect(attackClippedUpdate(clip(a1), rules, PLAYER1, MSG, 6)).toBeNull();
  });

  test("the card is re-derived with his Clipped; his next attack rolls without it (penalty only taken once)", () => {
    const a = clip(leroy());
    const { card, defended, shown } = exchange(a, theodora(), [1, 1, 0, 0], [0, 0, 0, 0]);
    expect(shown.numbers.attackerPenalty).toBe(-1);
    const a1 = after(a, attackClippedUpdate(a, rules, PLAYER1, MSG, 5)!);
    const sides = { attacker: a1, defender: defended, author: PLAYER1, defenceFaces: [0, 0, 0, 0] };
    const live = rederiveTarget(card, card.targets[0], { ...sides, messageId: MSG }, rules);
    expect(live.differs).toBe(false);
    expect(live.resolution.numbers.attackerPenalty).toBe(-1);
    // Without the record the live attacker is no longer Clipped: the wound would grow.
    expect(rederiveTarget(card, card.targets[0], sides, rules).resolution.numbers.attackerPenalty).toBe(0);
    const next = startAttack(a1, "broadsword", [theodora()], {}, { attack: [0, 0, 0, 0] }, rules, PLAYER1);
    expect(trackStatus(trackFor(a1, rules)).penalty).toBe(0);
    expect(JSON.stringify(next.targets[0].request)).not.toContain('"clipped":["clipped"');
  });

  test("the log keeps the newest records", () => {
    let a = leroy() as ActorDoc;
    for (let i = 0; i < CLIPPED_LOG_LIMIT + 3; i++)
      a = after(a, attackClippedUpdate(clip(a), rules, PLAYER1, `m${i}`, i)!);
    const log = clippedLogOf(a);
    expect(log).toHaveLength(CLIPPED_LOG_LIMIT);
    expect(log[0].messageId).toBe("m3");
  });

  test("a record only makes its own side roll worse (the writer owns that side anyway)", () => {
    const { card, defended } = exchange(leroy(), theodora(), [1, 1, 0, 0], [0, 0, 0, 0]);
    const claimed = {
      ...leroy(),
      flags: { "fudge-wounds": { clippedLog: { [MSG]: { messageId: MSG, by: PLAYER1.id, at: 0 } } } },
    };
    const live = rederiveTarget(
      card,
      card.targets[0],
      { attacker: claimed, defender: defended, author: PLAYER1, defenceFaces: [0, 0, 0, 0], messageId: MSG },
      rules,
    );
    expect(live.resolution.numbers.attackerPenalty).toBe(-1);
    expect(live.resolution.numbers.margin).toBe((card.targets[0].resolution as AttackResolution).numbers.margin - 1);
  });
});

describe("a trait roll from the sheet is his next action too", () => {
  const STR = "attributes.strength";

  test("rolled while Clipped: −1 on that roll, the box resets after it, and his next roll is at full strength (penalty only taken once)", () => {
    const a = clip(leroy());
    expect(rollsWhileClipped(a, rules)).toBe(true);
    expect(rollTrait(a, STR, [0, 0, 0, 0], rules, { user: PLAYER1 }).penalty).toBe(-1);
    const a1 = after(a, traitClippedUpdate(a, rules, PLAYER1)!);
    expect(clippedOn(a1)).toBe(false);
    expect(marks(a1).clipped.every((m) => m === null)).toBe(true);
    expect(rollTrait(a1, STR, [0, 0, 0, 0], rules, { user: PLAYER1 }).penalty).toBe(0);
    // Nothing left to reset: no second write.
    expect(traitClippedUpdate(a1, rules, PLAYER1)).toBeNull();
  });

  test("only other marks stay: a Hurt box is not touched", () => {
    const a = after(clip(leroy()), toggleWoundBox(clip(leroy()), "hurt:0", rules));
    const a1 = after(a, traitClippedUpdate(a, rules, PLAYER1)!);
    expect(marks(a1).hurt.filter((m) => m !== null)).toHaveLength(1);
    expect(clippedOn(a1)).toBe(false);
  });

  test("his owner or a GM writes it; another player, another preset or an unclipped actor: nothing", () => {
    const a = clip(leroy());
    expect(traitClippedUpdate(a, rules, PLAYER2)).toBeNull();
    expect(traitClippedUpdate(a, rulesFor("fudge"), PLAYER1)).toBeNull();
    expect(traitClippedUpdate(leroy(), rules, PLAYER1)).toBeNull();
    expect(traitClippedUpdate(a, rules, GM)).not.toBeNull();
  });

  test("in combat: Clipped at his turn's start, used up by a trait roll; a Clipped he takes later in the turn is not burnt at the turn's end", () => {
    // The turn-start note the GM's client wrote (src/foundry/combat.ts).
    const noted = { ...clip(leroy()), flags: { "fudge-wounds": { clippedAtTurnStart: true } } };
    const rolledOn = after(noted, traitClippedUpdate(noted, rules, PLAYER1)!);
    const flags = rolledOn.flags?.["fudge-wounds"] as Record<string, unknown>;
    expect(flags.clippedAtTurnStart).toBe(false);
    const later = clip(rolledOn);
    expect(turnEndHealing("fate", flags.clippedAtTurnStart === true, trackStatus(trackFor(later, rules)))).toBeNull();
    // Without the roll the note stands and the turn's end burns the Clipped (as before).
    expect(turnEndHealing("fate", true, trackStatus(trackFor(noted, rules)))).toBe("consumeClipped");
  });
});
