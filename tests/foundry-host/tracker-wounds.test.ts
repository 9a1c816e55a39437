// @vitest-environment happy-dom
/**
 * The combat tracker shows each combatant's wound level, penalty and condition in words (issue 30
 * item 6), to those allowed to see the actor's state: the GM and an owner or observer read all
 * three, a LIMITED player the condition alone (as the limited sheet shows it), a player with no
 * permission nothing. Rendered by the host's v13 CombatTracker (its `renderCombatTracker` hook).
 */
import { describe, expect, it } from "vitest";
import { applyWound } from "../../src/rules";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { trackFor } from "../../src/system/combatant";
import { ROLES } from "./index";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

const OBSERVED = "trkObserved00001";
const LIMITED = "trkLimited000001";

/** Leroy (the player's), Theodora (GM's, no permission), an NPC the player observes and one he sees LIMITED; all Hurt, in one combat. */
async function fight(): Promise<{ t: Table; other: Client; combatId: string }> {
  let otherId = "";
  const t = await table({
    seed: (world, ids) => {
      otherId = world.addUser("Other", ROLES.PLAYER);
      world.server.seed("Actor", {
        _id: OBSERVED,
        name: "Guard",
        type: "npc",
        ownership: { default: 0, [ids.player]: 2 },
        system: {},
        items: [],
        effects: [],
      });
      world.server.seed("Actor", {
        _id: LIMITED,
        name: "Stranger",
        type: "npc",
        ownership: { default: 0, [ids.player]: 1 },
        system: {},
        items: [],
        effects: [],
      });
    },
  });
  const other = await t.world.connect(otherId);
  await t.world.settle();
  for (const id of [t.hero, t.foe, OBSERVED, LIMITED])
    await t.gm.run(async () => {
      const a = actorOn(t.gm, id);
      await updateActor(a, {
        system: {
          woundTrack: { "==state": applyWound(trackFor(plainActor(a), worldRules()), { level: "hurt" }).track.state },
        },
      });
    });
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
  await t.gm.run(() =>
    (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).createEmbeddedDocuments(
      "Combatant",
      [t.hero, t.foe, OBSERVED, LIMITED].map((actorId) => ({ actorId })) as never,
    ),
  );
  await t.world.settle();
  return { t, other, combatId: combat.id };
}

/** The tracker as `client` sees it: each row's name and wound line. */
async function tracker(client: Client, t: Table, combatId: string): Promise<Record<string, string>> {
  const app = await client.run(async () => {
    const Tracker = (
      foundry.applications as unknown as {
        sidebar: {
          tabs: { CombatTracker: new (o: object) => { render(o: object): Promise<{ element: HTMLElement }> } };
        };
      }
    ).sidebar.tabs.CombatTracker;
    return new Tracker({ combat: client.game.combats.get(combatId) }).render({ force: true });
  });
  await t.world.settle();
  const out: Record<string, string> = {};
  for (const li of app.element.querySelectorAll("li.combatant")) {
    const name = li.querySelector(".name")!.textContent!;
    out[name] = (li.querySelector(".fudge-tracker-wound")?.textContent ?? "").replace(/\s+/g, " ").trim();
  }
  app.element.remove();
  return out;
}

describe("the combat tracker's wound line: who sees what", () => {
  it("the GM reads every combatant's level, penalty and condition in words", async () => {
    const { t, combatId } = await fight();
    expect(await tracker(t.gm, t, combatId)).toEqual({
      Leroy: "Hurt · Penalty −1 · Can act",
      Theodora: "Hurt · Penalty −1 · Can act",
      Guard: "Hurt · Penalty −1 · Can act",
      Stranger: "Hurt · Penalty −1 · Can act",
    });
  });

  it("the player: all of his own and the observed Guard, the condition of the LIMITED Stranger, nothing of Theodora", async () => {
    const { t, combatId } = await fight();
    expect(await tracker(t.player, t, combatId)).toEqual({
      Leroy: "Hurt · Penalty −1 · Can act",
      Theodora: "",
      Guard: "Hurt · Penalty −1 · Can act",
      Stranger: "Can act",
    });
  });

  it("another player, who owns none of them, reads nothing", async () => {
    const { t, other, combatId } = await fight();
    expect(Object.values(await tracker(other, t, combatId))).toEqual(["", "", "", ""]);
  });
});
