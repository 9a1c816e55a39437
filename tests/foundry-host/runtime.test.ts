// @vitest-environment happy-dom
/**
 * Issue #7: src/foundry as Foundry v13 runs it — rolls, initiative, scene change and turn
 * effects — on the v13 host, with the real modules. Each test fails on the code before #7.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

type Sys = {
  woundTrack: { state: unknown };
  derived: { status: { condition: string; levelKey: string | null; effects: string[] } | null };
};
const sys = (c: Client, id: string) => actorOn(c, id).system as unknown as Sys;

/** Marks a wound box as the GM would on the sheet (the rules core's toggle). */
async function markBox(c: Client, id: string, ref: string) {
  await c.run(async () => {
    const a = actorOn(c, id);
    await updateActor(a, actions.toggleWoundBox(plainActor(a), ref, worldRules(), userRef()));
  });
}
const hurtMarks = (c: Client, id: string) =>
  ((sys(c, id).woundTrack.state as { marks: { hurt: unknown[] } }).marks.hurt ?? []).filter((x) => x !== null).length;
const setPreset = (t: Table, preset: string) =>
  t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, preset as never));
const messagesWithRolls = (c: Client) =>
  c.game.messages.contents.filter((m) => (m as unknown as { rolls: Roll[] }).rolls.length > 0);

describe("every die a Foundry Roll", () => {
  it("a trait roll is a Roll on the clicking user's client, in his roll mode, attached to the rollCard", async () => {
    const t = await table();
    await t.player.run(() => game.settings!.set("core", "rollMode", "gmroll"));
    const app = (await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<unknown> }).render({ force: true }),
    )) as unknown as { element: HTMLElement };
    t.world.dice.queue(1, 1, 0, -1);
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    const m = t.gm.game.messages.contents.at(-1)! as unknown as {
      type: string;
      rolls: Roll[];
      whisper: string[];
      system: { dice: number[] };
    };
    expect(m.type).toBe("rollCard");
    expect(m.system.dice).toEqual([1, 1, 0, -1]);
    expect(m.rolls[0].formula).toBe("4dF");
    expect(m.whisper).toEqual([t.ids.gm]);
    expect(t.world.rolls).toEqual([{ formula: "4dF", userId: t.ids.player, faces: [1, 1, 0, -1] }]);
  });

  it("a healing roll and a Volt recovery post a card with their Roll", async () => {
    const t = await table();
    await markBox(t.gm, t.hero, "hurt:0");
    const app = (await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<unknown> }).render({ force: true }),
    )) as unknown as { element: HTMLElement };
    const [medicine] = await t.gm.run(() =>
      actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
        { name: "Medicine", type: "skill", system: { level: 1 } } as never,
      ]),
    );
    await t.world.settle();
    t.world.dice.queue(1, 1, 1, 0);
    t.world.answerDialogs((req) => {
      (req.form.querySelector('[name="healer"]') as HTMLSelectElement).value = `${t.hero}:${medicine.id}`;
      return "ok";
    });
    t.player.click(app.element.querySelector('[data-action="heal"][data-heal="roll"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(messagesWithRolls(t.gm).map((m) => (m as unknown as { rolls: Roll[] }).rolls[0].formula)).toEqual(["4dF"]);
    expect(t.world.rolls.map((r) => r.userId)).toEqual([t.ids.player]);
    // Volt: Recover is a Willpower roll on two d20 (a Volt track with Stun to recover from).
    await setPreset(t, "volt");
    await t.gm.run(() =>
      updateActor(actorOn(t.gm, t.hero), actions.resetTrack(plainActor(actorOn(t.gm, t.hero)), userRef())),
    );
    await t.world.settle();
    const volt = (await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    )) as { element: HTMLElement };
    t.world.dice.queue(3, 17);
    t.player.click(volt.element.querySelector('[data-action="recover"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    const last = messagesWithRolls(t.gm).at(-1) as unknown as {
      rolls: Roll[];
      flags: Record<string, { dice: { faces: number[] }[] }>;
    };
    expect(last.rolls[0].formula).toBe("2d20");
    expect(last.flags["fudge-wounds"].dice[0].faces).toEqual([3, 17]);
    // Volt: Recovery — Recover "must be able to act": a Stun above the top row, and no die is rolled, no card posted.
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, actions.toggleWoundBox(plainActor(a), "row-12", worldRules(), userRef()));
    });
    await t.world.settle();
    const rolled = t.world.rolls.length;
    const posted = t.gm.game.messages.contents.length;
    t.world.dice.queue(2, 3);
    const again = (await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    )) as { element: HTMLElement };
    // The precondition (canRecover) disables the button and says why, before any click.
    const button = again.element.querySelector<HTMLButtonElement>('[data-action="recover"]')!;
    expect(button.disabled).toBe(true);
    expect(button.closest("[data-tooltip]")?.getAttribute("data-tooltip")).toContain("cannot Recover");
    t.player.click(button);
    await t.world.settle();
    expect(t.world.rolls.length).toBe(rolled);
    expect(t.gm.game.messages.contents.length).toBe(posted);
  });
});

describe("initiative", () => {
  it("rolls from the tracker with the preset's formula (core fails without one)", async () => {
    const t = await table();
    const combat = await t.gm.run(() => Combat.create({ scene: t.scene } as never));
    await t.gm.run(() =>
      (combat as unknown as Combat.Implementation).createEmbeddedDocuments("Combatant", [
        { actorId: t.hero, tokenId: t.heroToken } as never,
        { actorId: t.foe, tokenId: t.foeToken } as never,
      ]),
    );
    t.world.dice.queue(1, 1, 0, 0, -1, 0, 0, 0);
    await t.gm.run(() => (t.gm.game.combats.get(combat!.id!) as unknown as Combat.Implementation).rollAll());
    await t.world.settle();
    const c = t.player.game.combats.get(combat!.id!)!;
    // Fair (0) defence default, no wounds: 4dF + 0.
    expect(c.combatants.contents.map((x) => (x as unknown as { initiative: number }).initiative).sort()).toEqual([
      -1, 2,
    ]);
    expect(t.gm.run(() => (CONFIG.Combat as unknown as { initiative: { formula: string } }).initiative.formula)).toBe(
      "4dF + @derived.initiative",
    );
    expect(messagesWithRolls(t.gm)).toHaveLength(2);
  });

  it("follows the preset and the world setting", async () => {
    const t = await table();
    await setPreset(t, "volt");
    expect(
      t.player.run(() => (CONFIG.Combat as unknown as { initiative: { formula: string } }).initiative.formula),
    ).toBe("1d20 + @derived.initiative");
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "initiativeFormula" as never, "2d20" as never));
    expect(
      t.player.run(() => (CONFIG.Combat as unknown as { initiative: { formula: string } }).initiative.formula),
    ).toBe("2d20");
  });
});

describe("scene change (FATE: Hurt lasts for the scene)", () => {
  async function fateTable() {
    const t = await table();
    await setPreset(t, "fate");
    await markBox(t.gm, t.hero, "hurt:0");
    await markBox(t.gm, t.foe, "hurt:0");
    await t.world.settle();
    return t;
  }

  it("activating another scene clears Hurt — written once, by the active GM only", async () => {
    const t = await fateTable();
    expect(hurtMarks(t.gm, t.hero)).toBe(1);
    const road = await t.gm.run(() => Scene.create({ name: "Road" } as never));
    const before = t.world.server.journal.length;
    await t.gm.run(() => (road as unknown as { activate(): Promise<unknown> }).activate());
    await t.world.settle();
    const writes = t.world.server.journal.slice(before).filter((j) => j.documentName === "Actor");
    expect(writes.map((w) => w.userId)).toEqual([t.ids.gm, t.ids.gm]);
    for (const id of [t.hero, t.foe]) expect(hurtMarks(t.player, id)).toBe(0);
  });

  it("is safe to run twice (the same deactivation delivered again writes nothing more)", async () => {
    const t = await fateTable();
    const tavern = t.gm.game.scenes.get(t.scene)!;
    const before = t.world.server.requests.length;
    t.gm.run(() => {
      Hooks.callAll("updateScene", tavern as never, { active: false, _id: t.scene } as never, {} as never, t.ids.gm);
      Hooks.callAll("updateScene", tavern as never, { active: false, _id: t.scene } as never, {} as never, t.ids.gm);
    });
    await t.world.settle();
    t.gm.run(() =>
      Hooks.callAll("updateScene", tavern as never, { active: false, _id: t.scene } as never, {} as never, t.ids.gm),
    );
    await t.world.settle();
    expect(t.world.server.requests.slice(before).filter((j) => j.documentName === "Actor")).toHaveLength(2);
    for (const id of [t.hero, t.foe]) expect(hurtMarks(t.player, id)).toBe(0);
  });
});

describe("turn effects (v13 Combat lifecycle)", () => {
  async function miniTable() {
    const t = await table({
      seed: (world, ids) => {
        world.server.seed("Actor", {
          _id: "mini000000000001",
          name: "Knight",
          type: "miniature",
          ownership: { default: 0, [ids.player]: 3 },
          system: {},
        });
        world.server.seed("Actor", {
          _id: "mini000000000002",
          name: "Orc",
          type: "miniature",
          ownership: { default: 0 },
          system: {},
        });
        world.server.seed("Actor", {
          _id: "mini000000000003",
          name: "Goblin",
          type: "miniature",
          ownership: { default: 0 },
          system: {},
        });
      },
    });
    await setPreset(t, "miniatures");
    await markBox(t.gm, "mini000000000001", "nearDeath:0");
    const combat = (await t.gm.run(() =>
      Combat.create({ scene: t.scene } as never),
    )) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      combat.createEmbeddedDocuments("Combatant", [
        { actorId: "mini000000000002", initiative: 10 } as never,
        { actorId: "mini000000000003", initiative: 5 } as never,
        { actorId: "mini000000000001", initiative: 1 } as never,
      ]),
    );
    await t.gm.run(() => combat.startCombat());
    await t.world.settle();
    return { t, combat: () => t.gm.game.combats.get(combat.id!) as unknown as Combat.Implementation };
  }
  const nearDeathRolls = (t: Table) => t.world.rolls.length;

  it("a Near Death model rolls Guts at the start of its turn, once, on the active GM's client", async () => {
    const { t, combat } = await miniTable();
    t.world.dice.queue(1, 1, 0, 0);
    await t.gm.run(() => combat().nextTurn());
    await t.gm.run(() => combat().nextTurn());
    await t.world.settle();
    expect(t.world.rolls.map((r) => r.userId)).toEqual([t.ids.gm]);
    expect(messagesWithRolls(t.player)).toHaveLength(1);
  });

  it("stepping back fires nothing", async () => {
    const { t, combat } = await miniTable();
    // Guts rolls that leave the Knight Near Death (Guts −2 at Near Death, + 2 on the dice = 0).
    t.world.dice.queue(1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0);
    await t.gm.run(() => combat().update({ turn: 2 } as never));
    await t.world.settle();
    const n = nearDeathRolls(t);
    await t.gm.run(() => combat().previousTurn());
    await t.gm.run(() => combat().update({ turn: 2 } as never));
    await t.world.settle();
    // Back to the Goblin, then forward to the Knight again: one more Near Death roll, not two.
    expect(nearDeathRolls(t) - n).toBe(1);
  });

  it("a combatant passed over (skipped) gets no turn effects", async () => {
    const { t, combat } = await miniTable();
    await t.gm.run(() => combat().nextRound());
    await t.world.settle();
    // Round 2 starts at the Orc: the Knight's turn in round 1 was skipped — no Near Death roll for it.
    expect(nearDeathRolls(t)).toBe(0);
  });

  it("the player's client runs no turn effects when he ends his turn", async () => {
    const { t, combat } = await miniTable();
    await t.gm.run(() => combat().update({ turn: 1 } as never));
    await t.world.settle();
    const n = nearDeathRolls(t);
    // The GM moves to the Knight (the player's model); its start-of-turn roll is the GM's.
    await t.gm.run(() => combat().nextTurn());
    await t.world.settle();
    // One Near Death roll (a second Roll when its 4dF show four +: the Legendary re-roll), all the GM's.
    expect([...new Set(t.world.rolls.slice(n).map((r) => r.userId))]).toEqual([t.ids.gm]);
  });
});
