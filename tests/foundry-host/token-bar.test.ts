// @vitest-environment happy-dom
/**
 * Issue #33: the token's wound bar marks each level by its severity, not only by its place — the
 * marked part of a worse level is drawn in a darker shade (view.ts BarSegment.tier, token.ts
 * TOKEN_SEVERITY), each shade 3:1 against the bar's black plate.
 */
import { describe, expect, it } from "vitest";
import { table, actorOn } from "./table";
import { TOKEN_SEVERITY } from "../../src/foundry/token";

/** A recording stand-in for the PIXI.Graphics of core's bar 1. */
function recorder() {
  const fills: { colour: number; w: number }[] = [];
  let colour = -1;
  const g = {
    visible: false,
    position: { set: () => {} },
    clear: () => g,
    lineStyle: () => g,
    endFill: () => g,
    beginFill: (c: number) => ((colour = c), g),
    drawRect: (_x: number, _y: number, w: number) => (fills.push({ colour, w }), g),
  };
  return { g, fills };
}

/** WCAG relative luminance of a 0xRRGGBB colour. */
const luminance = (c: number) =>
  [(c >> 16) & 255, (c >> 8) & 255, c & 255]
    .map((v) => v / 255)
    .map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
    .reduce((sum, l, i) => sum + l * [0.2126, 0.7152, 0.0722][i], 0);

describe("token wound bar", () => {
  it("shades each level's marks by its severity: Scratch lightest, Near Death darkest, every shade 3:1 on black", async () => {
    const t = await table();
    const actor = actorOn(t.gm, t.hero);
    // A Scratch and a Near Death box marked on the sheet.
    const sheet = await t.gm.run(() =>
      (actor.sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({ force: true }),
    );
    for (const level of ["scratch", "nearDeath"]) {
      t.gm.click(sheet.element.querySelector(`.fudge-track-row[data-level="${level}"] [data-action="toggleWoundBox"]`));
      await t.world.settle();
    }
    const { g, fills } = recorder();
    t.gm.run(() => {
      const Token = (CONFIG.Token as unknown as { objectClass: new (d: unknown) => { drawBars(): void } }).objectClass;
      const token = Object.assign(new Token({ displayBars: 50 }), {
        actor,
        bars: { bar1: g, visible: false },
        w: 100,
        h: 100,
        _canViewMode: () => true,
      });
      token.drawBars();
    });
    // The plate of each segment is black; the marks follow in their levels' shades.
    const marks = fills.filter((f) => f.colour !== 0x000000);
    expect(marks.length).toBe(2);
    const [scratch, nearDeath] = marks.map((m) => m.colour);
    expect(scratch).toBe(TOKEN_SEVERITY[0]);
    expect(nearDeath).toBe(TOKEN_SEVERITY[TOKEN_SEVERITY.length - 1]);
    expect(luminance(nearDeath)).toBeLessThan(luminance(scratch));
    for (let i = 1; i < TOKEN_SEVERITY.length; i++)
      expect(luminance(TOKEN_SEVERITY[i])).toBeLessThan(luminance(TOKEN_SEVERITY[i - 1]));
    for (const c of TOKEN_SEVERITY) expect((luminance(c) + 0.05) / 0.05).toBeGreaterThanOrEqual(3);
  });
});
