/**
 * Miniatures gifts and faults with a rule in a real browser (the playground, real templates and
 * CSS): the attack dialog offers "From behind" to Knavely Knave (Skilled backstabber) and its +1
 * ODF reaches the card; Sir Knightly's dialog shows the Chivalrous refusal against a helpless
 * target before anything is rolled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { act, noProblems, openPlayground, openSheet, setTarget, startBrowser, storedState } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("Miniatures gifts and faults in the attack dialog", () => {
  it('Knavely Knave: "From behind" is offered, and the card counts his +1 ODF', async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "0,0,0,0" });
    const knave = await openSheet(page, "Knavely Knave");
    await setTarget(page, "Yanni the Yeoman");
    await knave.locator('[data-action="attackAll"][data-kind="melee"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const field = dialog.locator('[name="fromBehind"]');
    expect(await field.count()).toBe(1);
    expect(await field.locator("xpath=..").textContent()).toContain("From behind");
    // Yanni is a Poor melee combatant: the free disengagement attack is offered too.
    expect(await dialog.locator('[name="disengaging"]').count()).toBe(1);
    await field.setChecked(true);
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    const stored = await storedState(page);
    const card = stored.messages[stored.messages.length - 1].system;
    expect(card.situation.fromBehind).toBe(true);
    expect(card.targets[0].resolution.numbers.backstab).toBe(1);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("Sir Knightly: against a helpless target the dialog shows the Chivalrous refusal, and nothing is rolled", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "seed:3" });
    const knight = await openSheet(page, "Sir Knightly");
    await setTarget(page, "Brutas the Brute");
    const before = (await storedState(page)).messages.length;
    await knight.locator('[data-action="attackAll"][data-kind="melee"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    await dialog.locator('[name="helpless"]').setChecked(true);
    await expect
      .poll(() => dialog.locator(".fudge-odds-list").textContent())
      .toContain("Sir Knightly is chivalrous and cannot strike Brutas the Brute, who is defenseless.");
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    expect((await storedState(page)).messages.length).toBe(before);
    await context.close();
    // The refusal is the user's message, not a page error.
    expect(problems.pageErrors).toEqual([]);
  });

  it("Yanni the Yeoman: Check Guts, being charged by a Terrifying opponent, counts Steadfast +1", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "0,0,0,0" });
    const yanni = await openSheet(page, "Yanni the Yeoman");
    await yanni.locator('[data-action="gutsCheck"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    await dialog.locator('[name="reason"]').selectOption("charged");
    await dialog.locator('[name="terrifying"]').fill("1");
    // Yanni has no Faithful: no "Defending the King".
    expect(await dialog.locator('[name="defendingKing"]').count()).toBe(0);
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    // The roll note in the chat log, as Foundry posts it (its lines: the result, then what counted).
    const note = page.locator("#pg-chat > li.chat-message").last();
    await expect.poll(() => note.textContent()).toContain("Guts 2 against 1: passed.");
    expect(await note.textContent()).toContain("Steadfast: charged by a Terrifying opponent +1");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("Sir Knightly: the Guts circumstances sit under Guts, and ticking one is stored", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "0,0,0,0" });
    const knight = await openSheet(page, "Sir Knightly");
    const box = knight.locator(".fudge-guts .fudge-guts-standing");
    await box.waitFor();
    expect(await box.locator("legend").textContent()).toBe("Guts circumstances");
    // Faithful: Defending the King is offered, with a peasant and a follower.
    expect(
      await box.locator("[data-standing]").evaluateAll((els) => els.map((e) => e.getAttribute("data-standing"))),
    ).toEqual(["defendingKing", "peasant", "follower"]);
    const size = await box.boundingBox();
    expect(size && size.width > 100 && size.height > 10).toBe(true);
    await act(page, () => box.locator('[name="system.gutsStanding.defendingKing"]').setChecked(true));
    const stored = await storedState(page);
    const actor = stored.actors.find((a: { name: string }) => a.name === "Sir Knightly");
    expect(actor.system.gutsStanding).toEqual({ defendingKing: true, peasant: false, follower: false });
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
