// @vitest-environment happy-dom
/**
 * Issue #8 on the v13 test host: the REAL query handler, called as v13 calls it
 * (`handler(data, {timeout})`, no sender), and the real src/foundry card-action code. Every
 * forgery leaves every actor and every Fudge Point exactly as it was, with a clear refusal;
 * the honest loop works for players through the relay.
 */
import { describe, expect, it } from "vitest";
import { changeActor, worldRules } from "../../src/foundry/bridge";
import { toggleWoundBox } from "../../src/system/actions";
import {
  actorOn,
  actorsOnServer,
  attack,
  cardOf,
  click,
  fixDice,
  forgeQuery,
  fudgePoints,
  levelOf,
  relayTable,
  warnings,
  type RelayTable,
} from "./relay-table";

/** Leroy (player 1) attacks the Goblin (the GM's) with ++++; the GM defends with −−−−: a wound. */
async function leroyHitsGoblin(t: RelayTable): Promise<string> {
  const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 1, 1]);
  fixDice(t.gm, [-1, -1, -1, -1]);
  await click(t, t.gm, id, "defend", t.goblin);
  return id;
}

const noKeys = (msgs: string[]) => msgs.every((m) => !/FUDGE\.|system\.|card\./.test(m));

describe("the honest loop through the relay", () => {
  it("player 1's attack on the GM's Goblin: the GM defends, player 1 applies and undoes through the GM", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    expect(levelOf(t, t.goblin)).toBeNull();
    await click(t, t.p1, id, "apply", t.goblin);
    expect(warnings(t.p1)).toEqual([]);
    const wounded = levelOf(t, t.goblin);
    expect(wounded).not.toBeNull();
    // The GM's client wrote the wound (the player may not write the Goblin), and the wound log with it.
    const writes = t.world.server.journal.filter((j) => j.documentName === "Actor" && j.ids.includes(t.goblin));
    expect(writes.length).toBeGreaterThanOrEqual(2); // the defence roll's record, the wound (and the statuses the GM's client set)
    expect(writes.every((w) => w.userId === t.gm.user.id)).toBe(true);
    await click(t, t.p1, id, "undo", t.goblin);
    expect(warnings(t.p1)).toEqual([]);
    expect(levelOf(t, t.goblin)).toBeNull();
    expect(t.world.errors).toEqual([]);
  });

  it("player 2 defends his Theodora on the Goblin's card (posted by the GM), and the GM applies", async () => {
    const t = await relayTable();
    const id = await attack(t, t.gm, t.goblin, [t.tokens.theodora], [1, 1, 1, 1]);
    fixDice(t.gm, [-1, -1, -1, 0]);
    expect(t.p2.chatLog.get(id)!.querySelector('[data-action="defend"]')).not.toBeNull();
    await click(t, t.p2, id, "defend", t.theodora);
    expect(warnings(t.p2)).toEqual([]);
    expect((cardOf(t, id).targets[0] as { defend: string }).defend).toBe("rolled");
    await click(t, t.gm, id, "apply", t.theodora);
    expect(levelOf(t, t.theodora)).not.toBeNull();
  });

  it("player 1 applies his attack to player 2's Theodora through the GM; player 2 may undo it on his own", async () => {
    const t = await relayTable();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.theodora], [1, 1, 1, 1]);
    fixDice(t.gm, [-1, -1, -1, -1]);
    await click(t, t.p2, id, "defend", t.theodora);
    await click(t, t.p1, id, "apply", t.theodora);
    expect(levelOf(t, t.theodora)).not.toBeNull();
    await click(t, t.p2, id, "undo", t.theodora);
    expect(levelOf(t, t.theodora)).toBeNull();
    expect(warnings(t.p1).concat(warnings(t.p2))).toEqual([]);
  });
});

describe("forgeries through the real handler leave every actor as it was", () => {
  it("a player who owns nothing posts a card claiming {wound: dead} on the GM's Goblin and player 2's Theodora", async () => {
    const t = await relayTable();
    const honest = await attack(t, t.p1, t.leroy, [t.tokens.goblin, t.tokens.theodora], [1, 1, 1, 1]);
    const forged = cardOf(t, honest);
    for (const target of forged.targets)
      Object.assign(target, {
        defend: "rolled",
        defendDice: [-1, -1, -1, -1],
        dice: { ...(target.dice as object), defense: [-1, -1, -1, -1] },
        resolution: {
          outcome: "wound",
          hit: true,
          woundKey: "dead",
          wound: { level: "dead" },
          numbers: {},
          dice: {},
          steps: [],
          defenderAfter: null,
          followUps: [],
        },
      });
    const before = actorsOnServer(t);
    const msg = await t.p3.run(() => ChatMessage.create({ type: "attackCard", system: forged } as never));
    await t.world.settle();
    for (const target of [t.goblin, t.theodora]) {
      const reply = await forgeQuery(t, t.p3, "apply", { messageId: msg!.id, targetId: `Actor.${target}` });
      expect(reply).toMatchObject({ ok: false, key: "FUDGE.Error.Integrity.NotAuthorsAttacker" });
    }
    // Clicking as the real client does: the GM's client refuses, in words.
    const n = t.p3.notifications.length;
    await click(t, t.p3, String(msg!.id), "apply", t.goblin);
    expect(warnings(t.p3, n)).toEqual([
      "Leroy does not belong to the player who posted this card, so the GM's client will not apply it.",
    ]);
    expect(actorsOnServer(t)).toEqual(before);
  });

  it("the attacker's own card claiming {wound: dead}: the GM applies the wound the dice give, and the card says it differed", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const card = cardOf(t, id);
    const res = card.targets[0].resolution as Record<string, unknown>;
    const honestKey = res.woundKey;
    Object.assign(res, { woundKey: "dead", wound: { level: "dead" } });
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: { targets: card.targets } } as never));
    await t.world.settle();
    await click(t, t.p1, id, "apply", t.goblin);
    expect(levelOf(t, t.goblin)).toBe(honestKey);
    expect((cardOf(t, id).targets[0] as { differs: boolean }).differs).toBe(true);
    expect(t.gm.chatLog.get(id)!.textContent).toContain("differs from what the card first showed");
  });

  it("resetting applied: [] on his own card does not apply the wound twice", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    await click(t, t.p1, id, "apply", t.goblin);
    const card = cardOf(t, id);
    card.targets[0].applied = [];
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: { targets: card.targets } } as never));
    await t.world.settle();
    const before = actorsOnServer(t);
    const n = t.p1.notifications.length;
    await click(t, t.p1, id, "apply", t.goblin);
    expect(warnings(t.p1, n)).toEqual(["This wound is already applied to Goblin."]);
    expect(actorsOnServer(t)).toEqual(before);
  });

  it("a forged `before` + Undo cannot heal a foe: Undo restores the GM-written record", async () => {
    const t = await relayTable();
    // The Goblin is already Very Hurt from earlier (set by the GM on his sheet's track).
    const earlier = await leroyHitsGoblin(t);
    await click(t, t.gm, earlier, "apply", t.goblin);
    const hurtBefore = levelOf(t, t.goblin);
    const stateBefore = JSON.stringify(
      (actorOn(t.gm, t.goblin).toObject().system as { woundTrack: { state: unknown } }).woundTrack.state,
    );
    // Leroy's next attack, applied through the GM; then he forges `before` (unhurt) and undoes.
    const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 0, 0]);
    fixDice(t.gm, [-1, -1, 0, 0]);
    await click(t, t.gm, id, "defend", t.goblin);
    await click(t, t.p1, id, "apply", t.goblin);
    const card = cardOf(t, id);
    (card.targets[0].applied as { before: unknown }[])[0].before = null;
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: { targets: card.targets } } as never));
    await t.world.settle();
    await click(t, t.p1, id, "undo", t.goblin);
    expect(levelOf(t, t.goblin)).toBe(hurtBefore);
    expect(
      JSON.stringify(
        (actorOn(t.gm, t.goblin).toObject().system as { woundTrack: { state: unknown } }).woundTrack.state,
      ),
    ).toBe(stateBefore);
  });

  it("Undo by someone who neither applied it nor owns the target is refused, whatever the card says", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    await click(t, t.p1, id, "apply", t.goblin);
    const before = actorsOnServer(t);
    const reply = await forgeQuery(t, t.p3, "undo", { messageId: id, targetId: `Actor.${t.goblin}` });
    expect(reply).toMatchObject({ ok: false, key: "FUDGE.Error.NotYoursToUndo" });
    expect(actorsOnServer(t)).toEqual(before);
  });

  it("fudgePointSpent: true + Undo does not mint Fudge Points", async () => {
    const t = await relayTable();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.theodora], [1, 1, 1, 1]);
    fixDice(t.gm, [-1, -1, -1, -1]);
    await click(t, t.p2, id, "defend", t.theodora);
    await click(t, t.p1, id, "apply", t.theodora);
    const points = fudgePoints(t, t.theodora);
    const card = cardOf(t, id);
    (card.targets[0].applied as { fudgePointSpent: boolean }[])[0].fudgePointSpent = true;
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: { targets: card.targets } } as never));
    await t.world.settle();
    await click(t, t.p1, id, "undo", t.theodora);
    expect(levelOf(t, t.theodora)).toBeNull();
    expect(fudgePoints(t, t.theodora)).toBe(points);
  });

  it("an author who sets his target back to 'waiting for defence' gets no second defence roll", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const card = cardOf(t, id);
    Object.assign(card.targets[0], { defend: "pending", defendDice: null, resolution: null });
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: card } as never));
    await t.world.settle();
    const before = actorsOnServer(t);
    fixDice(t.gm, [1, 1, 1, 1]);
    const n = t.gm.notifications.length;
    await click(t, t.gm, id, "defend", t.goblin);
    expect(warnings(t.gm, n)).toEqual(["Goblin has already rolled to defend."]);
    expect(actorsOnServer(t)).toEqual(before);
  });

  it("a card's stored target name cannot disguise a player's character: the card shows live names", async () => {
    const t = await relayTable();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.theodora], [1, 1, 1, 1]);
    const card = cardOf(t, id);
    card.targets[0].name = "Goblin";
    card.attackerName = "The GM";
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: card } as never));
    await t.world.settle();
    for (const c of [t.gm, t.p2]) {
      // The card names its target in the headline and on its buttons (issue-9's card): all live.
      const target = c.chatLog.get(id)!.querySelector(".fudge-target")!.textContent!;
      expect(c.chatLog.get(id)!.querySelector(".fudge-headline")!.textContent).toContain("Theodora");
      expect(target).not.toContain("Goblin");
      expect(target).not.toContain("The GM");
      expect(c.chatLog.get(id)!.querySelector(".fudge-attacker")!.textContent).toBe("Leroy");
    }
  });

  it("a query naming another user is not run as him: the request must be in that user's own flags", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const before = actorsOnServer(t);
    // Player 3 claims to be player 1 (the attacker) without player 1's request.
    const reply = await forgeQuery(
      t,
      t.p3,
      "apply",
      { messageId: id, targetId: `Actor.${t.goblin}`, userId: t.p1.user.id },
      false,
    );
    expect(reply).toMatchObject({ ok: false, key: "FUDGE.Error.Relay.Unconfirmed" });
    // A request in player 3's own flags that names player 1 proves nothing either.
    const again = await forgeQuery(
      t,
      t.p3,
      "apply",
      { messageId: id, targetId: `Actor.${t.goblin}`, userId: t.p1.user.id },
      true,
    );
    expect(again).toMatchObject({ ok: false, key: "FUDGE.Error.Relay.Unconfirmed" });
    expect(actorsOnServer(t)).toEqual(before);
  }, 20_000);

  it("a player may not write another user's flags (the server refuses), so he cannot plant a request", async () => {
    const t = await relayTable();
    const p1OnP3 = t.p3.game.users.get(t.p1.user.id!)!;
    await expect(
      t.p3.run(() =>
        (p1OnP3 as unknown as { update(d: object): Promise<unknown> }).update({
          flags: { "fudge-wounds": { relayRequests: { x: {} } } },
        }),
      ),
    ).rejects.toThrow(/lacks permission/);
  });

  it("recorded dice out of range and a GM-only situation are refused", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const card = cardOf(t, id);
    const dice = card.targets[0].dice as Record<string, number[]>;
    dice.attack = [5, 5, 5, 5];
    card.attackDice = { attack: [5, 5, 5, 5] };
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: card } as never));
    await t.world.settle();
    const before = actorsOnServer(t);
    const n = t.p1.notifications.length;
    await click(t, t.p1, id, "apply", t.goblin);
    expect(warnings(t.p1, n)).toEqual([
      "The dice recorded on this card for Goblin are not a roll this attack makes. Attack again.",
    ]);
    const gmLevel = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [0, 0, 0, 0]);
    const c2 = cardOf(t, gmLevel);
    c2.situation = { gmLevel: "dead" };
    await t.p1.run(() => t.p1.game.messages.get(gmLevel)!.update({ system: c2 } as never));
    fixDice(t.gm, [0, 0, 0, 0]);
    await click(t, t.gm, gmLevel, "defend", t.goblin);
    const m = t.p1.notifications.length;
    await click(t, t.p1, gmLevel, "apply", t.goblin);
    expect(warnings(t.p1, m)[0]).toMatch(/claims a situation \(GM's wound level\)/);
    expect(levelOf(t, t.goblin)).toBeNull();
    expect(JSON.stringify(actorsOnServer(t))).toContain("defenceLog"); // only the GM's defence record was written
    expect(noKeys(warnings(t.p1))).toBe(true);
    void before;
  });

  it("a bloated card is refused by the server (its data model bounds the targets) and stays as it was", async () => {
    const t = await relayTable();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 1, 1]);
    const card = cardOf(t, id);
    const one = card.targets[0];
    card.targets = Array.from({ length: 400 }, (_, i) => ({
      ...one,
      actorId: `Actor.fake${String(i).padStart(12, "0")}`,
    }));
    await expect(t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: card } as never))).rejects.toThrow(
      /more than 16 elements/,
    );
    await t.world.settle();
    expect(cardOf(t, id).targets).toHaveLength(1);
    expect(t.gm.chatLog.get(id)!.querySelectorAll("button").length).toBeGreaterThan(0);
  });

  it("a card the model stores but the card check refuses (nested too deep) is one error line; no button acts on it", async () => {
    const t = await relayTable();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 1, 1]);
    const card = cardOf(t, id);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) deep = { d: deep };
    card.targets[0].request = { ...(card.targets[0].request as object), deep } as never;
    await t.p1.run(() => t.p1.game.messages.get(id)!.update({ system: card } as never));
    await t.world.settle();
    const el = t.gm.chatLog.get(id)!;
    expect(el.querySelectorAll("button").length).toBe(0);
    expect(el.textContent).toMatch(/malformed|too large/);
    const before = actorsOnServer(t);
    const reply = await forgeQuery(t, t.p1, "apply", { messageId: id, targetId: `Actor.${t.goblin}` });
    expect(reply.ok).toBe(false);
    expect(actorsOnServer(t)).toEqual(before);
  });

  it("refusals a player reads are sentences naming the actor, never keys", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    await click(t, t.p3, id, "defend", t.goblin);
    await click(t, t.p3, id, "apply", t.goblin);
    const msgs = warnings(t.p3);
    expect(msgs).toEqual([
      "Goblin is not yours to defend: Goblin's owner or the GM rolls this defence.",
      "Goblin is not yours to wound: the attacker's player, Goblin's owner or the GM may apply this.",
    ]);
    expect(noKeys(msgs)).toBe(true);
  });
});

describe("who asked, statuses, and errors on the host", () => {
  it("no GM connected: the player reads why, with the actor's name", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    t.world.disconnect(t.gm);
    await click(t, t.p1, id, "apply", t.goblin);
    expect(warnings(t.p1)).toEqual([
      "Goblin: this needs the GM's client, and no GM is connected. Try again when the GM is.",
    ]);
  });

  it("a query that fails on its way (a timeout, a GM who left) reads as a sentence", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const queries = t.gm.CONFIG.queries as Record<string, unknown>;
    queries["fudge-wounds.applyDamage"] = () => Promise.reject(new Error("The query timed out"));
    await click(t, t.p1, id, "apply", t.goblin);
    expect(warnings(t.p1)).toEqual(["Goblin: the GM's client did not answer in time. Try again."]);
    expect(levelOf(t, t.goblin)).toBeNull();
  });

  it("a later core that names the sender in the handler's options is used when present", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    t.world.handlerOptions = (base, sender) => ({ ...base, user: sender });
    // No request in the flags: the options vouch for the sender instead.
    const reply = await forgeQuery(t, t.p1, "apply", { messageId: id, targetId: `Actor.${t.goblin}` }, false);
    expect(reply).toEqual({ ok: true });
    expect(levelOf(t, t.goblin)).not.toBeNull();
  });

  it("the system changes only the statuses it set: the GM's own dead and prone survive a wound change and its undo", async () => {
    const t = await relayTable();
    const goblin = () =>
      actorOn(t.gm, t.goblin) as unknown as {
        statuses: Set<string>;
        toggleStatusEffect(id: string, o: object): Promise<unknown>;
      };
    await t.gm.run(() => goblin().toggleStatusEffect("prone", { active: true }));
    await t.gm.run(() => goblin().toggleStatusEffect("dead", { active: true }));
    await t.world.settle();
    const id = await leroyHitsGoblin(t);
    await click(t, t.p1, id, "apply", t.goblin);
    const wounded = [...goblin().statuses];
    expect(wounded).toEqual(expect.arrayContaining(["prone", "dead"]));
    expect(wounded.some((s) => s.startsWith("fudge-wounds."))).toBe(true);
    await click(t, t.p1, id, "undo", t.goblin);
    expect([...goblin().statuses].sort()).toEqual(["dead", "prone"]);
  });
});

describe("Fudge Points through the relay (Fudge §4.64, world option)", () => {
  /** Theodora one step from death (marked by the GM), the Fudge Point safeguard on, and Leroy's killing blow defended. */
  async function doomed(t: RelayTable): Promise<string> {
    await t.gm.run(() =>
      game.settings!.set("fudge-wounds" as never, "fudgeTrack" as never, { safeguardFudgePoint: true } as never),
    );
    // The GM marks every box of her track on her sheet (as a box click does, through changeActor).
    for (const ref of ["nearDeath:0", "incapacitated:0", "veryHurt:0", "hurt:0", "scratch:0", "scratch:1", "scratch:2"])
      await t.gm.run(() => changeActor(actorOn(t.gm, t.theodora), (doc) => toggleWoundBox(doc, ref, worldRules())));
    await t.world.settle();
    const id = await attack(t, t.p1, t.leroy, [t.tokens.theodora], [1, 1, 1, 1]);
    fixDice(t.gm, [-1, -1, -1, -1]);
    await click(t, t.p2, id, "defend", t.theodora);
    return id;
  }

  it("player 2 spends Theodora's point through the GM and his Undo gives it back once; player 1 can neither spend nor undo it", async () => {
    const t = await relayTable();
    const id = await doomed(t);
    const points = fudgePoints(t, t.theodora);
    const forged = await forgeQuery(t, t.p1, "apply", {
      messageId: id,
      targetId: `Actor.${t.theodora}`,
      spendFudgePoint: true,
    });
    expect(forged).toMatchObject({ ok: false, key: "FUDGE.Error.FudgePointNotYours" });
    expect(fudgePoints(t, t.theodora)).toBe(points);
    await click(t, t.p2, id, "apply", t.theodora, { spendFudgePoint: true });
    expect(warnings(t.p2)).toEqual([]);
    expect(fudgePoints(t, t.theodora)).toBe(points - 1);
    expect(
      (actorOn(t.gm, t.theodora).system as unknown as { derived: { condition: string } }).derived.condition,
    ).not.toBe("dead");
    // Player 2 applied it: player 1 may not undo it; player 2 may, and the point comes back once.
    await click(t, t.p1, id, "undo", t.theodora);
    expect(warnings(t.p1)).toEqual([
      "This wound on Theodora is not yours to undo: ask the player who applied it, Theodora's owner or the GM.",
    ]);
    expect(fudgePoints(t, t.theodora)).toBe(points - 1);
    await click(t, t.p2, id, "undo", t.theodora);
    expect(warnings(t.p2)).toEqual([]);
    expect(fudgePoints(t, t.theodora)).toBe(points);
    await click(t, t.p2, id, "undo", t.theodora);
    expect(warnings(t.p2)).toEqual(["Nothing applied to Theodora to undo."]);
    expect(fudgePoints(t, t.theodora)).toBe(points);
  });
});
