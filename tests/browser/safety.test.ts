/**
 * User text is text: an actor (and a weapon) named `<img src=x onerror=alert(1)>` shows as
 * those characters on the sheet, in the toolbar, window title and chat cards, and no element
 * or script comes from it. Also: the whole loop on every preset leaves no console error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  act,
  attackVia,
  noProblems,
  openPlayground,
  openSheet,
  PRESETS,
  screenshot,
  setTarget,
  startBrowser,
  reveal,
  rollVia,
} from "./helpers";

const PAYLOAD = "<img src=x onerror=alert(1)>";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Elements or handlers that could only have come from the payload. */
async function injected(page: Page): Promise<{ imgs: number; handlers: number; executed: boolean }> {
  return page.evaluate(() => ({
    imgs: document.querySelectorAll('img[src="x"], img:not([src])').length,
    handlers: [...document.querySelectorAll("*")].filter((e) => e.hasAttribute("onerror")).length,
    executed: (window as any).__xss === true,
  }));
}

describe("hostile names", () => {
  it("the detector itself sees the payload when it is injected as HTML (so the checks below can fail)", async () => {
    const { page, context } = await openPlayground(
      browser,
      {},
      {
        init: async (ctx) => {
          await ctx.addInitScript(() => {
            (window as any).alert = () => ((window as any).__xss = true);
          });
        },
      },
    );
    await page.evaluate((p) => document.body.insertAdjacentHTML("beforeend", p), PAYLOAD);
    await page.waitForFunction(() => (window as any).__xss === true);
    expect(await injected(page)).toEqual({ imgs: 1, handlers: 1, executed: true });
    await context.close();
  });

  it.each(PRESETS)(
    "%s: an actor and a weapon named <img src=x onerror=alert(1)> render as text everywhere and run nothing",
    async (preset) => {
      const { page, context, problems } = await openPlayground(
        browser,
        { preset, dice: "seed:7" },
        {
          init: async (ctx) => {
            // Any script the payload managed to run would call alert(); record it as well.
            await ctx.addInitScript(() => {
              (window as any).alert = () => ((window as any).__xss = true);
            });
          },
        },
      );
      // Rename Theodora from her own sheet's name field (a user's edit) and Leroy's first weapon in storage.
      const theodora = await openSheet(page, "Theodora");
      const nameInput = theodora.locator('input[name="name"]');
      await act(page, () =>
        nameInput
          .fill(PAYLOAD)
          .then(() => nameInput.press("Enter"))
          .then(() => nameInput.blur()),
      );
      await page.evaluate((p) => {
        const pg = (window as any).__playground;
        pg.store.update((d: any) => {
          const leroy = d.actors.find((a: any) => a.name === "Leroy");
          leroy.items.find((i: any) => i.type === "weapon").name = p;
        });
      }, PAYLOAD);
      const hostile = await openSheet(page, PAYLOAD);
      expect(await hostile.locator(".window-title").textContent()).toBe(PAYLOAD);
      expect(await hostile.locator('input[name="name"]').inputValue()).toBe(PAYLOAD);
      expect(await page.locator(".pg-toolbar").textContent()).toContain(PAYLOAD);

      // Attack her with the hostile weapon (in Miniatures the characters are no datacards: skip the card there).
      const leroy = await openSheet(page, "Leroy");
      expect(await leroy.locator(".fudge-weapon .fudge-item-name, .fudge-item-name").first().textContent()).toBe(
        PAYLOAD,
      );
      await setTarget(page, PAYLOAD);
      const attack = leroy.locator('[data-action="attack"]').first();
      if ((await attack.count()) && preset !== "miniatures") {
        await attackVia(page, attack);
        const card = page.locator("#pg-chat > li.chat-message").last();
        const defend = card.locator('[data-action="defend"]');
        if (await defend.count()) await act(page, () => defend.click({ modifiers: ["Shift"] }));
        const apply = card.locator('[data-action="apply"]');
        if (await apply.count()) await act(page, () => apply.click());
        const text = (await card.textContent()) ?? "";
        expect(text).toContain(PAYLOAD);
        await screenshot(card, `card-${preset}-hostile-name`);
      }
      // A roll from her sheet: the roll card names her.
      const roll = hostile.locator('[data-action="rollTrait"]').first();
      if (await roll.count()) {
        await reveal(roll);
        await rollVia(page, roll);
        expect(await page.locator("#pg-chat > li.chat-message").last().textContent()).toContain(PAYLOAD);
      }
      await page.waitForTimeout(200);
      expect(await injected(page)).toEqual({ imgs: 0, handlers: 0, executed: false });
      expect(problems.dialogs).toEqual([]);
      // The same after a reload from storage.
      await page.reload();
      await page.waitForSelector("body[data-ready=true]");
      await page.waitForTimeout(200);
      expect(await injected(page)).toEqual({ imgs: 0, handlers: 0, executed: false });
      await screenshot(page, `playground-${preset}-hostile-name`);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );
});
