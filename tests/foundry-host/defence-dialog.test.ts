// @vitest-environment happy-dom
/**
 * The defender decides his own defence (issue 30 item 1; Fudge §3.5 opposed actions, §4.31
 * all-out defence): his Defend button opens his own dialog — one of his skills, all-out defence, a
 * modifier; Shift skips it with his last choices — his choices are kept with his defence roll on
 * his actor and shown on his side of the card, and the GM's client derives the result from them.
 * The attacker's dialog keeps only the attacker's side, its odds assuming the defender's usual
 * defence. A card stored before this change still resolves.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defenceTable, DEF_IDS } from "./defence-table";
import { actorOn, type Table } from "./table";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
type Target = {
  defend: string;
  defence?: { skillName: string; level: number; allOutDefense: boolean; modifier: number } | null;
  resolution: { outcome: string; numbers: Record<string, number> } | null;
  applied: unknown[];
  differs?: boolean;
};
const targetOf = (t: Table, id: string) =>
  (t.gm.game.messages.get(id)!.system as unknown as { targets: Target[] }).targets[0];
const defenceLog = (t: Table) =>
  (actorOn(t.gm, t.hero).flags as unknown as { "fudge-wounds": { defenceLog: Record<string, { choice?: unknown }> } })[
    "fudge-wounds"
  ].defenceLog;

/** Theodora (the GM's) attacks Leroy with her broadsword; the attack dialog answered as it comes. */
async function theodoraAttacks(t: Table, faces: number[]): Promise<string> {
  t.gm.target(t.gm.game.scenes.get(t.scene)!.tokens.get(t.heroToken)!);
  const app = await t.gm.run(() => (actorOn(t.gm, t.foe).sheet as unknown as Sheet).render({ force: true }));
  t.world.dice.queue(...faces);
  t.world.answerDialogs("ok");
  t.gm.click(app.element.querySelector(`[data-action="attack"][data-item-id="${DEF_IDS.broadsword}"]`));
  await t.world.settle();
  return t.gm.game.messages.contents.at(-1)!.id!;
}

function defendButton(t: Table, id: string): HTMLElement {
  const b = t.player.chatLog.get(id)!.querySelector<HTMLElement>('[data-action="defend"]');
  expect(b).not.toBeNull();
  return b!;
}

describe("the defender's Defend dialog", () => {
  it("the attacker's dialog offers no defender's choice, and its odds say they assume his usual defence", async () => {
    const t = await defenceTable();
    await theodoraAttacks(t, [1, 1, 1, 1]);
    const body = document.createElement("div");
    body.innerHTML = t.world.dialogs.at(-1)!.content;
    expect(body.querySelector('[name="allOutDefense"]')).toBeNull();
    expect(body.querySelector('[name="defenderModifier"]')).toBeNull();
    expect(body.querySelector(".fudge-odds-assume")?.textContent).toContain("assume each defender defends as usual");
  });

  it("Leroy defends with his Sword (Great), all-out, −1: kept on him, shown on his side, and the GM's Apply derives the same", async () => {
    const t = await defenceTable();
    const id = await theodoraAttacks(t, [1, 1, 1, 1]);
    t.world.dice.queue(0, 0, 0, 0);
    t.world.answerDialogs((req) => {
      const skill = req.form.querySelector<HTMLSelectElement>('[name="skillId"]')!;
      expect([...skill.options].map((o) => o.textContent)).toEqual([
        "Usual defence (Dodge): Good (+1)",
        "Sword: Great (+2)",
        "Dodge: Good (+1)",
        "Brawling: Fair (0)",
      ]);
      skill.value = DEF_IDS.sword;
      req.form.querySelector<HTMLInputElement>('[name="allOutDefense"]')!.checked = true;
      req.form.querySelector<HTMLInputElement>('[name="modifier"]')!.value = "-1";
      return "ok";
    });
    t.player.click(defendButton(t, id));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.world.dialogs.at(-1)!.title).toBe("FUDGE.Defence.DialogTitle");
    // The player may not write the GM's card: the defence went through the relay, rolled on the GM's client.
    expect(t.world.queries.length).toBeGreaterThan(0);
    const target = targetOf(t, id);
    expect(target.defend).toBe("rolled");
    expect(target.defence).toEqual({ skillName: "Sword", level: 2, allOutDefense: true, modifier: -1 });
    // Theodora's Fair + 4 = +4 against Leroy's Great +2 all-out −1 + 0 = +3: RD +1 (his usual Dodge would have let RD +3 in).
    expect(target.resolution!.numbers.relativeDegree).toBe(1);
    expect(defenceLog(t)[id].choice).toEqual({ skillId: DEF_IDS.sword, allOutDefense: true, modifier: -1 });
    const card = t.player.chatLog.get(id)!;
    expect(card.querySelector(".fudge-defence-choice")!.textContent!.replace(/\s+/g, " ").trim()).toBe(
      "Leroy defends with Sword Great (+2) · All-out defence · Modifier −1",
    );
    t.gm.click(t.gm.chatLog.get(id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(targetOf(t, id).applied).toHaveLength(1);
    expect(targetOf(t, id).differs ?? false).toBe(false);
  });

  it("Shift-click Defend skips the dialog and rolls with his last choices (remembered for him and this actor)", async () => {
    const t = await defenceTable();
    const first = await theodoraAttacks(t, [1, 1, 1, 1]);
    t.world.dice.queue(0, 0, 0, 0);
    t.world.answerDialogs((req) => {
      req.form.querySelector<HTMLSelectElement>('[name="skillId"]')!.value = DEF_IDS.brawl;
      req.form.querySelector<HTMLInputElement>('[name="modifier"]')!.value = "2";
      return "ok";
    });
    t.player.click(defendButton(t, first));
    await t.world.settle();
    const second = await theodoraAttacks(t, [1, 1, 1, 1]);
    const shown = t.world.dialogs.length;
    t.world.dice.queue(0, 0, 0, 0);
    const button = defendButton(t, second);
    t.player.run(() => button.dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey: true })));
    await t.world.settle();
    expect(t.world.dialogs.length).toBe(shown);
    expect(targetOf(t, second).defence).toEqual({ skillName: "Brawling", level: 0, allOutDefense: false, modifier: 2 });
    expect(defenceLog(t)[second].choice).toEqual({ skillId: DEF_IDS.brawl, modifier: 2 });
  });

  it("closing the dialog rolls nothing", async () => {
    const t = await defenceTable();
    const id = await theodoraAttacks(t, [1, 1, 1, 1]);
    const rolls = t.world.rolls.length;
    t.world.answerDialogs("cancel");
    t.player.click(defendButton(t, id));
    await t.world.settle();
    expect(t.world.rolls.length).toBe(rolls);
    expect(targetOf(t, id).defend).toBe("pending");
  });
});

describe("a card stored before the Defend dialog", () => {
  it("still resolves: Leroy defends with his usual defence, the attacker's claims of his side stand, and the GM applies it", async () => {
    const fixture = JSON.parse(
      readFileSync(join(process.cwd(), "tests", "fixtures", "card-before-defence-dialog.json"), "utf8"),
    ) as { system: Record<string, unknown>; rolls: unknown[] };
    let cardId = "";
    const t = await defenceTable();
    cardId = (await t.gm.run(async () => {
      const m = await ChatMessage.create({
        type: "attackCard",
        system: fixture.system,
        rolls: fixture.rolls,
        speaker: { actor: DEF_IDS.foe },
      } as never);
      return (m as unknown as { id: string }).id;
    })) as string;
    await t.world.settle();
    expect(targetOf(t, cardId).defend).toBe("pending");
    t.world.dice.queue(-1, -1, 0, 0);
    t.world.answerDialogs("ok");
    t.player.click(defendButton(t, cardId));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    const target = targetOf(t, cardId);
    expect(target.defend).toBe("rolled");
    // Theodora Fair + 2 = +2 against Leroy's Dodge Good +1, all-out +2, −1 as the old card claims, − − 0 0: 0, RD +2.
    expect(target.resolution!.numbers.relativeDegree).toBe(2);
    expect(defenceLog(t)[cardId].choice).toBeUndefined();
    t.gm.click(t.gm.chatLog.get(cardId)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(targetOf(t, cardId).applied).toHaveLength(1);
    expect(targetOf(t, cardId).differs ?? false).toBe(false);
  });
});
