/**
 * "Import from Fudge RPG" in the playground: exported fudge-rpg actors (tests/fixtures/fudge-rpg)
 * become characters whose sheet, wound track and attacks work; a bad file imports nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { join } from "node:path";
import {
  act,
  actorId,
  attackVia,
  missingKeys,
  noProblems,
  openPlayground,
  openSheet,
  repo,
  screenshot,
  setTarget,
  startBrowser,
  storedState,
} from "./helpers";
import { expectedStatus } from "./oracle";

const FIX = join(repo, "tests/fixtures/fudge-rpg");
let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("playground: import from Fudge RPG", () => {
  it("imports Brannoc: report shown, sheet with his marked wounds, boxes toggle, and he attacks from the sheet", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0,0,0,0,0" });
    const actorsBefore = (await storedState(page)).actors.length;
    expect(await page.locator("[data-pg-import]").count()).toBe(1);
    await act(page, () =>
      page.setInputFiles("[data-pg-import-file]", [join(FIX, "brannoc.json"), join(FIX, "legacy-major.json")]),
    );
    const dialog = page.locator("dialog[data-pg-import-dialog]");
    await dialog.waitFor();
    expect(await dialog.locator("[data-fudge-import-report]").count()).toBe(2);
    expect(await dialog.textContent()).toContain("Imported from Fudge RPG: Brannoc the Bold");
    expect(await dialog.locator(".fudge-import-report__kept").count()).toBeGreaterThan(0);
    await screenshot(dialog, "import-report");
    await dialog.locator("[data-pg-import-close]").click();

    const stored = await storedState(page);
    expect(stored.actors.length).toBe(actorsBefore + 2);
    const brannoc = stored.actors.find((a: any) => a.name === "Brannoc the Bold");
    // The sheet opened on its own; its penalty is the rules core's for the imported marks (Hurt −1).
    const win = await openSheet(page, "Brannoc the Bold");
    expect(expectedStatus(stored, brannoc).penaltyText).toBe("−1");
    expect(((await win.locator(".fudge-track .fudge-penalty .value").first().textContent()) ?? "").trim()).toBe("−1");
    expect(await win.locator('.fudge-track-row[data-level="hurt"] .fudge-box').count()).toBe(2);
    await screenshot(win, "import-brannoc-sheet");

    // A wound box toggles through the system's own action.
    const box = win.locator('.fudge-box[data-action="toggleWoundBox"][data-ref="scratch:2"]');
    await act(page, () => box.click());
    const marks = (await storedState(page)).actors.find((a: any) => a.name === "Brannoc the Bold").system.woundTrack
      .state.marks;
    expect(marks.scratch.filter(Boolean).length).toBe(3);

    // He attacks Theodora with the imported Broadsword (skill Sword, Great +2) and the card loop runs.
    await openSheet(page, "Theodora");
    await setTarget(page, "Theodora");
    await attackVia(page, win.locator('[data-action="attack"]').first());
    const card = page.locator("#pg-chat > li.chat-message").last();
    const defend = card.locator('[data-action="defend"]');
    if (await defend.count()) await act(page, () => defend.click({ modifiers: ["Shift"] }));
    const msg = (await storedState(page)).messages.at(-1);
    expect(msg.system.attackerId).toBe(await actorId(page, "Brannoc the Bold"));
    expect(msg.system.weaponName).toBe("Broadsword");
    expect(msg.system.targets[0].resolution.hit).toBe(true);
    const theoBefore = JSON.stringify(
      (await storedState(page)).actors.find((a: any) => a.name === "Theodora").system.woundTrack.state,
    );
    await act(page, () => card.locator('[data-action="apply"]').click());
    expect(
      JSON.stringify((await storedState(page)).actors.find((a: any) => a.name === "Theodora").system.woundTrack.state),
    ).not.toBe(theoBefore);

    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("imports nothing when one of the files is a partial export, and names the file", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const before = await storedState(page);
    await page.setInputFiles("[data-pg-import-file]", [join(FIX, "brannoc.json"), join(FIX, "partial-no-wounds.json")]);
    const dialog = page.locator("dialog[data-pg-import-dialog]");
    await dialog.waitFor();
    expect(await dialog.locator("[data-pg-import-error]").textContent()).toBe(
      "In partial-no-wounds.json, the wound track is missing. Export the whole actor again from its Fudge RPG world (right-click → Export Data) and import that file.",
    );
    expect((await storedState(page)).actors.length).toBe(before.actors.length);
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
