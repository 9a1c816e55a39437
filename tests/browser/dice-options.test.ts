/**
 * The ladder and dice options in the playground (issue 32, Fudge §1.3, §3.21–3.22), as a GM would:
 * the rules menu sets the dice to 4d6 read as Fudge dice and extends the ladder below Terrible; the
 * sheet offers Abysmal (−4); the roll dialog states the exact chance under those dice and follows
 * the Difficulty picked; the roll card records the option and the d6 faces (fixed by the URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import {
  act,
  axeViolations,
  missingKeys,
  noProblems,
  openPlayground,
  openSheet,
  reveal,
  startBrowser,
  state,
} from "./helpers";
import { unopposedChance } from "../../src/rules";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the dice and ladder options in the playground", () => {
  it("4d6 read as Fudge dice and Abysmal: the menu, the sheet, the roll dialog's chance, the card", async () => {
    const { page, problems, context } = await openPlayground(browser, { dice: "1/6,3/6,5/6,6/6" });
    await page.click("#pg-rules");
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    await dialog.locator('[name="dice"]').selectOption("4d6F");
    await dialog.locator('[name="lowerEnd"]').check();
    await act(page, () => dialog.locator("[data-pg-submit]").click());
    const s = await state(page);
    expect(s.settings).toMatchObject({ dice: "4d6F", lowerEnd: true });

    const sheet = await openSheet(page, "Leroy");
    const strength = sheet.locator('select[name="system.attributes.strength"]');
    await reveal(strength);
    await expect(strength.locator("option").allTextContents()).resolves.toContain("Abysmal (−4)");
    const level = Number(await strength.inputValue());

    await sheet.locator('[data-action="rollTrait"][data-trait="attributes.strength"]').click();
    await dialog.waitFor();
    const odds = dialog.locator(".fudge-roll-odds");
    const percent = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)} %`;
    await expect(odds.textContent()).resolves.toContain(percent(unopposedChance("4d6F", level, 0)));
    await expect(odds.textContent()).resolves.toContain("4d6F");
    await dialog.locator('[name="difficulty"]').selectOption("3");
    await expect(odds.textContent()).resolves.toContain(percent(unopposedChance("4d6F", level, 3)));
    expect(await axeViolations(page, ["dialog[open] .pg-dialog-body"], "roll dialog")).toEqual([]);
    await act(page, () => dialog.locator("[data-pg-submit]").click());

    const card = (await state(page)).messages.at(-1);
    expect(card.type).toBe("rollCard");
    // 1 −, 3 blank, 5 +, 6 +: +1 (Fudge §3.21).
    expect(card.system).toMatchObject({
      diceOption: "4d6F",
      dice: [1, 3, 5, 6],
      result: level + card.system.penalty + 1,
    });
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
