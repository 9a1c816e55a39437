// @vitest-environment happy-dom
/**
 * Miniatures gifts and faults with a rule at the table (seed 004 "Sample characters"), on the v13
 * host with the real modules and the sample miniatures from the packs: the attack dialog's
 * options, the Chivalrous refusal before any die, the Self-interest follow-up on the card, the
 * Guts check dialog (Steadfast, Mercenary) and a Mercenary's Guts check after a wound.
 */
import { describe, expect, it } from "vitest";
import { findSample } from "../../src/cli/samples";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

const IDS: Record<string, string> = {
  "Sir Knightly": "miniKnightly0001",
  "Yanni the Yeoman": "miniYanni0000001",
  "Knavely Knave": "miniKnavely00001",
  "Brutas the Brute": "miniBrutas000001",
};

/** The four sample miniatures, the player owning `playerOwns`, their tokens in a row in base contact (Sir Knightly, Yanni, Knavely, Brutas), Knavely the only hostile one. */
async function miniTable(playerOwns: string[]): Promise<Table> {
  const t = await table({
    seed: (world, ids) => {
      for (const [name, id] of Object.entries(IDS)) {
        const { _key: _k, ...doc } = structuredClone(findSample(name, "name")) as unknown as Record<string, unknown>;
        const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
        world.server.seed("Actor", {
          ...doc,
          _id: id,
          items,
          ownership: { default: 0, ...(playerOwns.includes(name) ? { [ids.player]: 3 } : {}) },
        });
      }
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
  const tokens = Object.entries(IDS).map(([name, id], i) => ({
    name,
    actorId: id,
    actorLink: true,
    x: 1000 + 100 * i,
    y: 1000,
    disposition: name === "Knavely Knave" ? -1 : 1,
  }));
  await t.gm.run(() =>
    (t.gm.game.scenes.get(t.scene) as unknown as Scene.Implementation).createEmbeddedDocuments(
      "Token",
      tokens as never,
    ),
  );
  await t.world.settle();
  return t;
}

type App = { element: HTMLElement };
const openSheet = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));
const tokenDoc = (c: Client, t: Table, name: string) =>
  c.game.scenes.get(t.scene)!.tokens.contents.find((d) => (d as unknown as { actorId: string }).actorId === IDS[name])!;
const lastMessage = (c: Client) =>
  c.game.messages.contents.at(-1) as unknown as
    { id: string; content: string; system: Record<string, unknown> } | undefined;
const check = (form: HTMLFormElement, name: string) => {
  const el = form.querySelector<HTMLInputElement>(`[name="${name}"]`);
  if (!el) throw new Error(`the dialog has no ${name}`);
  el.checked = true;
};

/** The player attacks `target` with `attacker`'s first weapon from its sheet, the dialog answered by `fill`. */
async function attack(t: Table, attacker: string, target: string, fill: (form: HTMLFormElement) => void = () => {}) {
  t.player.target(tokenDoc(t.player, t, target));
  t.world.answerDialogs((req) => void fill(req.form));
  const app = await openSheet(t.player, IDS[attacker]);
  t.player.click(app.element.querySelector('[data-action="attack"]'));
  await t.world.settle();
}

describe("the attack dialog at the table", () => {
  it('"From behind" is offered to a Skilled backstabber, and its +1 ODF is on the card', async () => {
    const t = await miniTable(["Knavely Knave"]);
    t.world.dice.queue(0, 0, 0, 0);
    await attack(t, "Knavely Knave", "Yanni the Yeoman", (form) => check(form, "fromBehind"));
    expect(t.world.dialogs.at(-1)!.content).toContain('name="fromBehind"');
    const card = lastMessage(t.gm)!.system as {
      situation: Record<string, unknown>;
      targets: { resolution: { numbers: Record<string, number> } }[];
    };
    expect(card.situation.fromBehind).toBe(true);
    expect(card.targets[0].resolution.numbers.backstab).toBe(1);
  });

  it("Chivalrous: Sir Knightly may not strike a helpless Yanni — the localized refusal, before any die is rolled", async () => {
    const t = await miniTable(["Sir Knightly"]);
    const before = t.gm.game.messages.contents.length;
    // Yanni is in base contact with him (Brutas, at the row's end, is out of reach: skipped before the dialog).
    await attack(t, "Sir Knightly", "Yanni the Yeoman", (form) => check(form, "helpless"));
    expect(t.world.rolls).toEqual([]);
    expect(t.gm.game.messages.contents.length).toBe(before);
    expect(t.player.notifications.map((n) => n.message).join(" ")).toContain(
      "Sir Knightly is chivalrous and cannot strike Yanni the Yeoman, who is defenseless.",
    );
  });

  it("Self-interest: a wounded Knavely Knave's card says he flees the combat", async () => {
    const t = await miniTable(["Brutas the Brute"]);
    // Brutas: MODF +4 + 0 on the dice against Knavely's DDF +1 — a wound.
    t.world.dice.queue(0, 0, 0, 0);
    await attack(t, "Brutas the Brute", "Knavely Knave");
    const html = t.player.chatLog.get(lastMessage(t.player)!.id)!;
    expect([...html.querySelectorAll(".fudge-followup")].map((p) => p.textContent)).toContain(
      "Wounded: flees the combat (Self-interest)",
    );
  });
});

describe("Guts checks at the table", () => {
  async function gutsFromSheet(t: Table, name: string, fill: (form: HTMLFormElement) => void) {
    t.world.answerDialogs((req) => void fill(req.form));
    const app = await openSheet(t.player, IDS[name]);
    t.player.click(app.element.querySelector('[data-action="gutsCheck"]'));
    await t.world.settle();
    return lastMessage(t.gm)!.content;
  }
  const set = (form: HTMLFormElement, name: string, value: string) =>
    void (form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)!.value = value);

  it("Steadfast: +1 when being charged by a Terrifying opponent, not when charging", async () => {
    const t = await miniTable(["Yanni the Yeoman"]);
    t.world.dice.queue(0, 0, 0, 0, 0, 0, 0, 0);
    // Yanni's Guts +1, +1 Steadfast, 0 on the dice: 2 against 0 + 1 Terrifying gift.
    const charged = await gutsFromSheet(
      t,
      "Yanni the Yeoman",
      (f) => (set(f, "reason", "charged"), set(f, "terrifying", "1")),
    );
    expect(charged).toContain("Guts 2 against 1: passed.");
    expect(charged).toContain("Steadfast: charged by a Terrifying opponent +1");
    const charging = await gutsFromSheet(
      t,
      "Yanni the Yeoman",
      (f) => (set(f, "reason", "charging"), set(f, "terrifying", "1")),
    );
    expect(charging).toContain("Guts 1 against 1: passed.");
    expect(charging).not.toContain("Steadfast");
  });

  it('the dialog opens on what the targets show (Miniatures: Guts — "Model tries to charge, or is being charged by, a Terrifying opponent"): Knavely (no Terrifying gift) targeted, a check the GM calls for at +1; Brutas (Terrifying 1) targeted, his charge', async () => {
    const t = await miniTable(["Yanni the Yeoman"]);
    const opened = async (target: string) => {
      let seen: Record<string, string> = {};
      t.player.target(tokenDoc(t.player, t, target));
      t.world.answerDialogs((req) => {
        // The option the template marks selected (happy-dom's select.value does not follow a late `selected`).
        const reason = req.form.querySelector('[name="reason"] option[selected]')?.getAttribute("value") ?? "";
        seen = {
          reason,
          ...Object.fromEntries(
            ["terrifying", "target"].map((n) => [n, req.form.querySelector<HTMLInputElement>(`[name="${n}"]`)!.value]),
          ),
        };
        return "cancel";
      });
      const app = await openSheet(t.player, IDS["Yanni the Yeoman"]);
      t.player.click(app.element.querySelector('[data-action="gutsCheck"]'));
      await t.world.settle();
      return seen;
    };
    expect(await opened("Knavely Knave")).toEqual({ reason: "other", terrifying: "1", target: "1" });
    expect(await opened("Brutas the Brute")).toEqual({ reason: "charged", terrifying: "1", target: "1" });
  });

  it("Mercenary: a failed check from the sheet is stored for the re-checks, and Brutas flees the combat", async () => {
    const t = await miniTable(["Brutas the Brute"]);
    t.world.dice.queue(-1, -1, 0, 0);
    // Guts +2, −2 on the dice: 0 against the GM's 2 — failed by 2.
    const note = await gutsFromSheet(t, "Brutas the Brute", (f) => (set(f, "reason", "other"), set(f, "target", "2")));
    expect(note).toContain("Guts 0 against 2: failed");
    expect(note).toContain("Mercenary: a failed Guts check — flees the combat");
    const state = (
      actorOn(t.gm, IDS["Brutas the Brute"]).system as unknown as {
        gutsState: { pending: { target: number; effect: number }[] };
      }
    ).gutsState;
    expect(state.pending.map((p) => [p.target, p.effect])).toEqual([[2, 2]]);
  });

  it("Mercenary: the Guts check after a wound (on Apply) says he flees when it fails", async () => {
    const t = await miniTable(["Knavely Knave"]);
    // Knavely: MODF +7 + 0 on the dice against Brutas's DDF +3 — a wound of 4, Hurt; then Brutas checks Guts (+2 − 1 Hurt) with −4 on the dice.
    t.world.dice.queue(0, 0, 0, 0);
    await attack(t, "Knavely Knave", "Brutas the Brute");
    const id = lastMessage(t.gm)!.id;
    t.world.dice.queue(-1, -1, -1, -1);
    t.gm.click(t.gm.chatLog.get(id)!.querySelector('[data-action="apply"]'));
    await t.world.settle();
    const note = lastMessage(t.gm)!.content;
    expect(note).toContain("failed");
    expect(note).toContain("Brutas the Brute flees the combat (Mercenary).");
  });
});

describe('a datacard stat\'s roll at the table is the Legendary roll (Miniatures: Ground rules — "On an unmodified roll of +4, re-roll, ignoring all [-] results, and add")', () => {
  it("four + on Sir Knightly's Dexterity roll 4dF again as a second Roll, and the card reads both", async () => {
    const t = await miniTable(["Sir Knightly"]);
    const app = await openSheet(t.player, IDS["Sir Knightly"]);
    const before = t.world.rolls.length;
    t.world.dice.queue(1, 1, 1, 1, 1, -1, 0, 1);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="dexterity"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    expect(t.world.rolls.slice(before).map((r) => r.faces)).toEqual([
      [1, 1, 1, 1],
      [1, -1, 0, 1],
    ]);
    const card = lastMessage(t.gm)!;
    const dex = (findSample("Sir Knightly", "name") as unknown as { system: { dexterity: number } }).system.dexterity;
    // Dexterity + 4 + the re-roll's two + (the − ignored).
    expect(card.system).toMatchObject({ traitKey: "dexterity", dice: [1, 1, 1, 1, 1, -1, 0, 1], result: dex + 6 });
  });
});
