/**
 * The chat card as a player reads it (issue #9): the answer first, only non-zero factors, the
 * changed part of the track, a clear state, buttons that name what they do, keyboard focus kept,
 * and a resolved single-target card no taller than 320 px at the chat's width, in every preset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  act,
  attackVia,
  noProblems,
  openPlayground,
  openSheet,
  screenshot,
  setTarget,
  startBrowser,
  storedState,
  type Preset,
} from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const lastCard = (page: Page) => page.locator("#pg-chat > li.chat-message").last();
const MAX_CARD_PX = 320;

/** Attacks until a card offers Apply (a wound); returns that card. */
async function attackUntilWound(page: Page, attacker: string, defender: string) {
  const win = await openSheet(page, attacker);
  await setTarget(page, defender);
  for (let i = 0; i < 40; i++) {
    await attackVia(page, win.locator('[data-action="attack"]').first());
    const card = lastCard(page);
    const defend = card.locator('[data-action="defend"]');
    if (await defend.count()) {
      expect(await card.locator(".fudge-target").getAttribute("data-state")).toBe("pending");
      expect(await defend.textContent()).toContain(defender);
      await act(page, () => defend.click({ modifiers: ["Shift"] }));
    }
    if (await card.locator('[data-action="apply"]').count()) return card;
  }
  throw new Error(`${attacker} never wounded ${defender}`);
}

const pairs: [Preset, string, string][] = [
  ["fudge", "Leroy", "Theodora"],
  ["miniatures", "Sir Knightly", "Brutas the Brute"],
  ["fate", "Leroy", "Theodora"],
  ["volt", "Leroy", "Theodora"],
];

describe("attack card: the answer first", () => {
  it.each(pairs)(
    "%s: headline, non-zero factors, changed rows only, states, named buttons, ≤ 320 px, focus to the next action",
    async (preset, attacker, defender) => {
      for (const theme of ["light", "dark"] as const) {
        const { page, context, problems } = await openPlayground(
          browser,
          { preset, dice: "seed:11", theme },
          { viewport: { width: 1280, height: 800 } },
        );
        const card = await attackUntilWound(page, attacker, defender);
        const target = card.locator(".fudge-target");
        expect(await target.getAttribute("data-state")).toBe("resolved");
        const headline = (await card.locator(".fudge-headline").textContent())!.replace(/\s+/g, " ").trim();
        const level = (await card.locator(".fudge-wound-level").first().textContent())!.trim();
        expect(headline).toContain(defender);
        expect(headline).toContain(level);
        // The button says what it does.
        const apply = card.locator('[data-action="apply"]');
        expect((await apply.textContent())!.replace(/\s+/g, " ")).toContain(`${level} to ${defender}`);
        // No factor shown is zero; no number is printed as "−0"/"+0".
        for (const dd of await card.locator("[data-number] dd").allTextContents())
          expect(["0", "+0", "\u22120"]).not.toContain(dd.trim());
        // Only the rows the wound changes, each with a box the wound marks.
        const stored = await storedState(page);
        const def = stored.actors.find((a: any) => a.name === defender);
        const rows = card.locator(".fudge-card-track .fudge-track-row");
        expect(await rows.count()).toBeGreaterThan(0);
        expect(await rows.count()).toBeLessThan(preset === "volt" ? 20 : 5);
        expect(def).toBeTruthy();
        // Only the sheet's own track is a live region.
        expect(await card.locator("[aria-live]").count()).toBe(0);
        expect((await card.boundingBox())!.height).toBeLessThanOrEqual(MAX_CARD_PX);

        // Apply by keyboard: focus moves to the card's next action (Undo), not to the page.
        await apply.focus();
        await act(page, () => page.keyboard.press("Enter"));
        expect(await target.getAttribute("data-state")).toBe("applied");
        expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action)).toBe("undo");
        const undo = card.locator('[data-action="undo"]');
        expect((await undo.textContent())!.replace(/\s+/g, " ")).toContain(`${level} on ${defender}`);
        const height = (await card.boundingBox())!.height;
        expect(height, `${preset} applied card is ${height} px tall`).toBeLessThanOrEqual(MAX_CARD_PX);
        await screenshot(card, `card-${preset}-applied-${theme}`);

        // Undo: struck through, "again" on the Apply button, no Undo.
        await act(page, () => undo.click());
        expect(await target.getAttribute("data-state")).toBe("undone");
        expect(await card.locator(".fudge-headline").evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe(
          "line-through",
        );
        expect(await card.locator('[data-action="undo"]').count()).toBe(0);
        expect(await card.locator('[data-action="apply"]').textContent()).toMatch(/again/);
        expect(noProblems(problems)).toEqual([]);
        await context.close();
      }
    },
  );

  it("two targets: one card, one Apply per target and 'Apply to all targets'", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "seed:2" });
    const win = await openSheet(page, "Sir Knightly");
    await setTarget(page, "Brutas the Brute");
    await setTarget(page, "Knavely Knave");
    let card = lastCard(page);
    for (let i = 0; i < 40; i++) {
      await attackVia(page, win.locator('[data-action="attack"]').first());
      card = lastCard(page);
      if ((await card.locator('[data-action="apply"]').count()) === 2) break;
    }
    expect((await card.boundingBox())!.height).toBeLessThanOrEqual(2 * MAX_CARD_PX);
    const all = card.locator('[data-action="applyAll"]');
    expect(await all.count()).toBe(1);
    await act(page, () => all.click());
    expect(await card.locator('.fudge-target[data-state="applied"]').count()).toBe(2);
    expect(await card.locator('[data-action="applyAll"]').count()).toBe(0);
    await screenshot(card, "card-miniatures-two-targets");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("attack dialog: exact odds before the roll", () => {
  it("Fudge: Leroy vs Theodora shows the rules core's odds in [data-odds], they follow the options, choices are remembered, Shift-click skips", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "seed:5" });
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    const attack = leroy.locator('[data-action="attack"]').first();
    await attack.click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const odds = dialog.locator("[data-odds]");
    expect(await odds.count()).toBe(1);
    const read = async () =>
      Object.fromEntries(
        await odds
          .locator(".fudge-odds-segment")
          .evaluateAll((els) => els.map((e) => [e.getAttribute("data-outcome"), Number(e.getAttribute("data-p"))])),
      );
    const before = await read();
    // The figures for this pair: 58 % wound, 15 % standoff, 26 % miss.
    expect(before.miss).toBeCloseTo(0.2608, 3);
    expect(before.standoff).toBeCloseTo(0.1549, 3);
    const wound = Object.entries(before)
      .filter(([k]) => k.startsWith("wound."))
      .reduce((s, [, p]) => s + (p as number), 0);
    expect(wound).toBeCloseTo(0.5844, 3);
    expect(await odds.locator(".fudge-odds-legend").textContent()).toMatch(/Miss\s*26%/);
    await screenshot(dialog, "dialog-fudge-attack");
    // All-out attack (+1) moves the odds towards wounds.
    await dialog.locator('[name="allOutAttack"]').check();
    await page.waitForFunction(
      (m) =>
        Number(document.querySelector('dialog[open] [data-odds] [data-outcome="miss"]')?.getAttribute("data-p")) < m,
      before.miss,
    );
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    expect((await storedState(page)).messages.at(-1).system.situation).toEqual({ allOutAttack: true });
    // Remembered next time; Shift-click rolls with the remembered choice, no dialog.
    await attack.click();
    await page.locator("dialog[open]").waitFor();
    expect(await page.locator('dialog[open] [name="allOutAttack"]').isChecked()).toBe(true);
    await page.locator('dialog[open] button[type="submit"][value="cancel"]').click();
    const n = (await storedState(page)).messages.length;
    await act(page, () => attack.click({ modifiers: ["Shift"] }));
    const s = await storedState(page);
    expect(s.messages.length).toBe(n + 1);
    expect(s.messages.at(-1).system.situation).toEqual({ allOutAttack: true });
    expect(await page.locator("dialog[open]").count()).toBe(0);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("attack dialog in every preset, light and dark", () => {
  it.each(pairs)("%s: %s's dialog against %s shows its options and the odds", async (preset, attacker, defender) => {
    for (const theme of ["light", "dark"] as const) {
      const { page, context, problems } = await openPlayground(
        browser,
        { preset, theme },
        { viewport: { width: 1280, height: 800 } },
      );
      const win = await openSheet(page, attacker);
      await setTarget(page, defender);
      await win.locator('[data-action="attack"]').first().click();
      const dialog = page.locator("dialog[open]");
      await dialog.waitFor();
      expect(await dialog.locator("[data-odds] .fudge-odds-segment").count()).toBeGreaterThan(1);
      expect(await dialog.locator(".fudge-field .hint").count()).toBeGreaterThan(0);
      await screenshot(dialog, `dialog-${preset}-attack-${theme}`);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    }
  });
});

describe("keyboard", () => {
  it("Attack is reachable in at most 10 Tab presses from the sheet's first control, and Enter opens the dialog", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await win.locator(".window-content input, .window-content button, .window-content select").first().focus();
    let presses = 0;
    while (
      presses < 10 &&
      (await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action)) !== "attack"
    ) {
      await page.keyboard.press("Tab");
      presses++;
    }
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action)).toBe("attack");
    expect(presses).toBeLessThanOrEqual(10);
    await page.keyboard.press("Enter");
    await page.locator("dialog[open] [data-odds]").waitFor();
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("healing dialog and feedback", () => {
  it("Natural healing asks for the weeks (the system's template), heals, and says so", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    await act(page, () => win.locator('.fudge-track-row[data-level="hurt"] .fudge-box').first().click());
    await win.locator('[data-action="heal"][data-heal="natural"]').click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(await dialog.locator('input[name="weeks"]').inputValue()).toBe("1");
    await dialog.locator('input[name="weeks"]').fill("2");
    await screenshot(dialog, "dialog-fudge-heal-light");
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    expect((await storedState(page)).actors.find((a: any) => a.name === "Leroy").system.woundTrack.state).toBeTruthy();
    await page.locator("#pg-toast.visible").waitFor();
    const said = (await page.textContent("#pg-toast")) ?? "";
    expect(said).toMatch(/^Leroy: /);
    expect(said).not.toMatch(/FUDGE\./);
    expect(await win.locator(".fudge-sheet-header .fudge-penalty .value").textContent()).toBe("0");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("rules menu (the settings template)", () => {
  it("shows only the general and the active preset's options, and saves through the settings check", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    await page.getByTestId("rules").click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const groups = await dialog
      .locator("fieldset[data-group]")
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.group));
    // Characters (issue 31): the creation method and the world's attributes, in every preset with characters' traits.
    // The dice (Fudge §3.2) and Fudge Points (§1.36) groups: Fudge and FATE worlds only (issue 32).
    expect(groups).toEqual(["general", "characters", "dice", "fudgePoints", "fudge", "fudgeTrack"]);
    await screenshot(dialog, "settings-fudge-light");
    await dialog.locator('[name="fudge.doubleRd"]').check();
    // Fudge §1.3: a Difficulty Level is picked by its name on the ladder.
    const difficulty = dialog.getByRole("combobox", { name: "Default Difficulty Level" });
    expect(await difficulty.locator("option:checked").textContent()).toBe("Fair (0)");
    await difficulty.selectOption({ label: "Good (+1)" });
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    const s = await storedState(page);
    expect(s.settings.fudge.doubleRd).toBe(true);
    expect(s.settings.defaultDifficulty).toBe(1);
    expect(s.settings.miniatures).toBeTruthy();
    // Another preset: its own options only; the Fudge choice is kept.
    await page.getByTestId("preset").selectOption("miniatures");
    await page.getByTestId("rules").click();
    expect(
      await page
        .locator("dialog[open] fieldset[data-group]")
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.group)),
    ).toEqual(["general", "miniatures"]);
    // Miniatures rolls against numbers: the Difficulty stays a number.
    expect(await page.locator('dialog[open] input[type="number"][name="defaultDifficulty"]').inputValue()).toBe("1");
    await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
    expect((await storedState(page)).settings.fudge.doubleRd).toBe(true);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("edits the wound thresholds, graze and Min-Mid-Max tables row by row; a bad row is refused and nothing is saved", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    await page.getByTestId("rules").click();
    let dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(await dialog.locator("textarea").count()).toBe(0);
    const graze = dialog.locator('[data-rule-table="fudge.graze.table"]');
    expect(await graze.locator("tbody tr").count()).toBe(2);
    // Edit one row: the Hurt graze from 5 to 4.
    await graze.getByRole("spinbutton", { name: "Minimum" }).nth(1).fill("4");
    // Thresholds start empty (the track's defaults): add two rows.
    const th = dialog.locator('[data-rule-table="fudgeTrack.thresholds"]');
    expect(await th.locator("tbody tr").count()).toBe(0);
    await th.getByRole("button", { name: "Add row" }).click();
    await th.getByRole("button", { name: "Add row" }).click();
    await th.getByRole("combobox", { name: "Wound level" }).nth(1).selectOption("hurt");
    await th.getByRole("spinbutton", { name: "Minimum" }).nth(0).fill("1");
    await th.getByRole("spinbutton", { name: "Minimum" }).nth(1).fill("3");
    // Remove the first Min-Mid-Max row.
    await dialog
      .locator('[data-rule-table="fudge.minMidMax.table"]')
      .getByRole("button", { name: "Remove row" })
      .first()
      .click();
    await act(page, () => dialog.locator('button[type="submit"]').first().click());
    let s = await storedState(page);
    expect(s.settings.fudge.graze.table).toEqual([
      { min: 0, level: "scratch" },
      { min: 4, level: "hurt" },
    ]);
    expect(s.settings.fudgeTrack.thresholds).toEqual([
      { key: "scratch", min: 1 },
      { key: "hurt", min: 3 },
    ]);
    expect(s.settings.fudge.minMidMax.table).toHaveLength(5);
    expect(s.settings.fudge.minMidMax.table[0]).toEqual({ min: -1, die: "min", add: 0 });
    // The menu opens on what was saved; a row out of order is refused with a sentence, nothing saved.
    await page.getByTestId("rules").click();
    dialog = page.locator("dialog[open]");
    expect(await dialog.locator('[name="fudge.graze.table.1.min"]').inputValue()).toBe("4");
    await dialog.locator('[name="fudge.graze.table.1.min"]').fill("-3");
    await dialog.locator('button[type="submit"]').first().click();
    await page.locator("#pg-toast.visible").waitFor();
    expect(await page.textContent("#pg-toast")).toBe(
      "The minimum in row 2 of the graze table must be higher than the minimum in the row above: the rows run from the lowest minimum up.",
    );
    s = await storedState(page);
    expect(s.settings.fudge.graze.table).toEqual([
      { min: 0, level: "scratch" },
      { min: 4, level: "hurt" },
    ]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("missing controls: a weapon's magic bonus and the blow to the head", () => {
  /** Opens the attack dialog from `attack`, reads its odds (outcome → p) and the fields it offers, and cancels. */
  async function dialogOf(page: Page, attack: ReturnType<Page["locator"]>) {
    await attack.click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    const odds: Record<string, number> = Object.fromEntries(
      await dialog
        .locator("[data-odds] .fudge-odds-segment")
        .evaluateAll((els) => els.map((e) => [e.getAttribute("data-outcome"), Number(e.getAttribute("data-p"))])),
    );
    const fields = await dialog.locator("[name]").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name));
    return { dialog, odds, fields, cancel: () => dialog.locator('button[type="submit"][value="cancel"]').click() };
  }

  /** Leroy's first weapon's item sheet (opened from his sheet), with Theodora targeted. */
  async function leroysWeapon(page: Page) {
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    const attack = leroy.locator('[data-action="attack"]').first();
    const weaponId = (await attack.getAttribute("data-item-id"))!;
    await act(page, () => leroy.locator(`[data-action="editItem"][data-item-id="${weaponId}"]`).click());
    const item = page.locator(`.pg-window[data-pg-doc$="/${weaponId}"]`);
    await item.waitFor();
    const weapon = async () =>
      (await storedState(page)).actors.find((a: any) => a.name === "Leroy").items.find((i: any) => i._id === weaponId);
    return { attack, item, weapon };
  }

  it("Fudge §4.7: the weapon sheet sets its magic bonus (a number); it changes the damage, not the chance to hit", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const { attack, item, weapon } = await leroysWeapon(page);
    const magic = item.locator('[name="system.magic"]');
    expect(await magic.inputValue()).toBe("0");
    expect(await item.locator('label:has([name="system.magic"])').getAttribute("data-tooltip")).toMatch(
      /^Fudge §4\.7: /,
    );
    const before = await dialogOf(page, attack);
    await before.cancel();
    await act(page, async () => {
      await magic.fill("2");
      await magic.press("Tab");
    });
    expect((await weapon()).system.magic).toBe(2);
    expect(await magic.inputValue()).toBe("2");
    const after = await dialogOf(page, attack);
    await after.cancel();
    expect(after.odds.miss).toBeCloseTo(before.odds.miss, 10);
    expect(after.odds.standoff).toBeCloseTo(before.odds.standoff, 10);
    expect(after.odds).not.toEqual(before.odds);
    // +2 to the offensive damage factor: the worst wound level offered gets likelier.
    const worst = (o: Record<string, number>) =>
      Object.keys(o)
        .filter((k) => k.startsWith("wound."))
        .at(-1)!;
    expect(after.odds[worst(after.odds)]).toBeGreaterThan(before.odds[worst(after.odds)] ?? 0);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("Fudge §4.62: Blow to the head is offered only for a stun weapon with the world option on, with its hint; the odds follow it; remembered", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const { attack, item } = await leroysWeapon(page);
    // Neither option nor stun weapon: no head blow.
    let d = await dialogOf(page, attack);
    expect(d.fields).not.toContain("headBlow");
    await d.cancel();
    await act(page, () => item.locator('[name="system.stunCapable"]').check());
    d = await dialogOf(page, attack);
    expect(d.fields).toContain("stun");
    expect(d.fields).not.toContain("headBlow");
    await d.cancel();
    // The GM option (rules menu, Fudge group).
    await page.getByTestId("rules").click();
    await page.locator('dialog[open] [name="fudge.headBlowKnockout"]').check();
    await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
    expect((await storedState(page)).settings.fudge.headBlowKnockout).toBe(true);
    d = await dialogOf(page, attack);
    expect(d.fields).toContain("headBlow");
    expect(await d.dialog.locator("#fudge-hint-headBlow").textContent()).toBe(
      "Fudge §4.62: with Stun, a Good or better blow to the head knocks out.",
    );
    const p = (key: string) =>
      page.evaluate(
        (k) =>
          Number(document.querySelector(`dialog[open] [data-odds] [data-outcome="${k}"]`)?.getAttribute("data-p") ?? 0),
        key,
      );
    await d.dialog.locator('[name="stun"]').check();
    const stunOnly = await p("wound.incapacitated");
    await d.dialog.locator('[name="headBlow"]').check();
    await page.waitForFunction(
      (b) =>
        Number(
          document
            .querySelector('dialog[open] [data-odds] [data-outcome="wound.incapacitated"]')
            ?.getAttribute("data-p") ?? 0,
        ) > b,
      stunOnly,
    );
    expect(await p("wound.incapacitated")).toBeGreaterThan(stunOnly);
    await act(page, () => d.dialog.locator('button[type="submit"]').first().click());
    expect((await storedState(page)).messages.at(-1).system.situation).toEqual({ stun: true, headBlow: true });
    // Remembered with the other options.
    d = await dialogOf(page, attack);
    expect(await d.dialog.locator('[name="headBlow"]').isChecked()).toBe(true);
    await d.cancel();
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("GM judgement (RULES §2.2: 'the card shows the factors and RD and the GM picks the wound level')", () => {
  it("Fudge §4.55: the GM's picker on the card applies his level; the card records it and Undo works", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "seed:11" });
    await page.getByTestId("rules").click();
    await page.locator('dialog[open] [name="fudge.woundMode"]').selectOption("gmJudgement");
    await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
    expect((await storedState(page)).settings.fudge.woundMode).toBe("gmJudgement");
    const win = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    let card = lastCard(page);
    for (let i = 0; i < 40; i++) {
      await attackVia(page, win.locator('[data-action="attack"]').first());
      card = lastCard(page);
      const defend = card.locator('[data-action="defend"]');
      if (await defend.count()) await act(page, () => defend.click({ modifiers: ["Shift"] }));
      if (await card.locator('select[name="gmLevel"]').count()) break;
    }
    expect((await card.locator(".fudge-headline").textContent())!.replace(/\s+/g, " ").trim()).toBe(
      "The GM decides Theodora's wound",
    );
    expect(await card.locator('[data-action="apply"]').count()).toBe(0);
    expect(await card.locator('select[name="gmLevel"] option').allTextContents()).toEqual([
      "No wound",
      "Scratch",
      "Hurt",
      "Very Hurt",
      "Incapacitated",
      "Near Death",
    ]);
    await card.locator('select[name="gmLevel"]').selectOption("hurt");
    await act(page, () => card.locator('[data-action="applyJudgement"]').click());
    card = lastCard(page);
    expect(await card.locator(".fudge-target").getAttribute("data-state")).toBe("applied");
    expect((await card.locator(".fudge-headline").textContent())!.replace(/\s+/g, " ")).toContain(
      "Theodora takes Hurt",
    );
    const stored = (await storedState(page)).messages.at(-1).system.targets[0];
    expect(stored.gmLevel).toBe("hurt");
    expect(stored.applied).toHaveLength(1);
    await act(page, () => card.locator('[data-action="undo"]').click());
    card = lastCard(page);
    expect(await card.locator(".fudge-target").getAttribute("data-state")).toBe("undone");
    expect(await card.locator('select[name="gmLevel"]').inputValue()).toBe("hurt");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
