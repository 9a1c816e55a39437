// @vitest-environment happy-dom
/**
 * A Fudge Point on a trait roll's card (issue 32 item C; Fudge §1.36: "alter a die roll one level,
 * up or down"): the player spends his character's point from the card; the active GM's client
 * writes it (the one writer) on his actor — points and a bounded spend log naming the card — and
 * on the card; the card's Undo refunds it while the log holds the spend.
 */
import { describe, expect, it } from "vitest";
import { character } from "../../src/rules";
import { foundryPort } from "../../src/foundry/port";
import { actorOn, table, type Table } from "./table";
import { olderSpends } from "./fudge-point-log";
import type { Client } from "./world";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Spend = { id: string; change: { target: string; from: number; to: number } };
type Card = { result: number; success: boolean; fudgePoint: { from: number; to: number; actorName: string } | null };

async function rollStrength(t: Table, c: Client, actor: string, faces: number[]): Promise<string> {
  const app = await c.run(() => (actorOn(c, actor).sheet as unknown as Sheet).render({ force: true }));
  t.world.dice.queue(...faces);
  t.world.answerDialogs("ok");
  c.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
  await t.world.settle();
  return t.gm.game.messages.contents.at(-1)!.id!;
}
const heroOf = (t: Table) =>
  t.gm.game.actors.get(t.hero)!.system as unknown as { fudgePoints: number; fudgePointLog: Spend[] };
const cardOf = (t: Table, id: string) => t.gm.game.messages.get(id)!.system as unknown as Card;
const button = (c: Client, id: string, action: string, extra = "") =>
  c.chatLog.get(id)!.querySelector(`[data-action="${action}"]${extra}`);
const text = (c: Client, id: string) => c.chatLog.get(id)!.textContent!.replace(/\s+/g, " ");
const lastError = (c: Client) => c.notifications.at(-1)?.message ?? "";

describe("a Fudge Point on a trait roll's card (Fudge §1.36)", () => {
  it("the player spends one level up: the GM's client writes his points, his log and the card; Undo refunds", async () => {
    const t = await table();
    const id = await rollStrength(t, t.player, t.hero, [0, 0, -1, 0]);
    expect(cardOf(t, id)).toMatchObject({ result: -1, success: false, fudgePoint: null });
    t.player.click(button(t.player, id, "spendRollFudgePoint", '[data-direction="1"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
    // Written by the GM's client: the player's changeActor was relayed.
    expect(t.world.queries.map((q) => q.name)).toContain("fudge-wounds.writeActor");
    expect(heroOf(t).fudgePoints).toBe(2);
    expect(heroOf(t).fudgePointLog).toHaveLength(1);
    expect(heroOf(t).fudgePointLog[0]).toMatchObject({
      who: t.hero,
      use: "alterRoll",
      change: { target: id, from: -1, to: 0 },
    });
    expect(cardOf(t, id)).toMatchObject({
      result: 0,
      success: true,
      fudgePoint: { from: -1, to: 0, actorName: "Leroy" },
    });
    expect(text(t.player, id)).toContain("Leroy spent a Fudge Point");
    expect(text(t.player, id)).toMatch(/Mediocre.*→.*Fair/);
    // One spend per roll: the offer is gone, the Undo is there.
    expect(button(t.player, id, "spendRollFudgePoint")).toBeNull();
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(cardOf(t, id)).toMatchObject({ result: -1, success: false, fudgePoint: null });
    expect(button(t.player, id, "spendRollFudgePoint")).not.toBeNull();
  });

  it("with no Fudge Points left: refused with a sentence, nothing written", async () => {
    const t = await table();
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 0 } } as never));
    await t.world.settle();
    const id = await rollStrength(t, t.player, t.hero, [0, 0, 0, 0]);
    t.player.click(button(t.player, id, "spendRollFudgePoint", '[data-direction="-1"]'));
    await t.world.settle();
    expect(lastError(t.player)).toMatch(/This costs 1 Fudge Points; 0 left\./);
    expect(heroOf(t)).toMatchObject({ fudgePoints: 0, fudgePointLog: [] });
    expect(cardOf(t, id)).toMatchObject({ result: 0, fudgePoint: null });
  });

  it("a player never spends another's points: no offer on the GM's NPC's card, and a forged request refused by the GM's client", async () => {
    const t = await table();
    await t.gm.run(() => actorOn(t.gm, t.foe).update({ system: { fudgePoints: 3 } } as never));
    const id = await rollStrength(t, t.gm, t.foe, [0, 0, 0, 0]);
    expect(button(t.player, id, "spendRollFudgePoint")).toBeNull();
    const foeRef = actorOn(t.player, t.foe).uuid;
    const forged = t.player.run(() =>
      foundryPort().changeActor(foeRef, { kind: "rollFudgePoint", messageId: id, direction: 1 }),
    );
    await expect(forged).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotYours" });
    // A forged claim that his own character rolled it: the card is the NPC's roll, not Leroy's.
    const heroRef = actorOn(t.player, t.hero).uuid;
    const claimed = t.player.run(() =>
      foundryPort().changeActor(heroRef, { kind: "rollFudgePoint", messageId: id, direction: 1 }),
    );
    await expect(claimed).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotThisRoll" });
    await t.world.settle();
    expect(cardOf(t, id)).toMatchObject({ result: 0, fudgePoint: null });
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
  });

  it("the spend log keeps its bound: a live spend refunds, an evicted one cannot be undone and says so", async () => {
    const t = await table();
    const first = await rollStrength(t, t.player, t.hero, [0, 0, 0, 0]);
    t.player.click(button(t.player, first, "spendRollFudgePoint", '[data-direction="1"]'));
    await t.world.settle();
    // Later spends fill the log to its bound (older ones than the bound are dropped).
    const log = [...heroOf(t).fudgePointLog, ...olderSpends(t.hero)];
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 5, fudgePointLog: log } } as never));
    await t.world.settle();
    const second = await rollStrength(t, t.player, t.hero, [0, 0, 0, 0]);
    t.player.click(button(t.player, second, "spendRollFudgePoint", '[data-direction="1"]'));
    await t.world.settle();
    expect(heroOf(t).fudgePoints).toBe(4);
    expect(heroOf(t).fudgePointLog).toHaveLength(character.MAX_FUDGE_POINT_LOG);
    expect(heroOf(t).fudgePointLog.some((s) => s.change.target === first)).toBe(false);
    // The evicted spend: refused with a sentence, nothing written.
    t.player.click(button(t.player, first, "undoRollFudgePoint"));
    await t.world.settle();
    expect(lastError(t.player)).toMatch(/no longer in Leroy's Fudge Point log .*cannot be undone/);
    expect(heroOf(t).fudgePoints).toBe(4);
    expect(cardOf(t, first)).toMatchObject({ result: 1, fudgePoint: { from: 0, to: 1 } });
    // The live one refunds its point.
    t.player.click(button(t.player, second, "undoRollFudgePoint"));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(heroOf(t).fudgePoints).toBe(5);
    expect(heroOf(t).fudgePointLog).toHaveLength(character.MAX_FUDGE_POINT_LOG - 1);
    expect(cardOf(t, second)).toMatchObject({ result: 0, fudgePoint: null });
  });

  it("the data model refuses a stored spend log over its bound", async () => {
    const t = await table();
    const huge = [{ id: "x", at: "t", who: t.hero, use: "alterRoll", cost: 1, change: { target: "n".repeat(60_000) } }];
    await expect(
      t.player.run(() => actorOn(t.player, t.hero).update({ "system.fudgePointLog": huge } as never)),
    ).rejects.toThrow(/fudgePointLog/);
    await t.world.settle();
    expect(heroOf(t).fudgePointLog).toEqual([]);
  });
});
