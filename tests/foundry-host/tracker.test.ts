// @vitest-environment happy-dom
/**
 * Issue #9: the duel forecast from the v13 combat tracker — a combatant's menu offers it against
 * the combatant whose turn it is and against the user's targets, to the GM always and to players
 * by the world setting, through the same forecast as the Token HUD (src/foundry/table-api.ts).
 */
import { describe, expect, it } from "vitest";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { duelForecast } from "../../src/rules/forecast";
import { duelRequest, forecastView } from "../../src/system/attack-dialog";
import { combatantRow, combatTrackerMenu } from "./apps";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Entry = { name: string; condition: (li: HTMLElement) => boolean; callback: (li: HTMLElement) => string[] };
type CombatLike = { id: string; turns: { id: string; actorId: string; _source: { actorId: string } }[]; combatant?: { id: string } };

/** Leroy and Theodora in a started combat (no initiative: Leroy first, by name). */
async function fight(): Promise<{ t: Table; combatId: string }> {
  const t = await table();
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
  await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).createEmbeddedDocuments("Combatant", [{ actorId: t.hero, tokenId: t.heroToken } as never, { actorId: t.foe, tokenId: t.foeToken } as never]));
  await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).startCombat());
  await t.world.settle();
  return { t, combatId: combat.id };
}

function menu(c: Client, combatId: string) {
  const combat = c.game.combats.get(combatId) as unknown as CombatLike;
  const entries = c.run(() => combatTrackerMenu(combat)) as unknown as Entry[];
  const row = (actorId: string) => combatantRow(combat.turns.find((x) => x._source.actorId === actorId)!.id);
  const entry = (key: string) => entries.find((e) => e.name === key);
  const shown = (key: string, actorId: string) => c.run(() => !!entry(key)?.condition(row(actorId)));
  const click = (key: string, actorId: string) => c.run(() => entry(key)!.callback(row(actorId)));
  return { entries, combat, shown, click };
}

/** The forecast sentence as the HUD words it, from the rules core on this client. */
function expected(c: Client, a: string, b: string): string {
  return c.run(() => {
    const f = forecastView(plainActor(actorOn(c, a)), plainActor(actorOn(c, b)), worldRules());
    return game.i18n!.format("FUDGE.Forecast.Line", { a: f.aName, b: f.bName, aWins: f.aWinsText, bWins: f.bWinsText, exchanges: f.exchangesText, stalemate: f.stalemateText });
  });
}

describe("duel forecast from the combat tracker", () => {
  it("the GM's combatant menu offers it against the combatant whose turn it is, once per menu", async () => {
    const { t, combatId } = await fight();
    const m = menu(t.gm, combatId);
    expect(m.entries.filter((e) => e.name.startsWith("FUDGE.Forecast.")).map((e) => e.name)).toEqual(["FUDGE.Forecast.AgainstCurrent", "FUDGE.Forecast.AgainstTargets"]);
    expect(m.combat.combatant?.id).toBe(m.combat.turns[0].id);
    const current = m.combat.turns[0]._source.actorId;
    const other = current === t.hero ? t.foe : t.hero;
    // Not against oneself: the current combatant's own row has no "against the current" entry.
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", current)).toBe(false);
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", other)).toBe(true);
    const lines = m.click("FUDGE.Forecast.AgainstCurrent", other);
    expect(lines).toEqual([expected(t.gm, other, current)]);
    expect(lines[0]).toMatch(/^(Leroy|Theodora) vs (Leroy|Theodora): \S+ wins \d+%, \S+ wins \d+%/);
    expect(t.gm.notifications.map((n) => n.message)).toContain(lines[0]);
    expect(t.world.errors).toEqual([]);
  });

  it("against the user's targets: shown only while he targets another combatant", async () => {
    const { t, combatId } = await fight();
    const m = menu(t.gm, combatId);
    expect(m.shown("FUDGE.Forecast.AgainstTargets", t.hero)).toBe(false);
    const foeToken = t.gm.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!;
    t.gm.target(foeToken as never);
    expect(m.shown("FUDGE.Forecast.AgainstTargets", t.hero)).toBe(true);
    expect(m.shown("FUDGE.Forecast.AgainstTargets", t.foe)).toBe(false);
    expect(m.click("FUDGE.Forecast.AgainstTargets", t.hero)).toEqual([expected(t.gm, t.hero, t.foe)]);
  });

  it("players see it only when the world allows it (forecastForPlayers), as on the Token HUD", async () => {
    const { t, combatId } = await fight();
    const m = menu(t.player, combatId);
    const current = m.combat.turns[0]._source.actorId;
    const other = current === t.hero ? t.foe : t.hero;
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", other)).toBe(false);
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "forecastForPlayers" as never, true as never));
    await t.world.settle();
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", other)).toBe(true);
    expect(m.click("FUDGE.Forecast.AgainstCurrent", other)).toEqual([expected(t.player, other, current)]);
  });

  it("v14 reads {label, visible, onClick}: the same entries in that shape", async () => {
    const t = await table({ generation: 14 });
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).createEmbeddedDocuments("Combatant", [{ actorId: t.hero, tokenId: t.heroToken } as never, { actorId: t.foe, tokenId: t.foeToken } as never]));
    await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).startCombat());
    await t.world.settle();
    const c = t.gm.game.combats.get(combat.id) as unknown as CombatLike;
    const entries = t.gm.run(() => combatTrackerMenu(c)) as unknown as { label?: string; name?: string; visible: (li: HTMLElement) => boolean; onClick: (e: Event, li: HTMLElement) => string[] }[];
    const ours = entries.filter((e) => e.label?.startsWith("FUDGE.Forecast."));
    expect(ours.map((e) => [e.label, e.name])).toEqual([
      ["FUDGE.Forecast.AgainstCurrent", undefined],
      ["FUDGE.Forecast.AgainstTargets", undefined],
    ]);
    const other = c.turns[1];
    const li = combatantRow(other.id);
    expect(t.gm.run(() => ours[0].visible(li))).toBe(true);
    expect(t.gm.run(() => ours[0].onClick(new Event("click"), li))).toEqual([expected(t.gm, other._source.actorId, c.turns[0]._source.actorId)]);
  });
});

describe("Miniatures duel forecast from the combat tracker (Miniatures: Guts)", () => {
  it("counts Guts checks from each model's failures in force, as the world always plays them", async () => {
    const sword = { _id: "itmSword00000001", name: "Sword of Smiting", type: "weapon", system: { miniaturesDamage: 5, statBasis: "strength", hands: 2, equipped: true } };
    const card = { strength: 2, dexterity: 1, guts: 1 };
    // The Knave is still shaken by a failure by 2 ("may not attack") when the duel starts.
    const shaken = { pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 1, lastTurn: 1, bonus: 0, forfeitNext: 0, effect: 2 }], effect: 2 };
    const t = await table({
      seed: (world) => {
        world.server.seed("Actor", { _id: "mini000000000001", name: "King", type: "miniature", ownership: { default: 0 }, system: card, items: [sword], effects: [] });
        world.server.seed("Actor", { _id: "mini000000000002", name: "Knave", type: "miniature", ownership: { default: 0 }, system: { ...card, gutsState: shaken }, items: [{ ...sword, _id: "itmSword00000002" }], effects: [] });
      },
    });
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    const c = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
    await t.gm.run(() => c().createEmbeddedDocuments("Combatant", [{ actorId: "mini000000000001", initiative: 10 } as never, { actorId: "mini000000000002", initiative: 5 } as never]));
    await t.gm.run(() => c().startCombat());
    await t.world.settle();
    const m = menu(t.gm, combat.id);
    const current = m.combat.turns[0]._source.actorId;
    const other = current === "mini000000000001" ? "mini000000000002" : "mini000000000001";
    const [line] = m.click("FUDGE.Forecast.AgainstCurrent", other);
    // The same duel by the rules core, with and without Guts checks.
    const odds = (gutsChecks: boolean) =>
      t.gm.run(() => {
        const f = duelForecast({ ...duelRequest(plainActor(actorOn(t.gm, other)), plainActor(actorOn(t.gm, current)), worldRules()), gutsChecks });
        return [`${Math.round(f.bOut * 100)}%`, `${Math.round(f.aOut * 100)}%`];
      });
    const [on, off] = [odds(true), odds(false)];
    expect(on).not.toEqual(off);
    expect(line).toContain(`wins ${on[0]}`);
    expect(line).toContain(`wins ${on[1]}`);
    expect(t.world.errors).toEqual([]);
  }, 60_000);
});
