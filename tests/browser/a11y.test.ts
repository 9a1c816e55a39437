/**
 * Accessibility as a test (issue #33): axe-core on every view the system draws — every sheet tab
 * of every sample actor (unhurt, wounded, out of action, a custom track, an unequipped item),
 * every item sheet, every dialog (attack, trait roll, healing, Guts, the rules menu, the import
 * report) and every card state (waiting for the defence, resolved, applied with its details open,
 * undone, a roll card, two targets, the GM's judgement, the battle's end) — in every preset, in
 * the light and the dark theme. The check is scoped to the system's own DOM (sheet contents, card
 * contents, dialog bodies, the combat tracker's wound lines), not the playground's frame; any
 * violation fails. The defender's Defend dialog is checked with the card states.
 * Also: the sheet tabs follow the ARIA tabs pattern by keyboard, and dice faces are announced.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  act,
  actorId,
  axeViolations,
  missingKeys,
  noProblems,
  openPlayground,
  openSheet,
  PRESETS,
  repo,
  setTarget,
  startBrowser,
  state,
  type Preset,
} from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PAIRS: Record<Preset, [string, string]> = {
  fudge: ["Leroy", "Theodora"],
  miniatures: ["Sir Knightly", "Brutas the Brute"],
  fate: ["Leroy", "Theodora"],
  volt: ["Leroy", "Theodora"],
};
/** An actor marked out of action on its sheet (every box it lets a click mark). */
const FALLEN: Record<Preset, string> = {
  fudge: "King Kingsley",
  miniatures: "Knavely Knave",
  fate: "King Kingsley",
  volt: "King Kingsley",
};
const TABS = ["combat", "traits", "gear", "notes"];
const SHEETS = ".pg-window[data-pg-kind=actor] .window-content";
const ITEMS = ".pg-window[data-pg-kind=item] .window-content";
const DIALOG = "dialog[open] .pg-dialog-body";
const LAST_CARD = "#pg-chat > li.chat-message:last-child .message-content";
const lastCard = (page: Page) => page.locator("#pg-chat > li.chat-message").last();
const cancelDialog = (page: Page) => page.locator('dialog[open] button[type="submit"][value="cancel"]').click();

/**
 * Attacks until every outcome the odds allow (a miss, a standoff, no damage, a wound) has been on
 * a card, checking each card state once: waiting for the defence, resolved, and a wound applied
 * with its details open, then undone.
 */
async function cardStates(page: Page, preset: Preset, found: string[]): Promise<void> {
  const [attacker, defender] = PAIRS[preset];
  const win = await openSheet(page, attacker);
  await setTarget(page, defender);
  const attack = win.locator(preset === "miniatures" ? '[data-action="attackAll"]' : '[data-action="attack"]').first();
  await attack.click();
  await page.locator("dialog[open]").waitFor();
  found.push(...(await axeViolations(page, [DIALOG], "attack dialog")));
  // The outcomes this attack can have (one in fifty or likelier), as the dialog's odds say.
  const wanted = new Set(
    await page
      .locator("dialog[open] [data-odds] .fudge-odds-segment")
      .evaluateAll((els) =>
        els
          .filter((e) => Number(e.getAttribute("data-p")) >= 0.02)
          .map((e) => (e.getAttribute("data-outcome") ?? "").split(".")[0]),
      ),
  );
  await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
  const seen = new Set<string>();
  const check = async (card: ReturnType<typeof lastCard>) => {
    const t = card.locator(".fudge-target").first();
    const [state, outcome] = [
      await t.getAttribute("data-state"),
      /outcome-(\w*)/.exec((await t.getAttribute("class")) ?? "")?.[1],
    ];
    if (state !== "pending") wanted.delete(outcome ?? "");
    const label = `card ${state} ${outcome}`;
    if (seen.has(label)) return;
    seen.add(label);
    found.push(...(await axeViolations(page, [LAST_CARD], label)));
  };
  let applied = false;
  for (let i = 0; i < 80 && (wanted.size || !applied); i++) {
    if (i > 0) await act(page, () => attack.click({ modifiers: ["Shift"] }));
    const card = lastCard(page);
    await check(card);
    const defend = card.locator('[data-action="defend"]');
    if (await defend.count()) {
      if (!seen.has("defence dialog")) {
        // The defender's own Defend dialog, once; later defences roll with his last choices (Shift).
        seen.add("defence dialog");
        await defend.click();
        await page.locator("dialog[open]").waitFor();
        found.push(...(await axeViolations(page, [DIALOG], "defence dialog")));
        await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
      } else await act(page, () => defend.click({ modifiers: ["Shift"] }));
      await check(card);
    }
    if (applied || !(await card.locator('[data-action="apply"]').count())) continue;
    await act(page, () => card.locator('[data-action="apply"]').click());
    await card.locator("details.fudge-explain > summary").first().click();
    found.push(...(await axeViolations(page, [LAST_CARD], "card applied, details open")));
    // The combat tracker's view of the actors, one of them wounded: its lines in words.
    found.push(...(await axeViolations(page, ["#pg-tracker"], "combat tracker")));
    await act(page, () => card.locator('[data-action="undo"]').click());
    found.push(...(await axeViolations(page, [LAST_CARD], "card undone")));
    applied = true;
  }
  expect([...wanted], `outcomes never rolled by ${attacker}`).toEqual([]);
  expect(applied, `${attacker} never wounded ${defender}`).toBe(true);
}

/** The trait roll dialog and its card, each healing dialog, the Guts dialog and the rules menu. */
async function dialogs(page: Page, preset: Preset, found: string[]): Promise<void> {
  const [attacker] = PAIRS[preset];
  const win = await openSheet(page, attacker);
  await win.locator('[data-action="tab"][data-tab="traits"]').click();
  await win.locator('[data-action="rollTrait"]').first().click();
  await page.locator("dialog[open]").waitFor();
  found.push(...(await axeViolations(page, [DIALOG], "roll dialog")));
  await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
  found.push(...(await axeViolations(page, [LAST_CARD], "roll card")));
  await win.locator('[data-action="tab"][data-tab="combat"]').click();
  // A wound to heal (Volt: an Injury, so its recovery roll's dialog opens: a click marks Stun, the next Injury).
  const box = win.locator('.fudge-track [data-action="toggleWoundBox"]').first();
  await act(page, () => box.click());
  if (preset === "volt") await act(page, () => box.click());
  for (const heal of await win.locator('[data-action="heal"]').all()) {
    await heal.click();
    if (!(await page.locator("dialog[open]").count())) continue;
    found.push(...(await axeViolations(page, [DIALOG], `heal dialog ${await heal.getAttribute("data-heal")}`)));
    await cancelDialog(page);
  }
  if (preset === "miniatures") {
    await win.locator('[data-action="gutsCheck"]').click();
    await page.locator("dialog[open]").waitFor();
    found.push(...(await axeViolations(page, [DIALOG], "Guts dialog")));
    await cancelDialog(page);
  }
  await page.getByTestId("rules").click();
  await page.locator("dialog[open]").waitFor();
  found.push(...(await axeViolations(page, [DIALOG], "rules menu")));
  await cancelDialog(page);
}

/** Marks every box a click can mark on `name`'s sheet (out of action). */
async function markAll(page: Page, name: string): Promise<void> {
  const win = await openSheet(page, name);
  for (let i = 0; i < 40; i++) {
    const open = win.locator('.fudge-track [data-action="toggleWoundBox"][aria-pressed="false"]:not([disabled])');
    if (!(await open.count())) return;
    await act(page, () => open.first().click());
  }
}

/** Every sample actor's sheet on each tab (all windows at once), then every item sheet. */
async function sheets(page: Page, preset: Preset, found: string[]): Promise<void> {
  const [attacker, defender] = PAIRS[preset];
  // Wounded, out of action, an unequipped item, and (Fudge §4.57) a custom track's editing rows.
  const hurt = await openSheet(page, attacker);
  await act(page, () =>
    hurt.locator('.fudge-track [data-action="toggleWoundBox"][aria-pressed="false"]').first().click(),
  );
  await markAll(page, FALLEN[preset]);
  const other = await openSheet(page, defender);
  const equipped = other.locator('.fudge-items-weapon [data-action="toggleEquipped"][aria-pressed="true"]').first();
  if (await equipped.count()) await act(page, () => equipped.click());
  if (preset === "fudge") {
    await hurt.locator(".fudge-track-options summary").click();
    await act(page, async () => {
      await hurt.locator('select[name="system.woundTrack.preset"]').selectOption("custom");
    });
  }
  for (const a of (await state(page)).actors) await openSheet(page, a.name);
  for (const tab of TABS) {
    await page.evaluate((tab) => {
      for (const b of document.querySelectorAll<HTMLElement>(`.pg-window [data-action="tab"][data-tab="${tab}"]`))
        if (b.getAttribute("aria-selected") !== "true") b.click();
    }, tab);
    await page.waitForFunction(
      (tab) =>
        [...document.querySelectorAll(".pg-window[data-pg-kind=actor]")].every(
          (w) => w.querySelector(`[role="tab"][data-tab="${tab}"]`)?.getAttribute("aria-selected") === "true",
        ),
      tab,
    );
    found.push(...(await axeViolations(page, [SHEETS], `sheets, ${tab} tab`)));
  }
  // Every item of every actor in its own sheet.
  await page.evaluate(() => {
    const pg = (window as any).__playground;
    pg.store.updateDocs({}, (d: any) => {
      d.open = d.actors.flatMap((a: any) => (a.items ?? []).map((i: any) => `${a._id}/${i._id}`));
    });
  });
  await page.locator(ITEMS).first().waitFor();
  found.push(...(await axeViolations(page, [ITEMS], "item sheets")));
}

/** Fudge only: the two-target card, the GM's judgement card, the battle's-end note and the import report. */
async function fudgeExtras(page: Page, found: string[]): Promise<void> {
  // The battle's end: a Willpower adjustment that held until then lapses (one chat note).
  const id = await actorId(page, "Theodora");
  await page.evaluate((id) => {
    const record = {
      messageId: "m1",
      by: "gm",
      at: 1,
      before: null,
      after: null,
      lapses: [{ from: "hurt", to: "veryHurt" }],
    };
    (window as any).__playground.store.updateDocs({ actors: [id] }, (d: any) => {
      d.actors.find((a: any) => a._id === id).flags = { "fudge-wounds": { woundLog: { m1: record } } };
    });
  }, id);
  await act(page, () => page.getByTestId("in-combat").check());
  await act(page, () => page.getByTestId("end-combat").click());
  found.push(...(await axeViolations(page, [LAST_CARD], "battle's end")));
  // The GM's judgement: the card's level picker.
  await page.getByTestId("rules").click();
  await page.locator('dialog[open] [name="fudge.woundMode"]').selectOption("gmJudgement");
  await act(page, () => page.locator('dialog[open] button[type="submit"]').first().click());
  const win = await openSheet(page, "Leroy");
  await setTarget(page, "Theodora");
  for (let i = 0; i < 40; i++) {
    await act(page, () =>
      win
        .locator('[data-action="attack"]')
        .first()
        .click({ modifiers: ["Shift"] }),
    );
    const defend = lastCard(page).locator('[data-action="defend"]');
    if (await defend.count()) await act(page, () => defend.click({ modifiers: ["Shift"] }));
    if (await lastCard(page).locator('select[name="gmLevel"]').count()) break;
  }
  found.push(...(await axeViolations(page, [LAST_CARD], "GM judgement card")));
  // Import from Fudge RPG: the report.
  await act(page, async () => {
    await page.setInputFiles("[data-pg-import-file]", [join(repo, "tests/fixtures/fudge-rpg/brannoc.json")]);
  });
  await page.locator("dialog[data-pg-import-dialog] [data-fudge-import-report]").waitFor();
  found.push(
    ...(await axeViolations(page, ["dialog[data-pg-import-dialog] [data-fudge-import-report]"], "import report")),
  );
  await page.locator("[data-pg-import-close]").click();
}

/** Miniatures only: one attack at two targets (a card with two targets and "Apply to all"). */
async function twoTargets(page: Page, found: string[]): Promise<void> {
  const win = await openSheet(page, "Sir Knightly");
  await setTarget(page, "Brutas the Brute");
  await setTarget(page, "Yanni the Yeoman");
  for (let i = 0; i < 40; i++) {
    await act(page, () =>
      win
        .locator('[data-action="attackAll"]')
        .first()
        .click({ modifiers: ["Shift"] }),
    );
    if ((await lastCard(page).locator(".fudge-target").count()) === 2) break;
  }
  found.push(...(await axeViolations(page, [LAST_CARD], "two targets")));
}

describe.each(PRESETS)("axe-core: every view of the %s preset", (preset) => {
  /** Opens the playground, runs `check` (it collects what axe finds), and expects nothing found. */
  async function axeRun(theme: "light" | "dark", check: (page: Page, found: string[]) => Promise<void>) {
    const { page, context, problems } = await openPlayground(
      browser,
      { preset, theme, dice: "seed:11" },
      { viewport: { width: 1600, height: 1000 } },
    );
    const found: string[] = [];
    await check(page, found);
    expect(found).toEqual([]);
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  }
  // Many views each: a loaded machine may need more than the suite's minute.
  const TIMEOUT = 180_000;

  it.each(["light", "dark"] as const)(
    "%s theme: no violation on any card state or dialog",
    (theme) =>
      axeRun(theme, async (page, found) => {
        await cardStates(page, preset, found);
        await dialogs(page, preset, found);
        if (preset === "fudge") await fudgeExtras(page, found);
        if (preset === "miniatures") await twoTargets(page, found);
      }),
    TIMEOUT,
  );

  it.each(["light", "dark"] as const)(
    "%s theme: no violation on any sheet tab or item sheet",
    (theme) => axeRun(theme, (page, found) => sheets(page, preset, found)),
    TIMEOUT,
  );
});

describe("keyboard and screen readers", () => {
  it("the sheet tabs are a tablist: arrow keys, Home and End move between tabs and open them; only the open tab is in the Tab order", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const win = await openSheet(page, "Leroy");
    const list = win.getByRole("tablist");
    expect(await list.count()).toBe(1);
    const selected = () =>
      list
        .locator('[role="tab"][aria-selected="true"]')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tab));
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.tab);
    const panel = async (tab: string) => {
      const id = await list.locator(`[role="tab"][data-tab="${tab}"]`).getAttribute("aria-controls");
      return win.locator(`#${id}`);
    };
    await list.getByRole("tab", { selected: true }).focus();
    expect(await selected()).toEqual(["combat"]);
    await page.keyboard.press("ArrowRight");
    expect(await selected()).toEqual(["traits"]);
    expect(await focused()).toBe("traits");
    expect(await (await panel("traits")).isVisible()).toBe(true);
    expect(await (await panel("traits")).getAttribute("role")).toBe("tabpanel");
    expect(await (await panel("combat")).isVisible()).toBe(false);
    await page.keyboard.press("End");
    expect([await selected(), await focused()]).toEqual([["notes"], "notes"]);
    await page.keyboard.press("ArrowRight");
    expect([await selected(), await focused()]).toEqual([["combat"], "combat"]);
    await page.keyboard.press("ArrowLeft");
    expect([await selected(), await focused()]).toEqual([["notes"], "notes"]);
    await page.keyboard.press("Home");
    expect([await selected(), await focused()]).toEqual([["combat"], "combat"]);
    // Tab leaves the tablist for the open panel: the other tabs are not Tab stops.
    expect(
      await list.locator('[role="tab"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).tabIndex)),
    ).toEqual([0, -1, -1, -1]);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tabpanel"]'))).toBe(true);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("dice faces are announced by name, a blank face as 'blank'", async () => {
    // Leroy rolls + + 0 0 (two blanks), Theodora − 0 − 0.
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0,-1,0,-1,0" });
    const win = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await act(page, () =>
      win
        .locator('[data-action="attack"]')
        .first()
        .click({ modifiers: ["Shift"] }),
    );
    await act(page, () =>
      lastCard(page)
        .locator('[data-action="defend"]')
        .click({ modifiers: ["Shift"] }),
    );
    const faces = (slot: string) =>
      lastCard(page).locator(`.fudge-dice-roll[data-slot="${slot}"] .faces`).getByRole("img");
    expect(await faces("attack").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).toEqual([
      "plus",
      "plus",
      "blank",
      "blank",
    ]);
    const snapshot = await lastCard(page).locator('.fudge-dice-roll[data-slot="defense"] .faces').ariaSnapshot();
    expect(snapshot.match(/img "(\w+)"/g)).toEqual(['img "minus"', 'img "blank"', 'img "minus"', 'img "blank"']);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("200 % zoom", () => {
  it.each(PRESETS)(
    "%s: the attack dialog shows the odds on opening and keeps them in view while the options are worked through",
    async (preset) => {
      // A 1280 × 800 window zoomed to 200 %: 640 × 400 CSS pixels, two device pixels each.
      const { page, context, problems } = await openPlayground(
        browser,
        { preset },
        { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
      );
      const [attacker, defender] = PAIRS[preset];
      const win = await openSheet(page, attacker);
      await setTarget(page, defender);
      await win.locator('[data-action="attack"], [data-action="attackAll"]').first().click();
      const dialog = page.locator("dialog[open]");
      const odds = dialog.locator("[data-odds]").first();
      await odds.waitFor();
      /** The odds' title, bar and legend lie inside the viewport and the dialog's visible part. */
      const inView = () =>
        odds.evaluate((el) => {
          const r = el.getBoundingClientRect();
          let top = 0;
          let bottom = innerHeight;
          for (let p = el.parentElement; p; p = p.parentElement) {
            const s = getComputedStyle(p);
            if (/(auto|scroll|hidden)/.test(s.overflowY) || p.tagName === "DIALOG") {
              const b = p.getBoundingClientRect();
              top = Math.max(top, b.top);
              bottom = Math.min(bottom, b.bottom);
            }
          }
          // Nothing drawn over them either (the point at the bar's middle belongs to the odds).
          const bar = el.querySelector(".fudge-odds-bar")!.getBoundingClientRect();
          const hit = document.elementFromPoint(bar.left + bar.width / 2, bar.top + bar.height / 2);
          return r.top >= top - 0.5 && r.bottom <= bottom + 0.5 && !!hit && el.contains(hit);
        });
      expect(await inView()).toBe(true);
      // Each option in turn, as a keyboard user tabs through them: the odds stay in view.
      const fields = dialog.locator(".fudge-situation-fields :is(input, select)");
      const n = await fields.count();
      expect(n).toBeGreaterThan(0);
      for (let i = 0; i < n; i++) {
        await fields.nth(i).focus();
        expect(await inView(), `odds out of view with option ${i + 1} of ${n} focused`).toBe(true);
      }
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );
});
