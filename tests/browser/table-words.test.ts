/**
 * Each preset's own words on the real templates and CSS (the table-first rule), as a player reads
 * them in the playground: FATE's Scratched and margin, the Miniatures datacard's numbers and its
 * Near Death row, and headers that say where the wounds are (a miniature out of the fight, Volt's
 * worst Stun and Injury rows).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { act, missingKeys, noProblems, openPlayground, openSheet, reveal, setTarget, startBrowser } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const lastCard = (page: Page) => page.locator("#pg-chat > li.chat-message").last();
const clean = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

describe("FATE: the ladder's words (seed 003)", () => {
  it("a margin of 0 reads Scratched on the odds (with its effect: none) and the card, with the margin, not RD", async () => {
    // Leroy Great (+2) with 0 0 0 0; Theodora Good (+1) defends with + 0 0 0: margin 0.
    const { page, context, problems } = await openPlayground(browser, { preset: "fate", dice: "0,0,0,0,1,0,0,0" });
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await leroy.locator('[data-action="attack"]').first().click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(clean(await dialog.locator('[data-odds] li[data-outcome="standoff"]').textContent())).toMatch(
      /^Scratched \(no effect\) \d+%$/,
    );
    // Every entry of the odds in FATE's words (seed 003's results; "Miss" below the ladder), no
    // Fudge level: the one that marks no box says it has no effect.
    const legend = (await dialog.locator("[data-odds] .fudge-odds-legend li").allTextContents()).map((t) =>
      clean(t).replace(/ [<>]?\d+%$/, ""),
    );
    expect(legend).toEqual(["Miss", "Scratched (no effect)", "Clipped", "Hurt", "Injured", "Taken Out"]);
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    const card = lastCard(page);
    await act(page, () => card.locator('[data-action="defend"]').click({ modifiers: ["Shift"] }));
    expect(clean(await card.locator(".fudge-headline").textContent())).toBe("Theodora is Scratched: no effect");
    expect(clean(await card.locator(".fudge-facts").textContent())).toBe("margin 0");
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("Miniatures: the datacard's numbers and its Near Death", () => {
  it("Sir Knightly's Strength roll reads '+2 … +2 — success (Difficulty 0)', as his datacard's '+2'", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "1,0,0,-1" });
    const knight = await openSheet(page, "Sir Knightly");
    const die = knight.locator('[data-action="rollTrait"][data-trait="strength"]');
    await reveal(die);
    await die.click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(clean(await dialog.locator('select[name="difficulty"] option:checked').textContent())).toBe("0");
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    const card = lastCard(page);
    expect(clean(await card.locator(".fudge-roll-line .fudge-level-text").textContent())).toBe("+2");
    expect(clean(await card.locator(".fudge-outcome").textContent())).toBe("+2 — success (Difficulty 0)");
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("the datacard's Near Death row says the model falls and rolls Guts (Miniatures: Wounds)", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures" });
    const brute = await openSheet(page, "Brutas the Brute");
    const row = brute.locator('.fudge-track-row[data-level="nearDeath"] .fudge-row-effect');
    await reveal(row);
    expect(await row.isVisible()).toBe(true);
    expect(clean(await row.textContent())).toBe("Falls, cannot act; rolls Guts from its next turn");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("headers that say where the wounds are, without contradicting themselves", () => {
  it("Miniatures: a model Near Death or Dead says it is out of the fight, with no penalty and no 'Acts normally'", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures" });
    const brute = await openSheet(page, "Brutas the Brute");
    const header = brute.locator(".fudge-sheet-header");
    const guts = brute.locator(".fudge-guts");
    const mark = (level: string) =>
      act(page, () =>
        brute.locator(`.fudge-track-row[data-level="${level}"] [data-action="toggleWoundBox"]`).first().click(),
      );
    // Able, wounded: the penalty and the Guts effect are shown.
    expect(await header.locator(".fudge-penalty").count()).toBe(1);
    await mark("nearDeath");
    expect(clean(await header.locator(".fudge-header-level").textContent())).toBe("Near Death");
    expect(clean(await header.locator(".fudge-condition").textContent())).toBe("Out of action");
    expect(await header.locator(".fudge-penalty").count()).toBe(0);
    expect(clean(await guts.textContent())).not.toContain("Acts normally");
    expect(clean(await guts.locator(".fudge-guts-effect").textContent())).toBe(
      "Falls, cannot act; rolls Guts from its next turn",
    );
    expect(await guts.locator('[data-action="gutsCheck"]').count()).toBe(0);
    await mark("dead");
    expect(clean(await header.locator(".fudge-header-level").textContent())).toBe("Dead");
    expect(clean(await header.locator(".fudge-condition").textContent())).toBe("Dead");
    expect(await header.locator(".fudge-penalty").count()).toBe(0);
    expect(clean(await guts.textContent())).not.toContain("Acts normally");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("Volt: the header names the worst Stun row and the worst Injury row, and the condition", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "volt" });
    const leroy = await openSheet(page, "Leroy");
    const header = leroy.locator(".fudge-sheet-header");
    const levels = async () => (await header.locator(".fudge-header-level").allTextContents()).map(clean);
    expect(await levels()).toEqual(["Unhurt"]);
    // A click cycles a row empty → Stun → Injury (Volt: Marking Wounds).
    const click = (row: number) => act(page, () => leroy.locator(`[data-ref="row-${row}"]`).click());
    await click(2); // Stun on row 2
    await click(3);
    await click(3); // Injury on row 3
    await click(4); // Stun on row 4
    expect(await levels()).toEqual(["Stun: row 4", "Injury: row 3"]);
    expect(clean(await header.locator(".fudge-condition").textContent())).toBe("Can act");
    await click(6);
    await click(6); // Injury on row 6 (−3)
    expect(await levels()).toEqual(["Stun: row 4", "Injury: row 6"]);
    expect(clean(await header.locator(".fudge-penalty .value").textContent())).toBe("\u22123");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
