/**
 * The system's actor sheets in a real browser, for every preset: every sample actor's sheet
 * renders from the real template, strings and CSS; wound boxes toggle by click and by keyboard
 * (Enter / Space on the focused box); the stored track and the visible penalty follow, checked
 * against the rules core's own status of the stored track.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import {
  act,
  afterAction,
  missingKeys,
  noProblems,
  openPlayground,
  openSheet,
  PRESETS,
  type Preset,
  revision,
  screenshot,
  slug,
  startBrowser,
  state,
  storedActor,
  storedState,
  reveal,
  rollVia,
} from "./helpers";
import { expectedStatus } from "./oracle";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const BOX_IN_ROW = '.fudge-box[data-action="toggleWoundBox"]';
const BOX = `.fudge-track ${BOX_IN_ROW}`;

/** A markable box, preferably in the first row whose level has a numeric, non-zero penalty. */
async function pickBox(win: Locator): Promise<{ ref: string; rowPenalty: string }> {
  return win.evaluate((el, sel) => {
    const rows = [...el.querySelectorAll(".fudge-track-row")];
    const withPenalty = rows.find((r) => {
      const p = r.querySelector(".fudge-row-penalty")?.textContent?.trim() ?? "";
      return p !== "" && p !== "0" && r.querySelector(`${sel}:not([disabled])`);
    });
    const box = (withPenalty ?? el).querySelector(
      `${sel}:not([disabled]):not([aria-pressed="true"])`,
    ) as HTMLElement | null;
    if (!box) throw new Error("no markable wound box on this sheet");
    return {
      ref: box.dataset.ref ?? "",
      rowPenalty: withPenalty?.querySelector(".fudge-row-penalty")?.textContent?.trim() ?? "",
    };
  }, BOX);
}

async function visiblePenalty(win: Locator): Promise<string> {
  return ((await win.locator(".fudge-track .fudge-penalty .value").first().textContent()) ?? "").trim();
}

async function headerPenalty(win: Locator): Promise<string> {
  return ((await win.locator(".fudge-sheet-header .fudge-penalty .value").first().textContent()) ?? "").trim();
}

/**
 * Clears a marked box by activating it again. Box tracks clear on the next click; a Volt row
 * cycles empty → Stun → Injury → empty (Volt: Marking Wounds), so it may take two.
 */
async function clearBox(page: Page, box: Locator, activate: () => Promise<void>): Promise<number> {
  for (let n = 1; n <= 3; n++) {
    const rev = await revision(page);
    await activate();
    await afterAction(page, rev);
    if ((await box.getAttribute("aria-pressed")) === "false") return n;
  }
  throw new Error("the box did not clear after three activations");
}

async function checkAgainstRules(
  page: Page,
  win: Locator,
  name: string,
): Promise<{ penaltyText: string; state: unknown }> {
  const stored = await storedState(page);
  const actor = stored.actors.find((a: any) => a.name === name);
  const exp = expectedStatus(stored, actor);
  expect(await visiblePenalty(win)).toBe(exp.penaltyText);
  expect(await headerPenalty(win)).toBe(exp.penaltyText);
  expect(await win.locator(".fudge-track .fudge-condition").first().getAttribute("data-condition")).toBe(exp.condition);
  return { penaltyText: exp.penaltyText, state: actor.system.woundTrack.state };
}

describe.each(PRESETS)("preset %s", (preset) => {
  it("renders every sample actor's sheet from the real template, strings and CSS", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset, dice: "seed:1" });
    expect(await page.evaluate(() => (window as any).__playground.missingPieces)).toEqual([]);
    expect(await page.evaluate(() => (window as any).__playground.styles.length)).toBeGreaterThan(0);
    // The packs hold no NPC: add one (Theodora's data as an NPC pawn, Fudge §4.57) so the NPC sheet is covered too.
    await page.evaluate(() => {
      (window as any).__playground.store.update((d: any) => {
        const t = structuredClone(d.actors.find((a: any) => a.name === "Theodora"));
        d.actors.push({
          ...t,
          _id: "pgNpcGuard000001",
          name: "Guard (NPC)",
          type: "npc",
          system: { ...t.system, pawn: true },
        });
      });
    });
    const names: string[] = (await state(page)).actors.map((a: any) => a.name);
    expect(names).toEqual(expect.arrayContaining(["Leroy", "Theodora", "Guard (NPC)"]));
    for (const name of names) {
      const win = await openSheet(page, name);
      const content = win.locator(".window-content");
      expect(await content.locator("[data-testid=missing]").count()).toBe(0);
      // The wound track with its penalty and condition is always on the sheet.
      expect(await content.locator(".fudge-track").count()).toBeGreaterThan(0);
      expect(await content.locator(".fudge-track .fudge-penalty").count()).toBeGreaterThan(0);
      expect(await content.locator(".fudge-track .fudge-condition").count()).toBeGreaterThan(0);
      // The sheet is styled by the system's CSS (not the browser's defaults).
      const styled = await content
        .locator(".fudge-track")
        .first()
        .evaluate((el) => getComputedStyle(el).display !== "inline" || getComputedStyle(el).borderStyle !== "none");
      expect(styled).toBe(true);
      await screenshot(win, `sheet-${preset}-${slug(name)}`);
      await page.click(`[data-pg-close="${await win.getAttribute("data-pg-doc")}"]`);
    }
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  const who = preset === "miniatures" ? ["Leroy", "Sir Knightly"] : ["Leroy"];
  it.each(who)(
    "toggles %s's wound boxes by click; the stored track and the visible penalty follow the rules core",
    async (name) => {
      const { page, context, problems } = await openPlayground(browser, { preset });
      const win = await openSheet(page, name);
      const start = await checkAgainstRules(page, win, name);
      expect(start.penaltyText).toBe("0");
      const { ref, rowPenalty } = await pickBox(win);
      const box = win.locator(`${BOX}[data-ref="${ref}"]`);
      expect(await box.getAttribute("aria-pressed")).toBe("false");

      let rev = await revision(page);
      await box.click();
      await afterAction(page, rev);
      expect(await box.getAttribute("aria-pressed")).toBe("true");
      const marked = await checkAgainstRules(page, win, name);
      expect(marked.state).not.toEqual(start.state);
      if (rowPenalty) expect(marked.penaltyText).toBe(rowPenalty);
      await screenshot(win, `sheet-${preset}-${slug(name)}-marked`);

      expect(await clearBox(page, box, () => box.click())).toBeLessThanOrEqual(preset === "volt" ? 2 : 1);
      const cleared = await checkAgainstRules(page, win, name);
      expect(cleared.penaltyText).toBe("0");
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );

  it("toggles a wound box from the keyboard (Enter, then Space) and keeps the focus on it", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset });
    const win = await openSheet(page, "Leroy");
    const { ref } = await pickBox(win);
    const box = win.locator(`${BOX}[data-ref="${ref}"]`);
    await box.focus();
    const rev = await revision(page);
    await page.keyboard.press("Enter");
    await afterAction(page, rev);
    expect(await box.getAttribute("aria-pressed")).toBe("true");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.ref)).toBe(ref);
    const marked = await checkAgainstRules(page, win, "Leroy");
    expect(marked.state).not.toBeNull();

    expect(await clearBox(page, box, () => page.keyboard.press("Space"))).toBeLessThanOrEqual(
      preset === "volt" ? 2 : 1,
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.ref)).toBe(ref);
    expect((await checkAgainstRules(page, win, "Leroy")).penaltyText).toBe("0");
    // Every box is a labelled button (screen readers name it; Tab reaches it).
    const unlabelled = await win
      .locator(BOX)
      .evaluateAll(
        (els) => els.filter((e) => e.tagName !== "BUTTON" || !(e.getAttribute("aria-label") ?? "").trim()).length,
      );
    expect(unlabelled).toBe(0);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("item sheets", () => {
  it.each(PRESETS)("%s: every item of Leroy opens in its own sheet from the real template", async (preset) => {
    const { page, context, problems } = await openPlayground(browser, { preset });
    const win = await openSheet(page, "Leroy");
    const ids = await win
      .locator('[data-action="editItem"][data-item-id]')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.itemId!));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      await reveal(win.locator(`[data-action="editItem"][data-item-id="${id}"]`));
      await win.locator(`[data-action="editItem"][data-item-id="${id}"]`).click();
      const item = page.locator(`.pg-window[data-pg-doc$="/${id}"]`);
      await item.waitFor();
      expect(await item.locator("[data-testid=missing]").count()).toBe(0);
      expect(((await item.locator(".window-content").textContent()) ?? "").trim()).not.toBe("");
      if (preset === "fudge")
        await screenshot(item, `item-${slug((await item.locator(".window-title").textContent()) ?? id)}`);
      await item.locator("[data-pg-close]").click();
    }
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("item sheets show only the world preset's fields (issue #33)", () => {
  /** The form fields of an item sheet, by name, and its fieldsets' legends. */
  async function fieldsOf(page: Page, owner: string, type: string) {
    const win = await openSheet(page, owner);
    const id = await page.evaluate(
      ([n, t]) =>
        (window as any).__playground
          .state()
          .actors.find((a: any) => a.name === n)
          .items.find((i: any) => i.type === t)._id,
      [owner, type],
    );
    await reveal(win.locator(`[data-action="editItem"][data-item-id="${id}"]`));
    await win.locator(`[data-action="editItem"][data-item-id="${id}"]`).click();
    const item = page.locator(`.pg-window[data-pg-doc$="/${id}"]`);
    await item.waitFor();
    const names = await item
      .locator(".window-content [name]")
      .evaluateAll((els) =>
        els
          .map((e) => (e as HTMLInputElement).name)
          .filter((n) => n.startsWith("system.") && n !== "system.description"),
      );
    const legends = await item.locator("fieldset > legend").allTextContents();
    const effects = await item
      .locator('select[name="system.effect"] option')
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    await item.locator("[data-pg-close]").click();
    return { names: names.sort(), legends, effects };
  }

  const WEAPON: Record<Preset, string[]> = {
    fudge: [
      "system.dcWithoutRoll",
      "system.equipped",
      "system.heavyBlunt",
      "system.magic",
      "system.power",
      "system.ranged",
      "system.scalePiercing",
      "system.scaledToAttacker",
      "system.sharp",
      "system.size",
      "system.skill",
      "system.strength",
      "system.stunCapable",
    ],
    fate: ["system.equipped", "system.skill"],
    miniatures: [
      "system.equipped",
      "system.hands",
      "system.miniaturesDamage",
      "system.range",
      "system.ranged",
      "system.shootInContact",
      "system.statBasis",
    ],
    volt: [
      "system.equipped",
      "system.ranged",
      "system.volt.attack",
      "system.volt.damage",
      "system.volt.pierce",
      "system.volt.stun",
    ],
  };
  const ARMOR: Record<Preset, string[]> = {
    fudge: ["system.equipped", "system.magic", "system.value"],
    fate: ["system.equipped"],
    miniatures: ["system.equipped", "system.magic", "system.value"],
    volt: ["system.equipped", "system.volt.coverage", "system.volt.protection.max", "system.volt.protection.min"],
  };
  const EFFECTS: Record<Preset, { gift: string[]; fault: string[] }> = {
    fudge: {
      gift: ["none", "highPainThreshold", "painTolerance", "damageResistant", "toughHide", "rapidHealing"],
      fault: ["none", "lowPainThreshold", "painIntolerant", "fragile"],
    },
    fate: { gift: [], fault: [] },
    miniatures: {
      gift: ["none", "terrifying", "steadfast", "backstabber", "faithful", "noblePresence"],
      fault: ["none", "mercenary", "selfInterest", "chivalrous", "poorMelee", "leader"],
    },
    volt: { gift: ["none", "tough"], fault: ["none", "fragileVolt"] },
  };

  it.each(PRESETS)(
    "%s: a weapon, an armour, a gift and a fault show the preset's own fields and effects",
    async (preset) => {
      const { page, context, problems } = await openPlayground(browser, { preset });
      // Sir Knightly (a miniature) carries a weapon, armour and a gift and a fault of his own.
      const owner = preset === "miniatures" ? "Sir Knightly" : "Leroy";
      // Leroy has no gift or fault of his own: add one of each, as a player would.
      await page.evaluate(() => {
        const pg = (window as any).__playground;
        pg.store.update((d: any) => {
          const leroy = d.actors.find((a: any) => a.name === "Leroy");
          const trait = (type: string) => ({
            _id: `pgTrait${type}000000`.slice(0, 16),
            name: type,
            type,
            system: { effect: "none", value: 0, description: "" },
          });
          leroy.items.push(trait("gift"), trait("fault"));
        });
      });
      expect((await fieldsOf(page, owner, "weapon")).names).toEqual(WEAPON[preset]);
      const armor = await fieldsOf(page, owner, "armor");
      expect(armor.names).toEqual(ARMOR[preset]);
      for (const kind of ["gift", "fault"] as const) {
        const trait = await fieldsOf(page, preset === "miniatures" ? owner : "Leroy", kind);
        expect(trait.effects, `${kind} effects`).toEqual(EFFECTS[preset][kind]);
      }
      expect(await missingKeys(page)).toEqual([]);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );

  it("an effect stored from another preset stays selected (and is named as such), so no edit loses it", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    await page.evaluate(() => {
      (window as any).__playground.store.update((d: any) => {
        d.actors
          .find((a: any) => a.name === "Leroy")
          .items.push({
            _id: "pgToughGift00001",
            name: "Tough",
            type: "gift",
            system: { effect: "tough", value: 1, description: "" },
          });
      });
    });
    const win = await openSheet(page, "Leroy");
    await reveal(win.locator('[data-action="editItem"][data-item-id="pgToughGift00001"]'));
    await win.locator('[data-action="editItem"][data-item-id="pgToughGift00001"]').click();
    const item = page.locator('.pg-window[data-pg-doc$="/pgToughGift00001"]');
    await item.waitFor();
    const select = item.locator('select[name="system.effect"]');
    expect(await select.inputValue()).toBe("tough");
    expect(await select.locator("option:checked").textContent()).toMatch(/Tough \(Volt\).*not a rule/);
    await act(page, async () => {
      await item.locator('input[name="system.value"]').fill("2");
      await item.locator('input[name="system.value"]').press("Tab");
    });
    const stored = (await storedActor(page, "Leroy")).items.find((i: any) => i._id === "pgToughGift00001");
    expect(stored.system).toMatchObject({ effect: "tough", value: 2 });
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it.each([
    ["character", "Leroy"],
    ["npc", "Guard (NPC)"],
    ["miniature", "Sir Knightly"],
  ])("a %s's gifts and faults sit in the same tab (Traits)", async (_type, name) => {
    const { page, context, problems } = await openPlayground(browser, {
      preset: name === "Sir Knightly" ? "miniatures" : "fudge",
    });
    await page.evaluate(() => {
      (window as any).__playground.store.update((d: any) => {
        const t = structuredClone(d.actors.find((a: any) => a.name === "Theodora"));
        d.actors.push({ ...t, _id: "pgNpcGuard000001", name: "Guard (NPC)", type: "npc" });
      });
    });
    const win = await openSheet(page, name);
    const tabOf = (type: string) =>
      win.locator(`.fudge-items-${type}`).evaluate((el) => el.closest<HTMLElement>('[role="tabpanel"]')?.dataset.tab);
    expect([await tabOf("gift"), await tabOf("fault")]).toEqual(["traits", "traits"]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("wound track details", () => {
  it("Fudge §4.57: only the highest marked level's penalty applies (Hurt −1, Very Hurt −2)", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    const hurt = win.locator(`.fudge-track-row[data-level="hurt"] ${BOX_IN_ROW}`).first();
    const veryHurt = win.locator(`.fudge-track-row[data-level="veryHurt"] ${BOX_IN_ROW}`).first();
    let rev = await revision(page);
    await hurt.click();
    await afterAction(page, rev);
    expect(await visiblePenalty(win)).toBe("\u22121");
    rev = await revision(page);
    await veryHurt.click();
    await afterAction(page, rev);
    expect(await visiblePenalty(win)).toBe("\u22122");
    await checkAgainstRules(page, win, "Leroy");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("edits a trait on the sheet through the system's field check; an out-of-range value is refused and reported", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    // Fudge §1.3: traits are chosen by their ladder name.
    const input = win.locator('select[name="system.attributes.strength"]');
    await reveal(input);
    const rev = await revision(page);
    await input.selectOption("3");
    await afterAction(page, rev);
    expect((await storedActor(page, "Leroy")).system.attributes.strength).toBe(3);
    expect(await win.locator('select[name="system.attributes.strength"] option:checked').textContent()).toMatch(
      /Superb/,
    );
    // Out of range (a value the select does not offer, as a hacked client could send): nothing
    // stored, the user is told why in a plain sentence (not a key, not a path).
    await input.evaluate((el: HTMLSelectElement) => {
      el.add(new Option("99", "99"));
      el.value = "99";
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await page.locator("#pg-toast.visible").waitFor();
    const msg = (await page.textContent("#pg-toast")) ?? "";
    // A plain sentence naming the actor and the field in words (src/system/error-text.ts), never
    // a key or a field path such as system.attributes.strength.
    expect(msg).toMatch(/^Leroy[^:]*: Strength must be between -10 and 10\.$/);
    expect(msg).not.toMatch(/FUDGE\.|system\./);
    expect((await storedActor(page, "Leroy")).system.attributes.strength).toBe(3);
    expect(await win.locator('select[name="system.attributes.strength"]').inputValue()).toBe("3");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("a custom wound track (Fudge §4.57) is built on the sheet: levels added, boxes changed, a new box marked", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    let win = await openSheet(page, "Leroy");
    let rev = await revision(page);
    await win.locator(".fudge-track-options summary").click();
    await win.locator('select[name="system.woundTrack.preset"]').selectOption("custom");
    await afterAction(page, rev);
    win = await openSheet(page, "Leroy");
    expect(await win.locator(".fudge-custom-track tbody tr").count()).toBe(5);
    rev = await revision(page);
    await win.locator('[data-action="addCustomLevel"]').click();
    await afterAction(page, rev);
    expect((await storedActor(page, "Leroy")).system.woundTrack.customLevels).toHaveLength(6);
    const boxes = win.locator('input[name="system.woundTrack.customLevels.1.boxes"]');
    rev = await revision(page);
    await boxes.fill("2");
    await boxes.press("Tab");
    await afterAction(page, rev);
    expect(await win.locator('.fudge-track-row[data-level="hurt"] .fudge-box').count()).toBe(2);
    // Fudge §4.51 Light Wound: the After combat column; out of combat (the toolbar's "In combat" off), −1 applies.
    const after = win.locator('input[name="system.woundTrack.customLevels.0.afterCombatPenalty"]');
    rev = await revision(page);
    await after.fill("-1");
    await after.press("Tab");
    await afterAction(page, rev);
    expect((await storedActor(page, "Leroy")).system.woundTrack.customLevels[0].afterCombatPenalty).toBe(-1);
    rev = await revision(page);
    await win.locator('.fudge-track-row[data-level="scratch"] .fudge-box').first().click();
    await afterAction(page, rev);
    const shown = win.locator(".fudge-track-status .fudge-penalty");
    expect(await shown.locator(".value").textContent()).toBe("\u22121");
    expect(await shown.locator(".note").textContent()).toBe("0 in combat");
    // "no penalty during combat": the toolbar's In combat toggle stands in for a started combat.
    const inCombat = page.getByTestId("in-combat");
    expect(await inCombat.isChecked()).toBe(false);
    await act(page, () => inCombat.check());
    expect(await shown.locator(".value").textContent()).toBe("0");
    expect(await shown.locator(".note").textContent()).toBe("\u22121 after combat");
    expect((await storedState(page)).inCombat).toBe(true);
    // A trait roll in combat takes the combat penalty (none), out of it the after-combat one.
    const strength = win.locator('[data-action="rollTrait"][data-trait="attributes.strength"]');
    const lastRollPenalty = async () => (await storedState(page)).messages.at(-1).system.penalty;
    await reveal(strength);
    await rollVia(page, strength);
    expect(await lastRollPenalty()).toBe(0);
    await act(page, () => inCombat.uncheck());
    await reveal(strength);
    await rollVia(page, strength);
    expect(await lastRollPenalty()).toBe(-1);
    expect(await shown.locator(".value").textContent()).toBe("\u22121");
    expect(await shown.locator(".note").textContent()).toBe("0 in combat");
    await reveal(win.locator('.fudge-track-row[data-level="level6"] .fudge-box'));
    rev = await revision(page);
    await win.locator('.fudge-track-row[data-level="level6"] .fudge-box').first().click();
    await afterAction(page, rev);
    expect(await win.locator('.fudge-track-row[data-level="level6"] .fudge-row-label').textContent()).toBe("Level 6");
    expect(await win.locator(".fudge-track .fudge-condition").first().textContent()).toMatch(/dying/i);
    expect(noProblems(problems)).toEqual([]);
    expect(await missingKeys(page)).toEqual([]);
    await context.close();
  });

  it("switching the preset under a wounded actor shows the track's notice, and its reset clears the track", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    let rev = await revision(page);
    await win.locator('.fudge-track-row[data-level="hurt"] .fudge-box').first().click();
    await afterAction(page, rev);
    await page.getByTestId("preset").selectOption("volt");
    const notice = win.locator(".fudge-track .fudge-error");
    await notice.waitFor();
    expect(((await notice.textContent()) ?? "").trim()).not.toMatch(/FUDGE\./);
    // Back to Fudge: the marks were kept, not lost.
    await page.getByTestId("preset").selectOption("fudge");
    expect(await win.locator(".fudge-track .fudge-error").count()).toBe(0);
    expect(await visiblePenalty(win)).toBe("\u22121");
    await page.getByTestId("preset").selectOption("volt");
    rev = await revision(page);
    // Reset asks first, as Foundry's confirmation does.
    await win.locator('[data-action="resetTrack"]').click();
    await page.locator("dialog[open]").waitFor();
    await page.locator('dialog[open] button[type="submit"]').first().click();
    await afterAction(page, rev);
    expect(await win.locator(".fudge-track .fudge-error").count()).toBe(0);
    expect((await storedActor(page, "Leroy")).system.woundTrack.state).toBeNull();
    await checkAgainstRules(page, win, "Leroy");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("a box click redraws only what changed, writes localStorage just after, and a reload at once loses nothing", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const leroy = await openSheet(page, "Leroy");
    await openSheet(page, "Theodora");
    const { ref } = await pickBox(leroy);
    // Tag live nodes: a node the click did not change must be the same node afterwards.
    await page.evaluate(() => {
      for (const w of document.querySelectorAll<HTMLElement>(".pg-window"))
        (w.querySelector(".window-content > *") as any).__kept = true;
      (document.querySelector('.pg-window [data-action="attack"]') as any).__kept = true;
    });
    // The click's own work does not write storage (the write follows a moment later): read it in the same task.
    const sync = await page.evaluate((sel) => {
      const before = localStorage.getItem("fudge-wounds-playground:v1");
      (document.querySelector(sel) as HTMLElement).click();
      return {
        same: localStorage.getItem("fudge-wounds-playground:v1") === before,
        pending: (window as any).__playground.store.writePending,
      };
    }, `.pg-window ${BOX}[data-ref="${ref}"]`);
    expect(sync).toEqual({ same: true, pending: true });
    expect(await leroy.locator(`${BOX}[data-ref="${ref}"]`).getAttribute("aria-pressed")).toBe("true");
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll(".pg-window .window-content > *")].map((e) => (e as any).__kept === true),
      ),
    ).toEqual([true, true]);
    expect(
      await page.evaluate(() => (document.querySelector('.pg-window [data-action="attack"]') as any).__kept === true),
    ).toBe(true);
    // Reloading right away (the write still pending) keeps the mark: the page writes when it is hidden.
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    const again = await openSheet(page, "Leroy");
    expect(await again.locator(`${BOX}[data-ref="${ref}"]`).getAttribute("aria-pressed")).toBe("true");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("keeps the marks across a reload (localStorage) and Reset clears them", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    let win = await openSheet(page, "Leroy");
    const { ref } = await pickBox(win);
    const rev = await revision(page);
    await win.locator(`${BOX}[data-ref="${ref}"]`).click();
    await afterAction(page, rev);
    const before = (await storedActor(page, "Leroy")).system.woundTrack.state;
    expect(before).not.toBeNull();
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    win = await openSheet(page, "Leroy");
    expect(await win.locator(`${BOX}[data-ref="${ref}"]`).getAttribute("aria-pressed")).toBe("true");
    expect((await state(page)).actors.find((a: any) => a.name === "Leroy").system.woundTrack.state).toEqual(before);
    await page.getByTestId("reset").click();
    win = await openSheet(page, "Leroy");
    expect(await win.locator(`${BOX}[data-ref="${ref}"]`).getAttribute("aria-pressed")).toBe("false");
    expect((await storedActor(page, "Leroy")).system.woundTrack.state).toBeNull();
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it.each(PRESETS)(
    "%s: renders in the dark theme and in a narrow (400 px) window without horizontal overflow",
    async (preset) => {
      const { page, context, problems } = await openPlayground(browser, { preset, theme: "dark" });
      const name = preset === "miniatures" ? "Sir Knightly" : "Leroy";
      const win = await openSheet(page, name);
      expect(await page.evaluate(() => document.body.classList.contains("theme-dark"))).toBe(true);
      expect(await win.evaluate((el) => el.classList.contains("theme-dark"))).toBe(true);
      await screenshot(win, `sheet-${preset}-${slug(name)}-dark`);
      await win.evaluate((el) => ((el as HTMLElement).style.width = "400px"));
      // Nothing wider than the window: the wound track stays readable at a narrow width.
      const overflow = await win.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await screenshot(win, `sheet-${preset}-${slug(name)}-narrow`);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );
});

describe("the playground's DOM morph (playground/morph.ts)", () => {
  it("leaves an element exactly as a fresh parse of the new HTML would, whatever changed, and keeps unchanged nodes", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const cases: [string, string][] = [
      ["<p>a</p><p>b</p>", "<p>a</p><p>c</p>"],
      ['<div class="x"><span>1</span> <b>2</b></div>', '<div class="y"><span>1</span> <b>3</b><i>4</i></div>'],
      ["<ul><li>a</li><li>b</li><li>c</li></ul>", "<ul><li>a</li><li>c</li></ul>"],
      ["<table><tr><td>1</td></tr></table>", "<table><tr><td>2</td></tr></table>"],
      ['<p data-tooltip="a &gt; b">x</p><!-- c --><p>y</p>', '<p data-tooltip="a > b">x</p><!-- d --><p>z</p>'],
      ["<fudge-test-note><p>n</p></fudge-test-note><p>q</p>", "<fudge-test-note><p>m</p></fudge-test-note><p>q</p>"],
      ["<p>a<p>b</p>", "<p>a<p>c</p>"],
      ["text only", "text &amp; more"],
      ['<div><input value="1"><br><img alt=""></div>', '<div><input value="2"><br><img alt="i"></div>'],
    ];
    const results = await page.evaluate((cases) => {
      const morph = (window as any).__playground.morphHTML as (el: Element, html: string, previous?: string) => void;
      return cases.map(([a, b]) => {
        const el = document.createElement("div");
        el.innerHTML = a;
        document.body.append(el);
        const first = el.firstChild;
        morph(el, b, a);
        const fresh = document.createElement("div");
        fresh.innerHTML = b;
        const out = { same: el.innerHTML === fresh.innerHTML, kept: el.firstChild === first };
        el.remove();
        return out;
      });
    }, cases);
    expect(results.map((r) => r.same)).toEqual(cases.map(() => true));
    // The first node survives where it is unchanged or only changed inside.
    expect(results[0].kept && results[1].kept && results[2].kept && results[7].kept).toBe(true);
    // A select and a typed input take the rendered value, as a fresh render shows them.
    const values = await page.evaluate(() => {
      const morph = (window as any).__playground.morphHTML as (el: Element, html: string, previous?: string) => void;
      const el = document.createElement("div");
      const a = '<select><option value="1" selected>1</option><option value="2">2</option></select><input value="5">';
      el.innerHTML = a;
      document.body.append(el);
      (el.querySelector("input") as HTMLInputElement).value = "typed";
      morph(
        el,
        '<select><option value="1">1</option><option value="2" selected>2</option></select><input value="6">',
        a,
      );
      const out = [
        (el.querySelector("select") as HTMLSelectElement).value,
        (el.querySelector("input") as HTMLInputElement).value,
      ];
      el.remove();
      return out;
    });
    expect(values).toEqual(["2", "6"]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
