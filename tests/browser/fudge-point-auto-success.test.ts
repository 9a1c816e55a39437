/**
 * A Fudge Point for an automatic success in the playground (issue 32, Fudge §1.36), as a player
 * would: the roll dialog offers it for his Fudge character's trait, the roll meets the Difficulty
 * picked, the card says who spent what (axe-core on the dialog and the card), and its Undo gives
 * the point back.
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

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LAST_CARD = "#pg-chat > li.chat-message:last-child .message-content";

describe("a Fudge Point's automatic success in the playground", () => {
  it("from the roll dialog: the card meets the Difficulty and records the spend; Undo refunds it", async () => {
    // −1 −1 0 0: the roll falls two levels short of the trait.
    const { page, problems, context } = await openPlayground(browser, { dice: "-1,-1,0,0" });
    const sheet = await openSheet(page, "Leroy");
    const strength = sheet.locator('select[name="system.attributes.strength"]');
    await reveal(strength);
    const level = Number(await strength.inputValue());
    const leroy = async () =>
      (await state(page)).actors.find((a: { name: string }) => a.name.startsWith("Leroy")).system as {
        fudgePoints: number;
        fudgePointLog: unknown[];
      };
    const points = (await leroy()).fudgePoints;
    expect(points).toBeGreaterThan(0);

    await sheet.locator('[data-action="rollTrait"][data-trait="attributes.strength"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const box = dialog.getByLabel("Spend a Fudge Point: automatic success (Fudge §1.36)");
    await expect(box.isChecked()).resolves.toBe(false);
    await box.check();
    const difficulty = Math.min(level + 1, 3);
    await dialog.locator('[name="difficulty"]').selectOption(String(difficulty));
    expect(await axeViolations(page, ["dialog[open] .pg-dialog-body"], "roll dialog")).toEqual([]);
    await act(page, () => dialog.locator("[data-pg-submit]").click());

    const card = (await state(page)).messages.at(-1);
    expect(card.system).toMatchObject({
      result: difficulty,
      success: true,
      fudgePoint: { to: difficulty, use: "unopposedSuccess" },
    });
    expect(await leroy()).toMatchObject({ fudgePoints: points - 1 });
    const shown = page.locator(LAST_CARD);
    await expect(shown.locator(".fudge-fudge-point").textContent()).resolves.toMatch(
      /spent a Fudge Point \(Fudge §1\.36\):\s+automatic success/,
    );
    expect(await axeViolations(page, [LAST_CARD], "roll card with an automatic success")).toEqual([]);
    await act(page, () => shown.locator('[data-action="undoRollFudgePoint"]').click());
    expect(await leroy()).toMatchObject({ fudgePoints: points, fudgePointLog: [] });
    expect((await state(page)).messages.at(-1).system).toMatchObject({ success: false, fudgePoint: null });
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
