// @vitest-environment happy-dom
/**
 * An opposed trait roll (issue 30 item 4; Fudge §3.5: "each side rolls … the relative degree"): two
 * actors, one card. The first rolls from his sheet naming his opponent (one of his targets); the
 * opponent's owner rolls the same trait from the card — himself when he may write the card, else
 * the GM's client does it for him (the relay), deriving his result from the live opponent.
 */
import { describe, expect, it } from "vitest";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Opposed = { actorName: string; dice: number[] | null; result: number; by: string } | null;

async function rollStrengthOpposed(t: Table, c: Client, actor: string, foeToken: string) {
  c.target(c.game.scenes.get(t.scene)!.tokens.get(foeToken)!);
  const app = await c.run(() => (actorOn(c, actor).sheet as unknown as Sheet).render({ force: true }));
  t.world.answerDialogs((req) => {
    const select = req.form.querySelector<HTMLSelectElement>('[name="opponent"]')!;
    expect([...select.options].map((o) => o.textContent)).toContain(foeToken === t.foeToken ? "Theodora" : "Leroy");
    select.value = "0";
    return "ok";
  });
  c.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
  await t.world.settle();
  return t.gm.game.messages.contents.at(-1)!.id!;
}
const opposedOf = (t: Table, id: string) =>
  (t.gm.game.messages.get(id)!.system as unknown as { opposed: Opposed; result: number }).opposed;
const text = (c: Client, id: string) => c.chatLog.get(id)!.textContent!.replace(/\s+/g, " ");

describe("an opposed trait roll: two actors, one card", () => {
  it("Leroy's Strength against Theodora's: the card waits, the GM rolls her side from it, the card says who wins", async () => {
    const t = await table();
    t.world.dice.queue(1, 1, 0, 0);
    const id = await rollStrengthOpposed(t, t.player, t.hero, t.foeToken);
    expect(opposedOf(t, id)).toMatchObject({ actorName: "Theodora", dice: null });
    expect(text(t.player, id)).toContain("Theodora rolls next");
    // Only her owner (the GM) gets the button.
    expect(t.player.chatLog.get(id)!.querySelector('[data-action="rollOpposed"]')).toBeNull();
    t.world.dice.queue(0, 0, -1, 0);
    t.gm.click(t.gm.chatLog.get(id)!.querySelector('[data-action="rollOpposed"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(opposedOf(t, id)).toMatchObject({ dice: [0, 0, -1, 0], result: -1, by: t.ids.gm });
    // Fair + 2 = Great against Fair − 1 = Mediocre: Leroy by +3; her dice drawn as faces.
    expect(text(t.player, id)).toContain("Leroy wins over Theodora by +3.");
    expect(t.player.chatLog.get(id)!.querySelectorAll(".fudge-opposed .fudge-face")).toHaveLength(4);
  });

  it("Theodora's Strength against Leroy's: the player rolls his side from the GM's card, through the relay", async () => {
    const t = await table();
    t.world.dice.queue(0, 0, 0, 0);
    const id = await rollStrengthOpposed(t, t.gm, t.foe, t.heroToken);
    t.world.dice.queue(1, 0, 0, 0);
    t.player.click(t.player.chatLog.get(id)!.querySelector('[data-action="rollOpposed"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.world.queries.map((q) => q.name)).toContain("fudge-wounds.opposeRoll");
    expect(opposedOf(t, id)).toMatchObject({ dice: [1, 0, 0, 0], result: 1, by: t.ids.player });
    expect(text(t.gm, id)).toContain("Leroy wins over Theodora by +1.");
    // Rolled once: the button is gone.
    expect(t.player.chatLog.get(id)!.querySelector('[data-action="rollOpposed"]')).toBeNull();
  });
});
