/**
 * Every seat at the table served (issue 30), in real Chromium on the playground: the defender's
 * own Defend dialog and his choices on his side of the card, the healing card with its picked
 * healer, and the combat tracker's wound lines in words. Screenshots for the docs
 * (artifacts/screenshots: dialog-fudge-defence, card-fudge-defence, card-fudge-healing, tracker-fudge).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { act, attackVia, noProblems, openPlayground, openSheet, screenshot, setTarget, startBrowser } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const lastCard = (page: import("playwright-core").Page) => page.locator("#pg-chat > li.chat-message").last();
const words = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

describe("the defender's Defend dialog (Fudge)", () => {
  it("Theodora defends with her Polearm, all-out, −1: the dialog offers her own skills, the card shows her choices", async () => {
    // Leroy's attack + + 0 0, then Theodora's defence 0 0 0 0.
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0,0,0,0,0" });
    const win = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await attackVia(page, win.locator('[data-action="attack"]').first());
    await lastCard(page).locator('[data-action="defend"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const options = await dialog.locator('[name="skillId"] option').allTextContents();
    expect(options[0]).toContain("Usual defence");
    expect(options.some((o) => o.startsWith("Polearm"))).toBe(true);
    await dialog.locator('[name="allOutDefense"]').setChecked(true);
    await dialog.locator('[name="modifier"]').fill("-1");
    await screenshot(dialog, "dialog-fudge-defence");
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    const choice = words(await lastCard(page).locator(".fudge-defence-choice").textContent());
    expect(choice).toContain("Theodora defends with");
    expect(choice).toContain("All-out defence");
    expect(choice).toContain("Modifier −1");
    await screenshot(lastCard(page), "card-fudge-defence");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("the healing card", () => {
  it("Theodora's healing roll: the healer picked (her Polearm, for the test), the card says who, the dice and the result", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0" });
    const win = await openSheet(page, "Theodora");
    await act(page, () => win.locator('.fudge-track [data-action="toggleWoundBox"]').first().click());
    await win.locator('[data-action="heal"][data-heal="roll"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const healer = dialog.locator('[name="healer"]');
    expect(await healer.inputValue()).toBe("");
    const value = await healer.locator("option").filter({ hasText: "Polearm" }).first().getAttribute("value");
    await healer.selectOption(value!);
    await act(page, () => dialog.locator("[data-pg-submit]").click());
    const text = words(await lastCard(page).textContent());
    expect(text).toContain("Theodora heals Theodora with Polearm");
    expect(text).toContain("Roll + + 0 0");
    expect(text).toContain("Result: Theodora");
    await screenshot(lastCard(page), "card-fudge-healing");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("the combat tracker view", () => {
  it("each actor's wound level, penalty and condition in words", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    await act(page, () => win.locator('.fudge-track [data-action="toggleWoundBox"][data-ref^="hurt"]').first().click());
    const row = (name: string) =>
      page.locator("#pg-tracker > li.combatant").filter({ has: page.locator(".name", { hasText: name }) });
    expect(words(await row("Leroy").locator(".fudge-tracker-wound").textContent())).toBe("Hurt · Penalty −1 · Can act");
    expect(words(await row("Theodora").locator(".fudge-tracker-wound").textContent())).toBe(
      "Unhurt · Penalty 0 · Can act",
    );
    await screenshot(page.getByTestId("tracker"), "tracker-fudge");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
