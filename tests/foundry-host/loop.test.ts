// @vitest-environment happy-dom
/** The real src/foundry modules on the host: sheets and the card loop with a GM and a player. */
import { describe, expect, it } from "vitest";
import { forCore } from "../../src/system/updates";
import { updateOperators } from "../../src/foundry/v14";
import { table, actorOn, armHero, openSheetOn } from "./table";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { trackFor } from "../../src/system/combatant";
import { applyWound, trackStatus } from "../../src/rules";

describe("card loop on the host", () => {
  it("player attacks from his sheet; the GM defends, applies and undoes from the card on his client", async () => {
    const t = await table();
    const weaponId = await armHero(t);
    const app = await openSheetOn(t.player, t.hero);
    // Attack ++++ (rolled on the player's client), then the defence −−−− (on the GM's).
    t.world.dice.queue(1, 1, 1, 1, -1, -1, -1, -1);
    // The attack dialog comes first (issue 9): the player rolls with its default choices.
    t.world.answerDialogs((req) => {
      expect(req.kind).toBe("wait");
      expect(req.form.querySelector('[data-action="roll"]')).not.toBeNull();
      return "ok";
    });
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
    await t.world.settle();
    expect(t.world.dialogs.map((d) => d.title)).toEqual(["FUDGE.Attack.DialogTitle"]);
    const msg = t.gm.game.messages.contents.at(-1)!;
    expect(msg.type).toBe("attackCard");
    expect((msg as unknown as { author: { id: string } }).author.id).toBe(t.ids.player);
    // Every die a Foundry Roll, rolled on the clicking user's client and attached to the message.
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([["4dF", t.ids.player]]);
    expect((msg as unknown as { rolls: Roll[] }).rolls.map((r) => r.formula)).toEqual(["4dF"]);
    // The player's client shows no Defend button (not his NPC); the GM's does.
    expect(t.player.chatLog.get(msg.id)!.querySelector('[data-action="defend"]')).toBeNull();
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([
      ["4dF", t.ids.player],
      ["4dF", t.ids.gm],
    ]);
    expect((t.player.game.messages.get(msg.id) as unknown as { rolls: Roll[] }).rolls).toHaveLength(2);
    const apply = t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]');
    expect(apply).not.toBeNull();
    t.gm.click(apply);
    await t.world.settle();
    const applied = (t.player.game.messages.get(msg.id)!.system as unknown as { targets: { applied: unknown[] }[] })
      .targets[0].applied;
    expect(applied).toHaveLength(1);
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="undo"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
    expect((actorOn(t.player, t.foe).system as unknown as { woundTrack: { state: unknown } }).woundTrack.state).toEqual(
      (actorOn(t.gm, t.foe).toObject().system as { woundTrack: { state: unknown } }).woundTrack.state,
    );
  });
});

describe("Apply counts the attacker as he rolled (the card's timestamp and his own wound log)", () => {
  it("a wound applied to the attacker after his card was posted does not change his attack (Fudge §4.51: the penalty in force when he rolled)", async () => {
    const t = await table();
    const weaponId = await armHero(t);
    const app = await openSheetOn(t.player, t.hero);
    // Attack + 0 0 0, defence 0 0 0 0: Leroy wins by his margin; Hurt (−1) on him would make it one less.
    t.world.dice.queue(1, 0, 0, 0, 0, 0, 0, 0);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    const shown = (
      t.gm.game.messages.get(msg.id)!.system as unknown as {
        targets: { resolution: { woundKey: string | null; numbers: Record<string, number> } }[];
      }
    ).targets[0].resolution;
    // Theodora's counter-attack is applied to Leroy first: Hurt, recorded in his wound log after the card's time.
    await t.gm.run(async () => {
      const leroy = actorOn(t.gm, t.hero);
      const before = (leroy.toObject().system as { woundTrack: { state: unknown } }).woundTrack.state;
      const hurt = t.gm.run(() => applyWound(trackFor(plainActor(leroy), worldRules()), { level: "hurt" }).track.state);
      const record = {
        messageId: "counterCard00001",
        by: t.ids.gm,
        at: (msg as unknown as { timestamp: number }).timestamp + 1000,
        before,
        after: hurt,
        fudgePointSpent: false,
        undone: false,
        undoneBy: "",
      };
      await leroy.update(
        forCore(
          {
            system: { woundTrack: { "==state": hurt } },
            flags: { "fudge-wounds": { woundLog: { counterCard00001: record } } },
          },
          updateOperators(),
        ) as never,
      );
    });
    await t.world.settle();
    expect(t.gm.run(() => trackStatus(trackFor(plainActor(actorOn(t.gm, t.hero)), worldRules())).penalty)).toBe(-1);
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    const target = (
      t.gm.game.messages.get(msg.id)!.system as unknown as {
        targets: {
          differs?: boolean;
          resolution: { woundKey: string | null; numbers: Record<string, number> };
          applied: unknown[];
        }[];
      }
    ).targets[0];
    expect(target.applied).toHaveLength(1);
    expect(target.differs ?? false).toBe(false);
    expect(target.resolution.woundKey).toBe(shown.woundKey);
    expect(target.resolution.numbers).toEqual(shown.numbers);
  });
});
