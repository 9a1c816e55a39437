// @vitest-environment happy-dom
/**
 * The table's Guts circumstances on the v13 host, with the real modules and the sample miniatures
 * (seed 004 "Sample characters"): the check after a wound and the turn-start re-check read the
 * model's standing and the live table (Leader fallen, Noble presence in base contact), their notes
 * say what counted, and a shot into a melee lets the GM run the selected friends' checks.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ForecastQueue } from "../../src/system/forecast-queue";
import { showForecast, useForecastQueue } from "../../src/foundry/table-api";
import { FakeWorker } from "../system/fake-worker";
import { findSample } from "../../src/cli/samples";
import { applyWound } from "../../src/rules";
import { trackFor } from "../../src/system/combatant";
import { worldRules } from "../../src/foundry/bridge";
import type { ActorDoc } from "../../src/system/data";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

const IDS: Record<string, string> = {
  "King Kingsley": "miniKingsley0001",
  "Yanni the Yeoman": "miniYanni0000001",
  "Sir Knightly": "miniKnightly0001",
  "Knavely Knave": "miniKnavely00001",
};
/** Grid squares of each token (one row, y 10): the King and Yanni touch; Sir Knightly and Knavely touch Yanni's other side … */
const PLACE: Record<string, [number, number]> = {
  "King Kingsley": [10, 1],
  "Yanni the Yeoman": [11, 1],
  "Knavely Knave": [12, -1],
  "Sir Knightly": [13, 1],
};

async function gutsTable(standing: Record<string, Record<string, boolean>>): Promise<Table> {
  const t = await table({
    seed: (world, ids) => {
      for (const [name, id] of Object.entries(IDS)) {
        const { _key: _k, ...doc } = structuredClone(findSample(name, "name")) as unknown as Record<string, unknown> & {
          system: Record<string, unknown>;
        };
        const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
        doc.system.gutsStanding = { ...(doc.system.gutsStanding as object), ...(standing[name] ?? {}) };
        world.server.seed("Actor", { ...doc, _id: id, items, ownership: { default: 0, [ids.player]: 3 } });
      }
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
  const tokens = Object.entries(IDS).map(([name, actorId]) => ({
    name,
    actorId,
    actorLink: true,
    x: PLACE[name][0] * 100,
    y: 1000,
    disposition: PLACE[name][1],
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

const tokenDoc = (c: Client, t: Table, name: string) =>
  c.game.scenes.get(t.scene)!.tokens.contents.find((d) => (d as unknown as { actorId: string }).actorId === IDS[name])!;
const lastMessage = (c: Client) =>
  c.game.messages.contents.at(-1) as unknown as { id: string; content: string } | undefined;
type App = { element: HTMLElement };
const openSheet = (c: Client, id: string) =>
  c.run(() => (actorOn(c, id).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }));

/** A model falls Near Death (its track written by the GM). */
async function fallsNearDeath(t: Table, name: string) {
  await t.gm.run(async () => {
    const model = actorOn(t.gm, IDS[name]);
    const w = applyWound(
      trackFor((await import("../../src/foundry/bridge")).plainActor(model) as ActorDoc, worldRules()),
      { level: "nearDeath" },
    );
    await model.update({ system: { woundTrack: { state: w.track.state } } } as never);
  });
  await t.world.settle();
}

/** The King falls Near Death. */
const kingFalls = (t: Table) => fallsNearDeath(t, "King Kingsley");

async function startCombat(t: Table, names: string[]) {
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene, active: true } as never))) as unknown as {
    id: string;
  };
  const c = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
  await t.gm.run(() =>
    c().createEmbeddedDocuments(
      "Combatant",
      names.map((n) => ({ actorId: IDS[n], tokenId: String(tokenDoc(t.gm, t, n).id) })) as never,
    ),
  );
  await t.gm.run(() => c().startCombat());
  await t.world.settle();
  return c;
}

/** Knavely stabs Yanni (Sword of Smiting, 0 on the dice); the GM applies, and Yanni checks Guts with `guts` on the dice. */
async function knavelyWoundsYanni(t: Table, guts: number[]) {
  t.world.dice.queue(0, 0, 0, 0);
  t.player.target(tokenDoc(t.player, t, "Yanni the Yeoman"));
  t.world.answerDialogs(() => undefined);
  const app = await openSheet(t.player, IDS["Knavely Knave"]);
  t.player.click(app.element.querySelector('[data-action="attack"]'));
  await t.world.settle();
  const id = lastMessage(t.gm)!.id;
  t.world.dice.queue(...guts);
  t.gm.click(t.gm.chatLog.get(id)!.querySelector('[data-action="apply"]'));
  await t.world.settle();
  return lastMessage(t.gm)!.content;
}

describe("the Guts check after a wound reads the table", () => {
  it("Leader: a follower checks at −1 once the King of its side has fallen, and the note says so", async () => {
    const t = await gutsTable({ "Yanni the Yeoman": { follower: true } });
    await startCombat(t, ["King Kingsley", "Yanni the Yeoman", "Knavely Knave"]);
    await kingFalls(t);
    const note = await knavelyWoundsYanni(t, [0, 0, 0, 0]);
    expect(note).toContain("Guts check");
    expect(note).toContain("A follower whose Leader has fallen: \u22121");
  });

  it("…and not while the King stands (the same wound, the same dice: one higher)", async () => {
    const t = await gutsTable({ "Yanni the Yeoman": { follower: true } });
    await startCombat(t, ["King Kingsley", "Yanni the Yeoman", "Knavely Knave"]);
    const note = await knavelyWoundsYanni(t, [0, 0, 0, 0]);
    expect(note).toContain("Guts check");
    expect(note).not.toContain("Leader");
  });
});

describe('the table\'s Guts rolls are Legendary rolls (Miniatures: Ground rules — "On an unmodified roll of +4, re-roll, ignoring all [-] results, and add")', () => {
  it("four + on the check after a wound roll 4dF again, as a second Roll: the − is ignored, the + added, and the check is made", async () => {
    const t = await gutsTable({});
    await startCombat(t, ["King Kingsley", "Yanni the Yeoman", "Knavely Knave"]);
    const before = t.world.rolls.length;
    const note = await knavelyWoundsYanni(t, [1, 1, 1, 1, 1, -1, 0, 1]);
    const rolls = t.world.rolls.slice(before).filter((r) => r.userId === t.gm.user.id);
    expect(rolls.map((r) => r.faces)).toEqual([
      [1, 1, 1, 1],
      [1, -1, 0, 1],
    ]);
    // Yanni's Guts +1, −1 for the Hurt he just took (a stat): 0 + 4 + the re-roll's two + = 6.
    expect(note).toContain("Guts 6 against 1: passed.");
  });
});

describe("the turn-start re-check reads the table", () => {
  it("Noble presence: a peasant in base contact with the enemy King re-checks at −1", async () => {
    const t = await gutsTable({ "Knavely Knave": { peasant: true } });
    // Knavely touches Yanni and Sir Knightly, not the King: no −1 … then the King stands beside him.
    await t.gm.run(() =>
      actorOn(t.gm, IDS["Knavely Knave"]).update({
        system: {
          gutsState: {
            pending: [{ reason: "other", target: 5, sinceTurn: 1, bonus: 0, forfeitNext: 0, lastTurn: 1, effect: 2 }],
            effect: 2,
          },
        },
      } as never),
    );
    await t.gm.run(() => tokenDoc(t.gm, t, "King Kingsley").update({ x: 1200, y: 1100 } as never));
    await t.world.settle();
    const c = await startCombat(t, ["Yanni the Yeoman", "Knavely Knave"]);
    t.world.dice.queue(0, 0, 0, 0);
    await t.gm.run(() => c().update({ round: 3, turn: 1 } as never));
    await t.gm.run(() => c().nextRound());
    await t.world.settle();
    const notes = t.gm.game.messages.contents
      .map((m) => (m as unknown as { content: string }).content)
      .filter((x) => x.includes("re-check"));
    expect(notes.join("\n")).toContain("A peasant in melee with Noble presence: \u22121");
  });
});

describe('a Guts failure by 1 in force: "1 Model is at a -1 to rolls (Rolls only, not stats)" at the table (world rule miniatures.gutsRollPenalty)', () => {
  const SHAKEN = "Shaken (failed Guts check): \u22121 to rolls";
  const failureByOne = {
    pending: [{ reason: "other", target: 5, sinceTurn: 1, bonus: 0, forfeitNext: 0, lastTurn: 1, effect: 1 }],
    effect: 1,
  };
  const setRule = (t: Table, gutsRollPenalty: string) =>
    t.gm.run(() =>
      game.settings!.set(
        "fudge-wounds" as never,
        "miniatures" as never,
        { ...worldRules().miniatures, gutsRollPenalty } as never,
      ),
    );
  const shake = (t: Table, name: string) =>
    t.gm.run(() => actorOn(t.gm, IDS[name]).update({ system: { gutsState: failureByOne } } as never));
  const notesSince = (t: Table, n: number) =>
    t.gm.game.messages.contents
      .slice(n)
      .map((m) => (m as unknown as { content: string }).content)
      .join("\n");
  /** Sir Knightly (Guts +2) lies Near Death. */
  const knightlyFalls = (t: Table) => fallsNearDeath(t, "Sir Knightly");
  /**
   * Sir Knightly's turn starts, the only combatant: round 1 as the combat starts (his Near Death
   * roll), else round 2 (a failure of round 1 is re-checked from the next round on).
   */
  async function knightlysTurn(t: Table, dice: number[], round: 1 | 2) {
    const n = t.gm.game.messages.contents.length;
    if (round === 1) t.world.dice.queue(...dice);
    const c = await startCombat(t, ["Sir Knightly"]);
    if (round === 2) {
      t.world.dice.queue(...dice);
      await t.gm.run(() => c().nextRound());
      await t.world.settle();
    }
    return notesSince(t, n);
  }

  it('the turn-start re-check is at −1 and its note says so; under "attack rolls only" it is not', async () => {
    for (const [rule, shown] of [
      ["allRolls", true],
      ["attackRolls", false],
    ] as const) {
      const t = await gutsTable({});
      await setRule(t, rule);
      await shake(t, "Sir Knightly");
      // Guts 2 + bonus 1 (− 1) + dice 0 against 5: failed either way.
      const note = await knightlysTurn(t, [0, 0, 0, 0], 2);
      expect(note, rule).toContain(`Guts re-check ${shown ? 2 : 3} against 5: failed`);
      expect(note.includes(SHAKEN), rule).toBe(shown);
    }
  });

  it('the Near Death roll at the start of his turn is at −1 (Guts 2 − 2 − 1 + dice +2 = +1: still Near Death); under "attack rolls only" +2 recovers, and the failures he had are cleared', async () => {
    const t = await gutsTable({});
    await shake(t, "Sir Knightly");
    await knightlyFalls(t);
    const note = await knightlysTurn(t, [1, 1, 0, 0], 1);
    expect(note).toContain("Near Death Guts roll: still Near Death");
    expect(note).toContain(SHAKEN);
    const u = await gutsTable({});
    await setRule(u, "attackRolls");
    await shake(u, "Sir Knightly");
    await knightlyFalls(u);
    const up = await knightlysTurn(u, [1, 1, 0, 0], 1);
    expect(up).toContain("Near Death Guts roll: recovers to Very Hurt");
    expect(up).not.toContain(SHAKEN);
    // "merely Very Hurt and may then act normally": the Guts failures he had before he fell no longer hold him.
    expect(
      (actorOn(u.gm, IDS["Sir Knightly"]).system as unknown as { gutsState: { pending: unknown[] } }).gutsState.pending,
    ).toEqual([]);
  });

  it('the check after a wound is at −1 while shaken, and its note says so; under "attack rolls only" it is not', async () => {
    for (const [rule, shown] of [
      ["allRolls", true],
      ["attackRolls", false],
    ] as const) {
      const t = await gutsTable({});
      await setRule(t, rule);
      await shake(t, "Yanni the Yeoman");
      await startCombat(t, ["Yanni the Yeoman", "Knavely Knave"]);
      // Yanni (Guts +1, −1 Hurt: a stat) takes a new wound level (target +1), 0 on the dice: 0 − 1 = −1, or 0.
      const note = await knavelyWoundsYanni(t, [0, 0, 0, 0]);
      expect(note, rule).toContain(shown ? "Guts -1 against 1: failed" : "Guts 0 against 1: failed");
      expect(note.includes(SHAKEN), rule).toBe(shown);
    }
  });

  it("the table's duel forecast asks for the world's rule", async () => {
    const t = await gutsTable({});
    await setRule(t, "attackRolls");
    const w = new FakeWorker();
    const restore = useForecastQueue(new ForecastQueue({ createWorker: () => w }));
    try {
      await t.gm.run(() => showForecast(actorOn(t.gm, IDS["Sir Knightly"]), [actorOn(t.gm, IDS["Knavely Knave"])]));
    } finally {
      useForecastQueue(restore);
    }
    expect((w.posted[0].request as { options: Record<string, unknown> }).options).toMatchObject({
      gutsRollPenalty: "attackRolls",
    });
  });
});

describe('a Guts failure by 4 on the token (Miniatures: Guts — "4 Model falls to the ground, terrified, and enemies treat it as a helpless target")', () => {
  const statusesOf = (t: Table, name: string) => [...actorOn(t.gm, IDS[name]).statuses].sort();
  it("Yanni fails his check after a wound by 4 or more: his token shows Terrified and Prone; his re-check passes next round and both go", async () => {
    const t = await gutsTable({});
    const c = await startCombat(t, ["Yanni the Yeoman"]);
    // Yanni (Guts +1, −1 for the Hurt he just took: a stat), new wound level (target 1), −4 on the dice: −4, failed by 5 (counts as 4).
    const note = await knavelyWoundsYanni(t, [-1, -1, -1, -1]);
    expect(note).toContain("Guts -4 against 1: failed");
    expect(
      (actorOn(t.gm, IDS["Yanni the Yeoman"]).system as unknown as { gutsState: { effect: number } }).gutsState.effect,
    ).toBe(4);
    expect(statusesOf(t, "Yanni the Yeoman")).toEqual(["fudge-wounds.hurt", "fudge-wounds.terrified", "prone"]);
    // Round 2, his turn: the re-check (0 + 1 bonus + 4 on the dice against 1) passes.
    t.world.dice.queue(1, 1, 1, 1);
    await t.gm.run(() => c().nextRound());
    await t.world.settle();
    expect(
      (actorOn(t.gm, IDS["Yanni the Yeoman"]).system as unknown as { gutsState: { effect: number } }).gutsState.effect,
    ).toBe(0);
    expect(statusesOf(t, "Yanni the Yeoman")).toEqual(["fudge-wounds.hurt"]);
  });

  it("a failure by 3 (runs toward safety) shows neither", async () => {
    const t = await gutsTable({});
    await startCombat(t, ["Yanni the Yeoman"]);
    // 0 − 2 on the dice against 1: failed by 3.
    const note = await knavelyWoundsYanni(t, [-1, -1, 0, 0]);
    expect(note).toContain("Guts -2 against 1: failed");
    expect(statusesOf(t, "Yanni the Yeoman")).toEqual(["fudge-wounds.hurt"]);
  });
});

describe("the Check Guts dialog", () => {
  it("is ticked from the standing and the table: Sir Knightly defending the King, a follower of the fallen King", async () => {
    const t = await gutsTable({ "Sir Knightly": { defendingKing: true, follower: true } });
    await startCombat(t, ["King Kingsley", "Sir Knightly", "Knavely Knave"]);
    await kingFalls(t);
    let seen: Record<string, boolean> = {};
    t.world.answerDialogs((req) => {
      seen = Object.fromEntries(
        ["defendingKing", "nobleInMelee", "leaderFallen"].map((n) => [
          n,
          req.form.querySelector<HTMLInputElement>(`[name="${n}"]`)?.checked === true,
        ]),
      );
    });
    t.world.dice.queue(0, 0, 0, 0);
    const app = await openSheet(t.player, IDS["Sir Knightly"]);
    t.player.click(app.element.querySelector('[data-action="gutsCheck"]'));
    await t.world.settle();
    expect(seen).toEqual({ defendingKing: true, nobleInMelee: false, leaderFallen: true });
    expect(lastMessage(t.gm)!.content).toContain("Faithful: defending the King +1");
  });
});

describe("a friend shoots into the melee", () => {
  it("the card offers the GM the friends' checks: each selected friend checks at 0 with its own roll; a target or an enemy is named and skipped; a second click rolls nothing", async () => {
    const t = await gutsTable({});
    // Yanni steps back out of contact (a model in base contact with an enemy may not shoot), then shoots Knavely with the Shortbow, "shooting into a melee" ticked in the dialog.
    await t.gm.run(() => tokenDoc(t.gm, t, "Yanni the Yeoman").update({ x: 1100, y: 1500 } as never));
    await t.world.settle();
    t.world.dice.queue(0, 0, 0, 0);
    t.player.target(tokenDoc(t.player, t, "Knavely Knave"));
    t.world.answerDialogs((req) => {
      const box = req.form.querySelector<HTMLInputElement>('[name="friendShootsIntoMelee"]');
      if (box) box.checked = true;
    });
    const app = await openSheet(t.player, IDS["Yanni the Yeoman"]);
    const bowId = actorOn(t.player, IDS["Yanni the Yeoman"]).items.find((i) => i.name === "Shortbow")!.id;
    t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${bowId}"]`));
    await t.world.settle();
    const card = lastMessage(t.gm)!;
    expect(t.player.chatLog.get(card.id)!.querySelector('[data-action="gutsFriends"]')).toBeNull();
    const button = () => t.gm.chatLog.get(card.id)!.querySelector('[data-action="gutsFriends"]');
    expect(button()).not.toBeNull();
    expect(t.gm.chatLog.get(card.id)!.textContent).toContain("the shooter's friends in it check Guts");
    const before = t.gm.game.messages.contents.length;
    t.gm.select(
      tokenDoc(t.gm, t, "Sir Knightly"),
      tokenDoc(t.gm, t, "King Kingsley"),
      tokenDoc(t.gm, t, "Knavely Knave"),
    );
    t.world.dice.queue(0, 0, 0, 0, -1, -1, -1, -1);
    t.gm.click(button());
    await t.world.settle();
    const notes = t.gm.game.messages.contents
      .slice(before)
      .map((m) => m as unknown as { content: string; rolls: unknown[] });
    expect(notes).toHaveLength(2);
    expect(notes[0].content).toContain("Sir Knightly");
    expect(notes[0].content).toContain("Yanni the Yeoman shot into the melee (target 0).");
    expect(notes[0].content).toContain("Guts 2 against 0: passed.");
    expect(notes[1].content).toContain("King Kingsley");
    expect(notes.every((n) => n.rolls.length === 1)).toBe(true);
    expect(t.gm.notifications.map((n) => n.message)).toContain("Knavely Knave is a target of the shot: no Guts check.");
    // The card does not change, so it is not drawn again: the button is clicked a second time as it stands (the host's per-client window fails the card's `instanceof HTMLButtonElement` re-enabling).
    (button() as HTMLButtonElement).disabled = false;
    t.gm.click(button());
    await t.world.settle();
    expect(t.gm.game.messages.contents.length).toBe(before + 2);
    expect(t.gm.notifications.map((n) => n.message)).toContain("Sir Knightly has already checked Guts for this shot.");
  });
});

describe("the table's duel forecast carries each model's Guts circumstances (the rules core's gutsSituation)", () => {
  let restore: ForecastQueue | null = null;
  afterEach(() => {
    if (restore) useForecastQueue(restore);
    restore = null;
  });
  const requestOf = async (t: Table, a: string, b: string) => {
    const w = new FakeWorker();
    restore = useForecastQueue(new ForecastQueue({ createWorker: () => w }));
    await t.gm.run(() => showForecast(actorOn(t.gm, IDS[a]), [actorOn(t.gm, IDS[b])]));
    useForecastQueue(restore);
    restore = null;
    return w.posted[0].request as { gutsSituation?: unknown };
  };
  it("a peasant dueling the King is in melee with Noble presence; a follower of a fallen King checks at −1; Sir Knightly defends the King", async () => {
    const t = await gutsTable({
      "Yanni the Yeoman": { peasant: true, follower: true },
      "Sir Knightly": { defendingKing: true },
      "Knavely Knave": { peasant: true },
    });
    await startCombat(t, ["King Kingsley", "Yanni the Yeoman", "Knavely Knave", "Sir Knightly"]);
    // In a duel the two are foes: Yanni the peasant against the King is in melee with Noble presence.
    expect((await requestOf(t, "Yanni the Yeoman", "King Kingsley")).gutsSituation).toEqual({
      a: { nobleInMelee: true },
    });
    expect((await requestOf(t, "Yanni the Yeoman", "Knavely Knave")).gutsSituation).toBeUndefined();
    // The King steps into base contact with Knavely (an enemy peasant): even against Yanni, Knavely is in melee with him.
    await t.gm.run(() => tokenDoc(t.gm, t, "King Kingsley").update({ x: 1200, y: 1100 } as never));
    await t.world.settle();
    expect((await requestOf(t, "Yanni the Yeoman", "Knavely Knave")).gutsSituation).toEqual({
      b: { nobleInMelee: true },
    });
    await kingFalls(t);
    expect((await requestOf(t, "Knavely Knave", "Yanni the Yeoman")).gutsSituation).toEqual({
      b: { leaderFallen: true },
    });
    expect((await requestOf(t, "Sir Knightly", "Knavely Knave")).gutsSituation).toEqual({ a: { defendingKing: true } });
    // Knavely the peasant dueling the King: Noble presence (the request's own foe).
    expect((await requestOf(t, "Knavely Knave", "King Kingsley")).gutsSituation).toEqual({ a: { nobleInMelee: true } });
  });
});
