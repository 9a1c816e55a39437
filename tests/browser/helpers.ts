/**
 * Shared setup of the browser tests: one headless Chromium per test file (tools/chromium.mjs),
 * a fresh browser context (so fresh localStorage) per page, and a record of everything the page
 * reported that a user should never see: console errors, uncaught exceptions, dialogs (alert()).
 */
import { inject } from "vitest";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../tools/chromium.mjs";
import AxeBuilder from "@axe-core/playwright";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SCREENSHOTS = resolve(repo, "artifacts/screenshots");
export const PRESETS = ["fudge", "miniatures", "fate", "volt"] as const;
export type Preset = (typeof PRESETS)[number];

export async function startBrowser(): Promise<Browser> {
  const { browser } = await launchChromium();
  return browser;
}

export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  failedRequests: string[];
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  problems: PageProblems;
  url: string;
}

export function playgroundUrl(params: Record<string, string | number | boolean> = {}): string {
  const base = inject("playgroundUrl");
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v === true ? "" : String(v));
  return u.toString();
}

/** Opens the playground in a new context (empty storage) and waits for its first render. */
export async function openPlayground(
  browser: Browser,
  params: Record<string, string | number | boolean> = {},
  opts: {
    viewport?: { width: number; height: number };
    /** 2 with half the viewport: the browser zoomed to 200 %. */
    deviceScaleFactor?: number;
    init?: (context: BrowserContext) => Promise<void>;
  } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1400, height: 1000 },
    deviceScaleFactor: opts.deviceScaleFactor ?? 1,
  });
  if (opts.init) await opts.init(context);
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], dialogs: [], failedRequests: [] };
  page.on("console", (m) => {
    if (m.type() === "error") problems.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => problems.pageErrors.push(String(e)));
  page.on("dialog", async (d) => {
    problems.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  page.on("requestfailed", (r) => problems.failedRequests.push(`${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.failedRequests.push(`${r.url()} HTTP ${r.status()}`);
  });
  const url = playgroundUrl(params);
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  return { page, context, problems, url };
}

/** The store's state as the page holds it (deep copy). */
export async function state(page: Page): Promise<any> {
  return page.evaluate(() => (window as any).__playground.state());
}

/** What localStorage holds for the playground, once the store's deferred write has happened. */
export async function storedState(page: Page): Promise<any> {
  await page.waitForFunction(() => !(window as any).__playground.store.writePending);
  return page.evaluate(() => JSON.parse(localStorage.getItem("fudge-wounds-playground:v1") ?? "null"));
}

export async function screenshot(target: Page | ReturnType<Page["locator"]>, name: string): Promise<string> {
  const file = resolve(SCREENSHOTS, `${name}.png`);
  mkdirSync(dirname(file), { recursive: true });
  // The chat column scrolls inside the page; unpin it so a tall card is captured whole.
  const page = "page" in target ? target.page() : target;
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>(".pg-chat, .pg-side"))
      Object.assign(el.style, { maxHeight: "none", position: "static", overflow: "visible" });
  });
  await target.screenshot({ path: file });
  return file;
}

export function noProblems(p: PageProblems): string[] {
  return [
    ...p.consoleErrors.map((e) => `console: ${e}`),
    ...p.pageErrors.map((e) => `page: ${e}`),
    ...p.dialogs.map((e) => `dialog: ${e}`),
    ...p.failedRequests.map((e) => `request: ${e}`),
  ];
}

// ─── Playground operations (through the page, as a user would) ─────────────────────────

/** The playground's store revision (it rises with every stored change). */
export const revision = (page: Page): Promise<number> => page.evaluate(() => Number(document.body.dataset.revision));

/** Waits until the page has stored a new revision after an action, and the click's flow has ended (`body[data-busy]` gone). */
export async function afterAction(page: Page, before: number): Promise<void> {
  await page.waitForFunction(
    (b) => Number(document.body.dataset.revision) > b && document.body.dataset.busy === undefined,
    before,
  );
}

/** Runs a click and waits for the change it stores. */
export async function act(page: Page, click: () => Promise<void>): Promise<void> {
  const before = await revision(page);
  await click();
  await afterAction(page, before);
}

export async function actorId(page: Page, name: string): Promise<string> {
  const id = await page.evaluate(
    (n) => (window as any).__playground.state().actors.find((a: any) => a.name === n)?._id,
    name,
  );
  if (!id) throw new Error(`no actor named ${name}`);
  return id;
}

/** The sheet window of an actor (opened from the toolbar if it is not open). */
export async function openSheet(page: Page, name: string) {
  const id = await actorId(page, name);
  const win = page.locator(`.pg-window[data-pg-doc="${id}"]`);
  if (!(await win.count())) await page.click(`[data-pg-open="${id}"]`);
  await win.waitFor();
  return win;
}

export async function setTarget(page: Page, name: string, on = true): Promise<void> {
  const id = await actorId(page, name);
  const box = page.locator(`[data-pg-target="${id}"]`);
  if (on) await box.check();
  else await box.uncheck();
}

/** Stored actor (from localStorage, i.e. what a reload would load). */
export async function storedActor(page: Page, name: string): Promise<any> {
  const s = await storedState(page);
  return s.actors.find((a: any) => a.name === name);
}

export async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__playground.missingKeys());
}

export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * Clicks an Attack button as a user would: the attack dialog opens (its odds in `[data-odds]`),
 * its submit button rolls, and the new card is stored. `situation` fills the dialog's fields first.
 */
export async function attackVia(
  page: Page,
  button: ReturnType<Page["locator"]>,
  situation: Record<string, string | boolean> = {},
): Promise<void> {
  await button.click();
  const dialog = page.locator("dialog[open]");
  await dialog.waitFor();
  for (const [name, v] of Object.entries(situation)) {
    const field = dialog.locator(`[name="${name}"]`);
    if (typeof v === "boolean") await field.setChecked(v);
    else if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(v);
    else await field.fill(v);
  }
  await act(page, () => dialog.locator('button[type="submit"]').first().click());
}

/** Opens the sheet tab that holds `target` (Foundry's data-action="tab"), as a user would click it. */
export async function reveal(target: ReturnType<Page["locator"]>): Promise<void> {
  const clicked = await target.first().evaluate((el) => {
    const tab = el.closest<HTMLElement>(".fudge-sheet > .tab");
    if (!tab || tab.classList.contains("active")) return false;
    const link = tab
      .closest(".fudge-sheet")
      ?.querySelector<HTMLElement>(`[data-action="tab"][data-tab="${tab.dataset.tab}"]`);
    link?.click();
    return !!link;
  });
  if (clicked) await target.first().waitFor({ state: "visible" });
}

/** Rolls a trait as a user would: its die button opens the roll dialog, whose submit rolls. */
export async function rollVia(page: Page, button: ReturnType<Page["locator"]>): Promise<void> {
  await button.click();
  const dialog = page.locator("dialog[open]");
  await dialog.waitFor();
  await act(page, () => dialog.locator('button[type="submit"]').first().click());
}

// ─── Accessibility (axe-core) ───────────────────────────────────────────────────────────

/**
 * axe-core's violations inside the system's own DOM (`selectors`: sheet contents, card contents,
 * dialog bodies — not the playground's frame), one line each: "rule (impact): target — why".
 */
export async function axeViolations(page: Page, selectors: string[], label = ""): Promise<string[]> {
  const present = [];
  for (const s of selectors) if (await page.locator(s).count()) present.push(s);
  if (!present.length) throw new Error(`axe: nothing to check (${selectors.join(", ")})`);
  let builder = new AxeBuilder({ page });
  for (const s of present) builder = builder.include(s);
  const result = await builder.analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${label ? `${label}: ` : ""}${v.id} (${v.impact}): ${n.target.join(" ")} — ${(n.failureSummary ?? "")
          .split("\n")
          .slice(1)
          .join(" ")
          .trim()}`,
    ),
  );
}
