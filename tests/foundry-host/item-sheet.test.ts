// @vitest-environment happy-dom
/**
 * Issue #25 (7): the item sheet is a form that submits on change (v13 DocumentSheetV2); a saved
 * description reaches the item once — core's `<prose-mirror>` fires "change" after "save", and
 * that change alone submits the form.
 */
import { describe, expect, it } from "vitest";
import { actorOn, table } from "./table";
import type { HostProseMirror } from "./prose-mirror";

type App = { element: HTMLElement };

async function weaponSheet() {
  const t = await table();
  const [item] = await t.gm.run(() =>
    actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
      { name: "Sword", type: "weapon", system: { description: "<p>Sharp</p>" } } as never,
    ]),
  );
  await t.world.settle();
  const sheet = await t.player.run(() =>
    (actorOn(t.player, t.hero).items.get(item!.id!)!.sheet as unknown as { render(o: object): Promise<App> }).render({
      force: true,
    }),
  );
  return { t, itemId: item!.id!, sheet };
}

const itemUpdates = (t: Awaited<ReturnType<typeof table>>) =>
  t.world.server.requests.filter((r) => r.documentName === "Item" && r.action === "update");

describe("the item sheet saves a description once", () => {
  it("one save of the editor is one update of the item, with the new HTML", async () => {
    const { t, itemId, sheet } = await weaponSheet();
    const editor = sheet.element.querySelector<HostProseMirror>('prose-mirror[name="system.description"]')!;
    const before = itemUpdates(t).length;
    t.player.run(() => {
      editor.edit("<p>Sharp and <em>old</em></p>");
      editor.save();
    });
    await t.world.settle();
    expect(itemUpdates(t).length - before).toBe(1);
    const stored = actorOn(t.gm, t.hero).items.get(itemId)!.system as unknown as { description: string };
    expect(stored.description).toBe("<p>Sharp and <em>old</em></p>");
  });

  it("a field changed on the sheet is submitted once too", async () => {
    const { t, itemId, sheet } = await weaponSheet();
    const before = itemUpdates(t).length;
    t.player.change(sheet.element.querySelector('[name="system.magic"]'), "2");
    await t.world.settle();
    expect(itemUpdates(t).length - before).toBe(1);
    expect((actorOn(t.gm, t.hero).items.get(itemId)!.system as unknown as { magic: number }).magic).toBe(2);
  });
});
