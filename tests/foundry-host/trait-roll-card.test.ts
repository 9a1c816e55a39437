// @vitest-environment happy-dom
/**
 * Trait rolls (issue 30 item 4): the dialog names the trait rolled, and the card draws its Fudge
 * dice as faces, as the attack card does (one partial, templates/parts/dice-faces.hbs), each face
 * named for screen readers — not "+ − 0 +" as text.
 */
import { describe, expect, it } from "vitest";
import { actorOn, table } from "./table";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };

describe("a trait roll from the sheet", () => {
  it("Leroy's Strength: the dialog says Strength, the card draws + blank − + as the attack card's faces", async () => {
    const t = await table();
    const app = await t.player.run(() => (actorOn(t.player, t.hero).sheet as unknown as Sheet).render({ force: true }));
    t.world.dice.queue(1, 0, -1, 1);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    const lead = document.createElement("div");
    lead.innerHTML = t.world.dialogs.at(-1)!.content;
    expect(lead.querySelector(".fudge-dialog-lead")!.textContent!.replace(/\s+/g, " ").trim()).toBe(
      "Leroy · Strength: Fair (0)",
    );
    const message = t.player.game.messages.contents.at(-1)!;
    const card = t.player.chatLog.get(message.id!)!;
    expect(card.querySelector(".fudge-card-title")!.textContent).toContain("Strength");
    const faces = [...card.querySelectorAll(".fudge-dice-faces .fudge-face")];
    expect(faces.map((f) => f.className)).toEqual([
      "fudge-face plus",
      "fudge-face blank",
      "fudge-face minus",
      "fudge-face plus",
    ]);
    expect(faces.map((f) => f.getAttribute("aria-label"))).toEqual(["plus", "blank", "minus", "plus"]);
    expect(card.querySelector(".fudge-dice-faces .faces")!.getAttribute("data-tooltip")).toBe("4dF");
  });
});
