/**
 * In-world self-test of two rules the active GM's client keeps through the combat's turns and
 * rounds (src/foundry/combat.ts), in a Fudge world, for a GM with the Quench module:
 *  - Fudge §4.62 "Stunned (… one round)": a stun wears off as the stunned character's own turn ends;
 *  - Fudge §4.64 "nobody becomes Near Death unless they began the round Incapacitated" (world
 *    option): as each round starts, the combat records who began it Incapacitated; Apply reads it.
 * Registered by index.ts; the scratch combats are deleted, the setting restored.
 */
import { worldRules } from "../bridge";
import { tableRoundStart } from "../port";
import { ROUND_START_FLAG, STUN_NOTE_FLAG } from "../../system/combat";
import { effects, fight, fudgeDuel, stunOf, until, wound, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

export function registerRoundsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.rounds`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      before(() => s.setRule("fudgeTrack", { ...worldRules().fudgeTrack, safeguardNearDeathFromIncapacitated: true }));
      it("Stunned before his turn: Leroy is stunned through it, and the stun wears off as his turn ends (the mark stays)", async () => {
        const { leroy, theodora } = duel;
        await wound(leroy, { level: "hurt", stun: true });
        assert.deepEqual(stunOf(leroy), { effect: "stunned", rounds: 1 }, "Stunned for one round");
        const combat = await fight(s, leroy, theodora);
        assert.equal((combat.combatant?.actor as Actor.Implementation | null)?.id, leroy.id, "his turn first");
        assert.ok(effects(leroy).includes("stunned"), "stunned in his turn");
        // The GM's client notes the stun in force as his turn begins (the turn's end counts that one down).
        assert.ok(
          await until(() => combat.getFlag(SYSTEM_ID as never, STUN_NOTE_FLAG as never) !== undefined),
          "his turn's stun noted on the combat",
        );
        await combat.nextTurn();
        assert.ok(await until(() => stunOf(leroy) === null), "the stun wore off as his turn ended");
        assert.ok(!effects(leroy).includes("stunned"), "no longer stunned");
        const marks =
          (
            leroy.toObject().system as {
              woundTrack: { state: { marks?: Record<string, ({ stun?: boolean } | null)[]> } | null };
            }
          ).woundTrack.state?.marks ?? {};
        assert.equal(
          Object.values(marks)
            .flat()
            .filter((m) => m?.stun).length,
          1,
          "the stun's mark stays on the track (it heals like a wound)",
        );
        await combat.delete();
      });
      it("each round's start is recorded on the combat: who began it Incapacitated (Theodora in round 1; Leroy too from round 2, once he fell in round 1)", async () => {
        const { leroy, theodora } = duel;
        await wound(theodora, { level: "incapacitated" });
        const combat = await fight(s, leroy, theodora);
        type Rec = { round: number; actors: string[]; incapacitated: string[] };
        const record = () => combat.getFlag(SYSTEM_ID as never, ROUND_START_FLAG as never) as Rec | undefined;
        assert.ok(await until(() => record()?.round === 1), "round 1 recorded");
        assert.deepEqual(record()!.incapacitated, [theodora.uuid], "Theodora began round 1 Incapacitated");
        assert.deepEqual([...record()!.actors].sort(), [leroy.uuid, theodora.uuid].sort(), "both combatants");
        assert.equal(
          tableRoundStart({ uuid: leroy.uuid, _id: leroy.id! })?.round,
          1,
          "Apply reads round 1's record for Leroy",
        );
        await wound(leroy, { level: "incapacitated" });
        assert.deepEqual(
          record()!.incapacitated,
          [theodora.uuid],
          "falling during the round does not change its record",
        );
        await combat.nextRound();
        assert.ok(await until(() => record()?.round === 2), "round 2 recorded");
        assert.deepEqual(
          [...record()!.incapacitated].sort(),
          [leroy.uuid, theodora.uuid].sort(),
          "both began round 2 Incapacitated",
        );
        assert.equal(
          tableRoundStart({ uuid: leroy.uuid, _id: leroy.id! })?.incapacitated.includes(leroy.uuid),
          true,
          "Apply reads it for Leroy",
        );
        await combat.delete();
      });
    },
    {
      displayName:
        "Fudge Combat & Wounds: stuns wear off on the stunned character's turns; each round's start is recorded",
    },
  );
}
