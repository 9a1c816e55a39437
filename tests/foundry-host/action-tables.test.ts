// @vitest-environment happy-dom
/**
 * The action tables on the v13 host: the actor sheet dispatches every `data-action` through the
 * sheet table (src/system/flows/tables.ts); one with no entry fails loudly (v13 calls
 * ApplicationV2#_onClickAction for an action without a handler, and the sheet reports it);
 * core's own tab action is left to core.
 */
import { describe, expect, it } from "vitest";
import { table, actorOn } from "./table";
import { SHEET_ACTIONS } from "../../src/system/flows";

type App = { element: HTMLElement; options: { actions: Record<string, unknown> } };
const openSheet = (c: import("./world").Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));

describe("the actor sheet and the sheet action table", () => {
  it("every entry of the table is an action of the sheet", async () => {
    const t = await table();
    const app = await openSheet(t.player, t.hero);
    expect(Object.keys(app.options.actions)).toEqual(expect.arrayContaining(Object.keys(SHEET_ACTIONS)));
  });

  it("a button whose action has no entry fails loudly: the user is told, nothing is written", async () => {
    const t = await table();
    const app = await openSheet(t.player, t.hero);
    const before = t.world.server.journal.length;
    const from = t.player.notifications.length;
    const bogus = document.createElement("button");
    bogus.dataset.action = "fireball";
    app.element.querySelector(".window-content")!.append(bogus);
    t.player.click(bogus);
    await t.world.settle();
    expect(t.player.notifications.slice(from).map((n) => n.type)).toEqual(["error"]);
    expect(t.world.server.journal.length).toBe(before);
  });

  it("core's tab action is not the system's: a tab click reports nothing", async () => {
    const t = await table();
    const app = await openSheet(t.player, t.hero);
    const from = t.player.notifications.length;
    t.player.click(app.element.querySelector('[data-action="tab"]'));
    await t.world.settle();
    expect(t.player.notifications.slice(from)).toEqual([]);
  });
});
