/**
 * RULES §2.3 / Fudge §4.64 PC safeguard "nobody becomes Near Death unless they began the round
 * Incapacitated", at the table: whether the defender began the round Incapacitated is never the
 * attacker's claim (integrity.ts refuses it on a card); the table derives it — from the round-start
 * record the GM's client keeps on the combat, else (no combat) from the defender's current track.
 */
import { describe, expect, test } from "vitest";
import { applyDamage, defend, startAttack } from "../../src/system/actions";
import { beganRoundIncapacitated, defenderSituation, trackFor, type RoundStart } from "../../src/system/combatant";
import { rederiveTarget } from "../../src/system/rederive";
import { applyWound, trackStatus } from "../../src/rules";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { GM, leroy, PLAYER2, rulesFor, theodora } from "./fixtures";
import { keyOf } from "../rules/errors";

const ON = rulesFor("fudge", {
  fudgeTrack: { ...rulesFor("fudge").fudgeTrack, safeguardNearDeathFromIncapacitated: true },
});
const OFF = rulesFor("fudge");

/** Leroy (a PC) with a wound of `level` already marked. */
function leroyAt(level: string | null, rules = ON): ActorDoc<"character"> {
  const L = leroy();
  if (level) L.system.woundTrack.state = applyWound(trackFor(L, rules), { level }).track.state as never;
  return L;
}

/** Theodora's best blow (all +) against Leroy's worst defence (all −): a damage number of Near Death or more. */
function bigBlow(L: ActorDoc, rules = ON, roundStart?: RoundStart | null): AttackCardData {
  const card = startAttack(
    theodora(),
    "poleaxe",
    [L],
    {},
    { attack: [1, 1, 1, 1] },
    rules,
    PLAYER2,
    [],
    roundStart === undefined ? {} : { roundStart: () => roundStart },
  );
  return { ...card, targets: defend(card, L, [-1, -1, -1, -1], GM).system.targets };
}

/** Apply as the GM's client does it: re-derived from the live sides, with the table's round-start record. */
function applyLive(card: AttackCardData, L: ActorDoc, rules = ON, roundStart?: RoundStart | null): string {
  const live = rederiveTarget(
    card,
    card.targets[0],
    { attacker: theodora(), defender: L, author: PLAYER2, defenceFaces: [-1, -1, -1, -1], roundStart },
    rules,
  );
  const r = applyDamage(card, L, GM, rules, { messageId: "m1", resolution: live.resolution, differs: live.differs });
  const state = (r.actorUpdate.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"];
  return trackStatus(
    trackFor(
      {
        ...L,
        system: { ...L.system, woundTrack: { ...(L.system as { woundTrack: object }).woundTrack, state } },
      } as ActorDoc,
      rules,
    ),
  ).condition;
}

const record = (incapacitated: string[]): RoundStart => ({ round: 2, actors: ["leroy", "theodora"], incapacitated });

describe("Fudge §4.64: an Incapacitated PC can still be hurt (the table derives 'began the round Incapacitated')", () => {
  test("outside a combat the current track counts: Incapacitated Leroy hit hard becomes Near Death, on the card and on Apply", () => {
    const L = leroyAt("incapacitated");
    expect(trackStatus(trackFor(L, ON)).condition).toBe("cannotAct");
    const card = bigBlow(L);
    expect((card.targets[0].request as { situation: Record<string, unknown> }).situation.beganRoundIncapacitated).toBe(
      true,
    );
    expect(
      (card.targets[0].resolution as { defenderAfter: { status: { condition: string } } }).defenderAfter.status
        .condition,
    ).toBe("dying");
    // Without the fix the wound was absorbed whole and he stayed Incapacitated for ever.
    expect(applyLive(card, L)).toBe("dying");
  });

  test("in a combat, the GM's round-start record decides: Incapacitated when the round began → Near Death", () => {
    const L = leroyAt("incapacitated");
    expect(applyLive(bigBlow(L, ON, record(["leroy"])), L, ON, record(["leroy"]))).toBe("dying");
  });

  test("in a combat, Incapacitated only since the round began → the safeguard holds (the Near Death wound is not recorded)", () => {
    const L = leroyAt("incapacitated");
    const card = bigBlow(L, ON, record([]));
    expect(
      (card.targets[0].request as { situation: Record<string, unknown> }).situation.beganRoundIncapacitated,
    ).toBeUndefined();
    expect(applyLive(card, L, ON, record([]))).toBe("cannotAct");
  });

  test("the card's own request is not what Apply reads: a card built 'outside combat' is applied under the combat's record", () => {
    const L = leroyAt("incapacitated");
    const card = bigBlow(L); // the attacker's client saw no record (request says he began Incapacitated)
    expect(applyLive(card, L, ON, record([]))).toBe("cannotAct");
  });

  test("an unhurt PC hit hard is still stopped at Incapacitated (the safeguard's purpose)", () => {
    const L = leroyAt(null);
    expect(applyLive(bigBlow(L), L)).toBe("cannotAct");
  });

  test("the attacker's situation cannot say it: startAttack replaces any claim with the table's answer", () => {
    const L = leroyAt(null);
    const card = startAttack(
      theodora(),
      "poleaxe",
      [L],
      { beganRoundIncapacitated: true },
      { attack: [1, 1, 1, 1] },
      ON,
      PLAYER2,
    );
    expect(
      (card.targets[0].request as { situation: Record<string, unknown> }).situation.beganRoundIncapacitated,
    ).toBeUndefined();
    // And a card carrying the claim is refused on Apply, as before (integrity.ts CLAIMABLE_SITUATION).
    const forged = { ...card, targets: defend(card, L, [0, 0, 0, 0], GM).system.targets };
    expect(
      keyOf(() =>
        rederiveTarget(
          forged,
          forged.targets[0],
          { attacker: theodora(), defender: L, author: PLAYER2, defenceFaces: [0, 0, 0, 0] },
          ON,
        ),
      ),
    ).toBe("FUDGE.Error.Integrity.Situation");
  });

  test("a combatant the record does not list (joined mid-round) falls back to his current track", () => {
    const L = leroyAt("incapacitated");
    expect(beganRoundIncapacitated(L, ON, { round: 1, actors: ["theodora"], incapacitated: [] })).toBe(true);
    expect(beganRoundIncapacitated(leroyAt("hurt"), ON, { round: 1, actors: ["theodora"], incapacitated: [] })).toBe(
      false,
    );
  });

  test("nothing is added when the world's safeguard is off", () => {
    const L = leroyAt("incapacitated", OFF);
    expect(beganRoundIncapacitated(L, OFF, null)).toBe(false);
    expect(defenderSituation({ modifier: 1 }, L, OFF, null)).toEqual({ modifier: 1 });
    expect(defenderSituation({ modifier: 1 }, leroyAt("incapacitated"), ON, null)).toEqual({
      modifier: 1,
      beganRoundIncapacitated: true,
    });
  });
});
