/**
 * Nothing told by colour alone, measured (issue #33): the page is drawn as a viewer without any
 * colour vision sees it (Chrome DevTools Protocol Emulation.setEmulatedVisionDeficiency,
 * "achromatopsia"), screenshotted, and its pixels read (tests/browser/pixels.ts). In every preset,
 * light and dark:
 * - the odds bar: each segment is told apart from the next — 3:1 in luminance, or a visible gap
 *   of at least one pixel (3:1 against both);
 * - the wound boxes: each box is told apart from a neighbour in another state (open, marked,
 *   overflow, Stun, blacked out) the same way;
 * - the portrait's wound bar (the token bar's segments): neighbouring levels told apart, and each
 *   level's mark shaded by its severity (a worse level stands out more: darker on the light
 *   theme, lighter on the dark), not only placed further right;
 * - Volt's tier marks on the wound grid: each told apart from its neighbour and visible on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { act, noProblems, openPlayground, openSheet, PRESETS, setTarget, startBrowser, type Preset } from "./helpers";
import { contrast, decodePng, luminance, modeColour, pixel, toldApart, type Image, type Rgb } from "./pixels";

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const THEMES = ["light", "dark"] as const;
const PAIRS: Record<Preset, [string, string]> = {
  fudge: ["Leroy", "Theodora"],
  miniatures: ["Sir Knightly", "Brutas the Brute"],
  fate: ["Leroy", "Theodora"],
  volt: ["Leroy", "Theodora"],
};

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The page as seen without colour vision. */
async function achromatopsia(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setEmulatedVisionDeficiency", { type: "achromatopsia" });
}

/** A screenshot of `area` (viewport pixels, device scale 1) and a reader in viewport coordinates; scroll it into view first. */
async function shoot(
  page: Page,
  area: Locator,
): Promise<{ img: Image; at: (x: number, y: number) => Rgb; ox: number; oy: number }> {
  const b = (await area.boundingBox())!;
  const clip = {
    x: Math.floor(b.x),
    y: Math.floor(b.y),
    width: Math.ceil(b.width) + 1,
    height: Math.ceil(b.height) + 1,
  };
  const img = decodePng(await page.screenshot({ clip }));
  return { img, at: (x, y) => pixel(img, x - clip.x, y - clip.y), ox: clip.x, oy: clip.y };
}

const rectsOf = (loc: Locator, extra = "") =>
  loc.evaluateAll(
    (els, extra) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        const cs = getComputedStyle(e);
        return {
          x: r.left,
          y: r.top,
          w: r.width,
          h: r.height,
          key: (e as HTMLElement).dataset.outcome ?? (e as HTMLElement).dataset.level ?? "",
          cls: e.className,
          border: parseFloat(cs.borderLeftWidth) || 0,
          extra: extra ? (e.querySelector(extra)?.getBoundingClientRect().width ?? 0) : 0,
        };
      }),
    extra,
  );

/** The pixels on the line from (x0, y0) to (x1, y1), one per page pixel. */
function line(at: (x: number, y: number) => Rgb, x0: number, y0: number, x1: number, y1: number): Rgb[] {
  const n = Math.max(1, Math.round(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
  return Array.from({ length: n + 1 }, (_, i) => at(x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n));
}

/** Inside colour of a mark: the most frequent colour of its inner part. */
function inside(img: Image, ox: number, oy: number, r: Rect, inset: number): Rgb {
  const i = Math.min(inset, Math.max(0, r.w / 2 - 1), Math.max(0, r.h / 2 - 1));
  return modeColour(img, r.x + i - ox, r.y + i - oy, r.x + r.w - 1 - i - ox, r.y + r.h - 1 - i - oy);
}

describe.each(PRESETS)("without colour vision: %s", (preset) => {
  it.each(THEMES)("%s theme: the odds bar's neighbouring segments are told apart", async (theme) => {
    const { page, context, problems } = await openPlayground(
      browser,
      { preset, theme },
      { viewport: { width: 1280, height: 900 } },
    );
    const [attacker, defender] = PAIRS[preset];
    const win = await openSheet(page, attacker);
    await setTarget(page, defender);
    await win.locator('[data-action="attack"], [data-action="attackAll"]').first().click();
    const bar = page.locator("dialog[open] .fudge-odds-bar").first();
    await bar.waitFor();
    await achromatopsia(page);
    await bar.scrollIntoViewIfNeeded();
    const segs = await rectsOf(bar.locator(".fudge-odds-segment"));
    expect(segs.length).toBeGreaterThanOrEqual(2);
    const { img, at, ox, oy } = await shoot(page, bar);
    const found: string[] = [];
    for (let i = 0; i + 1 < segs.length; i++) {
      const [a, b] = [segs[i], segs[i + 1]];
      const y = a.y + a.h / 2;
      const ca = inside(img, ox, oy, { ...a, y: y - 1, h: 3 }, 1);
      const cb = inside(img, ox, oy, { ...b, y: y - 1, h: 3 }, 1);
      const t = toldApart(ca, cb, line(at, a.x + a.w - 1, y, b.x + 1, y));
      if (!t.ok) found.push(`${a.key} | ${b.key}: ${t.ratio}:1, gap ${t.gap}:1`);
    }
    expect(found).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it.each(THEMES)("%s theme: wound boxes in different states are told apart from their neighbours", async (theme) => {
    const { page, context, problems } = await openPlayground(browser, {
      preset,
      theme,
      dice: Array(64).fill(0).join(","),
    });
    const [attacker, defender] = PAIRS[preset];
    // Marks made by clicks and by applied wounds (a Fudge overflow, Volt Stun next to Injury).
    const win = await openSheet(page, defender);
    const boxes = win.locator(".fudge-track .fudge-box");
    await markSome(page, win, preset);
    const attackerWin = await openSheet(page, attacker);
    await setTarget(page, defender);
    if (preset === "fudge")
      for (let i = 0; i < 4; i++) {
        await act(page, () =>
          attackerWin
            .locator('[data-action="attack"]')
            .first()
            .click({ modifiers: ["Shift"] }),
        );
        const card = page.locator("#pg-chat > li.chat-message").last();
        if (await card.locator('[data-action="defend"]').count())
          await act(page, () => card.locator('[data-action="defend"]').click({ modifiers: ["Shift"] }));
        if (await card.locator('[data-action="apply"]').count())
          await act(page, () => card.locator('[data-action="apply"]').click());
      }
    await achromatopsia(page);
    const area = win.locator(".fudge-track").first();
    await area.scrollIntoViewIfNeeded();
    const rects = await rectsOf(boxes);
    const state = (cls: string) =>
      ["blacked", "overflow", "stun", "marked", "open"].find((s) => cls.split(/\s+/).includes(s)) ?? "open";
    const { img, at, ox, oy } = await shoot(page, area);
    const found: string[] = [];
    const pairs = new Set<string>();
    for (const a of rects) {
      const cx = a.x + a.w / 2;
      const cy = a.y + a.h / 2;
      const right = rects
        .filter((b) => Math.abs(b.y + b.h / 2 - cy) < 2 && b.x > a.x + a.w - 1)
        .sort((p, q) => p.x - q.x)[0];
      const below = rects
        .filter((b) => Math.abs(b.x + b.w / 2 - cx) < 2 && b.y > a.y + a.h - 1)
        .sort((p, q) => p.y - q.y)[0];
      for (const b of [right, below]) {
        if (!b || state(a.cls) === state(b.cls)) continue;
        const ca = inside(img, ox, oy, a, a.border + 1);
        const cb = inside(img, ox, oy, b, b.border + 1);
        const between =
          b === right
            ? line(at, a.x + a.w - a.border - 1, cy, b.x + b.border + 1, cy)
            : line(at, cx, a.y + a.h - a.border - 1, cx, b.y + b.border + 1);
        const t = toldApart(ca, cb, between);
        pairs.add([state(a.cls), state(b.cls)].sort().join("|"));
        if (!t.ok) found.push(`${state(a.cls)} | ${state(b.cls)}: ${t.ratio}:1, gap ${t.gap}:1`);
      }
    }
    // The states each preset draws met at least once.
    expect([...pairs].sort()).toEqual(expect.arrayContaining(EXPECTED_PAIRS[preset]));
    expect([...new Set(found)]).toEqual([]);
    expect(noProblems(problems)).toEqual([]);
    await context.close();
  });

  it.each(THEMES)(
    "%s theme: the portrait's wound bar tells neighbouring levels apart and shades each mark by severity",
    async (theme) => {
      const { page, context, problems } = await openPlayground(browser, { preset, theme });
      const name = PAIRS[preset][0];
      const win = await openSheet(page, name);
      // One mark in every level (Volt: a row in every tier).
      await markEveryLevel(page, win, preset);
      await achromatopsia(page);
      const bar = win.locator(".fudge-sheet-header .fudge-wound-bar");
      await bar.scrollIntoViewIfNeeded();
      const segs = await rectsOf(bar.locator(".fudge-bar-segment"), ".fudge-bar-fill");
      const { img, at, ox, oy } = await shoot(page, bar);
      const found: string[] = [];
      const y = segs[0].y + segs[0].h / 2;
      const left = (s: Rect) => at(s.x + Math.min(1, s.w / 2), y);
      const right = (s: Rect) => at(s.x + s.w - 1 - Math.min(1, s.w / 2), y);
      for (let i = 0; i + 1 < segs.length; i++) {
        const [a, b] = [segs[i], segs[i + 1]];
        const t = toldApart(right(a), left(b), line(at, a.x + a.w - 1, y, b.x + 1, y));
        if (!t.ok) found.push(`${a.key} | ${b.key}: ${t.ratio}:1, gap ${t.gap}:1`);
      }
      // Each marked level's fill, lowest level first: a worse level stands out more from the sheet —
      // darker on the light theme, lighter on the dark one — by at least 1.15:1.
      const fills = segs
        .filter((s) => s.extra > 0)
        .map((s) => ({ key: s.key, c: inside(img, ox, oy, { ...s, w: s.extra }, 1) }));
      expect(fills.length).toBeGreaterThanOrEqual(3);
      const tiers = await tierOf(
        win,
        preset,
        fills.map((f) => f.key),
      );
      for (let i = 0; i + 1 < fills.length; i++) {
        const [a, b] = [fills[i], fills[i + 1]];
        if (tiers[i] === tiers[i + 1]) continue;
        const further = theme === "light" ? luminance(b.c) < luminance(a.c) : luminance(b.c) > luminance(a.c);
        if (!further || contrast(a.c, b.c) < 1.15)
          found.push(`${a.key} → ${b.key}: not shaded as worse (${contrast(a.c, b.c).toFixed(2)}:1)`);
      }
      expect(found).toEqual([]);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );
});

describe("without colour vision: Volt's tier marks", () => {
  it.each(THEMES)(
    "%s theme: each tier mark on the wound grid is told apart from its neighbour and seen on the sheet",
    async (theme) => {
      const { page, context, problems } = await openPlayground(browser, { preset: "volt", theme });
      const win = await openSheet(page, "Leroy");
      await achromatopsia(page);
      const grid = win.locator(".fudge-volt-grid");
      const cells = await rectsOf(grid.locator(".fudge-volt-cell"));
      const { at } = await shoot(page, grid);
      const band = (cls: string) => Number(/band-(\d+)/.exec(cls)?.[1] ?? 0);
      const found: string[] = [];
      let compared = 0;
      for (let i = 0; i + 1 < cells.length; i++) {
        const [a, b] = [cells[i], cells[i + 1]];
        if (Math.abs(a.y - b.y) > 2 || band(a.cls) === band(b.cls)) continue;
        // The strip is the cell's top border (3 px): read its middle line.
        const y = a.y + 1;
        const t = toldApart(at(a.x + a.w / 2, y), at(b.x + b.w / 2, y), line(at, a.x + a.w - 1, y, b.x + 1, y));
        compared++;
        if (!t.ok) found.push(`tier ${band(a.cls)} | tier ${band(b.cls)}: ${t.ratio}:1, gap ${t.gap}:1`);
      }
      expect(compared).toBeGreaterThan(2);
      // The legend's marks (each band's left strip) stand out from the sheet around them.
      const legend = await rectsOf(win.locator(".fudge-volt-bands li"));
      const shot = await shoot(page, win);
      for (const l of legend.filter((r) => band(r.cls) > 0)) {
        const y = l.y + l.h / 2;
        const c = contrast(shot.at(l.x + 1, y), shot.at(l.x - 2, y));
        if (c < 3) found.push(`legend tier ${band(l.cls)}: ${c.toFixed(2)}:1 against the sheet`);
      }
      expect(found).toEqual([]);
      expect(noProblems(problems)).toEqual([]);
      await context.close();
    },
  );
});

/** The neighbouring box states each preset is expected to show in this test. */
const EXPECTED_PAIRS: Record<Preset, string[]> = {
  fudge: ["marked|overflow", "open|overflow"],
  miniatures: ["marked|open"],
  fate: ["marked|open"],
  volt: ["marked|open", "open|stun", "marked|stun", "blacked|open"],
};

/** Marks on the defender's sheet: the first box of the first row; Volt: Stun next to Injury. */
async function markSome(page: Page, win: Locator, preset: Preset): Promise<void> {
  const box = (sel: string) => win.locator(`.fudge-track ${sel} [data-action="toggleWoundBox"]`).first();
  if (preset === "volt") {
    // Tough 1 blacks out the bottom circle (Volt: Tough); a click cycles empty → Stun → Injury
    // (Volt: Marking Wounds): rows 4 (Stun) and 5 (Injury).
    await win.locator('[data-action="tab"][data-tab="traits"]').click();
    const tough = win.locator('input[name="system.volt.tough"]');
    await act(page, async () => {
      await tough.fill("1");
      await tough.press("Tab");
    });
    await win.locator('[data-action="tab"][data-tab="combat"]').click();
    await act(page, () => box('.fudge-volt-cell[data-level="row-4"]').click());
    await act(page, () => box('.fudge-volt-cell[data-level="row-5"]').click());
    await act(page, () => box('.fudge-volt-cell[data-level="row-5"]').click());
    return;
  }
  await act(page, () => win.locator('.fudge-track [data-action="toggleWoundBox"]').first().click());
}

/** One box marked in every level of the track (Volt: one Injury in every tier). */
async function markEveryLevel(page: Page, win: Locator, preset: Preset): Promise<void> {
  const rows = preset === "volt" ? ".fudge-volt-cell" : ".fudge-track-row";
  const keys = await win
    .locator(`.fudge-track ${rows}`)
    .evaluateAll((els) =>
      els
        .filter((e) => e.querySelector('[data-action="toggleWoundBox"]'))
        .map((e) => ({ key: (e as HTMLElement).dataset.level!, band: /band-(\d+)/.exec(e.className)?.[1] ?? "" })),
    );
  const seen = new Set<string>();
  for (const { key, band } of keys) {
    if (preset === "volt" && (seen.has(band) || band === "0")) continue;
    seen.add(band);
    const box = win.locator(`.fudge-track ${rows}[data-level="${key}"] [data-action="toggleWoundBox"]`).first();
    await act(page, () => box.click());
    if (preset === "volt") await act(page, () => box.click());
  }
}

/** The severity tier of each level key (the Volt grid's band; else the level's place on the track). */
async function tierOf(win: Locator, preset: Preset, keys: string[]): Promise<number[]> {
  if (preset !== "volt") return keys.map((_, i) => i);
  return win.evaluate(
    (el, keys) =>
      keys.map((k) =>
        Number(/band-(\d+)/.exec(el.querySelector(`.fudge-volt-cell[data-level="${k}"]`)?.className ?? "")?.[1] ?? 0),
      ),
    keys,
  );
}
