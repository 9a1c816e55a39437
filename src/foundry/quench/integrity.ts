/**
 * In-world self-test of the integrity rule (docs/foundry.md, *Integrity*), for a GM with the
 * Quench module: a card that claims more than its dice gives is applied as re-derived, two
 * Applies at once on one actor keep both wounds, and the relay runs nothing nobody asked for.
 * Registered by quench.ts; everything it creates is deleted afterwards.
 */
import { woundLogOf } from "../../system/integrity";
import { plainActor } from "../bridge";
import { clickCardAction } from "../chat";
import { handleRelay } from "../queries";
import { cardTarget, defendedCard, fudgeDuel, Scratch, until, type QuenchCardTarget, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

/** Posts Leroy's attacks on Theodora (real Rolls, defended) until one deals a wound; returns the message id. */
const woundingCard = (s: Scratch, leroy: Actor.Implementation, theodora: Actor.Implementation): Promise<string> =>
  defendedCard(s, leroy, theodora, (t) => t.resolution?.wound !== null && t.resolution?.wound !== undefined);

export function registerIntegrityBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.integrity`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });

      it("a card claiming {wound: dead} is applied as its dice give, and says it differed", async () => {
        const id = await woundingCard(s, duel.leroy, duel.theodora);
        const message = game.messages!.get(id)!;
        const targets = structuredClone((message.system as unknown as { targets: QuenchCardTarget[] }).targets);
        const honest = targets[0].resolution!.woundKey;
        Object.assign(targets[0].resolution!, { woundKey: "dead", wound: { level: "dead" } });
        await message.update({ system: { targets } } as never);
        await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "apply", targets[0].actorId);
        assert.ok(await until(() => cardTarget(id).differs === true), "the card says the re-derived result differed");
        assert.equal(cardTarget(id).resolution?.woundKey, honest, "the dice's wound was applied");
        assert.notEqual(
          (duel.theodora.system as unknown as { derived: { condition: string } }).derived.condition,
          "dead",
          "not the claimed death",
        );
        await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "undo", targets[0].actorId);
      });

      it("two Applies on one actor at the same moment keep both wounds", async () => {
        const a = await woundingCard(s, duel.leroy, duel.theodora);
        const b = await woundingCard(s, duel.leroy, duel.theodora);
        await Promise.all(
          [a, b].map((id) =>
            clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "apply", duel.theodora.uuid),
          ),
        );
        const live = () =>
          woundLogOf(plainActor(duel.theodora)).filter((r) => !r.undone && (r.messageId === a || r.messageId === b));
        assert.ok(await until(() => live().length === 2), "both wounds are in the log");
        const [first, second] = live();
        assert.equal(
          JSON.stringify(second.before),
          JSON.stringify(first.after),
          "the second started where the first ended",
        );
        for (const id of [second.messageId, first.messageId])
          await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "undo", duel.theodora.uuid);
      });

      it("the relay runs nothing that nobody asked for (a query naming an unknown user)", async () => {
        const id = await woundingCard(s, duel.leroy, duel.theodora);
        const reply = await handleRelay(
          "apply",
          {
            messageId: id,
            action: "apply",
            targetId: duel.theodora.uuid,
            requestId: foundry.utils.randomID(16),
            userId: foundry.utils.randomID(16),
          },
          { timeout: 5000 },
        );
        assert.deepEqual(reply, { ok: false, key: "FUDGE.Error.Relay.Unconfirmed" });
        assert.equal(
          woundLogOf(plainActor(duel.theodora)).filter((r) => r.messageId === id).length,
          0,
          "no wound written",
        );
      });
    },
    { displayName: "Fudge Combat & Wounds: the GM's client trusts nothing a player wrote" },
  );
}
