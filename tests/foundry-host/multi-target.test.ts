// @vitest-environment happy-dom
/**
 * A multi-target attack goes ahead against the targets it can reach and names a skipped one once
 * (issue 30 item 3): Knavely Knave stabs at Sir Knightly (base contact) and Yanni (8" away, out of
 * contact: Miniatures "Melee attacks must be made in base-to-base contact with the target model").
 */
import { describe, expect, it } from "vitest";
import { findSample } from "../../src/cli/samples";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

const IDS: Record<string, string> = {
  "Yanni the Yeoman": "miniYanni0000001",
  "Sir Knightly": "miniKnightly0001",
  "Knavely Knave": "miniKnavely00001",
};

async function miniTable(place: Record<string, [number, number]>): Promise<Table> {
  const t = await table({
    seed: (world, ids) => {
      for (const [name, id] of Object.entries(IDS)) {
        const { _key: _k, ...doc } = structuredClone(findSample(name, "name")) as unknown as Record<string, unknown>;
        const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
        world.server.seed("Actor", { ...doc, _id: id, items, ownership: { default: 0, [ids.player]: 3 } });
      }
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
  const tokens = Object.entries(place).map(([name, [x, disposition]]) => ({
    name,
    actorId: IDS[name],
    actorLink: true,
    x: x * 100,
    y: 1000,
    disposition,
  }));
  await t.gm.run(() =>
    (t.gm.game.scenes.get(t.scene) as unknown as Scene.Implementation).createEmbeddedDocuments(
      "Token",
      tokens as never,
    ),
  );
  await t.world.settle();
  return t;
}

type App = { element: HTMLElement };
type Card = { targets: { name: string; actorId: string }[] };
const tokenDoc = (c: Client, t: Table, name: string) =>
  c.game.scenes.get(t.scene)!.tokens.contents.find((d) => (d as unknown as { actorId: string }).actorId === IDS[name])!;
const itemId = (c: Client, actor: string, name: string) =>
  (actorOn(c, IDS[actor]).items.contents as unknown as { id: string; name: string }[]).find((i) => i.name === name)!.id;

async function attack(t: Table, attacker: string, targets: string[], weapon: string): Promise<Card[]> {
  t.player.target(...targets.map((n) => tokenDoc(t.player, t, n)));
  t.world.answerDialogs(() => undefined);
  const before = t.gm.game.messages.contents.length;
  const app = await t.player.run(() =>
    (actorOn(t.player, IDS[attacker]).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
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
