// @vitest-environment happy-dom
/**
 * The flows of clicks and later events are a chunk loaded on demand (src/system/flows/clicks.ts,
 * issue 34). A combat's hooks (turn start and end, the battle's end) run those flows in the hook's
 * own turn, so the chunk loads when the GM's client sees a combat created, not when it ends.
 */
import { describe, expect, it } from "vitest";
import { table } from "./table";

describe("the clicks chunk", () => {
  it("is not loaded at start-up, and loads on the GM's client when a combat is created", async () => {
    const t = await table();
    const flows = await import("../../src/system/flows");
    expect(flows.loadedClicks()).toBeNull();
    await t.gm.run(() => Combat.create({ scene: t.scene } as never));
    await t.world.settle();
    await expect.poll(() => flows.loadedClicks()).not.toBeNull();
    expect(typeof flows.loadedClicks()?.endBattle).toBe("function");
  });
});
