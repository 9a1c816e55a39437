// @vitest-environment happy-dom
/**
 * A Fudge Point on the wound track (issue 32 item C; Fudge §1.36: "this reduces one wound by one
 * level (a Hurt becomes a Scratch, etc.)"): the owner spends it from his sheet; the active GM's
 * client writes the track, his points and his spend log; the sheet's Undo puts the wound back and
 * refunds the point while the log holds the spend.
 */
import { describe, expect, it } from "vitest";
import { character } from "../../src/rules";
import { foundryPort } from "../../src/foundry/port";
import * as flows from "../../src/system/flows";
import { actorOn, table, type Table } from "./table";
import { olderSpends } from "./fudge-point-log";
import type { Client } from "./world";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Spend = { id: string; use: string; change: { target: string; from: number; to: number } };
const sheetOf = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as Sheet).render({ force: true }));
const heroOf = (t: Table) =>
  t.gm.game.actors.get(t.hero)!.system as unknown as { fudgePoints: number; fudgePointLog: Spend[] };
const marked = async (t: Table) => {
  const app = await sheetOf(t.player, t.hero);
  return [...app.element.querySelectorAll<HTMLElement>('[data-action="toggleWoundBox"]')]
    .filter((b) => b.dataset.mark === "false")
    .map((b) => b.dataset.ref);
};
const lastMessage = (c: Client) => c.notifications.at(-1)?.message ?? "";

async function click(t: Table, selector: string) {
  const app = await sheetOf(t.player, t.hero);
  const el = app.element.querySelector(selector);
  expect(el, selector).not.toBeNull();
  t.player.click(el);
  await t.world.settle();
}

describe("a Fudge Point on the wound track (Fudge §1.36)", () => {
  it("Leroy's Hurt becomes a Scratch: track, points and log written by the GM's client; Undo puts it back", async () => {
    const t = await table();
    await click(t, '[data-action="toggleWoundBox"][data-ref="hurt:0"]');
    expect(await marked(t)).toEqual(["hurt:0"]);
    await click(t, '[data-action="reduceWound"][data-level="hurt"]');
    expect(t.world.errors).toEqual([]);
    expect(t.world.queries.map((q) => q.name)).toContain("fudge-wounds.writeActor");
    expect(await marked(t)).toEqual(["scratch:0"]);
    expect(heroOf(t).fudgePoints).toBe(2);
    expect(heroOf(t).fudgePointLog).toMatchObject([{ use: "reduceWound", change: { target: "hurt", from: 2, to: 1 } }]);
    await click(t, '[data-action="refundWound"]');
    expect(t.world.errors).toEqual([]);
    expect(await marked(t)).toEqual(["hurt:0"]);
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
  });

  it("a Scratch goes to none; with no points left, refused with a sentence and nothing written", async () => {
    const t = await table();
    await click(t, '[data-action="toggleWoundBox"][data-ref="scratch:0"]');
    await click(t, '[data-action="reduceWound"][data-level="scratch"]');
    expect(await marked(t)).toEqual([]);
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 0 } } as never));
    await t.world.settle();
    await click(t, '[data-action="toggleWoundBox"][data-ref="hurt:0"]');
    await click(t, '[data-action="reduceWound"][data-level="hurt"]');
    expect(lastMessage(t.player)).toMatch(/This costs 1 Fudge Points; 0 left\./);
    expect(await marked(t)).toEqual(["hurt:0"]);
    expect(heroOf(t).fudgePointLog).toHaveLength(1);
  });

  it("a player never spends another's points: a forged request for the GM's NPC is refused by the GM's client", async () => {
    const t = await table();
    await t.gm.run(() => actorOn(t.gm, t.foe).update({ system: { fudgePoints: 3 } } as never));
    const ref = actorOn(t.player, t.foe).uuid;
    await expect(
      t.player.run(() => foundryPort().changeActor(ref, { kind: "reduceWound", level: "hurt" })),
    ).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotYours" });
    await t.world.settle();
    expect((t.gm.game.actors.get(t.foe)!.system as unknown as { fudgePoints: number }).fudgePoints).toBe(3);
  });

  it("the log's bound: a live spend refunds; an evicted one cannot be undone and says so", async () => {
    const t = await table();
    await click(t, '[data-action="toggleWoundBox"][data-ref="hurt:0"]');
    await click(t, '[data-action="reduceWound"][data-level="hurt"]');
    const first = heroOf(t).fudgePointLog[0].id;
    const log = [...heroOf(t).fudgePointLog, ...olderSpends(t.hero)];
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 5, fudgePointLog: log } } as never));
    await t.world.settle();
    await click(t, '[data-action="toggleWoundBox"][data-ref="hurt:0"]');
    await click(t, '[data-action="reduceWound"][data-level="hurt"]');
    expect(heroOf(t).fudgePoints).toBe(4);
    expect(heroOf(t).fudgePointLog).toHaveLength(character.MAX_FUDGE_POINT_LOG);
    expect(heroOf(t).fudgePointLog.some((s) => s.id === first)).toBe(false);
    expect(await marked(t)).toEqual(["scratch:0", "scratch:1"]);
    const ref = actorOn(t.player, t.hero).uuid;
    await expect(t.player.run(() => flows.refundWoundFudgePoint(foundryPort(), ref, first))).rejects.toMatchObject({
      key: "FUDGE.Error.FudgePoints.Evicted",
    });
    // The sheet offers the Undo of the live spend only.
    const app = await sheetOf(t.player, t.hero);
    expect(app.element.querySelectorAll('[data-action="refundWound"]')).toHaveLength(1);
    await click(t, '[data-action="refundWound"]');
    expect(t.world.errors).toEqual([]);
    expect(heroOf(t).fudgePoints).toBe(5);
    expect(await marked(t)).toEqual(["scratch:0", "hurt:0"]);
  });
});
