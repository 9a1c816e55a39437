/**
 * Making a character in the playground (issue 31): Create Actor, objective creation (Fudge §1.6),
 * four attributes, five skills from the compendium at chosen levels, a gift and a fault, a weapon
 * with its skill picked and armor — at most 20 actions (a click, a drag or one typed field each),
 * with the creation counters checked against the rules core after every step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import {
  act,
  axeViolations,
  missingKeys,
  noProblems,
  openPlayground,
  screenshot,
  startBrowser,
  storedState,
} from "./helpers";
import { objectiveBudget } from "../../src/rules/fudge";
import { worldRulesFrom } from "../../src/system/data";
import { attributeLevel } from "../../src/system/attributes";

let browser: Browser;

/** A compendium entry by its exact name and item type (Knife is a skill and a weapon). */
const entry = (page: Page, name: string, type: string) =>
  page.locator(`#pg-compendium [data-pg-pack-item][data-type="${type}"]`).filter({ hasText: new RegExp(`^${name}$`) });

/** An HTML5 drag from a compendium entry onto a sheet: dragstart, dragover and drop with one DataTransfer. */
async function dragOnto(page: Page, source: Locator, target: Locator): Promise<void> {
  const dt = await page.evaluateHandle(() => new DataTransfer());
  await source.dispatchEvent("dragstart", { dataTransfer: dt });
  await target.dispatchEvent("dragover", { dataTransfer: dt });
  await target.dispatchEvent("drop", { dataTransfer: dt });
  await source.dispatchEvent("dragend", { dataTransfer: dt });
}
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The counters the rules core derives for the stored character (the oracle of every step). */
async function expectedCounters(page: Page, name: string) {
  const s = await storedState(page);
  const rules = worldRulesFrom((k) => s.settings[k]);
  const a = s.actors.find((x: any) => x.name === name);
  const items = (t: string) => a.items.filter((i: any) => i.type === t);
  const b = objectiveBudget(
    {
      attributes: rules.attributeSet.attributes.map((x) => attributeLevel(a.system.attributes, x.key)),
      skills: items("skill").map((i: any) => ({ level: i.system.level })),
      gifts: items("gift").length,
      faults: items("fault").length,
    },
    rules.creation,
  );
  return {
    method: rules.creation.method,
    lines: {
      attributes: `Attribute levels: ${b.attributes.spent} spent of ${b.attributes.free} free, ${b.attributes.left} left`,
      skills: `Skill levels: ${b.skills.spent} spent of ${b.skills.free} free, ${b.skills.left} left`,
      gifts: `Gifts: ${b.gifts.spent} taken of ${b.gifts.free} free, ${b.gifts.left} left`,
      faults: `Faults: ${b.faults}`,
    },
  };
}

async function checkCounters(page: Page, win: Locator, name: string): Promise<void> {
  const want = await expectedCounters(page, name);
  if (want.method !== "objective") return;
  for (const [id, text] of Object.entries(want.lines))
    expect(((await win.locator(`[data-counter="${id}"]`).textContent()) ?? "").trim(), id).toBe(text);
}

describe("playground: making a character (Fudge §1.6, compendium drag and drop)", () => {
  it("builds a character in at most 20 actions, the counters right at every step", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", fresh: true });
    const NAME = "Aldric";
    let actions = 0;
    let win: Locator = page.locator(".pg-window").first();
    /** One user action (a click, a drag or one typed field), then the counters are checked. */
    const step = async (f: () => Promise<void>) => {
      actions += 1;
      await act(page, f);
      await checkCounters(page, win, NAME);
    };
    const drag = (name: string, type: string) =>
      step(() => dragOnto(page, entry(page, name, type), win.locator(".window-content")));

    // Create Actor: the name typed once, then the button (a character by default).
    actions += 1;
    await page.fill('[data-testid="create-name"]', NAME);
    await step(() => page.click('[data-testid="create-submit"]'));
    const id = (await storedState(page)).actors.find((a: any) => a.name === NAME)._id;
    win = page.locator(`.pg-window[data-pg-doc="${id}"]`);
    await win.waitFor();
    // The new character opens on its Traits (no weapon yet), the compendiums beside it.
    expect(await win.locator('[data-tab="traits"].active').count()).toBeGreaterThan(0);
    expect(await page.locator("#pg-compendium").isVisible()).toBe(true);
    expect(await win.locator('[data-creation="subjective"]').count()).toBe(1);

    // The GM picks objective creation on the panel (a world setting).
    await step(() =>
      win
        .locator('select[data-world-setting="creation.method"]')
        .selectOption("objective")
        .then(() => undefined),
    );
    expect(await win.locator('[data-creation="objective"]').count()).toBe(1);

    // Four attributes by ladder name: Strength, Damage Capacity, Willpower Good; Mass Mediocre.
    for (const [key, value] of [
      ["strength", "1"],
      ["damageCapacity", "1"],
      ["willpower", "1"],
      ["mass", "-1"],
    ])
      await step(() =>
        win
          .locator(`select[name="system.attributes.${key}"]`)
          .selectOption(value)
          .then(() => undefined),
      );

    // Five skills dragged from the compendium, three raised by ladder name.
    for (const skill of ["One-handed Sword", "Dodge", "Shield", "Climbing", "Observation"]) await drag(skill, "skill");
    const level = (skill: string, value: string) =>
      step(() =>
        win
          .locator(".fudge-items-skill .fudge-item", { hasText: skill })
          .locator("select[data-item-field='system.level']")
          .selectOption(value)
          .then(() => undefined),
      );
    await level("One-handed Sword", "2");
    await level("Dodge", "1");
    await level("Observation", "1");

    // A gift and a fault.
    await drag("Lucky", "gift");
    await drag("Curious", "fault");

    // A weapon: the sheet shows Combat once there is one; its skill picked from the character's skills.
    await drag("Broadsword", "weapon");
    const weapon = win.locator(".fudge-weapon", { hasText: "Broadsword" });
    await weapon.waitFor();
    await step(() =>
      weapon
        .locator("select[data-item-field='system.skill']")
        .selectOption("One-handed Sword")
        .then(() => undefined),
    );
    expect(((await weapon.locator(".fudge-weapon-skill").textContent()) ?? "").trim()).toBe("Great (+2)");

    // Armor.
    await drag("Leather Armor", "armor");

    expect(actions).toBeLessThanOrEqual(20);
    const a = (await storedState(page)).actors.find((x: any) => x._id === id);
    expect(a.system.attributes).toMatchObject({ strength: 1, damageCapacity: 1, willpower: 1, mass: -1 });
    expect(a.items.map((i: any) => i.name).sort()).toEqual(
      [
        "Broadsword",
        "Climbing",
        "Curious",
        "Dodge",
        "Leather Armor",
        "Lucky",
        "Observation",
        "One-handed Sword",
        "Shield",
      ].sort(),
    );
    expect(a.items.find((i: any) => i.name === "Broadsword").system.skill).toBe("One-handed Sword");
    // Within budget: 2 of 2 attribute levels, 5+4+3+3+4 = 19 of 50 skill levels, 1 gift of 3 (2 free + 1 fault).
    // (A tab is the host's view, not stored: no revision to wait for.)
    await win.locator('[data-action="tab"][data-tab="traits"]').click();
    await checkCounters(page, win, NAME);
    expect(await win.locator('[data-warning="creation"]').count()).toBe(0);
    // axe-core (issue #33): the creation panel with its counters and the GM's method picker, the
    // skills' level pickers, Create Actor and the compendium browser; then the weapon's skill picker.
    const sheet = `.pg-window[data-pg-doc="${id}"] .window-content`;
    const found = await axeViolations(page, [sheet, "#pg-create", "#pg-compendium"], "creation, traits");
    await win.locator('[data-action="tab"][data-tab="combat"]').click();
    found.push(...(await axeViolations(page, [sheet], "creation, combat")));
    expect(found).toEqual([]);
    await win.locator('[data-action="tab"][data-tab="traits"]').click();
    await screenshot(win, "creation-objective-aldric");
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("bad input warns and loses nothing: over budget, a deleted skill named by a weapon and the defence", async () => {
    // The dark theme here (the first test runs the light one): the warnings pass axe-core in both.
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", fresh: true, theme: "dark" });
    await page.fill('[data-testid="create-name"]', "Brom");
    await act(page, () => page.click('[data-testid="create-submit"]'));
    const id = (await storedState(page)).actors.find((a: any) => a.name === "Brom")._id;
    const win = page.locator(`.pg-window[data-pg-doc="${id}"]`);
    await act(page, () =>
      win
        .locator('select[data-world-setting="creation.method"]')
        .selectOption("objective")
        .then(() => undefined),
    );
    // Over budget: three attributes at Superb with two free levels and nothing else to trade.
    for (const key of ["strength", "damageCapacity", "willpower"])
      await act(page, () =>
        win
          .locator(`select[name="system.attributes.${key}"]`)
          .selectOption("3")
          .then(() => undefined),
      );
    await checkCounters(page, win, "Brom");
    // 9 levels: 2 free, 7 from the skills' 50 (21 skill levels), so still within budget …
    expect(await win.locator('[data-warning="creation"]').count()).toBe(0);
    expect(await win.locator("[data-trade]").count()).toBe(1);
    // … until the skills take their levels too: twelve Superb skills cost 72 of 50, and two gifts (12) cover no more.
    await page.evaluate((actorId) => {
      const pg = (window as any).__playground;
      pg.store.updateDocs({ actors: [actorId] }, (d: any) => {
        const a = d.actors.find((x: any) => x._id === actorId);
        for (let i = 0; i < 12; i++)
          a.items.push({
            _id: `skill${String(i).padStart(2, "0")}xxxxxxxxx`,
            name: `Skill ${i}`,
            type: "skill",
            system: { level: 3, group: "", description: "" },
          });
      });
    }, id);
    await page.waitForFunction(() => document.querySelector('[data-warning="creation"]') !== null);
    expect(await win.locator('[data-warning="creation"]').first().textContent()).toContain("Over budget");
    const stored = (await storedState(page)).actors.find((a: any) => a._id === id);
    expect(stored.system.attributes).toMatchObject({ strength: 3, damageCapacity: 3, willpower: 3 });

    // A weapon and the defence name a skill, which is then deleted: both warn, nothing is rewritten.
    await act(page, () => dragOnto(page, entry(page, "Dodge", "skill"), win.locator(".window-content")));
    await act(page, () =>
      win
        .locator('select[name="system.defenseSkill"]')
        .selectOption("Dodge")
        .then(() => undefined),
    );
    await act(page, () => dragOnto(page, entry(page, "Knife", "weapon"), win.locator(".window-content")));
    await act(page, () =>
      win
        .locator(".fudge-weapon", { hasText: "Knife" })
        .locator("select[data-item-field='system.skill']")
        .selectOption("Dodge")
        .then(() => undefined),
    );
    await win.locator('[data-action="tab"][data-tab="traits"]').click();
    await act(page, () =>
      win.locator(".fudge-items-skill .fudge-item", { hasText: "Dodge" }).locator('[data-action="deleteItem"]').click(),
    );
    expect(await win.locator('[data-warning="defense-skill"]').textContent()).toContain("Dodge");
    const sheet = `.pg-window[data-pg-doc="${id}"] .window-content`;
    const found = await axeViolations(page, [sheet], "over budget, stale defence skill");
    await win.locator('[data-action="tab"][data-tab="combat"]').click();
    expect(await win.locator('[data-warning="weapon-skill"]').textContent()).toContain("Dodge");
    found.push(...(await axeViolations(page, [sheet], "stale weapon skill")));
    expect(found).toEqual([]);
    const after = (await storedState(page)).actors.find((a: any) => a._id === id);
    expect(after.system.defenseSkill).toBe("Dodge");
    expect(after.items.find((i: any) => i.name === "Knife").system.skill).toBe("Dodge");
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("the keyboard adds a compendium entry without a drag: Tab to its Add button, Enter; axe finds nothing", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", fresh: true });
    await page.fill('[data-testid="create-name"]', "Cara");
    await act(page, () => page.press('[data-testid="create-name"]', "Enter"));
    const id = (await storedState(page)).actors.find((a: any) => a.name === "Cara")._id;
    // The filter narrows the list; Tab from it reaches the first entry's Add button.
    await page.fill("#pg-compendium-filter", "Climbing");
    await page.focus("#pg-compendium-filter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Add Climbing to the open sheet",
    );
    await act(page, () => page.keyboard.press("Enter"));
    const cara = (await storedState(page)).actors.find((a: any) => a._id === id);
    expect(cara.items.map((i: any) => [i.name, i.type])).toEqual([["Climbing", "skill"]]);
    expect(await axeViolations(page, ["#pg-compendium"], "compendium with Add buttons")).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
