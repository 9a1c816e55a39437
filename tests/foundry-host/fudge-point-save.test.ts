// @vitest-environment happy-dom
/**
 * Fudge §4.64 (a world's PC safeguard): "a Fudge Point turns a deadly wound into a serious one".
 * The card's headline and its Undo button name the level the wound really marked — Incapacitated
 * — not the Near Death the attack dealt (issue 30 item 5). Played on the host: Theodora (the GM's)
 * strikes Leroy (the player's), who already lies Near Death; the player spends his point.
 */
import { describe, expect, it } from "vitest";
import { applyWound } from "../../src/rules";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { trackFor } from "../../src/system/combatant";
import { actorOn, table } from "./table";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };

describe("Fudge §4.64: the card names what a Fudge Point save applied", () => {
  it("Leroy Near Death takes another Near Death, spends a Fudge Point: the card reads Incapacitated, and Undo too", async () => {
    const t = await table();
    await t.gm.run(() =>
      game.settings!.set(
        "fudge-wounds" as never,
        "fudgeTrack" as never,
        { ...worldRules().fudgeTrack, safeguardFudgePoint: true } as never,
      ),
    );
    const [sword] = await t.gm.run(() =>
      actorOn(t.gm, t.foe).createEmbeddedDocuments("Item", [
        { name: "Greatsword", type: "weapon", system: { equipped: true, size: "twoHanded", sharp: true } } as never,
      ]),
    );
    // Leroy: Near Death already marked, one Fudge Point.
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      const state = applyWound(trackFor(plainActor(a), worldRules()), { level: "nearDeath" }).track.state;
      await updateActor(a, { system: { fudgePoints: 1, woundTrack: { "==state": state } } });
    });
    await t.world.settle();
    t.gm.target(t.gm.game.scenes.get(t.scene)!.tokens.get(t.heroToken)!);
    const app = await t.gm.run(() => (actorOn(t.gm, t.foe).sheet as unknown as Sheet).render({ force: true }));
    t.world.dice.queue(1, 1, 1, 1);
    t.world.answerDialogs("ok");
    t.gm.click(app.element.querySelector(`[data-action="attack"][data-item-id="${sword.id}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    t.world.dice.queue(-1, -1, -1, -1);
    t.world.answerDialogs("ok");
    t.player.click(t.player.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    const before = t.player.chatLog.get(msg.id)!;
    expect(before.querySelector(".fudge-headline")!.textContent).toContain("Near Death");
    t.player.click(before.querySelector('[data-action="applyFudgePoint"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect((actorOn(t.gm, t.hero).system as unknown as { fudgePoints: number }).fudgePoints).toBe(0);
    for (const client of [t.player, t.gm]) {
      const card = client.chatLog.get(msg.id)!;
      const headline = card.querySelector(".fudge-headline")!.textContent!.replace(/\s+/g, " ").trim();
      expect(headline).toBe("Leroy takes Incapacitated");
      expect(card.querySelector(".fudge-fudge-point-saved")?.textContent).toContain("Leroy spent a Fudge Point");
      const undo = card.querySelector('[data-action="undo"]');
      if (undo) expect(undo.textContent!.trim()).toBe("Undo Incapacitated on Leroy");
    }
    expect(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="undo"]')).not.toBeNull();
  });
});
