// @vitest-environment happy-dom
/**
 * Chat cards as v13's chat log draws them: the card is filled inside ChatMessage#renderHTML,
 * which the log awaits before inserting and scrolling (issue 29, fix 1), and a private roll's
 * card shows its content, buttons and odds only where `message.isContentVisible` holds; everyone
 * else sees core's "privately rolled" form (issue 25, item 1).
 */
import { describe, expect, it } from "vitest";
import { ROLES } from "./index";
import { actorOn, table } from "./table";
import type { Client } from "./world";

type Rec = Record<string, unknown>;

/** The table, a weapon for Leroy and Theodora, and a third player who owns nothing here. */
async function tableWithThird() {
  let third = "";
  const t = await table({
    seed: (world) => {
      third = world.addUser("Onlooker", ROLES.PLAYER);
    },
  });
  const onlooker = await t.world.connect(third);
  for (const [client, id] of [
    [t.gm, t.hero],
    [t.gm, t.foe],
  ] as const)
    await client.run(() =>
      actorOn(client, id).createEmbeddedDocuments("Item", [
        { name: "Broadsword", type: "weapon", system: { equipped: true } } as never,
      ]),
    );
  await t.world.settle();
  return { ...t, onlooker };
}

/** Sets this client's roll mode (v13 core.rollMode; v14 core.messageMode). */
async function rollMode(client: Client, v13: string) {
  const v14 = { publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" }[v13]!;
  await client.run(() =>
    client.world.generation >= 14
      ? client.game.settings.set("core", "messageMode", v14)
      : client.game.settings.set("core", "rollMode", v13),
  );
}

/** `attacker` (on `client`) attacks `target`'s token with his first weapon; the card's message. */
async function attack(t: Awaited<ReturnType<typeof tableWithThird>>, client: Client, attacker: string, token: string) {
  client.target(client.game.scenes.get(t.scene)!.tokens.get(token)!);
  const actor = actorOn(client, attacker);
  const weapon = actor.items.contents[0]!;
  // src/foundry needs the host's globals: imported once the world has installed them.
  const { startAttackFlow } = await import("../../src/foundry/chat");
  t.world.dice.queue(1, 1, 1, 1);
  await client.run(() => startAttackFlow(actor, weapon.id, { fastForward: true }));
  await t.world.settle();
  const msg = t.gm.game.messages.contents.at(-1)!;
  expect(msg.type).toBe("attackCard");
  return String(msg.id);
}

/** What a client's chat log shows for a message. */
function seen(client: Client, id: string) {
  const el = client.chatLog.get(id);
  return {
    listed: !!el,
    card: !!el?.querySelector(".fudge-card, .fudge-attack-card, article[data-message-id]"),
    buttons: el ? el.querySelectorAll(".message-content [data-action]").length : 0,
    odds: !!el?.querySelector("[data-tooltip*='%'], .fudge-odds"),
    privately: /privately rolled some dice/.test(el?.textContent ?? ""),
    hiddenDice: /\?\?\?/.test(el?.querySelector(".message-content")?.textContent ?? ""),
  };
}

const shows = { listed: true, card: true, privately: false, hiddenDice: false };
const hides = { listed: true, card: false, buttons: 0, odds: false, privately: true, hiddenDice: true };

describe("a card is filled before the chat log inserts it (ChatMessage#renderHTML, awaited)", () => {
  it("the element the GM's log inserted and scrolled to already holds the card and its Defend button", async () => {
    const t = await tableWithThird();
    const id = await attack(t, t.player, t.hero, t.foeToken);
    const inserted = t.gm.chatInserted.filter((e) => e.id === id);
    expect(inserted.length).toBeGreaterThan(0);
    // The first insertion is what the log scrolled to: it must not grow afterwards.
    expect(inserted[0].html).toContain('data-action="defend"');
    expect(inserted[0].html).toContain("fudge-target");
    // And the player's own insertion holds the card too (no Defend: not his NPC).
    const mine = t.player.chatInserted.find((e) => e.id === id)!;
    expect(mine.html).toContain("fudge-target");
    expect(t.world.errors).toEqual([]);
  });

  it("a card already in the world is filled when the log first draws it at start-up (before the partials load)", async () => {
    const t = await tableWithThird();
    const id = await attack(t, t.player, t.hero, t.foeToken);
    const late = await t.world.connect(t.world.addUser("Latecomer", ROLES.GAMEMASTER));
    await t.world.settle();
    const first = late.chatInserted.find((e) => e.id === id)!;
    expect(first.html).toContain('data-action="defend"');
  });
});

describe("private rolls stay private (message.isContentVisible)", () => {
  it("a public attack: everyone sees the card", async () => {
    const t = await tableWithThird();
    const id = await attack(t, t.player, t.hero, t.foeToken);
    for (const c of [t.gm, t.player, t.onlooker]) expect(seen(c, id)).toMatchObject(shows);
  });

  it("a player's GM roll: the GM and the author see the card; a third player sees core's private form", async () => {
    const t = await tableWithThird();
    await rollMode(t.player, "gmroll");
    const id = await attack(t, t.player, t.hero, t.foeToken);
    expect(seen(t.gm, id)).toMatchObject(shows);
    expect(seen(t.gm, id).buttons).toBeGreaterThan(0);
    expect(seen(t.player, id)).toMatchObject(shows);
    expect(seen(t.onlooker, id)).toMatchObject(hides);
  });

  it("a player's blind roll: only the GM sees the card; its author sees the private form too", async () => {
    const t = await tableWithThird();
    await rollMode(t.player, "blindroll");
    const id = await attack(t, t.player, t.hero, t.foeToken);
    expect(seen(t.gm, id)).toMatchObject(shows);
    expect(seen(t.player, id)).toMatchObject(hides);
    expect(seen(t.onlooker, id)).toMatchObject(hides);
  });

  it("a player's self roll: only its author sees the card — not the GM (core whispers it to him alone)", async () => {
    const t = await tableWithThird();
    await rollMode(t.player, "selfroll");
    const id = await attack(t, t.player, t.hero, t.foeToken);
    expect(seen(t.player, id)).toMatchObject(shows);
    expect(seen(t.gm, id)).toMatchObject(hides);
    expect(seen(t.onlooker, id)).toMatchObject(hides);
  });

  it("the GM's private NPC attack: the GM sees the card and its buttons; neither player sees result, dice or buttons", async () => {
    const t = await tableWithThird();
    await rollMode(t.gm, "gmroll");
    const id = await attack(t, t.gm, t.foe, t.heroToken);
    expect(seen(t.gm, id)).toMatchObject(shows);
    for (const c of [t.player, t.onlooker]) {
      expect(seen(c, id)).toMatchObject(hides);
      // Nothing of the card reached the element: no names of levels, no numbers but the private "?".
      expect(c.chatLog.get(id)!.querySelector(".fudge-target, .fudge-headline")).toBeNull();
    }
    // The defending player's Defend is not offered on a card he may not read.
    expect(t.player.chatLog.get(id)!.querySelector('[data-action="defend"]')).toBeNull();
  });

  it("a trait roll card follows the same rule (a player's blind Strength roll)", async () => {
    const t = await tableWithThird();
    await rollMode(t.player, "blindroll");
    t.world.dice.queue(0, 0, 0, 0);
    const { rollTrait } = await import("../../src/system/flows");
    const { foundryPort } = await import("../../src/foundry/port");
    await t.player.run(() =>
      rollTrait(foundryPort(), actorOn(t.player, t.hero).uuid, "attributes.strength", { fastForward: true }),
    );
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    expect(msg.type).toBe("rollCard");
    expect(seen(t.gm, String(msg.id))).toMatchObject(shows);
    expect(seen(t.player, String(msg.id))).toMatchObject(hides);
    expect(seen(t.onlooker, String(msg.id))).toMatchObject(hides);
    expect((t.player.game.messages.get(String(msg.id)) as unknown as Rec).blind).toBe(true);
  });
});
