// @vitest-environment happy-dom
/**
 * Fudge §4.51: "maybe a Light Wound causes no penalty during combat (you don't notice such a slight
 * wound in the heat of battle), but after combat the character will be at -1 to all skills until
 * it's healed" — at the table on the v13 host: the custom level's After combat column, the sheet's
 * penalty and the trait roll's, outside a combat and in a started one.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type App = { element: HTMLElement };
type Level = { key: string; penalty: number; afterCombatPenalty: number | null };
const levels = (c: Client, id: string) =>
  (actorOn(c, id).system as unknown as { woundTrack: { customLevels: Level[] } }).woundTrack.customLevels;
const openSheet = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));

/** The GM's edit as the sheet makes it (src/system's setActorField / toggleWoundBox). */
async function gmEdit(t: Table, f: (a: ReturnType<typeof plainActor>) => { system: Record<string, unknown> }) {
  await t.gm.run(async () => {
    const a = actorOn(t.gm, t.hero);
    await updateActor(a, f(plainActor(a)));
  });
  await t.world.settle();
}

/** The player edits a sheet field as a user does (value, then "change"). */
async function edit(t: Table, app: App, name: string, value: string) {
  const input = app.element.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
  expect(input, name).not.toBeNull();
  t.player.run(() => {
    input.value = value;
    input.dispatchEvent(new Event("change"));
  });
  await t.world.settle();
}

/** Shift-free trait roll (the dialog answered OK), the roll card's wound penalty. */
async function rollStrength(t: Table): Promise<number> {
  const app = await openSheet(t.player, t.hero);
  t.world.dice.queue(0, 0, 0, 0);
  t.world.answerDialogs("ok");
  t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
  await t.world.settle();
  expect(t.world.errors).toEqual([]);
  const m = t.gm.game.messages.contents.at(-1)! as unknown as {
    type: string;
    system: { penalty: number; steps: { key: string }[] };
  };
  expect(m.type).toBe("rollCard");
  return m.system.penalty;
}

const penaltyShown = (app: App) => {
  const el = app.element.querySelector(".fudge-track-status .fudge-penalty")!;
  return [el.querySelector(".value")!.textContent, el.querySelector(".note")?.textContent ?? ""];
};

describe("Fudge §4.51 Light Wound at the table (v13 host)", () => {
  it("the After combat column is stored, a wound there is −1 outside combat and 0 in a started combat, on the sheet and on the roll", async () => {
    const t = await table();
    await gmEdit(t, (a) => actions.setActorField(a, "woundTrack.preset", "custom", userRef()));
    expect(levels(t.gm, t.hero).map((l) => l.afterCombatPenalty)).toEqual([null, null, null, null, null]);
    // The player makes Hurt the text's Light Wound: no penalty in combat, −1 after.
    let app = await openSheet(t.player, t.hero);
    await edit(t, app, "system.woundTrack.customLevels.1.label", "Light Wound");
    app = await openSheet(t.player, t.hero);
    await edit(t, app, "system.woundTrack.customLevels.1.penalty", "0");
    app = await openSheet(t.player, t.hero);
    await edit(t, app, "system.woundTrack.customLevels.1.afterCombatPenalty", "-1");
    expect(levels(t.gm, t.hero)[1]).toMatchObject({ key: "hurt", penalty: 0, afterCombatPenalty: -1 });
    await gmEdit(t, (a) => actions.toggleWoundBox(a, "hurt:0", worldRules(), userRef()));
    app = await openSheet(t.player, t.hero);
    expect(penaltyShown(app)).toEqual(["\u22121", "0 in combat"]);
    expect(await rollStrength(t)).toBe(-1);

    // A started combat with Leroy in it: no penalty (the heat of battle).
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    const live = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      live().createEmbeddedDocuments("Combatant", [{ actorId: t.hero, tokenId: t.heroToken } as never]),
    );
    await t.world.settle();
    expect(await rollStrength(t)).toBe(-1); // not started yet: still "after combat"
    app = await openSheet(t.player, t.hero);
    await t.gm.run(() => live().startCombat());
    await t.world.settle();
    // The player's open sheet is redrawn when the combat starts (no reopening).
    expect(penaltyShown(app)).toEqual(["0", "\u22121 after combat"]);
    expect(await rollStrength(t)).toBe(0);

    // The combat over, −1 again; a blank cell removes it (the level's one penalty).
    app = await openSheet(t.player, t.hero);
    await t.gm.run(() => live().endCombat());
    await t.world.settle();
    expect(penaltyShown(app)).toEqual(["\u22121", "0 in combat"]);
    expect(await rollStrength(t)).toBe(-1);
    app = await openSheet(t.player, t.hero);
    await edit(t, app, "system.woundTrack.customLevels.1.afterCombatPenalty", "");
    expect(levels(t.gm, t.hero)[1].afterCombatPenalty).toBeNull();
    expect(await rollStrength(t)).toBe(0);
  });

  it("stored data: levels written before the field load with none (no migration); the data field keeps a value in −10..0", async () => {
    const t = await table();
    const old = [{ key: "lightWound", label: "Light Wound", boxes: 1, penalty: 0, threshold: 1, effect: "" }];
    await t.gm.run(() =>
      actorOn(t.gm, t.hero).update({ system: { woundTrack: { preset: "custom", customLevels: old } } } as never),
    );
    await t.world.settle();
    expect(levels(t.gm, t.hero)[0].afterCombatPenalty).toBeNull();
    const bad = [{ ...old[0], afterCombatPenalty: 2 }];
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ system: { woundTrack: { customLevels: bad } } } as never));
    await t.world.settle();
    // v13's NumberField cleans a number into its range (as every whole-number field of the model).
    expect(levels(t.gm, t.hero)[0].afterCombatPenalty).toBe(0);
  });
});
