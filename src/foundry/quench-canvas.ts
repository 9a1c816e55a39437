/**
 * In-world self-test of the token's wound bar and the Token HUD's wound panel (issue 29, fixes 2
 * and 3), for a GM with the Quench module, on a scratch scene viewed while the batches run:
 *  - the segmented bar is drawn when core redraws bars (an actor update) and shown as core shows
 *    bars: in each display mode, on hover and control, at the canvas interface scale;
 *  - the HUD's wound panel stays open, with the live track, after the HUD re-renders on the
 *    actor's update.
 * Registered by quench.ts; the GM's view goes back to his scene, the scratch documents are deleted.
 */
import * as actions from "../system/actions";
import { actorSheetContext } from "../system/sheet";
import { plainActor, updateActor, worldRules } from "./bridge";
import { userRef } from "./foundry-util";
import { Scratch, until, type QuenchBatchContext, type QuenchLike } from "./quench";
import { SYSTEM_ID } from "./registry";
import { WOUND_BAR_ATTRIBUTE } from "./token";

type Viewable = { id: string | null; view(): Promise<unknown> };
type Shape = { shape: { height: number }; fillStyle: { color: number; alpha: number; visible: boolean } };
type Bar = { visible: boolean; geometry: { graphicsData: Shape[] } };
type TokenObject = {
  bars: { visible: boolean; bar1: Bar };
  controlled: boolean;
  hover: boolean;
  _onHoverIn(e: Event): void;
  _onHoverOut(e: Event): void;
  control(): unknown;
  release(): unknown;
};
type Hud = { element: HTMLElement | null; bind(o: unknown): Promise<unknown>; close(): Promise<unknown> };

const MODES = { NONE: 0, CONTROL: 10, OWNER_HOVER: 20, HOVER: 30, OWNER: 40, ALWAYS: 50 } as const;

/** A scratch scene with the pack's Leroy on it (bar 1: the wound track), viewed by the GM for the batch. */
function leroyOnAScene(ctx: Pick<QuenchBatchContext, "before" | "after">) {
  const s = new Scratch();
  const the = {} as { leroy: Actor.Implementation; scene: Scene.Implementation };
  let viewed: Viewable | null = null;
  ctx.before(async () => {
    await s.setPreset("fudge");
    the.leroy = await s.actorFromPack("characters", "Leroy");
    the.scene = s.track(
      (await Scene.create({
        name: "[Quench] Wound bar",
        width: 1000,
        height: 1000,
        padding: 0,
        grid: { size: 100, distance: 1, units: "yd" },
        tokens: [
          {
            name: the.leroy.name,
            actorId: the.leroy.id,
            actorLink: true,
            x: 300,
            y: 300,
            displayBars: MODES.ALWAYS,
            bar1: { attribute: WOUND_BAR_ATTRIBUTE },
          },
        ],
      } as never)) as Scene.Implementation,
    );
    viewed = (canvas?.scene as unknown as Viewable | null) ?? null;
    await (the.scene as unknown as Viewable).view();
  });
  ctx.after(async () => {
    if (viewed && viewed.id !== the.scene?.id && game.scenes!.has(viewed.id!)) await viewed.view();
    await s.cleanup();
  });
  const tokenDoc = () =>
    the.scene.tokens.contents[0] as unknown as { update(d: object): Promise<unknown>; object: unknown };
  const token = () => tokenDoc().object as TokenObject | null;
  /** Marks (or clears) Leroy's first Hurt box (one actor update), then lets the canvas draw it. */
  const toggleHurt = async () => {
    await updateActor(the.leroy, actions.toggleWoundBox(plainActor(the.leroy), "hurt:0", worldRules(), userRef()));
    await frames();
  };
  /** Sets the token's display mode, then lets the canvas draw it. */
  const setMode = async (mode: number) => {
    await tokenDoc().update({ displayBars: mode });
    await frames();
  };
  return { s, the, tokenDoc, token, toggleHurt, setMode };
}

/** Render flags are applied on the canvas's next frames: wait for them before hovering or checking. */
const frames = () => new Promise((r) => setTimeout(r, 150));

/** The wound bar's segments in a drawn bar (one dark rectangle each). */
const segments = (bar: Bar) =>
  bar.geometry.graphicsData.filter((d) => d.fillStyle.visible && d.fillStyle.color === 0 && d.fillStyle.alpha === 0.55);

export function registerTokenBarBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.token-bar`,
    ({ it, before, after, assert }) => {
      const { the, token, toggleHurt, setMode } = leroyOnAScene({ before, after });
      const want = () =>
        actorSheetContext(plainActor(the.leroy), worldRules(), { editable: false, owner: false }).woundBar.length;
      it("always: after a wound, the segmented bar (one segment per level) is drawn and shown, at the interface scale", async () => {
        assert.ok(await until(() => !!token()?.bars), "Leroy's token is drawn");
        await toggleHurt();
        assert.ok(await until(() => segments(token()!.bars.bar1).length === want()), "one segment per wound level");
        assert.ok(await until(() => token()!.bars.visible), "shown in mode Always");
        const scale = Number((canvas as unknown as { dimensions: { uiScale?: number } }).dimensions.uiScale ?? 1);
        assert.equal(segments(token()!.bars.bar1)[0].shape.height, 8 * scale, "8 px × the interface scale");
        await toggleHurt();
      });
      it("none: no bar", async () => {
        await setMode(MODES.NONE);
        await toggleHurt();
        assert.ok(await until(() => !token()!.bars.visible), "hidden in mode None");
        await toggleHurt();
      });
      it("control: shown only while the token is controlled", async () => {
        await setMode(MODES.CONTROL);
        await toggleHurt();
        token()!.release();
        assert.ok(await until(() => !token()!.bars.visible), "hidden while not controlled");
        token()!.control();
        assert.ok(await until(() => token()!.bars.visible), "shown while controlled");
        assert.equal(segments(token()!.bars.bar1).length, want(), "the segmented bar, not core's");
        token()!.release();
        await toggleHurt();
      });
      for (const [name, mode] of [
        ["hover", MODES.HOVER],
        ["owner-hover (the sample characters' mode)", MODES.OWNER_HOVER],
      ] as const)
        it(`${name}: drawn at the update, shown on hover, hidden after`, async () => {
          await setMode(mode);
          await toggleHurt();
          assert.ok(await until(() => !token()!.bars.visible), "hidden without hover");
          token()!._onHoverIn(new Event("pointerover"));
          assert.ok(await until(() => token()!.bars.visible), "shown on hover");
          assert.equal(segments(token()!.bars.bar1).length, want(), "the segmented bar, not core's");
          token()!._onHoverOut(new Event("pointerout"));
          assert.ok(await until(() => !token()!.bars.visible), "hidden after");
          await toggleHurt();
        });
      it("owner: the GM (who owns every token) always sees it", async () => {
        await setMode(MODES.OWNER);
        await toggleHurt();
        assert.ok(await until(() => token()!.bars.visible), "shown to an owner");
        await toggleHurt();
      });
    },
    { displayName: "Fudge Combat & Wounds: the wound bar on tokens in each display mode" },
  );
}

export function registerTokenHudBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.token-hud`,
    ({ it, before, after, assert }) => {
      const { the, token } = leroyOnAScene({ before, after });
      const hud = () => (canvas as unknown as { tokens: { hud: Hud } }).tokens.hud;
      const panel = () => hud().element?.querySelector(".fudge-hud-wounds") ?? null;
      const marked = () =>
        Object.values(
          (the.leroy.toObject().system as { woundTrack?: { state?: { marks?: Record<string, unknown[]> } | null } })
            .woundTrack?.state?.marks ?? {},
        )
          .flat()
          .filter((m) => m !== null).length;
      after(async () => {
        await hud().close();
      });
      it("the wound panel stays open after + (the HUD re-renders on the actor's update), with the live track", async () => {
        assert.ok(await until(() => !!token()), "Leroy's token is drawn");
        await hud().bind(token());
        const toggle = hud().element?.querySelector<HTMLElement>(".fudge-hud-wounds-toggle");
        assert.ok(toggle, "the HUD has the wound toggle");
        toggle!.click();
        assert.ok(panel(), "the panel opens");
        const before = marked();
        panel()!.querySelector<HTMLButtonElement>("button:not([disabled])")!.click();
        assert.ok(await until(() => marked() === before + 1), "a box is marked");
        assert.ok(await until(() => !!panel()), "the panel is still open after the HUD's re-render");
        const minus = [...panel()!.querySelectorAll<HTMLButtonElement>("button")].find(
          (b) => b.textContent === "\u2212" && !b.disabled,
        );
        assert.ok(minus, "the rebuilt panel offers − on the level just marked");
        minus!.click();
        assert.ok(await until(() => marked() === before), "the box is cleared again");
        assert.ok(await until(() => !!panel()), "and the panel is still open");
      });
    },
    { displayName: "Fudge Combat & Wounds: the Token HUD wound panel" },
  );
}
