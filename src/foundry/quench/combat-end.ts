/**
 * In-world self-test of a combat's end (issue 29, fix 4), in a Fudge world, for a GM with the
 * Quench module: ending a combat ends the turn in progress. Core deletes the combat without ending
 * that turn, so the system does. Scratches are not cleared at the combat's end here, so only the
 * turn's end can lift the stun.
 * Registered by index.ts; the scratch combats are deleted, the setting restored.
 */
import { STUN_NOTE_FLAG } from "../../system/combat";
import { effects, fight, fudgeDuel, stunOf, until, wound, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

export function registerCombatEndBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.combat-end`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      before(() => s.setRule("clearScratchesAtCombatEnd", false));
      it("Leroy, Stunned as his turn began: the GM ends the combat in his turn, and the stun is over", async () => {
        const { leroy, theodora } = duel;
        await wound(leroy, { level: "hurt", stun: true });
        const combat = await fight(s, leroy, theodora);
        assert.ok(
          await until(() => combat.getFlag(SYSTEM_ID as never, STUN_NOTE_FLAG as never) !== undefined),
          "his turn's stun noted on the combat",
        );
        // What End Combat's "Yes" does.
        await combat.delete();
        assert.ok(await until(() => stunOf(leroy) === null), "the stun ended with his turn");
        assert.ok(!effects(leroy).includes("stunned"), "no longer stunned");
      });
      it("Theodora, stunned during Leroy's turn: still stunned once the combat ends before hers", async () => {
        const { leroy, theodora } = duel;
        const combat = await fight(s, leroy, theodora);
        await wound(theodora, { level: "hurt", stun: true });
        await combat.delete();
        await new Promise((r) => setTimeout(r, 500));
        assert.deepEqual(stunOf(theodora), { effect: "stunned", rounds: 1 }, "her stun waits for a turn of hers");
      });
    },
    { displayName: "Fudge Combat & Wounds: ending a combat ends the turn in progress" },
  );
}
