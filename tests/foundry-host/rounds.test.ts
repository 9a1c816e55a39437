// @vitest-environment happy-dom
/**
 * Three rules the table did not play, on the v13 host with the real modules:
 *  - Fudge §4.62 (RULES §2.2) "Stunned (… one round) … Very Stunned (… two rounds)": the stun
 *    counts down at the end of the stunned character's own turns, by the active GM's client;
 *  - Fudge §4.64 (RULES §2.3) "nobody becomes Near Death unless they began the round
 *    Incapacitated": the GM's client records each round's start on the combat, Apply reads it;
 *  - RULES §2.2 "Automatic death: a GM-only action, no roll": the skull on the sheet, and the
 *    GM's undo of it (the kill's record in the actor's flags).
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { applyWound, trackStatus } from "../../src/rules";
import { changeActor, plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { withGmRecordsOf } from "../../src/foundry/gm-records";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Rec = Record<string, unknown>;
type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
const stateOf = (c: Client, id: string) =>
  (
    actorOn(c, id).toObject().system as {
      woundTrack: { state: { stun: { effect: string; rounds: number } | null; dead: boolean } | null };
    }
  ).woundTrack.state;
const status = (c: Client, id: string) => c.run(() => trackStatus(trackFor(plainActor(actorOn(c, id)), worldRules())));

/** The GM marks a wound on `id` as the rules core would (a stun attack's wound: `{level, stun: true}`). */
async function wound(t: Table, id: string, w: Rec) {
  await t.gm.run(async () => {
    const a = actorOn(t.gm, id);
    await updateActor(a, {
      system: { woundTrack: { "==state": applyWound(trackFor(plainActor(a), worldRules()), w).track.state } },
    });
  });
  await t.world.settle();
}

/** A started combat: Leroy (initiative 10) acts first, Theodora (5) second. */
async function fight(t: Table) {
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as Combat.Implementation;
  await t.gm.run(() =>
    combat.createEmbeddedDocuments("Combatant", [
      { actorId: t.hero, tokenId: t.heroToken, initiative: 10 } as never,
      { actorId: t.foe, tokenId: t.foeToken, initiative: 5 } as never,
    ]),
  );
  await t.gm.run(() => combat.startCombat());
  await t.world.settle();
  const live = () => t.gm.game.combats.get(combat.id!) as unknown as Combat.Implementation;
  const next = async () => {
    await t.gm.run(() => live().nextTurn());
    await t.world.settle();
  };
  const current = () => (live() as unknown as { combatant?: { actorId: string } }).combatant?.actorId;
  return { live, next, current };
}

describe("Fudge §4.62: Stunned lasts one round, Very Stunned two — counted on the stunned fighter's own turns", () => {
  it("Stunned before his turn: stunned through it, and the stun wears off as it ends (sheet and token follow)", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "hurt", stun: true });
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "stunned", rounds: 1 });
    const f = await fight(t);
    expect(f.current()).toBe(t.hero);
    expect(status(t.player, t.hero).effects).toEqual(["stunned"]);
    expect([...actorOn(t.player, t.hero).statuses]).toContain("fudge-wounds.stunned");
    await f.next(); // Leroy's turn ends
    expect(f.current()).toBe(t.foe);
    expect(stateOf(t.player, t.hero)?.stun).toBeNull();
    expect(status(t.player, t.hero).effects).toEqual([]);
    expect([...actorOn(t.player, t.hero).statuses]).not.toContain("fudge-wounds.stunned");
    // The stun mark stays (it heals like a Scratch, Fudge §4.62); only the effect is over.
    expect(
      Object.values((stateOf(t.gm, t.hero) as unknown as { marks: Record<string, (Rec | null)[]> }).marks)
        .flat()
        .filter((m) => m?.stun),
    ).toHaveLength(1);
    const app = await t.player.run(() => (actorOn(t.player, t.hero).sheet as unknown as Sheet).render({ force: true }));
    expect(app.element.querySelector(".fudge-effect.effect-stunned")).toBeNull();
    // Written by the GM's client (the actor update, and the turn's note on the combat).
    const writes = t.world.server.journal
      .filter((j) => j.documentName === "Actor" && j.ids.includes(t.hero))
      .map((j) => j.userId);
    expect(new Set(writes)).toEqual(new Set([t.ids.gm]));
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
    // The turn's note is cleared in the running core's terms (v14: _del, no legacy `-=` key).
    expect(t.world.deprecations).toEqual([]);
  });

  it("Stunned after his turn (by Theodora in her turn): still stunned through the round's end, and through his next turn, then free", async () => {
    const t = await table();
    const f = await fight(t);
    await f.next(); // Leroy acted; Theodora's turn
    await wound(t, t.hero, { level: "hurt", stun: true });
    await f.next(); // Theodora's turn ends; round 2, Leroy's turn
    expect(f.live().round).toBe(2);
    expect(f.current()).toBe(t.hero);
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "stunned", rounds: 1 });
    await f.next(); // Leroy's turn ends
    expect(stateOf(t.gm, t.hero)?.stun).toBeNull();
  });

  it("Very Stunned: two of his turns", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "veryHurt", stun: true });
    const f = await fight(t);
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "veryStunned", rounds: 2 });
    await f.next(); // his first turn ends
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "veryStunned", rounds: 1 });
    await f.next(); // Theodora's turn ends; round 2
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "veryStunned", rounds: 1 });
    await f.next(); // his second turn ends
    expect(stateOf(t.gm, t.hero)?.stun).toBeNull();
    expect(t.world.errors).toEqual([]);
  });

  it("a stun taken during his own turn waits for his next turn", async () => {
    const t = await table();
    const f = await fight(t);
    expect(f.current()).toBe(t.hero);
    await wound(t, t.hero, { level: "hurt", stun: true });
    await f.next(); // this turn ends: the stun came after it began
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "stunned", rounds: 1 });
    await f.next(); // round 2, his turn
    await f.next(); // it ends
    expect(stateOf(t.gm, t.hero)?.stun).toBeNull();
  });

  it("knocked out does not wear off with the turns (it lasts until the stun marks heal)", async () => {
    const t = await table();
    for (const level of ["hurt", "veryHurt", "incapacitated", "nearDeath"])
      await wound(t, t.hero, { level, stun: true });
    expect(stateOf(t.gm, t.hero)?.stun?.effect).toBe("knockedOut");
    const f = await fight(t);
    await f.next();
    await f.next();
    await f.next();
    expect(stateOf(t.gm, t.hero)?.stun?.effect).toBe("knockedOut");
  });
});

describe("Fudge §4.64: Near Death only from Incapacitated — the GM's round-start record", () => {
  /** A world with the safeguard on; Theodora (the GM's NPC) with a greatsword (+4). */
  async function safeguardTable(): Promise<{ t: Table; swordId: string }> {
    const t = await table();
    await t.gm.run(() =>
      game.settings!.set(
        "fudge-wounds" as never,
        "fudgeTrack" as never,
        { ...worldRules().fudgeTrack, safeguardNearDeathFromIncapacitated: true } as never,
      ),
    );
    const [sword] = await t.gm.run(() =>
      actorOn(t.gm, t.foe).createEmbeddedDocuments("Item", [
        { name: "Greatsword", type: "weapon", system: { equipped: true, size: "twoHanded", sharp: true } } as never,
      ]),
    );
    await t.world.settle();
    return { t, swordId: String(sword.id) };
  }

  /** Theodora's best blow (++++) on Leroy's worst defence (−−−−), rolled and defended by the player, applied by the GM. */
  async function bigBlow(t: Table, swordId: string) {
    t.gm.target(t.gm.game.scenes.get(t.scene)!.tokens.get(t.heroToken)!);
    const app = await t.gm.run(() => (actorOn(t.gm, t.foe).sheet as unknown as Sheet).render({ force: true }));
    t.world.dice.queue(1, 1, 1, 1);
    t.world.answerDialogs("ok");
    t.gm.click(app.element.querySelector(`[data-action="attack"][data-item-id="${swordId}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    t.world.dice.queue(-1, -1, -1, -1);
    t.player.click(t.player.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    const target = (
      t.gm.game.messages.get(msg.id)!.system as unknown as {
        targets: { applied: unknown[]; differs?: boolean; resolution: { woundKey: string } }[];
      }
    ).targets[0];
    return target;
  }

  it("Incapacitated when the round began: the hit lands — Near Death (it never could before)", async () => {
    const { t, swordId } = await safeguardTable();
    await wound(t, t.hero, { level: "incapacitated" });
    const f = await fight(t);
    const rec = f.live().getFlag("fudge-wounds" as never, "roundStart" as never) as {
      round: number;
      incapacitated: string[];
    };
    expect(rec).toMatchObject({ round: 1, incapacitated: [actorOn(t.gm, t.hero).uuid] });
    const target = await bigBlow(t, swordId);
    expect(target.resolution.woundKey).toBe("nearDeath");
    expect(target.applied).toHaveLength(1);
    expect(target.differs).toBe(false);
    expect(status(t.gm, t.hero).condition).toBe("dying");
    expect(t.world.errors).toEqual([]);
    expect(t.gm.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("Incapacitated only since the round began: the safeguard holds this round; the next round the hit lands", async () => {
    const { t, swordId } = await safeguardTable();
    const f = await fight(t);
    await wound(t, t.hero, { level: "incapacitated" }); // during round 1
    const first = await bigBlow(t, swordId);
    expect(first.applied).toHaveLength(1);
    expect(status(t.gm, t.hero).condition).toBe("cannotAct");
    expect(stateOf(t.gm, t.hero)?.dead).toBe(false);
    await f.next();
    await f.next(); // round 2: he began it Incapacitated
    expect(f.live().round).toBe(2);
    await bigBlow(t, swordId);
    expect(status(t.gm, t.hero).condition).toBe("dying");
    expect(t.world.errors).toEqual([]);
  });

  it("the record is the GM's: a player cannot write it on the combat", async () => {
    const { t } = await safeguardTable();
    const f = await fight(t);
    const onPlayer = t.player.game.combats.get(f.live().id!) as unknown as Combat.Implementation;
    await expect(
      t.player.run(() =>
        onPlayer.setFlag(
          "fudge-wounds" as never,
          "roundStart" as never,
          { round: 1, actors: [], incapacitated: [] } as never,
        ),
      ),
    ).rejects.toThrow(/lacks permission/);
    const writers = t.world.server.journal.filter((j) => j.documentName === "Combat").map((j) => j.userId);
    expect(new Set(writers)).toEqual(new Set([t.ids.gm]));
  });
});

describe("RULES §2.2: automatic death (GM only, no roll) from the sheet", () => {
  it("the GM's skull button, confirmed, marks Leroy Dead; his token shows it", async () => {
    const t = await table();
    const app = await t.gm.run(() => (actorOn(t.gm, t.hero).sheet as unknown as Sheet).render({ force: true }));
    const button = app.element.querySelector('.fudge-track-header [data-action="killActor"]');
    expect(button?.getAttribute("data-tooltip")).toMatch(/Automatic death/);
    t.world.answerDialogs("no");
    t.gm.click(button);
    await t.world.settle();
    expect(stateOf(t.gm, t.hero)?.dead ?? false).toBe(false);
    t.world.answerDialogs("yes");
    t.gm.click(app.element.querySelector('[data-action="killActor"]'));
    await t.world.settle();
    expect(stateOf(t.player, t.hero)?.dead).toBe(true);
    expect(status(t.player, t.hero).condition).toBe("dead");
    expect([...actorOn(t.player, t.hero).statuses]).toContain("dead");
    // Dead: the button is gone.
    const again = await t.gm.run(() => (actorOn(t.gm, t.hero).sheet as unknown as Sheet).render({ force: true }));
    expect(again.element.querySelector('[data-action="killActor"]')).toBeNull();
    expect(t.world.errors).toEqual([]);
  });

  it("the player's sheet of his own character has no such button, and the action refuses him", async () => {
    const t = await table();
    const app = await t.player.run(() => (actorOn(t.player, t.hero).sheet as unknown as Sheet).render({ force: true }));
    expect(app.element.querySelector('[data-action="killActor"]')).toBeNull();
    expect(() =>
      t.player.run(() => actions.killActor(plainActor(actorOn(t.player, t.hero)), worldRules(), userRef())),
    ).toThrow(/only a GM/);
  });
});

describe("RULES §2.2: the GM's undo of an automatic death (the kill's record, GM only)", () => {
  // The kill's record is the GM's, in the GM's store (a world setting), not in the actor's flags.
  const killRecord = (c: Client, id: string) =>
    c.run(() => withGmRecordsOf(plainActor(actorOn(c, id))).gmRecords?.killedFrom);
  const fullState = (c: Client, id: string) => c.run(() => trackFor(plainActor(actorOn(c, id)), worldRules()).state);
  const sheetOf = (c: Client, id: string) =>
    c.run(() => (actorOn(c, id).sheet as unknown as Sheet).render({ force: true }));

  async function killed(t: Table) {
    const app = await sheetOf(t.gm, t.hero);
    t.world.answerDialogs("yes");
    t.gm.click(app.element.querySelector('[data-action="killActor"]'));
    await t.world.settle();
    expect(status(t.gm, t.hero).condition).toBe("dead");
  }

  it("box track: the GM kills Hurt Leroy (confirmed), then his undo puts the track back exactly and removes the record", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "hurt" });
    const before = fullState(t.gm, t.hero);
    expect(await sheetOf(t.gm, t.hero).then((a) => a.element.querySelector('[data-action="undoKill"]'))).toBeNull();
    await killed(t);
    expect(killRecord(t.gm, t.hero)).toMatchObject({ before, after: fullState(t.gm, t.hero), by: t.ids.gm });
    const app = await sheetOf(t.gm, t.hero);
    const undo = app.element.querySelector('.fudge-track-header [data-action="undoKill"]');
    expect(undo?.getAttribute("data-tooltip")).toMatch(/Undo automatic death/);
    expect(undo?.querySelector("i.fa-heart-pulse")).not.toBeNull();
    // The player who owns Leroy sees no undo, and the action refuses him.
    expect((await sheetOf(t.player, t.hero)).element.querySelector('[data-action="undoKill"]')).toBeNull();
    expect(() =>
      t.player.run(() => actions.undoKill(plainActor(actorOn(t.player, t.hero)), worldRules(), userRef())),
    ).toThrow(/only a GM/);
    t.gm.click(undo);
    await t.world.settle();
    expect(fullState(t.player, t.hero)).toEqual(before);
    expect(status(t.player, t.hero).condition).not.toBe("dead");
    expect([...actorOn(t.player, t.hero).statuses]).not.toContain("dead");
    expect(killRecord(t.player, t.hero)).toBeUndefined();
    const again = await sheetOf(t.gm, t.hero);
    expect(again.element.querySelector('[data-action="undoKill"]')).toBeNull();
    expect(again.element.querySelector('[data-action="killActor"]')).not.toBeNull();
    expect(t.world.errors).toEqual([]);
    expect(t.gm.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("Damage Capacity track: the undo gives the previous DC back; after a later change it is refused and not offered", async () => {
    const t = await table();
    await t.gm.run(() =>
      game.settings!.set(
        "fudge-wounds" as never,
        "fudge" as never,
        { ...worldRules().fudge, dcVariant: "track" } as never,
      ),
    );
    await t.world.settle();
    await wound(t, t.hero, { level: "hurt" });
    const before = fullState(t.gm, t.hero) as { dc: number };
    await killed(t);
    expect((fullState(t.gm, t.hero) as { dc: number }).dc).not.toBe(before.dc);
    t.gm.click((await sheetOf(t.gm, t.hero)).element.querySelector('[data-action="undoKill"]'));
    await t.world.settle();
    expect(fullState(t.player, t.hero)).toEqual(before);
    // Killed again, then a later change (the GM marks a Scratch box): the undo would overwrite it.
    await killed(t);
    await t.gm.run(() =>
      changeActor(actorOn(t.gm, t.hero), (doc) => actions.toggleWoundBox(doc, "scratch:0", worldRules(), userRef())),
    );
    await t.world.settle();
    expect(killRecord(t.gm, t.hero)).toBeDefined();
    expect(fullState(t.gm, t.hero)).not.toEqual((killRecord(t.gm, t.hero) as Rec).after);
    expect(status(t.gm, t.hero).condition).toBe("dead");
    expect((await sheetOf(t.gm, t.hero)).element.querySelector('[data-action="undoKill"]')).toBeNull();
    expect(() =>
      t.gm.run(() => actions.undoKill(withGmRecordsOf(plainActor(actorOn(t.gm, t.hero))), worldRules(), userRef())),
    ).toThrow(/changed since the automatic death/);
    expect(t.world.errors).toEqual([]);
  });

  it("the owner cannot rewrite what the GM's undo restores: a record in his character's flags is no record", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "hurt" });
    const before = fullState(t.gm, t.hero);
    await killed(t);
    const dead = fullState(t.gm, t.hero);
    // The owner writes a kill record of his own: "before the kill, I was unhurt" (Theodora's track is unhurt).
    const forged = { before: fullState(t.gm, t.foe), after: dead, by: t.ids.gm, at: Date.now() };
    await t.player.run(() =>
      actorOn(t.player, t.hero).update({ flags: { "fudge-wounds": { killedFrom: forged } } } as never),
    );
    await t.world.settle();
    // The GM's undo shows and restores what the GM's own record says: Hurt.
    t.world.answerDialogs("yes");
    t.gm.click((await sheetOf(t.gm, t.hero)).element.querySelector('[data-action="undoKill"]'));
    await t.world.settle();
    expect(fullState(t.player, t.hero)).toEqual(before);
    const shown = t.world.dialogs.at(-1)!;
    expect(shown.title).toBe("FUDGE.Sheet.UndoKill");
    expect(shown.content).toContain("Hurt");
    expect(shown.content).toContain("Gamemaster");
    // He cannot write the GM's store either: the server refuses a player's world setting.
    await expect(
      t.player.run(() =>
        game.settings!.set(
          "fudge-wounds" as never,
          "gmRecords" as never,
          { [`Actor.${t.hero}`]: { killedFrom: forged } } as never,
        ),
      ),
    ).rejects.toThrow(/lacks permission/);
  });

  it("a character dead by a wound (no kill of the GM's) gets no undo from a record planted in his flags", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "hurt" });
    const before = fullState(t.gm, t.hero);
    await wound(t, t.hero, { kill: true });
    const dead = fullState(t.gm, t.hero);
    await t.player.run(() =>
      actorOn(t.player, t.hero).update({
        flags: { "fudge-wounds": { killedFrom: { before: fullState(t.gm, t.foe), after: dead, by: t.ids.gm, at: 1 } } },
      } as never),
    );
    await t.world.settle();
    expect((await sheetOf(t.gm, t.hero)).element.querySelector('[data-action="undoKill"]')).toBeNull();
    expect(fullState(t.gm, t.hero)).not.toEqual(before);
    expect(status(t.gm, t.hero).condition).toBe("dead");
  });

  it("the undo asks first, saying what it restores; answered No, nothing changes", async () => {
    const t = await table();
    await wound(t, t.hero, { level: "hurt" });
    await killed(t);
    const dead = fullState(t.gm, t.hero);
    t.world.answerDialogs("no");
    t.gm.click((await sheetOf(t.gm, t.hero)).element.querySelector('[data-action="undoKill"]'));
    await t.world.settle();
    expect(t.world.dialogs.at(-1)!.content).toMatch(/goes back to how it was before it: Hurt \(penalty −1\)/);
    expect(fullState(t.gm, t.hero)).toEqual(dead);
    expect(killRecord(t.gm, t.hero)).toBeDefined();
  });
});
