/**
 * The chat-card loop in a real browser: attack from Leroy's sheet at Theodora → defend → apply
 * → undo, for every preset; overflow marks tagged on the sheet; trait rolls with the wound
 * penalty. The card's recorded dice re-derive its result in Node with the rules core.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { resolveTarget } from "../../src/system/actions";
import {
  act,
  attackVia,
  missingKeys,
  noProblems,
  openPlayground,
  openSheet,
  screenshot,
  setTarget,
  startBrowser,
  storedActor,
  storedState,
  reveal,
  rollVia,
} from "./helpers";
import { expectedStatus, trackKey } from "./oracle";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function toast(page: Page): Promise<string> {
  const visible = await page.locator("#pg-toast.visible").count();
  return visible ? ((await page.textContent("#pg-toast")) ?? "") : "";
}

/** The last card in the chat log, and its stored message. */
function lastCard(page: Page) {
  return page.locator("#pg-chat > li.chat-message").last();
}
async function lastMessage(page: Page): Promise<any> {
  const s = await storedState(page);
  return s.messages[s.messages.length - 1];
}

/** The defender's track as the rules core sees it (canonical state key). */
async function trackOf(page: Page, name: string): Promise<string> {
  const stored = await storedState(page);
  return trackKey(
    stored,
    stored.actors.find((a: any) => a.name === name),
  );
}

async function sheetPenalty(page: Page, name: string): Promise<string> {
  const win = await openSheet(page, name);
  return ((await win.locator(".fudge-track .fudge-penalty .value").first().textContent()) ?? "").trim();
}

async function expectSheetMatchesRules(page: Page, name: string): Promise<void> {
  const stored = await storedState(page);
  const exp = expectedStatus(
    stored,
    stored.actors.find((a: any) => a.name === name),
  );
  expect(await sheetPenalty(page, name)).toBe(exp.penaltyText);
}

describe("Miniatures: one attack per wielded weapon", () => {
  it("Sir Knightly's melee action makes one card per wielded melee weapon", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "miniatures", dice: "seed:7" });
    const knight = await openSheet(page, "Sir Knightly");
    await setTarget(page, "Brutas the Brute");
    const before = (await storedState(page)).messages.length;
    const action = knight.locator('[data-action="attackAll"][data-kind="melee"]');
    expect(await action.count()).toBe(1);
    await attackVia(page, action);
    const after = (await storedState(page)).messages;
    // Sir Knightly wields one melee weapon (his longsword; the shield is not a weapon).
    expect(after.length - before).toBe(1);
    expect(after[after.length - 1].system.weaponName).toBe("Longsword");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("attack → defend → apply → undo", () => {
  it("Fudge: Leroy's broadsword at Theodora, fixed dice, the seed's damage factor +2 (Fudge §4.55)", async () => {
    // Attack 4dF: + + 0 0 (+2); Theodora's defence 4dF: 0 0 0 0.
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0,0,0,0,0" });
    const leroy = await openSheet(page, "Leroy");
    await openSheet(page, "Theodora");
    await setTarget(page, "Theodora");
    await attackVia(page, leroy.locator('[data-action="attack"]').first());
    const card = lastCard(page);
    await card.waitFor();
    expect(await card.locator('[data-action="apply"]').count()).toBe(0);
    const defend = card.locator('[data-action="defend"]');
    expect(await defend.count()).toBe(1);
    await screenshot(card, "card-fudge-waiting-defence");

    await act(page, () => defend.click({ modifiers: ["Shift"] }));
    const msg = await lastMessage(page);
    const target = msg.system.targets[0];
    expect(target.name).toBe("Theodora");
    expect(target.dice.attack).toEqual([1, 1, 0, 0]);
    expect(target.dice.defense ?? target.dice.defence).toEqual([0, 0, 0, 0]);
    // Re-derived from the recorded dice with the rules core: the same result the card stored.
    const again = resolveTarget(target);
    expect(again.woundKey).toBe(target.resolution.woundKey);
    expect(again.numbers).toEqual(target.resolution.numbers);
    // Seed 000: Leroy's total damage factor against Theodora is +2.
    expect(
      await card.locator('[data-number="totalDamageFactor"] dd, [data-number="damageFactor"] dd').first().textContent(),
    ).toBe("+2");
    expect(target.resolution.hit).toBe(true);
    expect(await card.locator(".fudge-wound-level").count()).toBeGreaterThan(0);

    // Apply: Theodora's track is marked; her sheet shows the rules core's penalty.
    const before = await trackOf(page, "Theodora");
    await act(page, () => card.locator('[data-action="apply"]').click());
    expect(await trackOf(page, "Theodora")).not.toBe(before);
    expect(await sheetPenalty(page, "Theodora")).not.toBe("0");
    await expectSheetMatchesRules(page, "Theodora");
    // Applying twice is not offered; Undo is.
    expect(await card.locator('[data-action="apply"]').count()).toBe(0);
    expect(await card.locator('[data-action="undo"]').count()).toBe(1);
    await screenshot(card, "card-fudge-applied");
    await screenshot(page, "playground-fudge-applied");

    // Undo restores the exact track before the wound.
    await act(page, () => card.locator('[data-action="undo"]').click());
    expect(await trackOf(page, "Theodora")).toBe(before);
    expect(await sheetPenalty(page, "Theodora")).toBe("0");
    expect((await lastMessage(page)).system.targets[0].applied.at(-1).undone).toBe(true);
    expect(await missingKeys(page)).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  const pairs: [string, string, string][] = [
    ["fate", "Leroy", "Theodora"],
    ["volt", "Leroy", "Theodora"],
    ["miniatures", "Sir Knightly", "Brutas the Brute"],
  ];
  it.each(pairs)(
    "%s: %s attacks %s; the loop runs from the card (first seed that wounds)",
    async (preset, attacker, defender) => {
      let done = false;
      for (let seed = 1; seed <= 25 && !done; seed++) {
        const { page, context, problems } = await openPlayground(browser, { preset, dice: `seed:${seed}` });
        const win = await openSheet(page, attacker);
        await openSheet(page, defender);
        await setTarget(page, defender);
        const attack = win.locator('[data-action="attack"]').first();
        expect(await attack.count()).toBe(1);
        await attackVia(page, attack);
        const card = lastCard(page);
        await card.waitFor();
        const defend = card.locator('[data-action="defend"]');
        if (await defend.count()) await act(page, () => defend.click({ modifiers: ["Shift"] }));
        const msg = await lastMessage(page);
        const target = msg.system.targets[0];
        expect(target.resolution).not.toBeNull();
        expect(resolveTarget(target).outcome).toBe(target.resolution.outcome);
        const apply = card.locator('[data-action="apply"]');
        if (!(await apply.count())) {
          expect(noProblems(problems)).toEqual([]);
          await context.close();
          continue;
        }
        const before = await trackOf(page, defender);
        await act(page, () => apply.click());
        expect(await trackOf(page, defender)).not.toBe(before);
        await expectSheetMatchesRules(page, defender);
        expect(await card.locator('[data-action="apply"]').count()).toBe(0);
        await screenshot(card, `card-${preset}-applied`);
        await act(page, () => card.locator('[data-action="undo"]').click());
        expect(await trackOf(page, defender)).toBe(before);
        await expectSheetMatchesRules(page, defender);
        expect(await toast(page)).toBe("");
        expect(await missingKeys(page)).toEqual([]);
        expect(noProblems(problems)).toEqual([]);
        await context.close();
        done = true;
      }
      expect(done, `no seed in 1..25 let ${attacker} wound ${defender} in the ${preset} preset`).toBe(true);
    },
  );
});

describe("wound track on the sheet after wounds", () => {
  it("Fudge §4.57: a wound with no open box at its level overflows upward, and the sheet tags it", async () => {
    // Four exchanges with every die 0: RD +1 each time, a graze (Fudge §4.55: a Scratch). Three
    // fill Theodora's Scratch boxes; the fourth has no open Scratch box and goes to Hurt.
    const dice = Array(32).fill(0).join(",");
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice });
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    for (let i = 0; i < 4; i++) {
      await attackVia(page, leroy.locator('[data-action="attack"]').first());
      const card = lastCard(page);
      await act(page, () => card.locator('[data-action="defend"]').click({ modifiers: ["Shift"] }));
      expect((await lastMessage(page)).system.targets[0].resolution.woundKey).toBe("scratch");
      await act(page, () => card.locator('[data-action="apply"]').click());
    }
    const theodora = await openSheet(page, "Theodora");
    const tag = theodora.locator(".fudge-track .fudge-overflow-tag");
    expect(await tag.count()).toBeGreaterThan(0);
    expect(await tag.first().isVisible()).toBe(true);
    const box = theodora.locator(".fudge-track .fudge-box.overflow").first();
    expect(await box.isVisible()).toBe(true);
    // The mark names the real level (not a plain X) and the box's label says where it came from.
    expect(((await box.textContent()) ?? "").trim()).not.toBe("");
    expect(await box.getAttribute("aria-label")).toMatch(/\(.+\)/);
    await expectSheetMatchesRules(page, "Theodora");
    await screenshot(theodora, "sheet-fudge-theodora-overflow");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("End combat (Fudge §4.52 (4)): a Willpower adjustment held until the battle is over lapses, one chat note says so, Scratches clear", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge" });
    const end = page.getByTestId("end-combat");
    expect(await end.isDisabled()).toBe(true);
    const theodora = await openSheet(page, "Theodora");
    // A Scratch and a Hurt wound marked on the sheet; the Hurt one was a Very Hurt blow eased by
    // Willpower "until the battle is over" (the wound log record Apply writes; seeded here).
    for (const level of ["scratch", "hurt"])
      await act(page, () => theodora.locator(`.fudge-track-row[data-level="${level}"] .fudge-box`).first().click());
    const id = (await storedState(page)).actors.find((a: any) => a.name === "Theodora")._id;
    await page.evaluate((id) => {
      const record = {
        messageId: "m1",
        by: "gm",
        at: 1,
        before: null,
        after: null,
        fudgePointSpent: false,
        undone: false,
        undoneBy: "",
        lapses: [{ from: "hurt", to: "veryHurt" }],
      };
      (window as any).__playground.store.updateDocs({ actors: [id] }, (d: any) => {
        d.actors.find((a: any) => a._id === id).flags = { "fudge-wounds": { woundLog: { m1: record } } };
      });
    }, id);
    await act(page, () => page.getByTestId("in-combat").check());
    expect(await end.isDisabled()).toBe(false);
    await act(page, () => end.click());
    expect(await page.getByTestId("in-combat").isChecked()).toBe(false);
    const note = lastCard(page).locator(".fudge-battle-end");
    expect(await note.isVisible()).toBe(true);
    expect((await note.textContent())?.replace(/\s+/g, " ")).toContain(
      "Theodora: the Willpower adjustment lapses — Hurt becomes Very Hurt (Fudge §4.52).",
    );
    expect(await note.locator("h3").textContent()).toContain("The battle is over");
    expect(await lastCard(page).locator(".message-sender").textContent()).toBe("Combat");
    const sheet = await openSheet(page, "Theodora");
    const marked = (level: string) =>
      sheet.locator(`.fudge-track-row[data-level="${level}"] .fudge-box[aria-pressed="true"]`).count();
    expect([await marked("scratch"), await marked("hurt"), await marked("veryHurt")]).toEqual([0, 0, 1]);
    await expectSheetMatchesRules(page, "Theodora");
    expect((await storedActor(page, "Theodora")).flags["fudge-wounds"].woundLog.m1.lapsed).toBe(true);
    // Ending again changes nothing and posts nothing: the record is marked lapsed.
    const count = (await storedState(page)).messages.length;
    await act(page, () => page.getByTestId("in-combat").check());
    await act(page, () => end.click());
    expect((await storedState(page)).messages.length).toBe(count);
    await screenshot(lastCard(page), "chat-fudge-battle-end");
    expect(noProblems(problems)).toEqual([]);
    expect(await missingKeys(page)).toEqual([]);
    await context.close();
  });

  it("a trait roll carries the wound penalty and names the result on the ladder", async () => {
    // Strength Good (+1), dice + + 0 0, Hurt −1: Good + 2 − 1 = Great (+2).
    const { page, context, problems } = await openPlayground(browser, { preset: "fudge", dice: "1,1,0,0" });
    const win = await openSheet(page, "Leroy");
    await act(page, () => win.locator('.fudge-track-row[data-level="hurt"] .fudge-box').first().click());
    expect(await sheetPenalty(page, "Leroy")).toBe("\u22121");
    await reveal(win.locator('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await rollVia(page, win.locator('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    const card = lastCard(page);
    const msg = await lastMessage(page);
    expect(msg.type).toBe("rollCard");
    expect(msg.system.penalty).toBe(-1);
    expect(msg.system.result).toBe(2);
    expect(await card.locator(".fudge-penalty strong").textContent()).toBe("\u22121");
    expect(await card.locator(".fudge-outcome").textContent()).toMatch(/Great/);
    await screenshot(card, "card-fudge-roll");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe("FATE Clipped at the table (seed 003: −1 to the next action, the box resets after it)", () => {
  const fateMarks = async (page: Page, name: string): Promise<Record<string, (string | null)[]>> =>
    (await storedActor(page, name)).system.woundTrack.state.marks;
  const clippedOn = async (page: Page, name: string) =>
    (await fateMarks(page, name)).clipped.filter((m) => m !== null).length;
  async function clip(page: Page, name: string) {
    const win = await openSheet(page, name);
    await act(page, () =>
      win.locator('.fudge-track-row[data-level="clipped"] .fudge-box:not([aria-pressed="true"])').first().click(),
    );
  }

  it("a miss: the attacker's box resets when his card is posted, the defender's with his Defend roll, both recorded", async () => {
    // Leroy's attack − − − −, Theodora's defence + + + +: a miss, nothing to apply.
    const { page, context, problems } = await openPlayground(browser, { preset: "fate", dice: "-1,-1,-1,-1,1,1,1,1" });
    await clip(page, "Leroy");
    await clip(page, "Theodora");
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await attackVia(page, leroy.locator('[data-action="attack"]').first());
    const msg = await lastMessage(page);
    expect(await clippedOn(page, "Leroy")).toBe(0);
    expect(Object.keys((await storedActor(page, "Leroy")).flags["fudge-wounds"].clippedLog)).toEqual([msg._id]);
    expect(await clippedOn(page, "Theodora")).toBe(1);
    await act(page, () =>
      lastCard(page)
        .locator('[data-action="defend"]')
        .click({ modifiers: ["Shift"] }),
    );
    const target = (await lastMessage(page)).system.targets[0];
    expect(target.resolution.outcome).toBe("miss");
    expect(target.resolution.numbers.attackerPenalty).toBe(-1);
    expect(target.resolution.numbers.defenderPenalty).toBe(-1);
    expect(await lastCard(page).locator('[data-action="apply"]').count()).toBe(0);
    // Missed, and her box is reset all the same: the roll was her next action.
    expect(await clippedOn(page, "Theodora")).toBe(0);
    expect((await storedActor(page, "Theodora")).flags["fudge-wounds"].defenceLog[msg._id]).toMatchObject({
      faces: [1, 1, 1, 1],
      clipped: true,
    });
    await expectSheetMatchesRules(page, "Theodora");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("Apply re-derives the card as both sides rolled, lands the wound as shown, and keeps a Clipped taken since the Defend roll", async () => {
    // Attack + + + +, defence − − − −: a wound.
    const { page, context, problems } = await openPlayground(browser, { preset: "fate", dice: "1,1,1,1,-1,-1,-1,-1" });
    await clip(page, "Theodora");
    const leroy = await openSheet(page, "Leroy");
    await setTarget(page, "Theodora");
    await attackVia(page, leroy.locator('[data-action="attack"]').first());
    const card = lastCard(page);
    await act(page, () => card.locator('[data-action="defend"]').click({ modifiers: ["Shift"] }));
    expect(await clippedOn(page, "Theodora")).toBe(0);
    const shown = (await lastMessage(page)).system.targets[0].resolution;
    expect(shown.numbers.defenderPenalty).toBe(-1);
    // Clipped again (another exchange) before the wound is applied.
    await clip(page, "Theodora");
    await act(page, () => card.locator('[data-action="apply"]').click());
    const target = (await lastMessage(page)).system.targets[0];
    expect(target.applied).toHaveLength(1);
    expect(target.differs).toBe(false);
    expect(target.resolution.woundKey).toBe(shown.woundKey);
    const marks = await fateMarks(page, "Theodora");
    expect(marks.clipped.filter((m) => m !== null)).toHaveLength(1);
    expect(
      Object.values(marks)
        .flat()
        .filter((m) => m !== null).length,
    ).toBeGreaterThan(1);
    await expectSheetMatchesRules(page, "Theodora");
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it("a trait roll while Clipped takes the −1 and resets the box; the next roll is at full strength", async () => {
    const { page, context, problems } = await openPlayground(browser, { preset: "fate", dice: "0,0,0,0,0,0,0,0" });
    await clip(page, "Leroy");
    const win = await openSheet(page, "Leroy");
    const strength = win.locator('[data-action="rollTrait"][data-trait="attributes.strength"]');
    await reveal(strength);
    await rollVia(page, strength);
    expect((await lastMessage(page)).system.penalty).toBe(-1);
    expect(await clippedOn(page, "Leroy")).toBe(0);
    await expectSheetMatchesRules(page, "Leroy");
    const again = (await openSheet(page, "Leroy")).locator(
      '[data-action="rollTrait"][data-trait="attributes.strength"]',
    );
    await reveal(again);
    await rollVia(page, again);
    expect((await lastMessage(page)).system.penalty).toBe(0);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });
});
