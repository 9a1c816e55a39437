/**
 * An attacker who may not attack is refused when he attacks, before any die is rolled — not when
 * the defender clicks Defend on a card that waits for him (the Fudge and FATE opposed exchange).
 *
 *  - Fudge §4.62: "a stunned character cannot attack or all-out defend"; Very Stunned: "no attacks".
 *  - Fudge §4.57: an Incapacitated character "can't fight any more".
 *  - FATE ladder: a Taken Out character is out of the scene.
 */
import { describe, expect, it } from "vitest";
import { defend, planAttack, startAttack } from "../../src/system/actions";
import { attackOdds } from "../../src/system/attack-dialog";
import { trackFor } from "../../src/system/combatant";
import { actorSheetContext } from "../../src/system/sheet";
import { type SlotDice } from "../../src/system/rolling";
import { applyWound, trackStatus } from "../../src/rules";
import type { Rng } from "../../src/rules";
import type { ActorDoc, WorldRules } from "../../src/system/data";
import { PLAYER1, PLAYER2, goblin, leroy, rulesFor, theodora } from "./fixtures";
import { caught, keyOf } from "../rules/errors";

/** The actor with these wounds marked on his track (as the rules core marks them). */
function wounded<T extends ActorDoc<"character">>(actor: T, rules: WorldRules, wounds: Record<string, unknown>[]): T {
  let t = trackFor(actor, rules);
  for (const w of wounds) t = applyWound(t, w).track;
  return { ...actor, system: { ...actor.system, woundTrack: { ...actor.system.woundTrack, state: t.state } } };
}

// Dice sources that fail the test if a single die is asked of them.
const noRng: Rng = () => {
  throw new Error("a die was rolled");
};
const noSlotDice: SlotDice = {
  faces() {
    throw new Error("a die was rolled");
  },
};

const fudge = rulesFor("fudge");
const CASES: [string, Record<string, unknown>[], string][] = [
  ["Stunned (Fudge §4.62)", [{ level: "hurt", stun: true }], "FUDGE.Error.Fudge.StunnedNoAttack"],
  ["Very Stunned (Fudge §4.62)", [{ level: "veryHurt", stun: true }], "FUDGE.Error.Fudge.StunnedNoAttack"],
  ["Incapacitated (Fudge §4.57)", [{ level: "incapacitated" }], "FUDGE.Error.Fudge.CannotAct"],
];

describe("Fudge: startAttack refuses an attacker who may not attack, before any die", () => {
  for (const [label, wounds, key] of CASES) {
    it(`${label}: ${key}, and no die is rolled`, async () => {
      const a = wounded(leroy(), fudge, wounds);
      const build = (dice: Parameters<typeof startAttack>[4]) => () =>
        startAttack(a, "broadsword", [theodora()], {}, dice, fudge, PLAYER1);
      // Every kind of dice source: a random source, slot dice (the hosts' roll path), recorded faces.
      expect(keyOf(build(noRng))).toBe(key);
      expect(keyOf(build(noSlotDice))).toBe(key);
      expect(keyOf(build({ attack: [1, 1, 1, 1] }))).toBe(key);
      // Every target: the attack is refused for all, not posted for some.
      expect(keyOf(() => startAttack(a, "broadsword", [theodora(), goblin()], {}, noRng, fudge, PLAYER1))).toBe(key);
      // The hosts' roll path (Foundry's Rolls, the playground's dice): the attack's plan refuses it, before any die.
      expect(() => planAttack(a, "broadsword", [theodora()], {}, fudge, PLAYER1)).toThrow(
        expect.objectContaining({ key, params: expect.objectContaining({ name: "Leroy" }) }),
      );
    });
  }

  it("a fit attacker still posts a card waiting for Defend", () => {
    const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 1, 1] }, fudge, PLAYER1);
    expect(card.targets[0].defend).toBe("pending");
  });

  it("the defender's own stun is his, read at Defend: a stunned defender with all-out defence is not refused at attack time", () => {
    const t = wounded(theodora(), fudge, [{ level: "hurt", stun: true }]);
    expect(trackStatus(trackFor(t, fudge)).effects).toEqual(["stunned"]);
    const card = startAttack(
      leroy(),
      "broadsword",
      [t],
      { allOutDefense: true },
      { attack: [0, 0, 0, 0] },
      fudge,
      PLAYER1,
    );
    expect(card.targets[0].defend).toBe("pending");
    // Fudge §4.62 "cannot … all-out defend": refused when he defends, with his own track.
    expect(keyOf(() => defend(card, t, [0, 0, 0, 0], PLAYER2))).toBe("FUDGE.Error.Fudge.StunnedNoAllOutDefense");
  });

  it("the attack dialog's odds and the sheet's Attack tooltip show the refusal instead of failing", () => {
    const a = wounded(leroy(), fudge, [{ level: "hurt", stun: true }]);
    const weapon = a.items!.find((i) => i._id === "broadsword")! as Parameters<typeof attackOdds>[1];
    const odds = attackOdds(a, weapon, theodora(), fudge);
    expect(odds.error?.key).toBe("FUDGE.Error.Fudge.StunnedNoAttack");
    expect(odds.segments).toEqual([]);
    const ctx = actorSheetContext(a, fudge, { editable: true, owner: true, targets: [theodora()] });
    const row = ctx.weapons.find((w) => w.id === "broadsword")!;
    expect(row.odds.map((o) => o.error?.key)).toEqual(["FUDGE.Error.Fudge.StunnedNoAttack"]);
  });
});

describe("FATE: a Taken Out attacker is refused at attack time, before any die", () => {
  const fate = rulesFor("fate");
  it("FATE ladder: Taken Out is out of the scene — FUDGE.Error.Fate.TakenOut, nothing rolled", async () => {
    const a = wounded(leroy(), fate, [{ margin: 9 }]);
    expect(trackStatus(trackFor(a, fate)).condition).toBe("takenOut");
    const e = caught(() => startAttack(a, "broadsword", [theodora()], {}, noRng, fate, PLAYER1));
    expect([e.key, e.field]).toEqual(["FUDGE.Error.Fate.TakenOut", "attacker.track"]);
    expect(() => planAttack(a, "broadsword", [theodora()], {}, fate, PLAYER1)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.Fate.TakenOut" }),
    );
    // A fit FATE attacker's card still waits for the defender.
    expect(
      startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [0, 0, 0, 0] }, fate, PLAYER1).targets[0].defend,
    ).toBe("pending");
  });
});
