/**
 * Fudge Points on the attack card as the table reads it (issue 32, Fudge §1.36): the attacker's
 * and the defender's offers (a labelled group of two buttons each, on the line of the roll it
 * alters), the spend's line under the
 * headline (who, from → to, the answer still first) with its Undo, in the real template and CSS,
 * checked by axe-core.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  act,
  attackVia,
  axeViolations,
  noProblems,
  openPlayground,
  openSheet,
  screenshot,
  setTarget,
  startBrowser,
  storedActor,
} from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const lastCard = (page: Page) => page.locator("#pg-chat > li.chat-message").last();
const words = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const points = async (page: Page, name: string) => (await storedActor(page, name)).system.fudgePoints as number;

describe("a Fudge Point on the attack card (Fudge §1.36)", () => {
  it("the attacker's and the defender's offers, the spend's line and its Undo; axe-core finds nothing", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "seed:3" });
    const win = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await attackVia(page, win.locator('[data-action="attack"]').first());
    let card = lastCard(page);
    // Before the defence is rolled nothing is offered: the roll is seen before it is altered.
    expect(await card.locator('[data-action="spendAttackFudgePoint"]').count()).toBe(0);
    await act(page, () => card.locator('[data-action="defend"]').click({ modifiers: ["Shift"] }));
    card = lastCard(page);
    const attacker = card.locator('[role="group"][aria-label="Leroy: spend a Fudge Point on this roll (Fudge §1.36)"]');
    const defender = card.locator(
      '.fudge-target [role="group"][aria-label="Theodora: spend a Fudge Point on this roll (Fudge §1.36)"]',
    );
    // Each offer sits on the line of the roll it alters.
    expect(await card.locator('.fudge-dice-roll[data-slot="attack"] .fudge-fudge-point-offer').count()).toBe(1);
    expect(await card.locator('.fudge-dice-roll[data-slot="defense"] .fudge-fudge-point-offer').count()).toBe(1);
    expect(await attacker.locator("button").evaluateAll((b) => b.map((x) => x.getAttribute("aria-label")))).toEqual([
      "Fudge Point: one level up",
      "Fudge Point: one level down",
    ]);

    expect(await defender.locator("button").count()).toBe(2);
    expect(await axeViolations(page, ["#pg-chat > li.chat-message:last-child"], "attack-fudge-offer")).toEqual([]);
    await screenshot(card, "card-fudge-point-offer");

    await act(page, () => attacker.locator('[data-direction="1"]').click());
    card = lastCard(page);
    expect(await points(page, "Leroy")).toBe(2);
    const line = card.locator('.fudge-fudge-point[data-side="attacker"]');
    expect(words(await line.textContent())).toMatch(
      /^Leroy spent a Fudge Point on the attack roll \(Fudge §1\.36\): \S+ \([^)]+\) → \S+ \([^)]+\) Undo \(refund the Fudge Point\)$/,
    );
    // The answer stays first: the headline comes before the spend's line.
    const order = await card
      .locator(".fudge-target")
      .evaluate((el) => [...el.querySelectorAll(".fudge-headline, .fudge-fudge-point")].map((e) => e.className));
    expect(order[0]).toBe("fudge-headline");
    expect(await card.locator('[data-action="spendAttackFudgePoint"][data-side="attacker"]').count()).toBe(0);
    await act(page, () => defender.locator('[data-direction="1"]').click());
    card = lastCard(page);
    expect(await points(page, "Theodora")).toBe(2);
    expect(words(await card.locator('.fudge-fudge-point[data-side="defender"]').textContent())).toContain(
      "Theodora spent a Fudge Point on the defence roll",
    );
    expect(await axeViolations(page, ["#pg-chat > li.chat-message:last-child"], "attack-fudge-spent")).toEqual([]);
    await screenshot(card, "card-fudge-point-attack");

    await act(page, () => card.locator('[data-action="undoAttackFudgePoint"][data-side="attacker"]').click());
    card = lastCard(page);
    expect(await points(page, "Leroy")).toBe(3);
    expect(await card.locator('.fudge-fudge-point[data-side="attacker"]').count()).toBe(0);
    expect(await card.locator('[data-action="spendAttackFudgePoint"][data-side="attacker"]').count()).toBe(2);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
