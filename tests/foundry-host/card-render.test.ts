// @vitest-environment happy-dom
/**
 * The chat log inserts, sizes and scrolls a message's element as it stands when
 * ChatMessage#renderHTML resolves (FOUNDRY-V13.md "Rendering a card"): the system's card must be
 * drawn by then, not later by an un-awaited fill after the chat log has scrolled.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { table, actorOn } from "./table";

describe("an attack card's element", () => {
  it("holds the drawn card and its buttons when renderHTML resolves", async () => {
    const t = await table();
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
    const posted = (await t.player.run(() =>
      ChatMessage.create({ type: "attackCard", system: card } as never),
    )) as unknown as { id: string };
    await t.world.settle();
    const message = t.gm.game.messages.get(posted.id)!;
    const html = await t.gm.run(() => message.renderHTML());
    // Nothing more is awaited: this is the element the chat log inserts and scrolls to.
    expect(html.querySelector(".fudge-card-error")).toBeNull();
    expect(html.querySelector('[data-action="defend"]')).not.toBeNull();
    expect(html.querySelector(".message-content")!.textContent).toContain(actorOn(t.gm, t.foe).name!);
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
  });
});
