// @vitest-environment happy-dom
/**
 * A Fudge Point on an attack card (issue 32; Fudge §1.36: "alter a die roll one level, up or down
 * as desired"): the attacker's owner alters the attack roll, a defender's owner his defence roll
 * once it is rolled; the one writer (the active GM's client) writes the spend on the spender's own
 * actor (points and bounded log, naming the card and the side) and the result each target
 * re-derives to. Apply re-derives both sides from the live logs, never from the card; the card's
 * Undo refunds the spend before Apply; an evicted spend no longer counts and cannot be undone.
 */
import { describe, expect, it } from "vitest";
import { character } from "../../src/rules";
import { foundryPort } from "../../src/foundry/port";
import { actorOn, table, type Table } from "./table";
import { olderSpends } from "./fudge-point-log";
import type { Client } from "./world";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Spend = { id: string; use: string; change: { target: string; from: number; to: number } };
type Pool = { fudgePoints: number; fudgePointLog: Spend[] };
type Target = { resolution: { outcome: string; numbers: Record<string, number> } | null; request: unknown };

const poolOf = (t: Table, id: string) => t.gm.game.actors.get(id)!.system as unknown as Pool;
const woundLog = (t: Table, id: string) =>
  (t.gm.game.actors.get(id)!.flags as { "fudge-wounds"?: { woundLog?: Record<string, unknown> } })["fudge-wounds"]
    ?.woundLog ?? {};
const targetOf = (t: Table, id: string) =>
  (t.gm.game.messages.get(id)!.system as unknown as { targets: Target[] }).targets[0];
const button = (c: Client, id: string, selector: string) => c.chatLog.get(id)!.querySelector(selector);
const text = (c: Client, id: string) => c.chatLog.get(id)!.textContent!.replace(/\s+/g, " ");
const lastMessage = (c: Client) => c.notifications.at(-1)?.message ?? "";
const headline = (c: Client, id: string) =>
  c.chatLog.get(id)!.querySelector(".fudge-headline")!.textContent!.replace(/\s+/g, " ").trim();

/** `attacker` (on `by`'s client) strikes the other one's token with a sword; `defender`'s client rolls his defence. */
async function attack(
  t: Table,
  by: Client,
  attacker: string,
  defenderBy: Client,
  dice: { attack: number[]; defence: number[] },
): Promise<string> {
  const [sword] = await t.gm.run(() =>
    actorOn(t.gm, attacker).createEmbeddedDocuments("Item", [
      { name: "Sword", type: "weapon", system: { equipped: true, sharp: true } } as never,
    ]),
  );
  await t.world.settle();
  const token = attacker === t.hero ? t.foeToken : t.heroToken;
  by.target(by.game.scenes.get(t.scene)!.tokens.get(token)!);
  const app = await by.run(() => (actorOn(by, attacker).sheet as unknown as Sheet).render({ force: true }));
  t.world.dice.queue(...dice.attack);
  t.world.answerDialogs("ok");
  by.click(app.element.querySelector(`[data-action="attack"][data-item-id="${sword.id}"]`));
  await t.world.settle();
  const id = t.gm.game.messages.contents.at(-1)!.id!;
  t.world.dice.queue(...dice.defence);
  t.world.answerDialogs("ok");
  defenderBy.click(button(defenderBy, id, '[data-action="defend"]'));
  await t.world.settle();
  expect(t.world.errors).toEqual([]);
  return id;
}

const spend = (side: string, direction: number) =>
  `[data-action="spendAttackFudgePoint"][data-side="${side}"][data-direction="${direction}"]`;
const undo = (side: string) => `[data-action="undoAttackFudgePoint"][data-side="${side}"]`;

async function click(t: Table, c: Client, id: string, selector: string) {
  const el = button(c, id, selector);
  expect(el, selector).not.toBeNull();
  c.click(el);
  await t.world.settle();
}

describe("a Fudge Point on an attack card (Fudge §1.36)", () => {
  it("the attacker's spend turns a near miss into a hit: his log names the card, the card shows it, Apply applies it", async () => {
    const t = await table();
    const id = await attack(t, t.player, t.hero, t.gm, { attack: [0, 0, 0, 0], defence: [0, 0, 0, 0] });
    const unspent = targetOf(t, id).resolution!;
    expect(unspent.numbers.relativeDegree).toBe(0);
    expect(button(t.player, id, '[data-action="apply"]')).toBeNull();
    // The GM's NPC has no Fudge Points: no defender's offer anywhere.
    expect(button(t.gm, id, spend("defender", 1))).toBeNull();
    await click(t, t.player, id, spend("attacker", 1));
    expect(t.world.errors).toEqual([]);
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
    expect(t.world.queries.map((q) => q.name)).toContain("fudge-wounds.writeActor");
    expect(poolOf(t, t.hero).fudgePoints).toBe(2);
    expect(poolOf(t, t.hero).fudgePointLog).toMatchObject([
      {
        id: `${id}.attacker`,
        use: "alterRoll",
        change: { target: id, from: unspent.numbers.attackerTotal, to: unspent.numbers.attackerTotal + 1 },
      },
    ]);
    // The card's result, re-derived by the writer: one level better, the answer first.
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(1);
    expect(headline(t.player, id)).toMatch(/^Theodora takes/);
    expect(text(t.player, id)).toMatch(
      /Leroy spent a Fudge Point on the attack roll \(Fudge §1\.36\): Fair \(0\) → Good \(\+1\)/,
    );
    // One spend per side per card: the offer is gone.
    expect(button(t.player, id, spend("attacker", 1))).toBeNull();
    await click(t, t.player, id, '[data-action="apply"]');
    expect(t.world.errors).toEqual([]);
    expect(Object.keys(woundLog(t, t.foe))).toEqual([id]);
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(1);
    expect(text(t.player, id)).not.toContain("re-derived");
    // Once the wound is applied the spend is locked: no Undo, and a forged refund is refused with a sentence.
    expect(button(t.player, id, undo("attacker"))).toBeNull();
    const heroRef = actorOn(t.player, t.hero).uuid;
    const forged = t.player.run(() =>
      foundryPort().changeActor(heroRef, { kind: "refundAttackFudgePoint", messageId: id, side: "attacker" }),
    );
    await expect(forged).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.Applied" });
    expect(poolOf(t, t.hero).fudgePoints).toBe(2);
    // The wound's Undo unlocks it: the spend can then be refunded, and the card reads as rolled.
    await click(t, t.player, id, '[data-action="undo"]');
    expect(t.world.errors).toEqual([]);
    await click(t, t.player, id, undo("attacker"));
    expect(t.world.errors).toEqual([]);
    expect(poolOf(t, t.hero)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(0);
  });

  it("the defender's spend once his defence is rolled: the wound re-derived; Undo refunds and the card reads as rolled", async () => {
    const t = await table();
    const id = await attack(t, t.gm, t.foe, t.player, { attack: [0, 0, 0, 0], defence: [0, 0, 0, 0] });
    const unspent = targetOf(t, id).resolution!;
    expect(headline(t.player, id)).not.toMatch(/takes/);
    // The GM's NPC attacker has no Fudge Points: no attacker's offer.
    expect(button(t.gm, id, spend("attacker", 1))).toBeNull();
    await click(t, t.player, id, spend("defender", -1));
    expect(t.world.errors).toEqual([]);
    expect(poolOf(t, t.hero).fudgePoints).toBe(2);
    expect(poolOf(t, t.hero).fudgePointLog).toMatchObject([
      { id: `${id}.defender`, change: { target: id, to: unspent.numbers.defenderTotal - 1 } },
    ]);
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(unspent.numbers.relativeDegree + 1);
    expect(headline(t.player, id)).toMatch(/^Leroy takes/);
    expect(text(t.player, id)).toMatch(/Leroy spent a Fudge Point on the defence roll/);
    await click(t, t.player, id, undo("defender"));
    expect(t.world.errors).toEqual([]);
    expect(poolOf(t, t.hero)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(unspent.numbers.relativeDegree);
    expect(button(t.player, id, spend("defender", 1))).not.toBeNull();
  });

  it("FATE: the defender's spend moves his defence roll one level and the margin with it; Apply applies it", async () => {
    const t = await table();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
    await t.world.settle();
    const id = await attack(t, t.gm, t.foe, t.player, { attack: [1, 1, 0, 0], defence: [0, 0, 0, 0] });
    const unspent = targetOf(t, id).resolution!;
    expect(unspent.numbers.margin).toBe(2);
    await click(t, t.player, id, spend("defender", 1));
    expect(t.world.errors).toEqual([]);
    expect(poolOf(t, t.hero).fudgePointLog).toMatchObject([{ id: `${id}.defender` }]);
    expect(targetOf(t, id).resolution!.numbers.margin).toBe(unspent.numbers.margin - 1);
    expect(text(t.gm, id)).toMatch(/Leroy's Fudge Point 1 \+1 Fudge §1\.36/);
    await click(t, t.gm, id, '[data-action="apply"]');
    expect(t.world.errors).toEqual([]);
    expect(Object.keys(woundLog(t, t.hero))).toEqual([id]);
    expect(targetOf(t, id).resolution).toMatchObject({ outcome: "wound", numbers: { margin: 1 } });
  });

  it("a player never spends another's points: forged requests refused with a sentence, nothing written", async () => {
    const t = await table();
    const id = await attack(t, t.gm, t.foe, t.player, { attack: [0, 0, 0, 0], defence: [0, 0, 0, 0] });
    const before = structuredClone(targetOf(t, id).resolution);
    const foeRef = actorOn(t.player, t.foe).uuid;
    const heroRef = actorOn(t.player, t.hero).uuid;
    const port = () => foundryPort();
    const asAttacker = t.player.run(() =>
      port().changeActor(foeRef, { kind: "attackFudgePoint", messageId: id, side: "attacker", direction: -1 }),
    );
    await expect(asAttacker).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotYours" });
    // His own character named as the attacker: the card is Theodora's attack.
    const claimed = t.player.run(() =>
      port().changeActor(heroRef, { kind: "attackFudgePoint", messageId: id, side: "attacker", direction: -1 }),
    );
    await expect(claimed).rejects.toMatchObject({ key: "FUDGE.Error.FudgePoints.NotThisRoll" });
    await t.world.settle();
    expect(poolOf(t, t.hero)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    expect(targetOf(t, id).resolution).toEqual(before);
  });

  it("a forged card claim of a spend is not counted: Apply re-derives from the spenders' logs", async () => {
    const t = await table();
    const id = await attack(t, t.player, t.hero, t.gm, { attack: [0, 0, 0, 0], defence: [0, 0, 0, 0] });
    // The player, author of the card, rewrites its result as if he had spent a point (the request and result a hit).
    const honest = targetOf(t, id);
    const forgedRequest = structuredClone(honest.request) as { situation?: Record<string, unknown> };
    forgedRequest.situation = { ...(forgedRequest.situation ?? {}), attackerFudgePoint: 1 };
    const { resolveTarget } = await import("../../src/system/actions");
    const forgedResult = resolveTarget({ request: forgedRequest, dice: (honest as unknown as { dice: never }).dice });
    expect(forgedResult.outcome).toBe("wound");
    const msg = t.player.game.messages.get(id)!;
    const targets = structuredClone((msg.system as unknown as { targets: Target[] }).targets);
    targets[0] = { ...targets[0], request: forgedRequest, resolution: JSON.parse(JSON.stringify(forgedResult)) };
    await t.player.run(() => msg.update({ system: { targets } } as never));
    await t.world.settle();
    expect(headline(t.player, id)).toMatch(/^Theodora takes/);
    await click(t, t.player, id, '[data-action="apply"]');
    // The live logs hold no spend: the near miss deals no wound, and nothing is written.
    expect(lastMessage(t.player)).toBe("This attack dealt Theodora no wound.");
    expect(woundLog(t, t.foe)).toEqual({});
    expect(poolOf(t, t.hero)).toMatchObject({ fudgePoints: 3, fudgePointLog: [] });
    // A spend claimed in the card's situation is not the attacker's to claim: refused.
    const situation = { ...(msg.system as unknown as { situation: object }).situation, attackerFudgePoint: 1 };
    await t.player.run(() => msg.update({ system: { situation } } as never));
    await t.world.settle();
    await click(t, t.player, id, '[data-action="apply"]');
    expect(lastMessage(t.player)).toMatch(/claims a situation .* that an attack may not carry/);
    expect(woundLog(t, t.foe)).toEqual({});
  });

  it("a spend evicted from the bounded log no longer counts on Apply, and its Undo is refused with a sentence", async () => {
    const t = await table();
    const id = await attack(t, t.player, t.hero, t.gm, { attack: [0, 0, 0, 0], defence: [0, 0, 0, 0] });
    await click(t, t.player, id, spend("attacker", 1));
    expect(targetOf(t, id).resolution!.numbers.relativeDegree).toBe(1);
    // Later spends fill the log past its bound: this card's spend is dropped.
    const log = [...poolOf(t, t.hero).fudgePointLog, ...olderSpends(t.hero)];
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { fudgePoints: 5, fudgePointLog: log } } as never));
    await t.world.settle();
    const { spendFudgePoint } = character;
    const pool = { actor: t.hero, points: 5, log: poolOf(t, t.hero).fudgePointLog } as character.FudgePointPool;
    const later = spendFudgePoint(pool, {
      id: "later",
      at: "2026-11-29T00:00:00Z",
      by: t.hero,
      use: "alterRoll",
      target: "another",
      from: 0,
      direction: 1,
    }).pool;
    await t.gm.run(() =>
      actorOn(t.gm, t.hero).update({ system: { fudgePoints: later.points, fudgePointLog: later.log } } as never),
    );
    await t.world.settle();
    expect(poolOf(t, t.hero).fudgePointLog).toHaveLength(character.MAX_FUDGE_POINT_LOG);
    expect(poolOf(t, t.hero).fudgePointLog.some((s) => s.id === `${id}.attacker`)).toBe(false);
    // The card drawn before still offers the Undo: refused with a sentence, nothing written.
    await click(t, t.player, id, undo("attacker"));
    expect(lastMessage(t.player)).toMatch(/no longer in Leroy's Fudge Point log .*cannot be undone/);
    expect(poolOf(t, t.hero).fudgePoints).toBe(4);
    // Apply re-derives without it: the near miss deals no wound.
    await click(t, t.player, id, '[data-action="apply"]');
    expect(lastMessage(t.player)).toBe("This attack dealt Theodora no wound.");
    expect(woundLog(t, t.foe)).toEqual({});
  });
});
