// @vitest-environment happy-dom
/**
 * Experience on the v13 host (Fudge §5.2), with the real sheets, DialogV2 and data models: the GM
 * awards EP from Leroy's sheet to Leroy and to the actor of her selected token; the player spends
 * Leroy's EP on a skill from his own sheet; the log shows the entries and the GM undoes one;
 * refused with a sentence, nothing written: the player's award, EP he does not have, an undo a
 * later advance rests on. A stored experience record over its bound is refused by the data model.
 */
import { describe, expect, it, vi } from "vitest";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";
import type { StoredExperience } from "../../src/system/data";
import { experienceOf } from "../../src/system/experience";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { withGmRecordsOf } from "../../src/foundry/gm-records";
import { addAwardButton, onActorContextOptions } from "../../src/foundry/award-directory";
import { foundryPort } from "../../src/foundry/port";
import { reportError } from "../../src/foundry/foundry-util";
import { awardExperienceToActors } from "../../src/system/flows";
import {
  actorDirectoryMenu,
  actorEntryRow,
  menuEntryClick,
  menuEntryLabel,
  menuEntryShown,
  renderActorDirectory,
} from "./apps";

type App = { element: HTMLElement };
const sheet = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));
const xp = (c: Client, id: string) =>
  (actorOn(c, id).system as unknown as { experience: StoredExperience | null }).experience;
/** The EP as this client reads them: the GM's recorded awards less the actor's spends. */
const epOf = (c: Client, id: string) =>
  c.run(() => experienceOf(withGmRecordsOf(plainActor(actorOn(c, id))), worldRules()).ep);
/** The GM's record of an actor's awards (the world setting every client reads). */
const awardsOf = (c: Client, id: string) =>
  c.run(
    () =>
      withGmRecordsOf(plainActor(actorOn(c, id))).gmRecords?.experience as
        { awards: { amount: number; by: string }[] } | undefined,
  );

async function withSkill(t: Table): Promise<string> {
  await t.gm.run(() =>
    actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
      { name: "Climbing", type: "skill", system: { level: 0 } } as never,
    ]),
  );
  await t.world.settle();
  return actorOn(t.gm, t.hero).items.contents[0].id!;
}

/** The GM awards `amount` EP from `id`'s sheet (the dialog's form filled). */
async function award(t: Table, id: string, amount: string, extra: Record<string, boolean> = {}) {
  const app = await sheet(t.gm, id);
  t.world.answerDialogs((req) => {
    (req.form.querySelector('[name="amount"]') as HTMLInputElement).value = amount;
    for (const [name, on] of Object.entries(extra))
      (req.form.querySelector(`[name="${name}"]`) as HTMLInputElement).checked = on;
  });
  t.gm.click(app.element.querySelector('[data-action="awardExperience"]'));
  await t.world.settle();
}

describe("Experience Points on the v13 host", () => {
  it("the GM awards EP to the sheet's actor and her selected token's; the player spends on a skill; the GM undoes", async () => {
    const t = await table();
    const skill = await withSkill(t);
    t.gm.select(t.gm.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
    await award(t, t.hero, "5");
    // The awards are the GM's own record: the actors' data is untouched, every client reads the EP.
    expect(xp(t.gm, t.hero)).toBeNull();
    expect(awardsOf(t.player, t.hero)).toMatchObject({ next: 1, awards: [{ id: "aw0", type: "award", amount: 5 }] });
    expect(awardsOf(t.gm, t.foe)).toMatchObject({ awards: [{ amount: 5, by: t.ids.gm }] });
    expect(epOf(t.player, t.hero)).toBe(5);
    expect(epOf(t.gm, t.foe)).toBe(5);
    expect(t.world.dialogs.at(-1)!.form.textContent).toContain("Theodora");

    // The player's own sheet: Spend EP raises Climbing Fair → Good for 2 EP (§5.2), written on the item.
    const app = await sheet(t.player, t.hero);
    expect(app.element.querySelector(".fudge-xp-ep")!.textContent).toMatch(/Unspent EP: 5/);
    expect(app.element.querySelector('[data-action="awardExperience"]')).toBeNull();
    expect(app.element.querySelector('[data-action="undoAdvance"]')).toBeNull();
    t.world.answerDialogs((req) => {
      (req.form.querySelector('[name="trait"]') as HTMLSelectElement).value = `skill.${skill}`;
      (req.form.querySelector('[name="used"]') as HTMLInputElement).checked = true;
    });
    t.player.click(app.element.querySelector('[data-action="spendExperience"]'));
    await t.world.settle();
    expect(t.player.notifications.filter((n) => n.type === "error")).toEqual([]);
    const level = (c: Client) => (actorOn(c, t.hero).items.get(skill)!.system as unknown as { level: number }).level;
    expect(level(t.gm)).toBe(1);
    expect(xp(t.gm, t.hero)).toMatchObject({ log: [{ id: "ep0", type: "raise", cost: 2, from: 0, to: 1 }] });
    expect(epOf(t.gm, t.hero)).toBe(3);

    // The log on the GM's sheet: newest first, each with when, what and EP; Undo gives back the EP and the level.
    const gmApp = await sheet(t.gm, t.hero);
    const rows = [...gmApp.element.querySelectorAll(".fudge-xp-entry")].map((r) => r.textContent!.replace(/\s+/g, " "));
    expect(rows[0]).toMatch(/Climbing Fair \(0\) → Good \(\+1\) −2 EP/);
    expect(rows[1]).toMatch(/Awarded \+5 EP/);
    t.world.answerDialogs("yes");
    // The award's EP are spent: no Undo for it until the spend is undone.
    expect(gmApp.element.querySelector('[data-action="undoAdvance"][data-entry="aw0"]')).toBeNull();
    t.gm.click(gmApp.element.querySelector('[data-action="undoAdvance"][data-entry="ep0"]'));
    await t.world.settle();
    expect(level(t.gm)).toBe(0);
    expect(xp(t.gm, t.hero)).toMatchObject({ log: [] });
    expect(epOf(t.gm, t.hero)).toBe(5);
    // Now the award is undone from the GM's sheet: her record loses it, the player's sheet shows 0 EP.
    t.world.answerDialogs("yes");
    t.gm.click((await sheet(t.gm, t.hero)).element.querySelector('[data-action="undoAdvance"][data-entry="aw0"]'));
    await t.world.settle();
    expect(awardsOf(t.gm, t.hero)).toMatchObject({ awards: [] });
    expect(epOf(t.player, t.hero)).toBe(0);
    expect(t.world.errors).toEqual([]);
  });

  it("refused with a sentence, nothing written: EP one lacks, an undo a later advance rests on, a player's award", async () => {
    const t = await table();
    await award(t, t.hero, "20");
    const raise = async () => {
      const app = await sheet(t.gm, t.hero);
      t.world.answerDialogs((req) => {
        (req.form.querySelector('[name="trait"]') as HTMLSelectElement).value = "attr.strength";
        (req.form.querySelector('[name="used"]') as HTMLInputElement).checked = true;
      });
      t.gm.click(app.element.querySelector('[data-action="spendExperience"]'));
      await t.world.settle();
    };
    await raise(); // Fair → Good: 2 × 3 = 6 EP
    await raise(); // Good → Great: 4 × 3 = 12 EP
    expect(epOf(t.gm, t.hero)).toBe(2);
    const before = JSON.stringify(actorOn(t.gm, t.hero).toObject());
    await raise(); // Great → Superb: 24 EP, 2 left
    expect(t.gm.notifications.at(-1)!.message).toMatch(/Leroy: This costs 24 EP; the character has 2\./);
    expect(JSON.stringify(actorOn(t.gm, t.hero).toObject())).toBe(before);

    // The first raise has a later one resting on it: no Undo button, and a forged click is refused.
    const app = await sheet(t.gm, t.hero);
    expect(app.element.querySelector('[data-action="undoAdvance"][data-entry="ep0"]')).toBeNull();
    const forged = app.element.querySelector('[data-action="undoAdvance"][data-entry="ep1"]') as HTMLElement;
    forged.dataset.entry = "ep0";
    t.gm.click(forged);
    await t.world.settle();
    expect(t.gm.notifications.at(-1)!.message).toMatch(
      /A later advance rests on this one \(Strength Good → Great\): undo that first\./,
    );
    expect(JSON.stringify(actorOn(t.gm, t.hero).toObject())).toBe(before);

    // A player's award, forged onto his sheet, is refused before any dialog.
    const pApp = await sheet(t.player, t.hero);
    const b = pApp.element.ownerDocument.createElement("button");
    b.dataset.action = "awardExperience";
    pApp.element.querySelector(".fudge-experience")!.append(b);
    const dialogs = t.world.dialogs.length;
    t.player.click(b);
    await t.world.settle();
    expect(t.world.dialogs.length).toBe(dialogs);
    expect(t.player.notifications.at(-1)!.message).toMatch(/Only a GM awards Experience Points/);
  });

  it("an owner's forged award in his actor's data grants no EP: the sheet says it is ignored, the spend is refused", async () => {
    const t = await table();
    await t.player.run(() =>
      actorOn(t.player, t.hero).update({
        "system.experience": { next: 1, log: [{ id: "ep0", at: "t", type: "award", amount: 60, by: t.ids.gm }] },
      } as never),
    );
    await t.world.settle();
    expect(epOf(t.gm, t.hero)).toBe(0);
    const app = await sheet(t.player, t.hero);
    expect(app.element.querySelector(".fudge-xp-ep")!.textContent).toMatch(/Unspent EP: 0/);
    expect(app.element.querySelector(".fudge-xp-ignored")!.textContent).toMatch(
      /1 award entries in this actor's own data are not the GM's records and count for nothing\./,
    );
    expect(app.element.querySelector('.fudge-xp-entry[data-type="award"]')).toBeNull();
    t.world.answerDialogs((req) => {
      (req.form.querySelector('[name="trait"]') as HTMLSelectElement).value = "attr.strength";
      (req.form.querySelector('[name="used"]') as HTMLInputElement).checked = true;
    });
    const before = (actorOn(t.gm, t.hero).system as unknown as { attributes: { strength: number } }).attributes
      .strength;
    t.player.click(app.element.querySelector('[data-action="spendExperience"]'));
    await t.world.settle();
    expect(t.player.notifications.at(-1)!.message).toMatch(/the character has 0/);
    expect((actorOn(t.gm, t.hero).system as unknown as { attributes: { strength: number } }).attributes.strength).toBe(
      before,
    );
    // Nor can he write the GM's record: the server refuses a player's world setting.
    await expect(
      t.player.run(() =>
        game.settings!.set(
          "fudge-wounds" as never,
          "gmRecords" as never,
          { [`Actor.${t.hero}`]: { experience: { next: 1, earlier: 0, awards: [] } } } as never,
        ),
      ),
    ).rejects.toThrow(/lacks permission/);
  });

  it("the data model refuses a stored experience record over its bound", async () => {
    const t = await table();
    const huge = {
      next: 0,
      log: [{ id: "x", at: "t", type: "award", amount: 1, by: "y", note: "n".repeat(130_000) }],
    };
    await expect(
      t.player.run(() => actorOn(t.player, t.hero).update({ "system.experience": huge } as never)),
    ).rejects.toThrow(/experience/);
    await t.world.settle();
    expect(xp(t.gm, t.hero)).toBeNull();
  });
});

describe("awarding EP from the Actors directory on the host", () => {
  const checked = (req: { form: HTMLFormElement }) =>
    [...req.form.querySelectorAll<HTMLInputElement>('.fudge-award-actors input[type="checkbox"]')].map((b) => [
      b.parentElement!.textContent!.trim(),
      b.checked,
    ]);

  it("the GM's header button: a checklist of the actors that gain EP (characters checked); each checked one is awarded in the GM's record", async () => {
    const t = await table();
    // The player has Leroy's sheet open: the GM's record changing redraws it (the setting's onChange).
    const open = await sheet(t.player, t.hero);
    expect(open.element.querySelector(".fudge-xp-ep")!.textContent).toMatch(/Unspent EP: 0/);
    expect(t.player.run(() => renderActorDirectory()).querySelector("[data-fudge-award]")).toBeNull();
    const dir = t.gm.run(() => renderActorDirectory());
    const button = dir.querySelector<HTMLButtonElement>("[data-fudge-award]")!;
    expect(button.textContent).toContain("Award EP to actors");
    // Rendered again (the directory redraws): still one button.
    t.gm.run(() => addAwardButton(null, dir));
    expect(dir.querySelectorAll("[data-fudge-award]")).toHaveLength(1);
    let offered: unknown[] = [];
    t.world.answerDialogs((req) => {
      offered = checked(req);
      (req.form.querySelector('[name="amount"]') as HTMLInputElement).value = "3";
      (req.form.querySelector('[name="note"]') as HTMLInputElement).value = "The siege";
      for (const b of req.form.querySelectorAll<HTMLInputElement>('.fudge-award-actors input[type="checkbox"]'))
        b.checked = true;
    });
    t.gm.click(button);
    // The directory's listener starts the flow and nobody awaits it (a DOM listener): wait for its notice.
    await vi.waitFor(() => expect(t.gm.notifications.at(-1)?.message).toMatch(/EP awarded/));
    await t.world.settle();
    expect(offered).toEqual([
      ["Leroy", true],
      ["Theodora", false],
    ]);
    expect(awardsOf(t.player, t.hero)).toMatchObject({ awards: [{ amount: 3, note: "The siege", by: t.ids.gm }] });
    expect(awardsOf(t.player, t.foe)).toMatchObject({ awards: [{ amount: 3, note: "The siege" }] });
    expect(epOf(t.player, t.hero)).toBe(3);
    expect(epOf(t.player, t.foe)).toBe(3);
    expect(t.gm.notifications.at(-1)!.message).toBe("3 EP awarded to Leroy, Theodora.");
    // The actors' own data is untouched.
    expect(xp(t.gm, t.hero)).toBeNull();
    expect(open.element.querySelector(".fudge-xp-ep")!.textContent).toMatch(/Unspent EP: 3/);
    expect(t.world.errors).toEqual([]);
  });

  it("an actor's menu entry: for the GM only, the dialog opens with that actor alone checked", async () => {
    const t = await table();
    const entryOf = (c: Client) =>
      c.run(() => actorDirectoryMenu()).find((e) => menuEntryLabel(e) === "FUDGE.Experience.Award")!;
    const row = actorEntryRow(t.foe);
    expect(t.player.run(() => menuEntryShown(entryOf(t.player), row))).toBe(false);
    const entry = entryOf(t.gm);
    expect(t.gm.run(() => menuEntryShown(entry, row))).toBe(true);
    // Built once even when the hook runs twice over the same entries.
    const twice = t.gm.run(() => {
      const entries = actorDirectoryMenu();
      onActorContextOptions(null, entries);
      return entries.filter((e) => menuEntryLabel(e) === "FUDGE.Experience.Award").length;
    });
    expect(twice).toBe(1);
    let offered: unknown[] = [];
    t.world.answerDialogs((req) => {
      offered = checked(req);
      (req.form.querySelector('[name="amount"]') as HTMLInputElement).value = "2";
    });
    t.gm.run(() => menuEntryClick(entry, row));
    await vi.waitFor(() => expect(t.gm.notifications.at(-1)?.message).toMatch(/EP awarded/));
    await t.world.settle();
    expect(offered).toEqual([
      ["Leroy", false],
      ["Theodora", true],
    ]);
    expect(t.gm.notifications.at(-1)!.message).toBe("2 EP awarded to Theodora.");
    expect(epOf(t.gm, t.foe)).toBe(2);
    expect(awardsOf(t.gm, t.hero)).toBeUndefined();
    // No deprecated entry shape on either generation.
    expect(t.world.deprecations.filter((d) => d.message.includes("ContextMenuEntry"))).toEqual([]);
  });

  it("a player's award from the directory is refused before any dialog, nothing written", async () => {
    const t = await table();
    const dialogs = t.world.dialogs.length;
    await t.player.run(() =>
      awardExperienceToActors(foundryPort()).catch((e: unknown) => {
        reportError(e);
      }),
    );
    await t.world.settle();
    expect(t.world.dialogs.length).toBe(dialogs);
    expect(t.player.notifications.at(-1)!.message).toMatch(/Only a GM awards Experience Points/);
    expect(awardsOf(t.gm, t.hero)).toBeUndefined();
  });
});
