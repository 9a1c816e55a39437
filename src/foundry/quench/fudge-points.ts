/**
 * In-world self-test of Fudge Points spent on cards (Fudge §1.36: "alter a die roll one level") for
 * a GM with the Quench module, in a Fudge world with scratch Leroy and Theodora from the packs:
 * a point on Leroy's trait roll moves its result one level and its Undo refunds it; a point on his
 * attack roll moves the attack card's total one level (the one writer re-derives it from his log)
 * and its Undo refunds it. Registered by index.ts; the cards and actors are deleted afterwards.
 */
import * as flows from "../../system/flows";
import { SYSTEM_ID } from "../../system/registry";
import { foundryPort } from "../port";
import { cardTarget, defendedCard, fudgeDuel, until, type QuenchLike } from "./helpers";

const points = (a: Actor.Implementation) => (a.system as unknown as { fudgePoints: number }).fudgePoints;
const rollCard = (id: string) => game.messages!.get(id)!.system as unknown as flows.RollCardData;
const click = (action: string, doc: string, data: Record<string, string> = {}) =>
  flows.runCardAction(foundryPort(), { action, doc, data });

export function registerFudgePointsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.fudge-points`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      it("a point on Leroy's Strength roll moves it one level up; the card's Undo refunds it", async () => {
        const { leroy } = duel;
        const had = points(leroy);
        assert.isAbove(had, 0, "Leroy has Fudge Points");
        const known = new Set(game.messages!.contents.map((m) => m.id));
        await flows.rollTrait(foundryPort(), leroy.uuid, "attributes.strength", { fastForward: true });
        const message = s.track(game.messages!.contents.find((m) => !known.has(m.id))!);
        const id = message.id!;
        const rolled = rollCard(id).result;
        await click("spendRollFudgePoint", id, { direction: "1" });
        assert.ok(await until(() => points(leroy) === had - 1), "one point spent from Leroy's own actor");
        assert.ok(await until(() => rollCard(id).result === rolled + 1), "the card's result is one level up");
        await click("undoRollFudgePoint", id);
        assert.ok(await until(() => points(leroy) === had), "the Undo refunds it");
        assert.ok(await until(() => rollCard(id).result === rolled), "the card's result is as rolled again");
      });
      it("a point on Leroy's attack roll moves the card's attack total one level up; its Undo refunds it", async () => {
        const { leroy, theodora } = duel;
        const had = points(leroy);
        const id = await defendedCard(s, leroy, theodora, (t) => t.defend === "rolled" && t.applied.length === 0);
        const total = () => cardTarget(id).resolution?.numbers.attackerTotal;
        const rolled = total()!;
        await click("spendAttackFudgePoint", id, { side: "attacker", direction: "1" });
        assert.ok(await until(() => points(leroy) === had - 1), "one point spent from Leroy's own actor");
        assert.ok(await until(() => total() === rolled + 1), "the card's attack total is one level up");
        await click("undoAttackFudgePoint", id, { side: "attacker" });
        assert.ok(await until(() => points(leroy) === had), "the Undo refunds it");
        assert.ok(await until(() => total() === rolled), "the attack total is as rolled again");
      });
    },
    { displayName: "Fudge Combat & Wounds: Fudge Points on a trait roll and an attack card" },
  );
}
