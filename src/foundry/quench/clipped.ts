/**
 * In-world self-test of FATE Clipped at the table (seed 003: "-1 penalty to their next action …
 * Box resets after that action"), for a GM with the Quench module: with both sides Clipped, the
 * attack card resets the attacker's box and the Defend roll the defender's, hit or miss; a wound
 * is then applied as the card showed; a trait roll from the sheet resets the roller's box too.
 * Registered by quench.ts; everything it creates is deleted.
 */
import * as flows from "../../system/flows";
import { defenceRecordOf } from "../../system/integrity";
import { clippedLogOf } from "../../system/clipped";
import { plainActor, type DerivedActor } from "../bridge";
import { clickCardAction } from "../chat";
import { foundryPort } from "../port";
import { Scratch, until, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

type CardTarget = {
  actorId: string;
  defend: string;
  resolution: { wound: unknown } | null;
  applied: unknown[];
  differs?: boolean;
};
const targetOf = (id: string) => (game.messages!.get(id)!.system as unknown as { targets: CardTarget[] }).targets[0];
const clipped = (a: Actor.Implementation) =>
  ((a.system as unknown as { derived: DerivedActor }).derived.status?.effects ?? []).includes("clipped");

/** An empty FATE ladder with one Clipped box marked. */
async function clip(a: Actor.Implementation): Promise<void> {
  const port = { ...foundryPort(), confirm: async () => true };
  await flows.resetTrack(port, a.uuid);
  await flows.toggleBox(port, a.uuid, "clipped:0");
}

export function registerClippedBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.fate-clipped`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const duel = {} as { leroy: Actor.Implementation; theodora: Actor.Implementation };
      before(async () => {
        await s.setPreset("fate");
        duel.leroy = await s.actorFromPack("characters", "Leroy");
        duel.theodora = await s.actorFromPack("characters", "Theodora");
      });
      after(() => s.cleanup());
      it("each side's roll resets its own Clipped box, hit or miss; a wound is applied as the card showed", async () => {
        const { leroy, theodora } = duel;
        await clip(leroy);
        await clip(theodora);
        assert.ok(await until(() => clipped(leroy) && clipped(theodora)), "both Clipped");
        const { card, message } = await s.postAttack(leroy, theodora);
        const id = message.id!;
        assert.ok(await until(() => !clipped(leroy)), "the attack reset Leroy's box");
        assert.deepEqual(
          clippedLogOf(plainActor(leroy)).map((r) => r.messageId),
          [id],
          "and recorded that roll on him",
        );
        assert.ok(clipped(theodora), "Theodora stays Clipped until she rolls");
        await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "defend", card.targets[0].actorId);
        assert.ok(await until(() => targetOf(id).defend === "rolled"), "the defence was rolled");
        assert.ok(await until(() => !clipped(theodora)), "her Defend roll reset her box, whatever its result");
        assert.equal(
          defenceRecordOf(plainActor(theodora), id)?.clipped,
          true,
          "her defence record says it was made while Clipped",
        );
        if (targetOf(id).resolution?.wound === null || targetOf(id).resolution?.wound === undefined) return;
        await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "apply", card.targets[0].actorId);
        assert.ok(await until(() => targetOf(id).applied.length === 1), "applied once");
        assert.equal(targetOf(id).differs, false, "re-derived with both sides Clipped, as they rolled");
      });
      it("a trait roll from the sheet while Clipped takes the −1 and resets the box; the next is at full strength", async () => {
        const { leroy } = duel;
        await clip(leroy);
        assert.ok(await until(() => clipped(leroy)), "Clipped");
        const penalty = async () => {
          const before = game.messages!.size;
          await flows.rollTrait(foundryPort(), leroy.uuid, "attributes.strength", { fastForward: true });
          const m = s.track(game.messages!.contents.at(-1)!);
          assert.equal(game.messages!.size, before + 1, "one roll card");
          return (m.system as unknown as { penalty: number }).penalty;
        };
        assert.equal(await penalty(), -1, "rolled while Clipped: −1");
        assert.ok(await until(() => !clipped(leroy)), "the roll reset his box");
        assert.equal(await penalty(), 0, "penalty only taken once");
      });
    },
    { displayName: "Fudge Combat & Wounds: FATE Clipped resets after each roll" },
  );
}
