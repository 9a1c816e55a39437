// @vitest-environment happy-dom
/**
 * What the Miniatures table measures for an attack (seed 004 "Melee Combat", "Ranged Combat",
 * "Available Actions"; RULES §3), on the v13 host with the real modules and the sample
 * miniatures from the packs, tokens in one row (one grid square = 1"): base contact with the
 * target for a melee attack, range and gang-up per target, the dialog's odds under the table's
 * measures, neutral tokens as bystanders, and Yanni's "all wielded weapons" actions.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { findSample } from "../../src/cli/samples";
import { attackOdds } from "../../src/system/attack-dialog";
import { defaultWorldRules, type ActorDoc, type ItemDoc } from "../../src/system/data";
import { actorOn, type Table } from "./table";
import { MINI_IDS, miniTable, tokenDoc, itemId } from "./mini-table";
import type { Client } from "./world";

type App = { element: HTMLElement };
type CardTarget = {
  name: string;
  situation?: Record<string, unknown>;
  request: { situation: Record<string, unknown> };
  resolution: { outcome: string; numbers: Record<string, number> } | null;
  differs?: boolean;
};
type Card = { weaponName: string; situation: Record<string, unknown>; targets: CardTarget[] };
const openSheet = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));
const cardsSince = (t: Table, before: number) =>
  (t.gm.game.messages.contents.slice(before) as unknown as { id: string; system: { toObject?: () => unknown } }[]).map(
    (m) => ({ id: m.id, card: (m.system.toObject ? m.system.toObject() : m.system) as Card }),
  );
const notes = (c: Client) => c.notifications.map((n) => n.message).join(" ");
/** The last attack dialog's body. */
const dialogBody = (t: Table): HTMLElement => {
  const div = document.createElement("div");
  div.innerHTML = String(t.world.dialogs.at(-1)!.content);
  return div;
};

/** The player attacks `targets` from `attacker`'s sheet with the weapon `weapon` (its Attack button), the dialog answered as it opens. */
async function attack(
  t: Table,
  attacker: string,
  targets: string[],
  weapon: string,
): Promise<{ id: string; card: Card }[]> {
  t.player.target(...targets.map((n) => tokenDoc(t.player, t, n)));
  t.world.answerDialogs(() => undefined);
  const before = t.gm.game.messages.contents.length;
  const app = await openSheet(t.player, MINI_IDS[attacker]);
  t.player.click(
    app.element.querySelector(`[data-action="attack"][data-item-id="${itemId(t.player, attacker, weapon)}"]`),
  );
  await t.world.settle();
  return cardsSince(t, before);
}

const sample = (name: string) => structuredClone(findSample(name, MINI_IDS[name])) as unknown as ActorDoc;
const weaponOf = (a: ActorDoc, name: string) => (a.items ?? []).find((i) => i.name === name) as ItemDoc<"weapon">;
const miniRules = () => ({ ...defaultWorldRules(), preset: "miniatures" as const });

describe("Miniatures: Melee Combat — base-to-base contact with the target model", () => {
  it('"Melee attacks must be made in base-to-base contact with the target model": touching another enemy does not let Knavely stab Yanni 8" away', async () => {
    // Knavely (hostile) at 12 touches Sir Knightly (friendly) at 13; Yanni (friendly) stands at 20.
    const t = await miniTable({ "Knavely Knave": [12, -1], "Sir Knightly": [13, 1], "Yanni the Yeoman": [20, 1] });
    const cards = await attack(t, "Knavely Knave", ["Yanni the Yeoman"], "Sword of Smiting");
    expect(cards).toEqual([]);
    expect(t.world.rolls).toEqual([]);
    expect(notes(t.player)).toContain("Sword of Smiting needs base-to-base contact.");
    // Refused before the dialog (no target to attack): said once, in the warning.
    expect(t.world.dialogs).toEqual([]);
    expect(notes(t.player).match(/base-to-base/g)).toHaveLength(1);
  });

  it("control: the same stab on Sir Knightly, whose base touches Knavely's, is rolled, in contact with its target", async () => {
    const t = await miniTable({ "Knavely Knave": [12, -1], "Sir Knightly": [13, 1], "Yanni the Yeoman": [20, 1] });
    t.world.dice.queue(0, 0, 0, 0);
    const cards = await attack(t, "Knavely Knave", ["Sir Knightly"], "Sword of Smiting");
    expect(cards).toHaveLength(1);
    expect(cards[0].card.targets[0].situation).toMatchObject({ inContact: true });
    expect(cards[0].card.targets[0].resolution?.outcome).toBeDefined();
  });
});

describe("Miniatures: range, gang-up and contact measured per target", () => {
  it('Ranged Combat, "−1 for every multiple of the weapon\'s Range or portion thereof": one shot at Knavely (10") and the King (40"), Shortbow Range 18" — 0 and −2, each as the dialog showed', async () => {
    const t = await miniTable({ "Yanni the Yeoman": [0, 1], "Knavely Knave": [10, -1], "King Kingsley": [40, -1] });
    t.world.dice.queue(1, 1, 1, 0);
    const cards = await attack(t, "Yanni the Yeoman", ["Knavely Knave", "King Kingsley"], "Shortbow");
    expect(notes(t.player)).toBe("");
    expect(cards).toHaveLength(1);
    const { id, card } = cards[0];
    const [knave, king] = card.targets;
    expect(knave.resolution!.numbers.rangePenalty).toBe(0);
    expect(king.resolution!.numbers.rangePenalty).toBe(-2);
    expect(knave.situation).toMatchObject({ rangeInches: 10, inContact: false });
    expect(king.situation).toMatchObject({ rangeInches: 40, inContact: false });
    // The card's own situation leaves the measures to the targets.
    expect(card.situation.rangeInches).toBeUndefined();

    // The dialog showed the measures, not an input, and its odds are those of the shot as rolled.
    const body = dialogBody(t);
    expect(body.querySelector('input[name="rangeInches"]')).toBeNull();
    expect(body.querySelector('[data-field="rangeInches"] .fudge-measured')?.textContent?.replace(/\s+/g, " ")).toBe(
      "Knavely Knave: 10King Kingsley: 40",
    );
    const yanni = sample("Yanni the Yeoman");
    const shownMiss = (name: string) =>
      Number(
        body
          .querySelector(`.fudge-odds[data-target-id$="${MINI_IDS[name]}"] [data-outcome="miss"]`)
          ?.getAttribute("data-p") ?? 0,
      );
    for (const [name, range] of [
      ["Knavely Knave", 10],
      ["King Kingsley", 40],
    ] as const) {
      const expected = attackOdds(yanni, weaponOf(yanni, "Shortbow"), sample(name), miniRules(), {
        rangeInches: range,
        inContact: false,
        gangUp: 0,
      });
      const miss = expected.segments.find((s) => s.key === "miss")?.p ?? 0;
      expect(shownMiss(name)).toBeCloseTo(miss, 12);
    }
    expect(shownMiss("King Kingsley")).toBeGreaterThan(shownMiss("Knavely Knave"));

    // The GM's Apply re-derives each target under its own range: the card's results stand.
    const woundedIndex = card.targets.findIndex((x) => x.resolution?.outcome === "wound");
    expect(woundedIndex).toBeGreaterThanOrEqual(0);
    const apply = t.gm.chatLog
      .get(id)!
      .querySelector<HTMLElement>(`.fudge-target[data-target-index="${woundedIndex}"] [data-action="apply"]`);
    expect(apply).not.toBeNull();
    t.gm.click(apply);
    await t.world.settle();
    const after = cardsSince(t, 0).find((m) => m.id === id)!.card.targets[woundedIndex] as CardTarget & {
      applied: unknown[];
    };
    expect(notes(t.gm)).toBe("");
    expect(after.applied).toHaveLength(1);
    expect(after.differs ?? false).toBe(false);
  });

  it('the sheet\'s Attack tooltip gives the odds under the same measures as the dialog: the Shortbow at Knavely (10") and the King (40", −2), and again when the King steps to 15"', async () => {
    const t = await miniTable({ "Yanni the Yeoman": [0, 1], "Knavely Knave": [10, -1], "King Kingsley": [40, -1] });
    t.player.target(tokenDoc(t.player, t, "Knavely Knave"), tokenDoc(t.player, t, "King Kingsley"));
    const app = await openSheet(t.player, MINI_IDS["Yanni the Yeoman"]);
    const tooltip = () =>
      app.element
        .querySelector(`[data-action="attack"][data-item-id="${itemId(t.player, "Yanni the Yeoman", "Shortbow")}"]`)
        ?.getAttribute("data-tooltip") ?? "";
    const en = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, string>;
    const yanni = sample("Yanni the Yeoman");
    // The line the template writes for one target, from the pure odds under `situation`.
    const line = (name: string, situation: Record<string, unknown>) =>
      `Odds against ${name}: ` +
      attackOdds(yanni, weaponOf(yanni, "Shortbow"), sample(name), miniRules(), situation)
        .summary.map((x) => `${en[x.label]} ${x.pctText}`)
        .join(" · ");
    const measured = (range: number) => ({ rangeInches: range, inContact: false, gangUp: 0 });
    // The King at 40" is harder to hit than with no measure at all: the tooltip must say which.
    expect(line("King Kingsley", measured(40))).not.toBe(line("King Kingsley", {}));
    expect(tooltip()).toBe(`${line("Knavely Knave", measured(10))}<br>${line("King Kingsley", measured(40))}`);
    // The King steps to 15" (one Range): the open sheet is drawn again, at 0.
    await t.gm.run(() => tokenDoc(t.gm, t, "King Kingsley").update({ x: 1500 } as never));
    await t.world.settle();
    expect(tooltip()).toBe(`${line("Knavely Knave", measured(10))}<br>${line("King Kingsley", measured(15))}`);
  });

  it('Melee Combat, "If more than one model are attacking a single enemy, each attack gains a +1": Sir Knightly\'s blow at Knavely (Yanni touches him too) gangs up, at Brutas (alone) it does not', async () => {
    // Yanni 10 | Knavely 11 | Sir Knightly 12 | Brutas 13.
    const t = await miniTable({
      "Yanni the Yeoman": [10, 1],
      "Knavely Knave": [11, -1],
      "Sir Knightly": [12, 1],
      "Brutas the Brute": [13, -1],
    });
    t.world.dice.queue(0, 0, 0, 0);
    const cards = await attack(t, "Sir Knightly", ["Knavely Knave", "Brutas the Brute"], "Longsword");
    expect(notes(t.player)).toBe("");
    const [knave, brutas] = cards[0].card.targets;
    expect(knave.resolution!.numbers.gangUp).toBe(1);
    expect(brutas.resolution!.numbers.gangUp).toBe(0);
    expect(knave.situation).toMatchObject({ gangUp: 1, inContact: true });
    expect(brutas.situation).toMatchObject({ gangUp: 0, inContact: true });
    expect(
      dialogBody(t).querySelector('[data-field="gangUp"] .fudge-measured')?.textContent?.replace(/\s+/g, " "),
    ).toBe("Knavely Knave: 1Brutas the Brute: 0");
  });

  it("a neutral token is a bystander: Yanni may shoot while touching one (docs/foundry.md), not while touching a hostile one", async () => {
    const t = await miniTable({ "Yanni the Yeoman": [0, 1], "Sir Knightly": [1, 0], "Knavely Knave": [10, -1] });
    t.world.dice.queue(0, 0, 0, 0);
    const cards = await attack(t, "Yanni the Yeoman", ["Knavely Knave"], "Shortbow");
    expect(notes(t.player)).toBe("");
    expect(cards).toHaveLength(1);
    expect(cards[0].card.targets[0].situation).toMatchObject({ inContact: false });

    const u = await miniTable({ "Yanni the Yeoman": [0, 1], "Brutas the Brute": [1, -1], "Knavely Knave": [10, -1] });
    expect(await attack(u, "Yanni the Yeoman", ["Knavely Knave"], "Shortbow")).toEqual([]);
    expect(notes(u.player)).toContain("Shortbow may not be fired in base contact with an enemy.");
  });
});

describe('Miniatures: Available Actions — "Shoot all wielded ranged weapons" / "Melee attack with all wielded melee weapons"', () => {
  it("Yanni (Shortbow 2h and Dagger 1h, both equipped): each button attacks with the weapons of its kind", async () => {
    const t = await miniTable({ "Yanni the Yeoman": [10, 1], "Knavely Knave": [11, -1], "King Kingsley": [30, -1] });
    const app = await openSheet(t.player, MINI_IDS["Yanni the Yeoman"]);
    const button = (kind: string) =>
      app.element.querySelector<HTMLElement>(`[data-action="attackAll"][data-kind="${kind}"]`)!;
    expect(button("ranged").textContent).toContain("(1)");
    expect(button("melee").textContent).toContain("(1)");

    // Knavely's base touches Yanni's: the Dagger is for him.
    t.player.target(tokenDoc(t.player, t, "Knavely Knave"));
    t.world.dice.queue(0, 0, 0, 0);
    t.world.answerDialogs(() => undefined);
    let before = t.gm.game.messages.contents.length;
    t.player.click(button("melee"));
    await t.world.settle();
    expect(notes(t.player)).toBe("");
    expect(cardsSince(t, before).map((m) => m.card.weaponName)).toEqual(["Dagger"]);

    const u = await miniTable({ "Yanni the Yeoman": [0, 1], "King Kingsley": [30, -1] });
    const uApp = await openSheet(u.player, MINI_IDS["Yanni the Yeoman"]);
    u.player.target(tokenDoc(u.player, u, "King Kingsley"));
    u.world.dice.queue(0, 0, 0, 0);
    u.world.answerDialogs(() => undefined);
    before = u.gm.game.messages.contents.length;
    u.player.click(uApp.element.querySelector<HTMLElement>('[data-action="attackAll"][data-kind="ranged"]'));
    await u.world.settle();
    expect(notes(u.player)).toBe("");
    expect(cardsSince(u, before).map((m) => m.card.weaponName)).toEqual(["Shortbow"]);
  });
});
