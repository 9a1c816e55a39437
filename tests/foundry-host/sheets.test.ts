// @vitest-environment happy-dom
/**
 * Issue #7: templates, helpers and sheets as v13 renders them — on the host, with the real
 * modules. Each test fails on the code before #7 (the helpers one guards main's fix).
 */
import { describe, expect, it } from "vitest";
import { table, actorOn } from "./table";

type App = { element: HTMLElement; renderCalls: unknown[]; rendered: boolean };
const openSheet = (c: import("./world").Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));

describe("templates and helpers", () => {
  it("core helpers keep core's semantics after the system's init (eq is ===, no Number coercion)", async () => {
    const t = await table();
    const out = t.player.run(() =>
      (Handlebars as unknown as typeof import("handlebars")).compile(
        "{{#if (eq a b)}}same{{else}}different{{/if}} {{#if (gt c d)}}gt{{/if}}",
      )({ a: "1", b: 1, c: "2", d: "10" }),
    );
    expect(out).toBe("different gt");
  });

  it("a card drawn at start-up waits for the partials (Foundry does not wait for init's promise)", async () => {
    const t = await table();
    await t.gm.run(() =>
      actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
        { name: "Sword", type: "weapon", system: { equipped: true } } as never,
      ]),
    );
    await t.world.settle();
    t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
    const app = await openSheet(t.player, t.hero);
    t.player.click(app.element.querySelector('[data-action="attack"]'));
    await t.world.settle();
    const id = t.gm.game.messages.contents.at(-1)!.id;
    // Resolve it (defend), so the card shows its steps partial too.
    t.gm.click(t.gm.chatLog.get(id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    // A client that connects now draws the existing card during start-up.
    const late = await t.world.connect(t.ids.player);
    await t.world.settle();
    const card = late.chatLog.get(id)!;
    expect(card.querySelector(".fudge-card-error")).toBeNull();
    expect(card.querySelector(".fudge-card")).not.toBeNull();
    expect(card.querySelector(".fudge-explain .fudge-steps")).not.toBeNull();
  });
});

describe("sheets", () => {
  it("core's AppV1 sheets are unregistered: only the system's sheets remain", async () => {
    const t = await table();
    for (const doc of ["Actor", "Item"])
      expect(t.gm.sheetConfig.get(doc)!.map((e) => e.id.split(".")[0])).toEqual(
        expect.arrayContaining(["fudge-wounds"]),
      );
    for (const doc of ["Actor", "Item"])
      expect(t.gm.sheetConfig.get(doc)!.some((e) => e.id.startsWith("core."))).toBe(false);
  });

  it("opening an item from the actor sheet renders it with {force: true}", async () => {
    const t = await table();
    const [item] = await t.player
      .run(() =>
        actorOn(t.player, t.hero).createEmbeddedDocuments("Item", [{ name: "Sword", type: "weapon" } as never]),
      )
      .catch(() => [null]);
    const created =
      item ??
      (
        await t.gm.run(() =>
          actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [{ name: "Sword", type: "weapon" } as never]),
        )
      )[0];
    await t.world.settle();
    const app = await openSheet(t.player, t.hero);
    t.player.click(
      app.element.querySelector(
        `[data-action="editItem"][data-item-id="${created!.id}"], [data-item-id="${created!.id}"] [data-action="editItem"]`,
      ),
    );
    await t.world.settle();
    const itemSheet = t.player.run(() => actorOn(t.player, t.hero).items.get(created!.id!)!.sheet) as unknown as App;
    expect(itemSheet.rendered).toBe(true);
    expect(itemSheet.renderCalls[0]).toEqual({ force: true });
  });

  it("a LIMITED user sees name, portrait and condition — not the traits, track or notes", async () => {
    const t = await table({
      seed: (world, ids) => {
        const foe = [...world.server.db.Actor.values()].find((a) => a.name === "Theodora")!;
        foe.ownership = { default: 0, [ids.player]: 1 };
        (foe as { system: Record<string, unknown> }).system = { notes: "Secret plans" };
      },
    });
    const app = await openSheet(t.player, t.foe);
    const text = app.element.textContent ?? "";
    expect(text).toContain("Theodora");
    expect(text).toContain("Can act");
    expect(text).not.toContain("Secret plans");
    expect(app.element.querySelector('[name^="system."]')).toBeNull();
    expect(app.element.querySelector('[data-action="toggleBox"], [data-action="toggleWoundBox"]')).toBeNull();
    // The owner still sees the full sheet.
    const full = await openSheet(t.gm, t.foe);
    expect(full.element.querySelector('[name^="system."]')).not.toBeNull();
  });

  it("the sheet's tabs are ARIA tabs: arrow keys, Home and End open a tab through core's changeTab; a click leaves no aria-pressed", async () => {
    const t = await table();
    const app = await openSheet(t.player, t.hero);
    const el = app.element;
    const list = el.querySelector<HTMLElement>('[role="tablist"]')!;
    expect(list).not.toBeNull();
    const tabs = () => [...list.querySelectorAll<HTMLElement>('[role="tab"]')];
    const selected = () => tabs().filter((b) => b.getAttribute("aria-selected") === "true");
    const press = (key: string) =>
      t.player.run(() =>
        (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true })),
      );
    // Each tab controls its panel, which names it back.
    for (const b of tabs()) {
      const panel = el.querySelector(`#${CSS.escape(b.getAttribute("aria-controls") ?? "")}`)!;
      expect(panel.getAttribute("role")).toBe("tabpanel");
      expect(panel.getAttribute("aria-labelledby")).toBe(b.id);
    }
    // Leroy has no weapon yet: his sheet opens on Traits (sheet.ts withTableView); Home goes to Combat.
    expect(selected().map((b) => b.dataset.tab)).toEqual(["traits"]);
    t.player.run(() => selected()[0].focus());
    press("Home");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["combat"]);
    press("ArrowRight");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["traits"]);
    expect((document.activeElement as HTMLElement).dataset.tab).toBe("traits");
    expect(el.querySelector('.tab[data-tab="traits"]')!.classList.contains("active")).toBe(true);
    expect(tabs().map((b) => b.tabIndex)).toEqual([-1, 0, -1, -1]);
    press("End");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["notes"]);
    press("ArrowRight");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["combat"]);
    press("ArrowLeft");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["notes"]);
    press("Home");
    expect(selected().map((b) => b.dataset.tab)).toEqual(["combat"]);
    // A click goes through core's own tab action; the tabs stay ARIA tabs (no aria-pressed).
    t.player.click(tabs().find((b) => b.dataset.tab === "gear"));
    expect(selected().map((b) => b.dataset.tab)).toEqual(["gear"]);
    expect(tabs().some((b) => b.hasAttribute("aria-pressed"))).toBe(false);
    // The open tab survives a re-render.
    await t.player.run(() => (app as unknown as { render(): Promise<unknown> }).render());
    expect(el.querySelector('[role="tab"][aria-selected="true"]')!.getAttribute("data-tab")).toBe("gear");
  });

  it("the token bar is derived: not stored, and an edit of it changes nothing", async () => {
    const t = await table();
    const a = actorOn(t.player, t.hero);
    const before = (a.system as unknown as { openBoxes: { value: number; max: number } }).openBoxes;
    expect(before.max).toBeGreaterThan(0);
    expect(a.toObject().system).not.toHaveProperty("openBoxes");
    await t.player.run(() => a.update({ "system.openBoxes.value": 0 } as never));
    expect((actorOn(t.gm, t.hero).system as unknown as { openBoxes: { value: number } }).openBoxes.value).toBe(
      before.value,
    );
    expect(t.world.server.db.Actor.get(t.hero)!.system).not.toHaveProperty("openBoxes");
  });
});

describe("rich-text notes and descriptions (issue #9)", () => {
  const HOSTILE =
    '<p>Owes <strong>3 gp</strong></p><img src="x" onerror="alert(1)"><a href="javascript:alert(2)">x</a>';
  const seeded = () =>
    table({
      seed: (world, ids) => {
        const hero = [...world.server.db.Actor.values()].find((a) => a.name !== "Theodora" && a.type === "character")!;
        (hero as { system: Record<string, unknown> }).system = {
          ...(hero as { system: Record<string, unknown> }).system,
          notes: HOSTILE,
        };
        const foe = [...world.server.db.Actor.values()].find((a) => a.name === "Theodora")!;
        foe.ownership = { default: 0, [ids.player]: 2 };
        (foe as { system: Record<string, unknown> }).system = { notes: "<p>Watches the <em>gate</em></p>" };
      },
    });

  it("an owner edits with a toggled <prose-mirror> (name, stored value) showing the cleaned, enriched HTML", async () => {
    const t = await seeded();
    const app = await openSheet(t.player, t.hero);
    const editor = app.element.querySelector<HTMLElement>('prose-mirror[name="system.notes"]')!;
    expect(editor).not.toBeNull();
    expect(editor.hasAttribute("toggled")).toBe(true);
    expect(editor.getAttribute("value")).toBe(HOSTILE);
    expect(editor.getAttribute("document-uuid")).toBe(`Actor.${t.hero}`);
    expect(editor.querySelector("strong")?.textContent).toBe("3 gp");
    // Shown through core's cleanHTML: no handler, no script URL reaches the page.
    expect(editor.innerHTML).not.toMatch(/onerror|javascript:/);
  });

  it("a note cannot carry a sheet action: data-* and buttons are dropped before core's cleaning keeps them", async () => {
    // Stored as if core's cleaning let it through (it keeps data-* and <button>).
    const crafted =
      '<p>Read me</p><button data-action="toggleWoundBox" data-ref="incapacitated:0">click</button><span data-action="attack">x</span>';
    const t = await table({
      seed: (world) => {
        const hero = [...world.server.db.Actor.values()].find((a) => a.name !== "Theodora" && a.type === "character")!;
        (hero as { system: Record<string, unknown> }).system = {
          ...(hero as { system: Record<string, unknown> }).system,
          notes: crafted,
        };
      },
    });
    const app = await openSheet(t.gm, t.hero);
    const shown = app.element.querySelector<HTMLElement>('prose-mirror[name="system.notes"]')!;
    expect(shown.textContent).toContain("Read me");
    expect(shown.querySelector("[data-action], button")).toBeNull();
  });

  it("its save event writes the new HTML to the actor", async () => {
    const t = await seeded();
    const app = await openSheet(t.player, t.hero);
    const editor = app.element.querySelector<HTMLElement>('prose-mirror[name="system.notes"]')!;
    // Foundry's HTMLProseMirrorElement holds the saved HTML as its value, then fires "save".
    Object.defineProperty(editor, "value", { value: "<p><strong>Paid</strong> Leroy</p>", configurable: true });
    t.player.run(() => editor.dispatchEvent(new Event("save")));
    await t.world.settle();
    expect((t.gm.game.actors.get(t.hero)!.system as unknown as { notes: string }).notes).toBe(
      "<p><strong>Paid</strong> Leroy</p>",
    );
  });

  it("an observer reads the notes rendered, with no editor; a LIMITED user does not see them", async () => {
    const t = await seeded();
    const app = await openSheet(t.player, t.foe);
    expect(app.element.querySelector("prose-mirror")).toBeNull();
    expect(app.element.querySelector(".fudge-rich-text-view em")?.textContent).toBe("gate");
  });

  it("the server cleans declared htmlFields on every write: a player's hostile notes are stored clean", async () => {
    const t = await table();
    await t.player.run(() => actorOn(t.player, t.hero).update({ system: { notes: HOSTILE } } as never));
    await t.world.settle();
    const stored = (t.gm.game.actors.get(t.hero)!.system as unknown as { notes: string }).notes;
    expect(stored).toContain("<strong>3 gp</strong>");
    expect(stored).not.toMatch(/onerror|javascript:/);
  });

  it("an item's description is a <prose-mirror> too", async () => {
    const t = await seeded();
    const [item] = await t.gm.run(() =>
      actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
        { name: "Sword", type: "weapon", system: { description: "<p>Sharp <em>edge</em></p>" } } as never,
      ]),
    );
    await t.world.settle();
    const sheet = await t.player.run(() =>
      (actorOn(t.player, t.hero).items.get(item!.id!)!.sheet as unknown as { render(o: object): Promise<App> }).render({
        force: true,
      }),
    );
    const editor = sheet.element.querySelector('prose-mirror[name="system.description"]');
    expect(editor?.getAttribute("value")).toBe("<p>Sharp <em>edge</em></p>");
    expect(editor?.querySelector("em")?.textContent).toBe("edge");
  });
});

describe("sheet tabs, through core's own tab action (ApplicationV2#_onClickTab, #changeTab)", () => {
  it("a click on a tab button shows its tab; the choice survives the sheet's re-render (its parts are replaced)", async () => {
    const t = await table();
    const app = await openSheet(t.player, t.hero);
    const section = (tab: string) => app.element.querySelector(`section.tab[data-tab="${tab}"]`)!;
    // Leroy has no weapon yet: his sheet opens on Traits (a character being made).
    expect(section("traits").classList.contains("active")).toBe(true);
    t.player.click(app.element.querySelector('[data-action="tab"][data-tab="combat"]'));
    expect(section("combat").classList.contains("active")).toBe(true);
    expect(section("traits").classList.contains("active")).toBe(false);
    expect(app.element.querySelector('[data-action="tab"][data-tab="combat"]')!.getAttribute("aria-selected")).toBe(
      "true",
    );
    // An update re-renders the open sheet: the combat tab is still the one shown, not the first screen.
    await t.player.run(() => actorOn(t.player, t.hero).update({ name: "Leroy the Bold" }));
    await t.world.settle();
    expect(app.element.querySelector('section.tab[data-tab="combat"]')!.classList.contains("active")).toBe(true);
    expect(app.element.querySelectorAll('section.tab[data-tab="combat"]')).toHaveLength(1);
  });
});
