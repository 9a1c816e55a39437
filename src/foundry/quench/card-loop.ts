/** The attack card loop with real Rolls (Fudge): attack, defend, apply, undo. */
import { clickCardAction } from "../chat";
import { SYSTEM_ID } from "../../system/registry";
import { QuenchLike, fudgeDuel, until, trackState } from "./helpers";

export function registerCardLoopBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.card-loop`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      it("attack → defend → apply → undo with real Rolls (Fudge)", async () => {
        const before = trackState(duel.theodora);
        // Random dice: attack until a wound is dealt (each card is a real card with its Rolls).
        for (let attempt = 0; attempt < 30; attempt++) {
          const { card, rolls, message } = await s.postAttack(duel.leroy, duel.theodora);
          assert.isAbove(rolls.length, 0, "the attack is a Foundry Roll");
          assert.isAbove((message as unknown as { rolls: unknown[] }).rolls.length, 0, "the message carries its rolls");
          const targetId = card.targets[0].actorId;
          const live = () =>
            (
              game.messages!.get(message.id!)!.system as unknown as {
                targets: { defend: string; resolution: { wound: unknown } | null; applied: { undone: boolean }[] }[];
              }
            ).targets[0];
          if (live().defend === "pending") {
            await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "defend", targetId);
            assert.ok(await until(() => live().defend === "rolled"), "the defence was rolled");
            assert.equal(
              (game.messages!.get(message.id!) as unknown as { rolls: unknown[] }).rolls.length,
              rolls.length + 1,
              "the defence Roll joined the card",
            );
          }
          if (live().resolution?.wound === null || live().resolution?.wound === undefined) continue;
          await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "apply", targetId);
          assert.ok(await until(() => live().applied.length === 1), "applied once");
          assert.notEqual(trackState(duel.theodora), before, "the wound is on the track");
          await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "undo", targetId);
          assert.ok(await until(() => live().applied[0]?.undone === true), "undone");
          assert.equal(trackState(duel.theodora), before, "the track is as before");
          return;
        }
        assert.ok(false, "no wound in 30 attacks");
      });
    },
    { displayName: "Fudge Combat & Wounds: the card loop with real Rolls" },
  );
}
