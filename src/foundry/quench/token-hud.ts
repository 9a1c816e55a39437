/**
 * In-world self-test of the Token HUD's wound panel (issue 29, fix 3), for a GM with the Quench
 * module, on a scratch scene viewed while the batch runs: the panel stays open, with the live
 * track, after the HUD re-renders on the actor's update.
 * Registered by index.ts; the GM's view goes back to his scene, the scratch documents are deleted.
 */
import { leroyOnAScene, until, type Hud, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

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
