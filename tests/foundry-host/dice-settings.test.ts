// @vitest-environment happy-dom
/**
 * The dice option on the v13 host (issue 32, Fudge §3.21–3.22): the GM's rules menu refuses to
 * change the dice while a combat is running (a sentence, nothing saved: its rolls so far were made
 * with them), and saves it once the combat is gone; the ladder's lower end shows Abysmal on a sheet.
 */
import { describe, expect, it } from "vitest";
import { RULE_FIELDS, formEntries } from "../../src/system/settings-menu";
import { table, actorOn, armHero, openSheetOn } from "./table";

const dice = (c: { run<T>(f: () => T): T }) =>
  c.run(() => game.settings!.get("fudge-wounds" as never, "dice" as never)) as unknown as string;

describe("the dice option in the v13 rules menu", () => {
  it("is refused while a combat is running, nothing saved; saved once the combat is gone", async () => {
    const t = await table();
    const combat = (await t.gm.run(() =>
      Combat.create({ scene: t.scene } as never),
    )) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      combat.createEmbeddedDocuments("Combatant", [
        { tokenId: t.heroToken, sceneId: t.scene, actorId: t.hero } as never,
      ]),
    );
    await t.gm.run(() => combat.startCombat());
    await t.world.settle();
    const { RulesMenu } = await import("../../src/foundry/rules-menu");
    const { worldRules } = await import("../../src/foundry/bridge");
    const submit = async (changes: Record<string, unknown>) => {
      await t.gm.run(async () => {
        const rules = worldRules();
        const object = { ...Object.fromEntries(RULE_FIELDS.flatMap((f) => formEntries(rules, f))), ...changes };
        const menu = new RulesMenu();
        await RulesMenu.onSubmit.call(menu, new Event("submit"), document.createElement("form"), { object });
      });
      await t.world.settle();
    };
    await submit({ dice: "3d6" });
    expect(dice(t.gm)).toBe("4dF");
    expect(t.gm.notifications.at(-1)!.message).toMatch(/The dice cannot change while a combat is running/);
    await t.gm.run(() => combat.delete());
    await t.world.settle();
    await submit({ dice: "3d6", lowerEnd: true });
    expect(dice(t.gm)).toBe("3d6");
    expect(dice(t.player)).toBe("3d6");

    // The lower end is on: a trait below Terrible is named Abysmal on the sheet's pickers.
    const app = await openSheetOn(t.player, t.hero);
    const options = [...app.element.querySelectorAll('select[name="system.attributes.strength"] option')];
    expect(options.map((o) => o.textContent)).toContain("Abysmal (−4)");
    expect(t.world.errors).toEqual([]);
  });
});

describe("trait rolls with the world's dice option (Fudge §3.21–3.22), each throw a Foundry Roll", () => {
  const cases: { dice: string; faces: number[]; formula: string; rolls: number; result: number }[] = [
    // 1–2 −, 3–4 blank, 5–6 +: −1 + 0 + 1 + 1; the registered `ds` die's Roll totals the reading.
    { dice: "4d6F", faces: [1, 3, 5, 6], formula: "4ds", rolls: 1, result: 1 },
    { dice: "d6-d6", faces: [5, 2], formula: "1d6 - 1d6", rolls: 1, result: 3 },
    // 3d6 on the default table: 17–18 read +4.
    { dice: "3d6", faces: [6, 6, 5], formula: "3d6", rolls: 1, result: 4 },
    // d% on the default table: 90 is rolled again; 40 (32–50) reads 0.
    { dice: "d%", faces: [90, 40], formula: "1d100", rolls: 2, result: 0 },
  ];
  for (const c of cases)
    it(`${c.dice}: the card records every throw and reads ${c.result >= 0 ? "+" : ""}${c.result}`, async () => {
      const t = await table();
      await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "dice" as never, c.dice as never));
      await t.world.settle();
      const app = await t.player.run(() =>
        (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render(
          { force: true },
        ),
      );
      t.world.dice.queue(...c.faces);
      t.world.answerDialogs("ok");
      t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
      await t.world.settle();
      const m = t.gm.run(() => {
        const msg = t.gm.game.messages.contents.at(-1)! as unknown as {
          type: string;
          system: { dice: number[]; diceOption: string; result: number; level: number };
          rolls: { formula: string; total: number }[];
        };
        return {
          type: msg.type,
          system: msg.system,
          rolls: msg.rolls.map((r) => ({ formula: r.formula, total: r.total })),
        };
      });
      expect(m.type).toBe("rollCard");
      expect(m.system).toMatchObject({ dice: c.faces, diceOption: c.dice, result: m.system.level + c.result });
      expect(m.rolls.map((r) => r.formula)).toEqual(Array(c.rolls).fill(c.formula));
      if (c.dice === "4d6F" || c.dice === "d6-d6") expect(m.rolls[0].total).toBe(c.result);
      expect(t.world.errors).toEqual([]);
    });
});

describe("attacks and defences with the world's dice option (Fudge §3.21–3.22), each throw a Foundry Roll", () => {
  it("d%: the attack's 95 is rolled again, the defence rolls 1d100 on the GM's client; the card records the option and Apply re-derives it", async () => {
    const t = await table();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "dice" as never, "d%" as never));
    const weaponId = await armHero(t);
    const app = await openSheetOn(t.player, t.hero);
    // Attack: 95 (82–00: rolled again), then 81 (+4); defence: 20 (16–31: −1).
    t.world.dice.queue(95, 81, 20);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    expect(msg.type).toBe("attackCard");
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([
      ["1d100", t.ids.player],
      ["1d100", t.ids.player],
      ["1d100", t.ids.gm],
    ]);
    const system = t.player.game.messages.get(msg.id)!.system as unknown as {
      diceOption: string;
      attackDice: Record<string, number[]>;
      targets: { dice: Record<string, number[]>; resolution: { dice: Record<string, number[]> } }[];
    };
    expect(system.diceOption).toBe("d%");
    expect(system.attackDice).toEqual({ attack: [81] });
    expect(system.targets[0].resolution.dice).toEqual({ attack: [81], defense: [20] });
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    const applied = (t.player.game.messages.get(msg.id)!.system as unknown as { targets: { applied: unknown[] }[] })
      .targets[0].applied;
    expect(applied).toHaveLength(1);
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
  });
});

describe("a FATE world with the world's dice option (Fudge §3.21–3.22; FATE is a Fudge derivative)", () => {
  it("d6−d6: the attack, the defence and a trait roll are thrown 1d6 - 1d6 and read so; Apply re-derives", async () => {
    const t = await table();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "dice" as never, "d6-d6" as never));
    const weaponId = await armHero(t);
    const app = await openSheetOn(t.player, t.hero);
    // Attack 6 − 2 = +4; defence 1 − 6 = −5.
    t.world.dice.queue(6, 2, 1, 6);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
    await t.world.settle();
    const msg = t.gm.game.messages.contents.at(-1)!;
    expect(msg.type).toBe("attackCard");
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
    await t.world.settle();
    expect(t.world.rolls.map((r) => [r.formula, r.userId])).toEqual([
      ["1d6 - 1d6", t.ids.player],
      ["1d6 - 1d6", t.ids.gm],
    ]);
    const system = t.player.game.messages.get(msg.id)!.system as unknown as {
      diceOption: string;
      targets: { resolution: { dice: Record<string, number[]>; numbers: Record<string, number>; outcome: string } }[];
    };
    expect(system.diceOption).toBe("d6-d6");
    expect(system.targets[0].resolution).toMatchObject({
      dice: { attack: [6, 2], defense: [1, 6] },
      numbers: { attackerDice: 4, defenderDice: -5 },
      outcome: "wound",
    });
    t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    const applied = (t.player.game.messages.get(msg.id)!.system as unknown as { targets: { applied: unknown[] }[] })
      .targets[0].applied;
    expect(applied).toHaveLength(1);

    // A trait roll in the same world: one 1d6 - 1d6, read 5 − 3 = +2.
    t.world.dice.queue(5, 3);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    const roll = t.gm.game.messages.contents.at(-1)!.system as unknown as {
      dice: number[];
      diceOption: string;
      result: number;
      level: number;
      penalty: number;
    };
    expect(roll).toMatchObject({ dice: [5, 3], diceOption: "d6-d6" });
    expect(roll.result).toBe(roll.level + roll.penalty + 2);
    expect(t.world.rolls.at(-1)!.formula).toBe("1d6 - 1d6");
    // The card shows the d6 faces as numbers, not as Fudge faces.
    const rollId = t.gm.game.messages.contents.at(-1)!.id!;
    expect(t.player.chatLog.get(rollId)!.querySelector(".fudge-dice-roll")!.textContent).toMatch(/5[\s\S]*3/);

    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
  });

  it("d6−d6: an opposed trait roll's other side is thrown with the card's dice (Fudge §3.5)", async () => {
    const t = await table();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "dice" as never, "d6-d6" as never));
    await t.world.settle();
    t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
    const app = await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    );
    // An opposed roll (Fudge §3.5): the opponent's side is thrown with the same dice, from the card.
    t.world.dice.queue(4, 4);
    t.world.answerDialogs((req) => {
      req.form.querySelector<HTMLSelectElement>('[name="opponent"]')!.value = "0";
      return "ok";
    });
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    const opposedId = t.gm.game.messages.contents.at(-1)!.id!;
    t.world.dice.queue(2, 6);
    t.gm.click(t.gm.chatLog.get(opposedId)!.querySelector('[data-action="rollOpposed"]'));
    await t.world.settle();
    const side = (
      t.gm.game.messages.get(opposedId)!.system as unknown as {
        opposed: { dice: number[]; result: number; level: number; penalty: number };
      }
    ).opposed;
    expect(side.dice).toEqual([2, 6]);
    expect(side.result).toBe(side.level + side.penalty - 4);
    expect(t.world.rolls.at(-1)).toMatchObject({ formula: "1d6 - 1d6", userId: t.ids.gm });
    expect(t.world.errors).toEqual([]);
  });
});
