/**
 * In-world self-test of the token's wound bar (issue 29, fix 2), for a GM with the Quench module,
 * on a scratch scene viewed while the batch runs: the segmented bar is drawn when core redraws
 * bars (an actor update) and shown as core shows bars: in each display mode, on hover and
 * control, at the canvas interface scale.
 * Registered by index.ts; the GM's view goes back to his scene, the scratch documents are deleted.
 */
import { actorSheetContext } from "../../system/sheet";
import { plainActor, worldRules } from "../bridge";
import { leroyOnAScene, MODES, until, type Bar, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

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
