// @vitest-environment happy-dom
/**
 * A Fudge Point for an automatic success (issue 32; Fudge §1.36: "accomplish an Unopposed action
 * automatically — the GM may veto it for a Difficulty Level beyond Superb, or more than 3 levels
 * above the trait"): spent from the roll dialog in place of the roll, or on a failed unopposed
 * roll's card where the GM allows it after the dice. The one writer (the active GM's client)
 * writes it on the spender's own actor; the card shows it from his live log, so a failure between
 * the log's write and the card's leaves no point spent without its record, nor the reverse.
 */
import { describe, expect, it } from "vitest";
import { foundryPort } from "../../src/foundry/port";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Spend = { id: string; use: string; who: string; change: { target: string; from: number; to: number } };
type Card = {
  result: number;
  success: boolean;
  fudgePoint: { from: number; to: number; use?: string } | null;
};

/** Rolls Leroy's Strength (Fair) from his sheet, the dialog's form filled by `fill`; the last message's id. */
async function roll(t: Table, faces: number[], fill: (form: HTMLElement) => void): Promise<string> {
  const c = t.player;
  const app = await c.run(() => (actorOn(c, t.hero).sheet as unknown as Sheet).render({ force: true }));
  t.world.dice.queue(...faces);
  t.world.answerDialogs((req) => {
    fill(req.form);
    return "ok";
  });
  c.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
  await t.world.settle();
  return t.gm.game.messages.contents.at(-1)?.id ?? "";
}
const difficulty = (n: number) => (form: HTMLElement) => {
  form.querySelector<HTMLSelectElement>('[name="difficulty"]')!.value = String(n);
};
const autoSuccess =
  (n: number) =>
  (form: HTMLElement): void => {
    difficulty(n)(form);
    form.querySelector<HTMLInputElement>('[name="fudgePointSuccess"]')!.checked = true;
  };
const heroOf = (t: Table) =>
  t.gm.game.actors.get(t.hero)!.system as unknown as { fudgePoints: number; fudgePointLog: Spend[] };
const cardOf = (t: Table, id: string) => t.gm.game.messages.get(id)!.system as unknown as Card;
const button = (c: Client, id: string, action: string) => c.chatLog.get(id)!.querySelector(`[data-action="${action}"]`);
const text = (c: Client, id: string) => c.chatLog.get(id)!.textContent!.replace(/\s+/g, " ");
/** A refusal is a warning with the sentence; anything else an error. */
const lastError = (c: Client) => c.notifications.filter((n) => n.type !== "info").at(-1)?.message ?? "";
const setRule = async (t: Table, value: object) => {
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "fudgePoints" as never, value as never));
  await t.world.settle();
};

/** Makes the next `update` of a document on the GM's client (the one writer) fail, as a lost connection would. */
function failNextUpdate(doc: { update: (...a: never[]) => Promise<unknown> }): void {
  const own = Object.getOwnPropertyDescriptor(doc, "update");
  Object.defineProperty(doc, "update", {
    configurable: true,
    writable: true,
    value: () => {
      if (own) Object.defineProperty(doc, "update", own);
      else delete (doc as { update?: unknown }).update;
      return Promise.reject(new Error("the connection dropped"));
    },
  });
}

describe("a Fudge Point for an automatic success on an unopposed trait roll (Fudge §1.36)", () => {
  it("from the roll dialog: the roll meets its Difficulty, the spend is on the spender's own log, Undo refunds", async () => {
    const t = await table();
    const id = await roll(t, [0, 0, 0, 0], autoSuccess(2));
    expect(t.world.errors).toEqual([]);
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
    // Written by the GM's client: the player's changeActor was relayed.
    expect(t.world.queries.map((q) => q.name)).toContain("fudge-wounds.writeActor");
    expect(heroOf(t).fudgePoints).toBe(2);
    expect(heroOf(t).fudgePointLog).toEqual([
      expect.objectContaining({ id, who: t.hero, use: "unopposedSuccess", change: { target: id, from: 0, to: 2 } }),
    ]);
    expect(cardOf(t, id)).toMatchObject({
      result: 2,
      success: true,
      fudgePoint: { from: 0, to: 2, use: "unopposedSuccess" },
    });
    expect(text(t.player, id)).toMatch(/Leroy spent a Fudge Point \(Fudge §1\.36\): automatic success, Fair.*→.*Great/);
    expect(text(t.player, id)).toContain("— success");
    expect(t.player.notifications.at(-1)!.message).toMatch(/Leroy spent a Fudge Point: an automatic success \(Great/);
    // One spend per roll.
    expect(button(t.player, id, "spendRollFudgePoint")).toBeNull();
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(cardOf(t, id)).toMatchObject({ result: 0, success: false, fudgePoint: null });
    expect(text(t.player, id)).not.toContain("spent a Fudge Point");
  });

  it("a roll that succeeds on its own costs no point", async () => {
    const t = await table();
    const id = await roll(t, [1, 1, 0, 0], autoSuccess(2));
    expect(cardOf(t, id)).toMatchObject({ result: 2, success: true, fudgePoint: null });
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(t.player.notifications.at(-1)!.message).toMatch(/succeeds on its own: no Fudge Point spent/);
  });

  it("refused before any die: with no points left, past the text's limits (unless the GM allows), on an opposed roll", async () => {
    const t = await table();
    const before = t.gm.game.messages.size;
    // Past Superb (Legendary, +4): the GM's veto by default.
    await roll(t, [0, 0, 0, 0], autoSuccess(4));
    expect(lastError(t.player)).toMatch(/past Superb, or more than 3 levels above the trait, needs the GM's leave/);
    expect(t.gm.game.messages.size).toBe(before);
    expect(t.world.rolls).toEqual([]);
    // An opposed roll is not an Unopposed action.
    t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
    await roll(t, [0, 0, 0, 0], (form) => {
      autoSuccess(1)(form);
      form.querySelector<HTMLSelectElement>('[name="opponent"]')!.value = "0";
    });
    expect(lastError(t.player)).toMatch(/An automatic success is for an Unopposed action/);
    expect(t.gm.game.messages.size).toBe(before);
    t.player.target();
    // With none left: a sentence, nothing rolled or written.
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 0 } } as never));
    await t.world.settle();
    await roll(t, [0, 0, 0, 0], autoSuccess(1));
    expect(lastError(t.player)).toMatch(/This costs 1 Fudge Points; 0 left\./);
    expect(t.gm.game.messages.size).toBe(before);
    expect(t.world.rolls).toEqual([]);
    expect(heroOf(t)).toMatchObject({ fudgePoints: 0, fudgePointLog: [] });
    // The GM waives her veto: Legendary is met.
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 1 } } as never));
    await setRule(t, { autoSuccessAfterRoll: false, autoSuccessPastLimits: true });
    const id = await roll(t, [0, 0, 0, 0], autoSuccess(4));
    expect(cardOf(t, id)).toMatchObject({ result: 4, success: true });
    expect(heroOf(t).fudgePoints).toBe(0);
  });

  it("on the card after the dice only where the GM allows it; a player never spends another's point", async () => {
    const t = await table();
    const failed = await roll(t, [0, 0, 0, -1], difficulty(0));
    // By default it is spent in place of the roll: no button on the card, a forged request refused.
    expect(button(t.player, failed, "spendRollAutoSuccess")).toBeNull();
    const heroRef = actorOn(t.player, t.hero).uuid;
    const late = t.player.run(() =>
      foundryPort().changeActor(heroRef, { kind: "rollAutoSuccess", messageId: failed, atRoll: false }),
    );
    await expect(late).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotAfterRoll" });
    // The GM allows it after the dice: a failed unopposed roll's card offers it, a successful one's does not.
    await setRule(t, { autoSuccessAfterRoll: true, autoSuccessPastLimits: false });
    const succeeded = await roll(t, [1, 0, 0, 0], difficulty(0));
    expect(button(t.player, succeeded, "spendRollAutoSuccess")).toBeNull();
    const second = await roll(t, [0, 0, 0, -1], difficulty(1));
    t.player.click(button(t.player, second, "spendRollAutoSuccess"));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(cardOf(t, second)).toMatchObject({ result: 1, success: true, fudgePoint: { from: -1, to: 1 } });
    expect(heroOf(t).fudgePoints).toBe(2);
    // The GM's NPC's roll: no offer to the player, and a forged request is refused by the GM's client.
    await t.gm.run(() => actorOn(t.gm, t.foe).update({ system: { fudgePoints: 3 } } as never));
    const gmApp = await t.gm.run(() => (actorOn(t.gm, t.foe).sheet as unknown as Sheet).render({ force: true }));
    t.world.dice.queue(0, 0, 0, -1);
    t.world.answerDialogs("ok");
    t.gm.click(gmApp.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    const npc = t.gm.game.messages.contents.at(-1)!.id!;
    expect(button(t.player, npc, "spendRollAutoSuccess")).toBeNull();
    const foeRef = actorOn(t.player, t.foe).uuid;
    const forged = t.player.run(() =>
      foundryPort().changeActor(foeRef, { kind: "rollAutoSuccess", messageId: npc, atRoll: true }),
    );
    await expect(forged).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotYours" });
    await t.world.settle();
    expect(cardOf(t, npc)).toMatchObject({ result: -1, fudgePoint: null });
    expect(heroOf(t).fudgePoints).toBe(2);
  });
});

describe("a trait-roll card's Fudge Point: the spender's log first, the card from it (a failure between the two writes)", () => {
  it("the card's write fails after the spend: the card still shows the spend from the log, and its Undo refunds it", async () => {
    const t = await table();
    const id = await roll(t, [0, 0, 0, -1], difficulty(0));
    failNextUpdate(t.gm.game.messages.get(id)! as never);
    t.player.click(button(t.player, id, "spendRollFudgePoint"));
    await t.world.settle();
    expect(lastError(t.player)).not.toBe("");
    // The point is spent and the log holds it; the stored card has no record of it …
    expect(heroOf(t)).toMatchObject({ fudgePoints: 2, fudgePointLog: [expect.objectContaining({ id })] });
    expect(cardOf(t, id)).toMatchObject({ result: -1, fudgePoint: null });
    // … yet every client's card shows it, from the spender's live log, with its Undo and no second spend.
    for (const c of [t.player, t.gm]) {
      expect(text(c, id)).toMatch(/Leroy spent a Fudge Point \(Fudge §1\.36\): Mediocre.*→.*Fair/);
      expect(text(c, id)).toContain("— success");
      expect(button(c, id, "spendRollFudgePoint")).toBeNull();
    }
    const again = t.player.run(() =>
      foundryPort().changeActor(actorOn(t.player, t.hero).uuid, {
        kind: "rollFudgePoint",
        messageId: id,
        direction: 1,
      }),
    );
    await expect(again).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.AlreadySpent" });
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(cardOf(t, id)).toMatchObject({ result: -1, fudgePoint: null });
    expect(text(t.player, id)).not.toContain("spent a Fudge Point");
    expect(button(t.player, id, "spendRollFudgePoint")).not.toBeNull();
  });

  it("the log's write fails after the card's on Undo: the point stays spent and the card still shows it, with its Undo", async () => {
    const t = await table();
    const id = await roll(t, [0, 0, 0, -1], autoSuccess(1));
    expect(heroOf(t).fudgePoints).toBe(2);
    // The card is written first on Undo: when it fails, nothing is refunded and the card is as it was.
    failNextUpdate(t.gm.game.messages.get(id)! as never);
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(lastError(t.player)).not.toBe("");
    expect(heroOf(t)).toMatchObject({ fudgePoints: 2, fudgePointLog: [expect.objectContaining({ id })] });
    expect(cardOf(t, id)).toMatchObject({ result: 1, fudgePoint: { from: -1, to: 1 } });
    failNextUpdate(t.gm.game.actors.get(t.hero)! as never);
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(lastError(t.player)).not.toBe("");
    // The card's record was cleared, but the log still holds the spend: the card shows it from there.
    expect(cardOf(t, id)).toMatchObject({ fudgePoint: null });
    expect(heroOf(t)).toMatchObject({ fudgePoints: 2, fudgePointLog: [expect.objectContaining({ id })] });
    expect(text(t.player, id)).toMatch(
      /Leroy spent a Fudge Point \(Fudge §1\.36\): automatic success, Mediocre.*→.*Good/,
    );
    expect(text(t.player, id)).toContain("— success");
    t.player.click(button(t.player, id, "undoRollFudgePoint"));
    await t.world.settle();
    expect(heroOf(t)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(text(t.player, id)).not.toContain("spent a Fudge Point");
  });
});
