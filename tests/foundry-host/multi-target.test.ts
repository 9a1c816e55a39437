// @vitest-environment happy-dom
/**
 * A multi-target attack goes ahead against the targets it can reach and names a skipped one once
 * (issue 30 item 3): Knavely Knave stabs at Sir Knightly (base contact) and Yanni (8" away, out of
 * contact: Miniatures "Melee attacks must be made in base-to-base contact with the target model").
 */
import { describe, expect, it } from "vitest";
import { actorOn, type Table } from "./table";
import { MINI_IDS, miniTable, tokenDoc, itemId } from "./mini-table";

type App = { element: HTMLElement };
type Card = { targets: { name: string; actorId: string }[] };

async function attack(t: Table, attacker: string, targets: string[], weapon: string): Promise<Card[]> {
  t.player.target(...targets.map((n) => tokenDoc(t.player, t, n)));
  t.world.answerDialogs(() => undefined);
  const before = t.gm.game.messages.contents.length;
  const app = await t.player.run(() =>
    (actorOn(t.player, MINI_IDS[attacker]).sheet as unknown as { render(o: object): Promise<App> }).render({
      force: true,
    }),
  );
  t.player.click(
    app.element.querySelector(`[data-action="attack"][data-item-id="${itemId(t.player, attacker, weapon)}"]`),
  );
  await t.world.settle();
  return (t.gm.game.messages.contents.slice(before) as unknown as { system: { toObject(): unknown } }[]).map(
    (m) => m.system.toObject() as Card,
  );
}

describe("a multi-target attack with one target it cannot reach", () => {
  it('attacks Sir Knightly (in contact) and names Yanni (8" away) once, in one warning', async () => {
    const t = await miniTable({ "Knavely Knave": [12, -1], "Sir Knightly": [13, 1], "Yanni the Yeoman": [20, 1] });
    t.world.dice.queue(0, 0, 0, 0, 0, 0, 0, 0);
    const cards = await attack(t, "Knavely Knave", ["Sir Knightly", "Yanni the Yeoman"], "Sword of Smiting");
    expect(cards).toHaveLength(1);
    expect(cards[0].targets.map((x) => x.name)).toEqual(["Sir Knightly"]);
    const warnings = t.player.notifications.map((n) => n.message);
    expect(warnings.filter((m) => m.includes("Yanni"))).toEqual([
      "Yanni the Yeoman is not attacked: Sword of Smiting needs base-to-base contact.",
    ]);
    expect(warnings).toHaveLength(1);
    // The dialog showed the odds against the target attacked only.
    const body = document.createElement("div");
    body.innerHTML = String(t.world.dialogs.at(-1)!.content);
    expect([...body.querySelectorAll(".fudge-odds")].map((o) => o.textContent)).toHaveLength(1);
    expect(body.querySelector(".fudge-odds .fudge-error")).toBeNull();
  });

  it("when no target can be reached, the attack is refused with one warning and nothing is rolled", async () => {
    const t = await miniTable({ "Knavely Knave": [12, -1], "Sir Knightly": [30, 1], "Yanni the Yeoman": [20, 1] });
    const cards = await attack(t, "Knavely Knave", ["Sir Knightly", "Yanni the Yeoman"], "Sword of Smiting");
    expect(cards).toEqual([]);
    expect(t.world.rolls).toEqual([]);
    expect(t.player.notifications.map((n) => n.message)).toEqual([
      "Knavely Knave: Sword of Smiting needs base-to-base contact.",
    ]);
  });
});
