/**
 * Experience in the playground (Fudge §5.2), as a user would: the GM awards EP from Leroy's sheet,
 * spends them on a skill (the dialog's cost follows the pick), a second spend he cannot pay is
 * refused with a sentence and writes nothing, the log shows each entry (when, what, EP) and Undo
 * gives back the EP and the level; an award entry written into the actor's own data grants nothing
 * and the sheet says so. axe-core checks the Experience section and the spend dialog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { act, axeViolations, missingKeys, noProblems, openPlayground, openSheet, reveal, storedActor } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  const { startBrowser } = await import("./helpers");
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("Experience Points on the playground's sheet", () => {
  it("award, spend on a skill, a refused spend, the log and Undo", async () => {
    const { page, problems, context } = await openPlayground(browser);
    const sheet = await openSheet(page, "Leroy");
    const section = sheet.locator(".fudge-experience");
    await reveal(section);
    await expect(section.locator(".fudge-xp-ep").textContent()).resolves.toContain("Unspent EP: 0");

    // Spend: the dialog prices the picked skill (its step's price, §5.2) and its cost line follows the pick.
    const leroy = await storedActor(page, "Leroy");
    const skill = leroy.items
      .filter((i: any) => i.type === "skill")
      .sort((a: any, b: any) => a.system.level - b.system.level)[0];
    const level = skill.system.level;
    const cost = level < 0 ? 1 : [2, 4, 8, 16, 30][level];
    await section.locator('[data-action="awardExperience"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    await dialog.locator('[name="amount"]').fill(String(cost + 1));
    await dialog.locator('[name="note"]').fill("Saved the caravan");
    await act(page, () => dialog.locator("[data-pg-submit]").click());
    await expect(section.locator(".fudge-xp-ep").textContent()).resolves.toContain(`Unspent EP: ${cost + 1}`);

    await section.locator('[data-action="spendExperience"]').click();
    await dialog.waitFor();
    expect(await axeViolations(page, ["dialog[open] .pg-dialog-body"], "spend dialog")).toEqual([]);
    await dialog.locator('[name="trait"]').selectOption(`skill.${skill._id}`);
    await expect(dialog.locator(".fudge-raise-cost").textContent()).resolves.toContain(`Costs ${cost} EP`);
    await dialog.locator('[name="used"]').check();
    await act(page, () => dialog.locator("[data-pg-submit]").click());
    const after = await storedActor(page, "Leroy");
    expect(after.items.find((i: any) => i._id === skill._id).system.level).toBe(level + 1);
    // The award is the GM's record, the spend the actor's log.
    expect(after.gmRecords.experience.awards).toMatchObject([{ amount: cost + 1, note: "Saved the caravan" }]);
    expect(after.system.experience.log).toMatchObject([{ type: "raise", cost }]);
    await expect(section.locator(".fudge-xp-ep").textContent()).resolves.toContain("Unspent EP: 1");

    // A spend he cannot pay (an attribute: three times a skill's step) is refused; nothing changes.
    await section.locator('[data-action="spendExperience"]').click();
    await dialog.waitFor();
    await dialog.locator('[name="trait"]').selectOption("attr.strength");
    await dialog.locator('[name="used"]').check();
    await dialog.locator("[data-pg-submit]").click();
    await page.waitForFunction(() => document.body.dataset.busy === undefined);
    await expect(page.locator(".pg-toast").last().textContent()).resolves.toMatch(
      /This costs \d+ EP; the character has \d+\./,
    );
    expect((await storedActor(page, "Leroy")).system.experience).toEqual(after.system.experience);

    // The log, newest first; the GM's Undo of the raise gives back its EP and the level.
    const rows = section.locator(".fudge-xp-entry");
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.first().textContent()).resolves.toMatch(new RegExp(`${skill.name}[\\s\\S]*−${cost} EP`));
    await expect(rows.last().textContent()).resolves.toMatch(
      new RegExp(`Awarded: Saved the caravan[\\s\\S]*\\+${cost + 1} EP`),
    );
    expect(await axeViolations(page, [".pg-window .fudge-experience"], "experience")).toEqual([]);
    await rows.first().locator('[data-action="undoAdvance"]').click();
    await page.locator("dialog[open]").waitFor();
    await act(page, () => page.locator("dialog[open] [data-pg-submit]").click());
    const undone = await storedActor(page, "Leroy");
    expect(undone.items.find((i: any) => i._id === skill._id).system.level).toBe(level);
    await expect(section.locator(".fudge-xp-ep").textContent()).resolves.toContain(`Unspent EP: ${cost + 1}`);

    // An award entry written into the actor's own data (as an owner could) grants nothing: the sheet says so.
    await act(page, () =>
      page.evaluate(() => {
        const pg = (window as any).__playground;
        const a = pg.store.state.actors.find((x: any) => x.name === "Leroy");
        pg.store.updateDocs({ actors: [a._id] }, (d: any) => {
          const doc = d.actors.find((x: any) => x._id === a._id);
          doc.system.experience = {
            ...doc.system.experience,
            log: [{ id: "ep90", at: "2026-01-01T00:00:00.000Z", type: "award", amount: 500, by: "x" }],
          };
        });
      }),
    );
    await expect(section.locator(".fudge-xp-ignored").textContent()).resolves.toContain(
      "1 award entries in this actor's own data are not the GM's records and count for nothing.",
    );
    await expect(section.locator(".fudge-xp-ep").textContent()).resolves.toContain(`Unspent EP: ${cost + 1}`);
    expect(await axeViolations(page, [".pg-window .fudge-experience"], "experience, ignored award")).toEqual([]);
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
