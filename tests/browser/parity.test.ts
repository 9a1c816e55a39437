/**
 * Parity, the playground's half (tests/parity/script.ts): each preset's scripted run, clicked by
 * the GM on the playground's sheets and cards in Chromium with `?dice=seed:N`, ends as
 * tests/parity/expected/<preset>.json says — the same file the v13 host's run ends with
 * (tests/foundry-host/parity.test.ts). Both hosts run the same flows (src/system/flows).
 * `PARITY_DUMP=<dir>` writes each run's view there, to diff against the expected file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { PARITY_RUNS, parityView, type ParityRun, type RawWorld, type Step } from "../parity/script";
import { actorId, noProblems, openPlayground, openSheet, repo, reveal, setTarget, startBrowser } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const dataSelector = (data: Record<string, string> = {}) =>
  Object.entries(data)
    .map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${v}"]`)
    .join("");

/** Waits until the click's flow has ended (`body[data-busy]` gone) and the store's write is done. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.body.dataset.busy === undefined && !(window as any).__playground.store.writePending,
  );
}

/** Answers the dialog a click opened: its fields filled by name ("confirm": the yes/no's Yes), then its OK. */
async function answer(page: Page, fields: Record<string, string> | "confirm"): Promise<void> {
  const dialog = page.locator("dialog[open]");
  await dialog.waitFor();
  if (fields !== "confirm")
    for (const [name, value] of Object.entries(fields)) {
      const field = dialog.locator(`[name="${name}"]`);
      const kind = await field.evaluate((el) => (el.tagName === "INPUT" ? (el as HTMLInputElement).type : el.tagName));
      if (kind === "SELECT") await field.selectOption(value);
      else if (kind === "checkbox") await field.setChecked(value === "true" || value === "on");
      else await field.fill(value);
    }
  await dialog.locator("[data-pg-submit]").click();
}

async function play(page: Page, run: ParityRun, step: Step): Promise<void> {
  if ("card" in step) {
    const card = page
      .locator("#pg-chat > li.chat-message")
      .filter({ has: page.locator(".fudge-target") })
      .nth(step.card);
    let root = card;
    if (step.target) {
      const id = await actorId(page, step.target);
      const index = await page.evaluate(
        ([n, ref]) =>
          (
            (window as any).__playground.state().messages.filter((m: any) => m.type === "attackCard")[n].system
              .targets as { actorId: string }[]
          ).findIndex((t) => t.actorId === ref || t.actorId.endsWith(`.${ref}`)),
        [step.card, id] as const,
      );
      root = card.locator(`.fudge-target[data-target-index="${index}"]`);
    }
    if (step.gmLevel) await root.locator('select[name="gmLevel"]').selectOption(step.gmLevel);
    await root.locator(`[data-action="${step.action}"]${dataSelector(step.data)}`).click();
    if (step.dialog) await answer(page, step.dialog);
  } else if ("rollCard" in step) {
    const card = page
      .locator("#pg-chat > li.chat-message")
      .filter({ has: page.locator(".roll-card") })
      .nth(step.rollCard);
    await card.locator(`[data-action="${step.action}"]${dataSelector(step.data)}`).click();
  } else if ("target" in step) {
    for (const name of run.actors) await setTarget(page, name, step.target.includes(name));
  } else if ("rules" in step) {
    await page.evaluate(
      ([group, value]) =>
        (window as any).__playground.store.update((d: any) => {
          d.settings = { ...d.settings, [group]: { ...(d.settings[group] ?? {}), ...value } };
        }),
      [step.rules, step.value] as const,
    );
  } else if ("field" in step) {
    const win = await openSheet(page, step.field);
    const field = win.locator(`[name="${step.name}"]`).first();
    await reveal(field);
    // A field in a closed <details> (the track options): opened as a user would, by its summary.
    if (!(await field.isVisible()))
      await win.locator(`details:not([open]):has([name="${step.name}"]) > summary`).first().click();
    if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(step.value);
    else {
      await field.fill(step.value);
      await field.dispatchEvent("change");
    }
  } else {
    const win = await openSheet(page, step.sheet);
    const button = win.locator(`[data-action="${step.action}"]${dataSelector(step.data)}`).first();
    await reveal(button);
    await button.click();
    if (step.dialog) await answer(page, step.dialog);
  }
  await settled(page);
  const toast = page.locator("#pg-toast.visible.error");
  if (await toast.count()) throw new Error(`${JSON.stringify(step)}: ${await toast.textContent()}`);
}

/** The playground's documents at the end of the run (its store, as a reload would load it). */
async function rawWorld(page: Page): Promise<RawWorld> {
  const s = await page.evaluate(() => (window as any).__playground.state());
  return {
    gm: s.user.id,
    actors: s.actors,
    messages: s.messages.map((m: any) =>
      m.type === "rollNote"
        ? {
            _id: m._id,
            type: "note",
            note: { titleKey: m.system.titleKey, lines: m.system.lines, dice: m.system.dice },
          }
        : { _id: m._id, type: m.type, system: m.system },
    ),
  };
}

describe("parity: the scripted table run in the playground", () => {
  for (const run of Object.values(PARITY_RUNS))
    it(`${run.preset}: ${run.steps.length} steps end as tests/parity/expected/${run.preset}.json`, async () => {
      const { page, context, problems } = await openPlayground(browser, {
        preset: run.preset,
        dice: `seed:${run.seed}`,
      });
      for (const step of run.steps) await play(page, run, step);
      const view = parityView(await rawWorld(page), run.actors);
      const file = join(repo, "tests", "parity", "expected", `${run.preset}.json`);
      if (process.env.PARITY_DUMP)
        writeFileSync(join(process.env.PARITY_DUMP, `${run.preset}.json`), JSON.stringify(view, null, 2));
      expect(view).toEqual(JSON.parse(readFileSync(file, "utf8")));
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    });
});
