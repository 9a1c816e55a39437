/**
 * The stand-in host itself: banner, dice from the URL, preset switcher, storage across reloads,
 * Reset. (The system's sheets and cards are tested in sheets/combat/safety tests.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { servePlayground } from "../../tools/start.mjs";
import { noProblems, openPlayground, PRESETS, startBrowser, state, storedState } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("playground host", () => {
  it("says what it is: a stand-in host, not Foundry", async () => {
    const { page, context, problems } = await openPlayground(browser);
    const banner = page.getByTestId("banner");
    await expect(banner.textContent()).resolves.toMatch(/stand-in host, not Foundry VTT/);
    expect(await banner.isVisible()).toBe(true);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("a button whose action is in no action table fails loudly (src/system/flows/tables.ts): a toast, nothing written", async () => {
    const { page, context, problems } = await openPlayground(browser);
    await page.locator(".pg-window .fudge-track").first().waitFor();
    const before = await storedState(page);
    await page.evaluate(() => {
      const b = document.createElement("button");
      b.dataset.action = "fireball";
      b.id = "bogus";
      document.querySelector(".pg-window .window-content")!.append(b);
    });
    await page.click("#bogus");
    await page.locator("#pg-toast.visible.error").waitFor();
    await page.waitForFunction(() => document.body.dataset.busy === undefined);
    expect((await storedState(page)).actors).toEqual(before.actors);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("reads the dice from the URL", async () => {
    const seeded = await openPlayground(browser, { dice: "seed:42" });
    expect(await seeded.page.getByTestId("dice-mode").textContent()).toContain("seed 42");
    const draws = await seeded.page.evaluate(() => [0, 1, 2].map(() => (window as any).__playground.dice.rng()));
    const again = await openPlayground(browser, { dice: "seed:42" });
    const draws2 = await again.page.evaluate(() => [0, 1, 2].map(() => (window as any).__playground.dice.rng()));
    expect(draws2).toEqual(draws);
    await seeded.context.close();
    await again.context.close();

    const faces = await openPlayground(browser, { dice: "1,0,-1,17/20" });
    const mapped = await faces.page.evaluate(() => {
      const r = (window as any).__playground.dice.rng;
      return [Math.floor(r() * 3) - 1, Math.floor(r() * 3) - 1, Math.floor(r() * 3) - 1, 1 + Math.floor(r() * 20)];
    });
    expect(mapped).toEqual([1, 0, -1, 17]);
    expect(await faces.page.getByTestId("dice-mode").textContent()).toContain("fixed faces (4)");
    await faces.context.close();
  });

  it("switches between all four presets, keeps the choice across a reload, and Reset restores the start", async () => {
    const { page, context, problems } = await openPlayground(browser);
    const select = page.getByTestId("preset");
    expect(await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      ...PRESETS,
    ]);
    for (const p of PRESETS) {
      await select.selectOption(p);
      expect((await state(page)).preset).toBe(p);
      expect((await storedState(page)).preset).toBe(p);
    }
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    expect((await state(page)).preset).toBe("volt");
    await page.getByTestId("reset").click();
    expect((await state(page)).preset).toBe("fudge");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("`npm start`'s dev server serves the same playground (templates, styles, lang and packs live)", async () => {
    const dev = await servePlayground({ mode: "dev", port: 0, quiet: true });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(`${dev.url}?preset=fate`);
      await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
      await page.waitForSelector(".pg-window .fudge-track");
      expect((await state(page)).preset).toBe("fate");
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await dev.close();
    }
  });
});
