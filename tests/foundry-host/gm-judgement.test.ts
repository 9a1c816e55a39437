// @vitest-environment happy-dom
/**
 * GM judgement on the v13 host with the real modules (RULES §2.2: "the card shows the factors and
 * RD and the GM picks the wound level, optionally after a Situational 4dF (−1..+1 no change,
 * +3/+4 one or two levels worse)"; Fudge §4.55 "Roll the dice behind a GM screen … +3 or +4 adds
 * a wound level or two to the damage"). The player attacks; the GM's client alone shows the
 * picker; the GM's pick and his own Situational roll decide the wound, written to the NPC and
 * recorded on the card. A player's forged card claiming a level gets nothing.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { checkCard } from "../../src/system/integrity";
import { table, actorOn, type Table, armHero, openSheetOn } from "./table";

type Card = {
  targets: {
    gmLevel?: string;
    applied: unknown[];
    dice: Record<string, number[]>;
    resolution: { outcome: string; woundKey: string | null } | null;
  }[];
};
/** The NPC's marked levels, as `client` sees its track. */
const marked = (t: Table, c = t.gm): string[] => {
  const state = (
    actorOn(c, t.foe).system as unknown as { woundTrack: { state: { marks?: Record<string, unknown[]> } | null } }
  ).woundTrack.state;
  return Object.entries(state?.marks ?? {})
    .filter(([, boxes]) => boxes.some((b) => b !== null))
    .map(([k]) => k);
};

async function judgementWorld() {
  const t = await table();
  await t.gm.run(() =>
    game.settings!.set(
      "fudge-wounds" as never,
      "fudge" as never,
      { ...worldRules().fudge, woundMode: "gmJudgement", gmSituationalRoll: true } as never,
    ),
  );
  await t.world.settle();
  return t;
}

describe("GM judgement at the table", () => {
  it("the GM picks Hurt on his card, his Situational roll of +3 makes it Very Hurt; players see 'The GM decides' and no picker; Undo works", async () => {
    const t = await judgementWorld();
    const weaponId = await armHero(t);
    const app = await openSheetOn(t.player, t.hero);
    // Attack + + + + (the player's client), defence − − − − (the GM's), then the GM's Situational + + + 0.
    t.world.dice.queue(1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 0);
    t.world.answerDialogs(() => "ok");
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    // The attacker's client rolled only the attack: the Situational roll is the GM's, after his pick.
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([["4dF", t.ids.player]]);
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    for (const c of [t.player, t.gm])
      expect(c.chatLog.get(msg.id)!.querySelector(".fudge-headline")!.textContent).toContain(
        "The GM decides Theodora's wound",
      );
    const playerCard = t.player.chatLog.get(msg.id)!;
    expect(playerCard.querySelector('select[name="gmLevel"]')).toBeNull();
    expect(playerCard.querySelector('[data-action="applyJudgement"], [data-action="apply"]')).toBeNull();
    const gmCard = t.gm.chatLog.get(msg.id)!;
    const select = gmCard.querySelector<HTMLSelectElement>('select[name="gmLevel"]')!;
    expect([...select.options].map((o) => o.value)).toEqual([
      "none",
      "scratch",
      "hurt",
      "veryHurt",
      "incapacitated",
      "nearDeath",
    ]);
    expect(gmCard.querySelector('[data-action="apply"]')).toBeNull();
    select.value = "hurt";
    t.gm.click(gmCard.querySelector('[data-action="applyJudgement"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.gm.notifications.filter((n) => n.type === "error")).toEqual([]);
    // The GM's own roll on the GM's client, joined to the card's rolls.
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([
      ["4dF", t.ids.player],
      ["4dF", t.ids.gm],
      ["4dF", t.ids.gm],
    ]);
    expect((t.player.game.messages.get(msg.id) as unknown as { rolls: Roll[] }).rolls).toHaveLength(3);
    const stored = t.player.game.messages.get(msg.id)!.system as unknown as Card;
    expect(stored.targets[0].gmLevel).toBe("hurt");
    expect(stored.targets[0].dice.situational).toEqual([1, 1, 1, 0]);
    expect(stored.targets[0].resolution?.woundKey).toBe("veryHurt");
    expect(stored.targets[0].applied).toHaveLength(1);
    expect(() =>
      checkCard((t.player.game.messages.get(msg.id)!.system as unknown as { toObject(): unknown }).toObject()),
    ).not.toThrow();
    expect(marked(t, t.player)).toEqual(["veryHurt"]);
    // Drawn as applied on every client, with Undo for the GM.
    for (const c of [t.player, t.gm])
      expect(c.chatLog.get(msg.id)!.querySelector(".fudge-target")!.getAttribute("data-state")).toBe("applied");
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="undo"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(marked(t)).toEqual([]);
    // After Undo the GM may rule again, his last pick preselected.
    expect(
      t.gm.chatLog.get(msg.id)!.querySelector('select[name="gmLevel"] option[selected]')?.getAttribute("value"),
    ).toBe("hurt");
  });

  it("a player's forged card claiming the GM's level writes nothing: not through Apply (relayed), not by the GM's own ruling", async () => {
    const t = await judgementWorld();
    const { clickCardAction, clickJudgement } = await import("../../src/foundry/chat");
    const foeUuid = actorOn(t.player, t.foe).uuid;
    const card = t.player.run(() =>
      actions.startAttack(
        plainActor(actorOn(t.player, t.hero)),
        null,
        [plainActor(actorOn(t.player, t.foe))],
        {},
        { attack: [1, 1, 1, 1] },
        worldRules(),
        userRef(),
      ),
    );
    // Forged: the situation claims Near Death as the GM's level, the target says the GM ruled it.
    card.situation = { gmLevel: "nearDeath" };
    card.targets[0] = {
      ...card.targets[0],
      defend: "rolled",
      dice: { attack: [1, 1, 1, 1], defense: [-1, -1, -1, -1] },
      gmLevel: "nearDeath",
    };
    const from = t.world.server.journal.length;
    const msg = (await t.player.run(() =>
      ChatMessage.create({ type: "attackCard", system: card } as never),
    )) as unknown as { id: string };
    await t.world.settle();
    // The player's Apply goes to the GM's client, which refuses the claimed level.
    await t.player.run(() => clickCardAction(t.player.game.messages.get(msg.id) as never, "apply", foeUuid));
    await t.world.settle();
    expect(t.player.notifications.map((n) => n.message)).toEqual([
      "This card claims a situation (GM's wound level) that an attack may not carry. Attack again.",
    ]);
    // The player cannot rule either: refused on his own client, nothing relayed.
    await t.player.run(() => clickJudgement(t.player.game.messages.get(msg.id) as never, foeUuid, "nearDeath"));
    await t.world.settle();
    expect(t.player.notifications.map((n) => n.message).join(" ")).toContain("Only the GM decides Theodora's wound.");
    // The GM's ruling on that card is refused too (its situation is not one an attack may carry), and nothing is rolled.
    const rolls = t.world.rolls.length;
    await t.gm.run(() => clickJudgement(t.gm.game.messages.get(msg.id) as never, foeUuid, "scratch"));
    await t.world.settle();
    expect(t.world.rolls.length).toBe(rolls);
    expect(t.gm.notifications.map((n) => n.message)).toEqual([
      "This card claims a situation (GM's wound level) that an attack may not carry. Attack again.",
    ]);
    expect(t.world.server.journal.slice(from).filter((j) => j.documentName === "Actor")).toEqual([]);
  });
});
