// @vitest-environment happy-dom
/**
 * The dice option on the v13 host (issue 32, Fudge §3.21–3.22): the GM's rules menu refuses to
 * change the dice while a combat is running (a sentence, nothing saved: its rolls so far were made
 * with them), and saves it once the combat is gone; the ladder's lower end shows Abysmal on a sheet.
 */
import { describe, expect, it } from "vitest";
import { RULE_FIELDS, formEntries } from "../../src/system/settings-menu";
import { table, actorOn } from "./table";

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
    const app = await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    );
    const options = [...app.element.querySelectorAll('select[name="system.attributes.strength"] option')];
    expect(options.map((o) => o.textContent)).toContain("Abysmal (−4)");
    expect(t.world.errors).toEqual([]);
  });
});
