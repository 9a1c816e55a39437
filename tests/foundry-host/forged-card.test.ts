// @vitest-environment happy-dom
/**
 * A player's forged attack card whose stored result is malformed (fields missing, a markup
 * name) on the v13 host with the real modules: every client, the GM's included, draws the card's
 * one error line (escaped, localized) and no button, and the GM's Apply refuses it and writes
 * nothing. The same forgeries, generated, run through the builders and templates in
 * tests/system/card-forgery.property.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { table, actorOn } from "./table";

describe("a forged malformed attack card", () => {
  it("renders the error line on the GM's client and Apply refuses it", async () => {
    const t = await table();
    // After the host's globals exist (chat.ts's imports extend core classes).
    const { clickCardAction } = await import("../../src/foundry/chat");
    const heroUuid = actorOn(t.player, t.hero).uuid;
    const foeUuid = actorOn(t.player, t.foe).uuid;
    // The player's client builds an honest card, then forges its result before posting it.
    const card = t.player.run(() =>
      actions.startAttack(
        plainActor(actorOn(t.player, t.hero)),
        null,
        [plainActor(actorOn(t.player, t.foe))],
        { modifier: 0 },
        { attack: [1, 1, 1, 1] },
        worldRules(),
        userRef(),
      ),
    );
    expect(card.attackerId).toBe(heroUuid);
    card.targets[0] = {
      ...card.targets[0],
      name: "<script>alert(1)</script>",
      defend: "rolled",
      dice: { attack: [1, 1, 1, 1], defense: [-1, -1, -1, -1] },
      // The colleague's forgery: numbers, dice, steps, follow-ups and the preview are missing.
      resolution: {
        preset: "fudge",
        outcome: "wound",
        hit: true,
        woundKey: "nearDeath",
        wound: { level: "nearDeath" },
      },
    };
    const from = t.world.server.journal.length;
    const consoleError = vi.spyOn(console, "error");
    const msg = (await t.player.run(() =>
      ChatMessage.create({ type: "attackCard", system: card } as never),
    )) as unknown as { id: string };
    await t.world.settle();
    for (const c of [t.gm, t.player]) {
      const el = c.chatLog.get(msg.id)!;
      expect(el.querySelector(".fudge-card-error")?.textContent).toBe(
        "This attack card is malformed, so it is neither drawn nor used. Attack again.",
      );
      expect(el.querySelector("[data-action]")).toBeNull();
      expect(el.innerHTML).not.toMatch(/<script/i);
    }
    // No console.error (the render no longer throws a TypeError), no unawaited failure.
    expect(t.world.errors).toEqual([]);
    expect(t.gm.log.filter((l) => l.level === "error")).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    // The GM's Apply (as the button or the relay would call it) refuses, and no actor is written.
    const gmMsg = t.gm.game.messages.get(msg.id)!;
    await t.gm.run(() => clickCardAction(gmMsg as never, "apply", foeUuid));
    await t.world.settle();
    expect(t.gm.notifications.map((n) => n.message).join(" ")).toMatch(/malformed/);
    expect(t.world.server.journal.slice(from).filter((j) => j.documentName === "Actor")).toEqual([]);
  });
});
