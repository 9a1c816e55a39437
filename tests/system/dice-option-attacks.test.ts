/**
 * Attack cards under the world's dice option (Fudge §3.21–3.22): the attack and defence rolls are
 * thrown as the option, the card records the option, the GM re-derives the card's rolls as the
 * dice they were thrown with (a card posted before the change stays 4dF), a card claiming other
 * dice is refused, and the attack dialog's odds follow the option.
 */
import { describe, expect, test } from "vitest";
import { defend, startAttack } from "../../src/system/actions";
import { attackRequest } from "../../src/system/combatant";
import { checkCard } from "../../src/system/integrity";
import { rederiveTarget } from "../../src/system/rederive";
import { exactOdds, pipelineFor, readDiceOption } from "../../src/rules";
import type { AttackCardData, WorldRules } from "../../src/system/data";
import { PLAYER1, PLAYER2, leroy, rulesFor, theodora } from "./fixtures";
import { keyOf } from "../rules/errors";

const fudge = rulesFor("fudge");
const world = (dice: WorldRules["dice"]): WorldRules => ({ ...fudge, dice });
const live = () => ({ attacker: leroy(), defender: theodora(), author: PLAYER1 });

function card(rules: WorldRules, attack: number[], defence: number[]): AttackCardData {
  const c = startAttack(leroy(), "broadsword", [theodora()], { modifier: 0 }, { attack }, rules, PLAYER1);
  return { ...c, targets: defend(c, theodora(), defence, PLAYER2).system.targets };
}

describe("attack cards under the world's dice option (Fudge §3.21–3.22)", () => {
  test("the request and the card carry the option; the rolls are read as it reads them", () => {
    const rules = world("3d6");
    expect((attackRequest(leroy(), null, theodora(), rules).options as { dice?: string }).dice).toBe("3d6");
    expect((attackRequest(leroy(), null, theodora(), fudge).options as { dice?: string }).dice).toBeUndefined();
    // 3d6 on the default table: 17 reads +4, 10 reads 0.
    const c = card(rules, [6, 6, 5], [3, 3, 4]);
    expect(c.diceOption).toBe("3d6");
    expect(checkCard(c)).toBe(c);
    const res = c.targets[0].resolution as { numbers: Record<string, number>; dice: Record<string, number[]> };
    expect(res.dice).toEqual({ attack: [6, 6, 5], defense: [3, 3, 4] });
    expect(res.numbers.relativeDegree).toBe(res.numbers.attackerTotal - res.numbers.defenderTotal);
    const r = rederiveTarget(c, c.targets[0], live(), rules);
    expect(r.differs).toBe(false);
    expect(r.resolution.numbers).toEqual(res.numbers);
  });

  test("4dF faces on a 3d6 card are refused as dice the option cannot show", () => {
    expect(() => card(world("3d6"), [1, 1, 0, 0], [0, 0, 0, 0])).toThrow(/dice\.attack/);
  });

  test("a card posted before the change stays 4dF; a card claiming other dice than the world's is refused", () => {
    const before = card(fudge, [1, 1, 0, 0], [0, 0, 0, -1]);
    expect(before.diceOption).toBe("");
    const now = world("d6-d6");
    const r = rederiveTarget(before, before.targets[0], live(), now);
    expect(r.resolution.numbers).toEqual(rederiveTarget(before, before.targets[0], live(), fudge).resolution.numbers);
    const d6 = card(now, [6, 1], [3, 3]);
    expect(keyOf(() => rederiveTarget(d6, d6.targets[0], live(), world("3d6")))).toBe(
      "FUDGE.Error.Integrity.DiceChanged",
    );
    expect(keyOf(() => checkCard({ ...d6, diceOption: "2d10" }))).toBe("FUDGE.Error.Card.Malformed");
  });

  test("a rolled attack throws the option and records the standing throw", () => {
    let i = 0;
    // d%: 95 (82–00 rolled again), then 40 (32–50: 0) — the slot records the throw that stands.
    const draws = [0.945, 0.395];
    const c = startAttack(leroy(), "broadsword", [theodora()], {}, () => draws[i++ % 2], world("d%"), PLAYER1);
    expect(c.attackDice.attack).toEqual([40]);
    expect(readDiceOption("d%", c.attackDice.attack)).toBe(0);
  });

  test("the dialog's exact odds follow the option (d6−d6 against 4dF)", () => {
    const p = pipelineFor("fudge");
    const odds = (rules: WorldRules) => exactOdds(p.parseRequest(attackRequest(leroy(), null, theodora(), rules)));
    expect(odds(world("d6-d6")).hit).not.toBeCloseTo(odds(fudge).hit, 3);
    expect(odds(world("4d6F")).hit).toBeCloseTo(odds(fudge).hit, 12);
  });
});
