// @vitest-environment happy-dom
/**
 * The segmented wound bar on tokens (issue 29, fix 2), on the host's v13 Token: bars are drawn
 * only for `refreshBars` (an actor update), shown by `_refreshState` (display mode, hover,
 * control, secrecy), and sized by the canvas interface scale.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { actorSheetContext } from "../../src/system/sheet";
import { TOKEN_SEVERITY } from "../../src/foundry/token";
import { TOKEN_DISPLAY_MODES as MODES, type Graphics, type HostToken } from "./canvas";
import { ROLES } from "./index";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Rec = Record<string, unknown>;

/** The table, with each token showing the wound track in bar 1 in these display modes. */
async function tableWith(hero: number, foe: number, opts: { secretFoe?: boolean; onlooker?: boolean } = {}) {
  let third = "";
  const t = await table({
    seed: (world) => {
      if (opts.onlooker) third = world.addUser("Onlooker", ROLES.PLAYER);
      const scene = [...world.server.db.Scene.values()][0] as { tokens: Rec[] };
      for (const tok of scene.tokens) {
        const isFoe = tok.name === "Theodora";
        Object.assign(tok, { displayBars: isFoe ? foe : hero, bar1: { attribute: "openBoxes" } });
        if (isFoe && opts.secretFoe) tok.disposition = -2;
      }
    },
  });
  const onlooker = opts.onlooker ? await t.world.connect(third) : null;
  await t.world.settle();
  return { ...t, onlooker };
}

const tokenOn = (c: Client, id: string) => c.canvasTokens.get(id)! as HostToken;

/** A box of `actorId`'s track marked, by the GM (one actor update). */
async function wound(t: Table, actorId: string, ref = "hurt:0") {
  const { plainActor, updateActor, worldRules } = await import("../../src/foundry/bridge");
  const { userRef } = await import("../../src/foundry/foundry-util");
  const a = actorOn(t.gm, actorId);
  await t.gm.run(() => updateActor(a, actions.toggleWoundBox(plainActor(a), ref, worldRules(), userRef())));
  await t.world.settle();
}

/** The wound bar's segments (one dark rectangle each, PIXI's graphicsData) drawn into a bar, and the bar's height. */
function segmentsOf(bar: Graphics) {
  const rects = bar.geometry.graphicsData.filter(
    (d) => d.fillStyle.visible && d.fillStyle.color === 0 && d.fillStyle.alpha === 0.55,
  );
  return { count: rects.length, height: rects[0]?.shape.height ?? 0 };
}

async function expectedSegments(c: Client, actorId: string) {
  const { plainActor, worldRules } = await import("../../src/foundry/bridge");
  return c.run(
    () => actorSheetContext(plainActor(actorOn(c, actorId)), worldRules(), { editable: false, owner: false }).woundBar,
  ).length;
}

describe("the wound bar is drawn when core redraws bars (refreshBars) and shown as core shows bars", () => {
  it("owner-hover (the sample characters' mode): drawn on the actor's update, shown on the owner's hover — the segmented bar, not core's", async () => {
    const t = await tableWith(MODES.OWNER_HOVER, MODES.OWNER_HOVER);
    const mine = tokenOn(t.player, t.heroToken);
    await t.world.settle();
    const drawn = mine.applied.length;
    await wound(t, t.hero);
    // The actor's update redraws bars (and effects); it does not refresh the state.
    expect(mine.applied.slice(drawn)).toEqual(["refreshBars", "redrawEffects"]);
    expect(mine.bars.visible).toBe(false);
    const n = await expectedSegments(t.player, t.hero);
    expect(n).toBeGreaterThan(1);
    expect(segmentsOf(mine.bars.bar1).count).toBe(n);
    // Hovering refreshes the state only: the bar drawn at the update is the one shown.
    const before = mine.applied.length;
    mine._onHoverIn();
    await t.world.settle();
    expect(mine.applied.slice(before)).toEqual(["refreshState"]);
    expect(mine.bars.visible).toBe(true);
    expect(mine.bars.bar1.visible).toBe(true);
    expect(segmentsOf(mine.bars.bar1).count).toBe(n);
    mine._onHoverOut();
    await t.world.settle();
    expect(mine.bars.visible).toBe(false);
  });

  it("owner-hover: a player who does not own the token sees no bar when hovering it", async () => {
    const t = await tableWith(MODES.OWNER_HOVER, MODES.OWNER_HOVER);
    const theirs = tokenOn(t.player, t.foeToken);
    await wound(t, t.foe);
    theirs._onHoverIn();
    await t.world.settle();
    expect(theirs.bars.visible).toBe(false);
    const gms = tokenOn(t.gm, t.foeToken);
    gms._onHoverIn();
    await t.world.settle();
    expect(gms.bars.visible).toBe(true);
    expect(segmentsOf(gms.bars.bar1).count).toBe(await expectedSegments(t.gm, t.foe));
  });

  it("always: every user sees it — but not on a secret token, whatever the update", async () => {
    const t = await tableWith(MODES.ALWAYS, MODES.ALWAYS, { secretFoe: true, onlooker: true });
    const heroOnOnlooker = tokenOn(t.onlooker!, t.heroToken);
    const foeOnPlayer = tokenOn(t.player, t.foeToken);
    const foeOnGm = tokenOn(t.gm, t.foeToken);
    await wound(t, t.hero);
    await wound(t, t.foe);
    expect(heroOnOnlooker.bars.visible).toBe(true);
    expect(segmentsOf(heroOnOnlooker.bars.bar1).count).toBe(await expectedSegments(t.onlooker!, t.hero));
    expect(foeOnGm.bars.visible).toBe(true);
    // The secret token: drawn on the update, never shown to a player who may not observe it.
    expect(foeOnPlayer.applied).toContain("refreshBars");
    expect(foeOnPlayer.bars.visible).toBe(false);
    foeOnPlayer._onHoverIn();
    await t.world.settle();
    expect(foeOnPlayer.bars.visible).toBe(false);
  });

  it("control: shown while the token is controlled; hover alone does not show it", async () => {
    const t = await tableWith(MODES.CONTROL, MODES.CONTROL);
    const mine = tokenOn(t.player, t.heroToken);
    await wound(t, t.hero);
    mine._onHoverIn();
    await t.world.settle();
    expect(mine.bars.visible).toBe(false);
    t.player.select(t.player.game.scenes.get(t.scene)!.tokens.get(t.heroToken)!);
    await t.world.settle();
    expect(mine.bars.visible).toBe(true);
    expect(segmentsOf(mine.bars.bar1).count).toBe(await expectedSegments(t.player, t.hero));
  });

  it("hover: any user hovering sees it; owner: the owner always, others never", async () => {
    const t = await tableWith(MODES.OWNER, MODES.HOVER);
    const foeOnPlayer = tokenOn(t.player, t.foeToken);
    const heroOnPlayer = tokenOn(t.player, t.heroToken);
    const heroOnGm = tokenOn(t.player, t.heroToken);
    await wound(t, t.hero);
    await wound(t, t.foe);
    expect(heroOnPlayer.bars.visible).toBe(true);
    expect(heroOnGm.bars.visible).toBe(true);
    expect(foeOnPlayer.bars.visible).toBe(false);
    foeOnPlayer._onHoverIn();
    await t.world.settle();
    expect(foeOnPlayer.bars.visible).toBe(true);
    expect(segmentsOf(foeOnPlayer.bars.bar1).count).toBe(await expectedSegments(t.player, t.foe));
  });

  it("none: nothing is drawn or shown", async () => {
    const t = await tableWith(MODES.NONE, MODES.NONE);
    const mine = tokenOn(t.player, t.heroToken);
    await wound(t, t.hero);
    mine._onHoverIn();
    await t.world.settle();
    expect(mine.bars.visible).toBe(false);
    expect(mine.bars.bar1.geometry.graphicsData).toEqual([]);
  });

  it("the bar follows the canvas interface scale, as core's own bar does", async () => {
    const t = await tableWith(MODES.ALWAYS, MODES.ALWAYS);
    const mine = tokenOn(t.player, t.heroToken);
    await wound(t, t.hero);
    const at1 = segmentsOf(mine.bars.bar1).height;
    (t.player.canvas as unknown as { dimensions: { uiScale: number } }).dimensions.uiScale = 2;
    await wound(t, t.hero, "hurt:0");
    const at2 = segmentsOf(mine.bars.bar1).height;
    expect(at1).toBeGreaterThan(0);
    expect(at2).toBe(at1 * 2);
    expect(mine.bars.bar1.position.y).toBe(mine.h - at2);
  });
});

/** WCAG relative luminance of a 0xRRGGBB colour. */
const luminance = (c: number) =>
  [(c >> 16) & 255, (c >> 8) & 255, c & 255]
    .map((v) => v / 255)
    .map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
    .reduce((sum, l, i) => sum + l * [0.2126, 0.7152, 0.0722][i], 0);

describe("the wound bar marks each level by its severity, not only by its place (issue 33)", () => {
  it("a Scratch mark is the lightest shade, a Near Death mark the darkest, every shade 3:1 on the black plate", async () => {
    const t = await tableWith(MODES.ALWAYS, MODES.ALWAYS);
    const mine = tokenOn(t.player, t.heroToken);
    await wound(t, t.hero, "scratch:0");
    await wound(t, t.hero, "nearDeath:0");
    const marks = mine.bars.bar1.geometry.graphicsData
      .filter((d) => d.fillStyle.visible && d.fillStyle.alpha === 0.95)
      .map((d) => d.fillStyle.color);
    expect(marks).toEqual([TOKEN_SEVERITY[0], TOKEN_SEVERITY[TOKEN_SEVERITY.length - 1]]);
    for (let i = 1; i < TOKEN_SEVERITY.length; i++)
      expect(luminance(TOKEN_SEVERITY[i])).toBeLessThan(luminance(TOKEN_SEVERITY[i - 1]));
    for (const c of TOKEN_SEVERITY) expect((luminance(c) + 0.05) / 0.05).toBeGreaterThanOrEqual(3);
  });
});
