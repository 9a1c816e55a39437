// @vitest-environment happy-dom
/**
 * Fudge §4.62 (RULES §2.2): "a stunned character cannot attack or all-out defend". On the v13 host
 * with the real modules: a stunned character's Attack click is refused on his player's client when
 * he attacks — no card is posted and no Roll is made — rather than at the defender's Defend.
 */
import { describe, expect, it } from "vitest";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { trackFor } from "../../src/system/combatant";
import { applyWound, trackStatus } from "../../src/rules";
import { actorOn, table } from "./table";

describe("Fudge §4.62: a stunned character's Attack is refused when he attacks", () => {
  it("no card, no Roll; the player reads the localized refusal", async () => {
    const t = await table();
    const [weapon] = await t.gm.run(() =>
      actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
        { name: "Broadsword", type: "weapon", system: { equipped: true } } as never,
      ]),
    );
    // The GM marks a stun wound on Leroy (a stun attack's Hurt: Stunned).
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, {
        system: {
          woundTrack: {
            "==state": applyWound(trackFor(plainActor(a), worldRules()), { level: "hurt", stun: true }).track.state,
          },
        },
      });
    });
    await t.world.settle();
    expect(
      t.player.run(() => trackStatus(trackFor(plainActor(actorOn(t.player, t.hero)), worldRules())).effects),
    ).toEqual(["stunned"]);
    t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
    const app = await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    );
    const messages = t.gm.game.messages.contents.length;
    // Dice the attack would take, if anything were rolled.
    t.world.dice.queue(1, 1, 1, 1, -1, -1, -1, -1);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weapon.id}"]`));
    await t.world.settle();
    expect(t.gm.game.messages.contents.length).toBe(messages);
    expect(t.player.game.messages.contents.length).toBe(messages);
    expect(t.world.rolls).toEqual([]);
    expect(t.player.notifications.map((n) => n.message)).toEqual(["Leroy is stunned and cannot attack."]);
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
  });
});
