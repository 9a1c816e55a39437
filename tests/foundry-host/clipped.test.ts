// @vitest-environment happy-dom
/**
 * FATE Clipped at the table (seed 003: "-1 penalty to their next action … Box resets after that
 * action"), on the v13 host with the real modules: each side's roll on a card resets its own box,
 * hit or miss, written by whoever may write that actor; the GM's client derives from live actors;
 * a forged card resets nothing; turn end and Apply never reset a Clipped taken later.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { defenceRecordOf } from "../../src/system/integrity";
import { clippedLogOf } from "../../src/system/clipped";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

type Marks = Record<string, (string | null)[]>;
const marks = (c: Client, id: string) =>
  (actorOn(c, id).system as unknown as { woundTrack: { state: { marks: Marks } | null } }).woundTrack.state?.marks ??
  null;
const clippedBoxes = (c: Client, id: string) => (marks(c, id)?.clipped ?? []).filter((m) => m !== null).length;
const marked = (c: Client, id: string) =>
  Object.values(marks(c, id) ?? {})
    .flat()
    .filter((m) => m !== null).length;

async function markBox(c: Client, id: string, ref: string) {
  await c.run(async () => {
    const a = actorOn(c, id);
    await updateActor(a, actions.toggleWoundBox(plainActor(a), ref, worldRules(), userRef()));
  });
}

/** A FATE table: Leroy (the player's) and Theodora (the GM's NPC) both Clipped. */
async function fateTable(): Promise<Table> {
  const t = await table();
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
  for (const id of [t.hero, t.foe])
    await t.gm.run(() =>
      actorOn(t.gm, id).createEmbeddedDocuments("Item", [
        { name: "Broadsword", type: "weapon", system: { equipped: true } } as never,
      ]),
    );
  await markBox(t.gm, t.hero, "clipped:0");
  await markBox(t.gm, t.foe, "clipped:0");
  await t.world.settle();
  return t;
}

/** `client` attacks with `attackerId` (his broadsword, dialog defaults) the token `tokenId`; the attack dice come from the queue. */
async function attack(t: Table, client: Client, attackerId: string, tokenId: string, faces: number[]) {
  client.target(client.game.scenes.get(t.scene)!.tokens.get(tokenId)!);
  const sheet = client.run(() => actorOn(client, attackerId).sheet!) as unknown as {
    render(o: object): Promise<{ element: HTMLElement }>;
  };
  const app = await client.run(() => sheet.render({ force: true }));
  t.world.dice.queue(...faces);
  t.world.answerDialogs("ok");
  client.click(app.element.querySelector('[data-action="attack"]'));
  await t.world.settle();
  return t.gm.game.messages.contents.at(-1)!;
}
/** `client` rolls `actorId`'s Strength from its sheet (the roll dialog answered OK, dice from the queue); the roll card's penalty. */
async function rollStrength(t: Table, client: Client, actorId: string, faces = [0, 0, 0, 0]): Promise<number> {
  const app = await client.run(() =>
    (actorOn(client, actorId).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
      force: true,
    }),
  );
  t.world.dice.queue(...faces);
  t.world.answerDialogs("ok");
  client.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
  await t.world.settle();
  const m = t.gm.game.messages.contents.at(-1)! as unknown as { type: string; system: { penalty: number } };
  expect(m.type).toBe("rollCard");
  return m.system.penalty;
}
const button = (c: Client, id: string | null, action: string) =>
  c.chatLog.get(id!)!.querySelector(`[data-action="${action}"]`);
const actorWrites = (t: Table, from: number, id: string) =>
  t.world.server.journal
    .slice(from)
    .filter((j) => j.documentName === "Actor" && j.ids.includes(id))
    .map((j) => j.userId);

describe("FATE Clipped: each side's roll resets its own box", () => {
  it("the player's attack resets his box (written by the GM's client, the one writer); the NPC's missed defence resets hers on the GM's", async () => {
    const t = await fateTable();
    const from = t.world.server.journal.length;
    const msg = await attack(t, t.player, t.hero, t.foeToken, [-1, -1, -1, -1]);
    expect(msg.type).toBe("attackCard");
    expect(clippedBoxes(t.gm, t.hero)).toBe(0);
    expect(actorWrites(t, from, t.hero)).toEqual([t.ids.gm]);
    expect(clippedLogOf(plainActor(actorOn(t.gm, t.hero))).map((r) => r.messageId)).toEqual([msg.id]);
    // Theodora is still Clipped until she rolls.
    expect(clippedBoxes(t.gm, t.foe)).toBe(1);
    t.world.dice.queue(1, 1, 1, 1);
    t.gm.click(button(t.gm, msg.id, "defend"));
    await t.world.settle();
    const res = (
      t.gm.game.messages.get(msg.id)!.system as unknown as { targets: { resolution: { outcome: string } }[] }
    ).targets[0].resolution;
    expect(res.outcome).toBe("miss");
    // Missed, nothing to apply — and her box is reset all the same, in the GM's one write.
    expect(clippedBoxes(t.player, t.foe)).toBe(0);
    expect(actorWrites(t, from, t.foe)).toEqual([t.ids.gm]);
    expect(defenceRecordOf(plainActor(actorOn(t.gm, t.foe)), msg.id!)).toMatchObject({ clipped: true });
    expect(t.world.errors).toEqual([]);
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("the player defends against the GM's card through the relay: the GM's client resets his box from the live actor; Apply lands the wound as shown and keeps a Clipped he took since", async () => {
    const t = await fateTable();
    const msg = await attack(t, t.gm, t.foe, t.heroToken, [1, 1, 1, 1]);
    expect(clippedBoxes(t.gm, t.foe)).toBe(0); // the GM's NPC rolled: reset on the GM's client
    const from = t.world.server.journal.length;
    t.world.dice.queue(-1, -1, 0, 0);
    t.player.click(button(t.player, msg.id, "defend"));
    await t.world.settle();
    expect(t.world.queries.length).toBeGreaterThan(0);
    expect(actorWrites(t, from, t.hero)).toEqual([t.ids.gm]);
    expect(clippedBoxes(t.player, t.hero)).toBe(0);
    // Clipped again (another exchange) before the GM applies this card.
    await markBox(t.gm, t.hero, "clipped:0");
    t.gm.click(button(t.gm, msg.id, "apply"));
    await t.world.settle();
    const target = (
      t.gm.game.messages.get(msg.id)!.system as unknown as {
        targets: { differs?: boolean; applied: unknown[]; resolution: { numbers: Record<string, number> } }[];
      }
    ).targets[0];
    expect(target.applied).toHaveLength(1);
    // Re-derived with both sides Clipped, as they rolled: the card's numbers stand.
    expect(target.differs).toBe(false);
    expect(target.resolution.numbers.attackerPenalty).toBe(-1);
    expect(target.resolution.numbers.defenderPenalty).toBe(-1);
    expect(clippedBoxes(t.player, t.hero)).toBeGreaterThanOrEqual(1);
    expect(t.world.errors).toEqual([]);
  });

  it("a forged card resets nobody's box: it names the GM's Clipped NPC as attacker and claims both sides used Clipped up", async () => {
    const t = await fateTable();
    const honest = await attack(t, t.player, t.hero, t.foeToken, [0, 0, 0, 0]);
    const card = structuredClone(
      (t.player.game.messages.get(honest.id)!.system as unknown as { toObject(): Record<string, unknown> }).toObject(),
    ) as Record<string, unknown> & { targets: Record<string, unknown>[] };
    const claim = { healing: "consumeClipped" };
    card.attackerId = actorOn(t.player, t.foe).uuid;
    card.targets = [
      {
        ...card.targets[0],
        actorId: actorOn(t.player, t.hero).uuid,
        defend: "rolled",
        dice: { attack: [1, 1, 1, 1], defense: [-1, -1, -1, -1] },
        resolution: {
          preset: "fate",
          outcome: "wound",
          hit: true,
          wound: { margin: 1 },
          woundKey: "clipped",
          dice: { attack: [1, 1, 1, 1], defense: [-1, -1, -1, -1] },
          steps: [],
          numbers: { margin: 1, relativeDegree: 1 },
          defenderAfter: null,
          followUps: [
            { type: "clippedConsumed", target: "attacker", params: claim, steps: [] },
            { type: "clippedConsumed", target: "defender", params: claim, steps: [] },
          ],
        },
      },
    ];
    await markBox(t.gm, t.hero, "clipped:0"); // the player's hero Clipped again
    const from = t.world.server.journal.length;
    const forged = (await t.player.run(() =>
      ChatMessage.create({ type: "attackCard", system: card } as never),
    )) as unknown as { id: string };
    await t.world.settle();
    expect(actorWrites(t, from, t.foe)).toEqual([]);
    expect(actorWrites(t, from, t.hero)).toEqual([]);
    // The GM's Apply derives from the live actors and refuses: the author does not own Theodora.
    t.gm.click(button(t.gm, forged.id, "apply"));
    await t.world.settle();
    expect(t.gm.notifications.map((n) => n.message).join(" ")).toMatch(/Theodora does not belong/);
    expect(actorWrites(t, from, t.foe)).toEqual([]);
    expect(actorWrites(t, from, t.hero)).toEqual([]);
    expect(clippedBoxes(t.gm, t.hero)).toBe(1);
  });
});

describe("FATE Clipped: a trait roll from the sheet is the next action too", () => {
  it("the player's Strength roll takes the −1 and resets his box (through the GM's client); the next roll is at full strength", async () => {
    const t = await fateTable();
    const from = t.world.server.journal.length;
    expect(await rollStrength(t, t.player, t.hero)).toBe(-1);
    expect(clippedBoxes(t.gm, t.hero)).toBe(0);
    expect(actorWrites(t, from, t.hero)).toEqual([t.ids.gm]);
    expect(await rollStrength(t, t.player, t.hero)).toBe(0);
    // Nothing left to reset: the second roll writes nothing.
    expect(actorWrites(t, from, t.hero)).toEqual([t.ids.gm]);
    expect(clippedBoxes(t.gm, t.foe)).toBe(1);
    expect(t.world.errors).toEqual([]);
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
  });
});

describe("FATE Clipped in combat: turn end does not reset it twice", () => {
  async function combatOf(t: Table) {
    const combat = (await t.gm.run(() =>
      Combat.create({ scene: t.scene } as never),
    )) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      combat.createEmbeddedDocuments("Combatant", [
        { actorId: t.hero, tokenId: t.heroToken, initiative: 10 } as never,
        { actorId: t.foe, tokenId: t.foeToken, initiative: 5 } as never,
      ]),
    );
    await t.gm.run(() => combat.startCombat());
    await t.world.settle();
    return () => t.gm.game.combats.get(combat.id!) as unknown as Combat.Implementation;
  }

  it("Clipped at his turn's start, used up by his attack; a Clipped he takes later in the turn waits for his next action", async () => {
    const t = await fateTable();
    const combat = await combatOf(t);
    await attack(t, t.player, t.hero, t.foeToken, [0, 0, 0, 0]);
    expect(clippedBoxes(t.gm, t.hero)).toBe(0);
    await markBox(t.gm, t.hero, "clipped:0");
    await t.gm.run(() => combat().nextTurn());
    await t.world.settle();
    expect(clippedBoxes(t.player, t.hero)).toBe(1);
  });

  it("Clipped at his turn's start, used up by a trait roll; a Clipped he takes later in the turn waits for his next action", async () => {
    const t = await fateTable();
    const combat = await combatOf(t);
    expect(await rollStrength(t, t.player, t.hero)).toBe(-1);
    expect(clippedBoxes(t.gm, t.hero)).toBe(0);
    await markBox(t.gm, t.hero, "clipped:0");
    await t.gm.run(() => combat().nextTurn());
    await t.world.settle();
    expect(clippedBoxes(t.player, t.hero)).toBe(1);
    expect(t.world.errors).toEqual([]);
  });

  it("Clipped at his turn's start and no roll in it: it burns off at the turn's end (as before)", async () => {
    const t = await fateTable();
    const combat = await combatOf(t);
    const before = marked(t.gm, t.hero);
    await t.gm.run(() => combat().nextTurn());
    await t.world.settle();
    expect(clippedBoxes(t.player, t.hero)).toBe(0);
    expect(marked(t.player, t.hero)).toBe(before - 1);
  });
});
