// @vitest-environment happy-dom
/**
 * Issue #9: the duel forecast from the v13 combat tracker — a combatant's menu offers it against
 * the combatant whose turn it is and against the user's targets, to the GM always and to players
 * by the world setting, through the same forecast as the Token HUD (src/foundry/table-api.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ForecastQueue } from "../../src/system/forecast-queue";
import { onRenderTokenHUD, showForecast, useForecastQueue } from "../../src/foundry/table-api";
import { FakeWorker } from "../system/fake-worker";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { duelForecast, type DuelForecast } from "../../src/rules";
import { STAGE_BUDGETS } from "../../src/system/forecast-answer";
import {
  duelRequest,
  forecastLineOf,
  forecastTextOf,
  forecastView,
  forecastViewOf,
} from "../../src/system/attack-dialog";
import { findSample } from "../../src/cli/samples";
import { combatantRow, combatTrackerMenu, groupRow, menuEntryClick, menuEntryLabel, menuEntryShown } from "./apps";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Rec = Record<string, unknown>;
type CombatLike = {
  id: string;
  turns: { id: string; actorId: string; _source: { actorId: string } }[];
  combatant?: { id: string };
};

/** Leroy and Theodora in a started combat (no initiative: Leroy first, by name). */
async function fight(): Promise<{ t: Table; combatId: string }> {
  const t = await table();
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
  await t.gm.run(() =>
    (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).createEmbeddedDocuments("Combatant", [
      { actorId: t.hero, tokenId: t.heroToken } as never,
      { actorId: t.foe, tokenId: t.foeToken } as never,
    ]),
  );
  await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).startCombat());
  await t.world.settle();
  return { t, combatId: combat.id };
}

/** The combatant menu on this client, read as its core reads it (v13 or v14 entries). */
function menu(c: Client, combatId: string) {
  const combat = c.game.combats.get(combatId) as unknown as CombatLike;
  const entries = c.run(() => combatTrackerMenu(combat)) as unknown as Rec[];
  const row = (actorId: string) => combatantRow(combat.turns.find((x) => x._source.actorId === actorId)!.id);
  const entry = (key: string) => entries.find((e) => menuEntryLabel(e) === key);
  const shown = (key: string, actorId: string) =>
    c.run(() => !!entry(key) && menuEntryShown(entry(key)!, row(actorId)));
  const click = (key: string, actorId: string) =>
    c.run(() => menuEntryClick(entry(key)!, row(actorId))) as Promise<string[]>;
  return { entries: entries.map((e) => ({ name: menuEntryLabel(e) })), combat, shown, click };
}

/** The forecast sentence as the HUD words it, from the rules core on this client. */
function expected(c: Client, a: string, b: string): string {
  return c.run(() => {
    const f = forecastView(plainActor(actorOn(c, a)), plainActor(actorOn(c, b)), worldRules());
    const line = forecastLineOf(f, (s) => foundry.utils.escapeHTML(s));
    return forecastTextOf(line, (k, d) => game.i18n!.format(k, d));
  });
}

// The host has no Worker: each test's table forecasts on a stand-in worker whose stages are bounded
// by count only, so that no answer depends on the clock (a test may put its own queue on top).
let tableQueue: ForecastQueue | null = null;
beforeEach(() => {
  tableQueue = useForecastQueue(new ForecastQueue({ createWorker: () => new FakeWorker() }));
});
afterEach(() => {
  if (tableQueue) useForecastQueue(tableQueue);
  tableQueue = null;
});

describe("duel forecast from the combat tracker", () => {
  it("the GM's combatant menu offers it against the combatant whose turn it is, once per menu", async () => {
    const { t, combatId } = await fight();
    const m = menu(t.gm, combatId);
    expect(m.entries.filter((e) => e.name.startsWith("FUDGE.Forecast.")).map((e) => e.name)).toEqual([
      "FUDGE.Forecast.AgainstCurrent",
      "FUDGE.Forecast.AgainstTargets",
    ]);
    expect(m.combat.combatant?.id).toBe(m.combat.turns[0].id);
    const current = m.combat.turns[0]._source.actorId;
    const other = current === t.hero ? t.foe : t.hero;
    // Not against oneself: the current combatant's own row has no "against the current" entry.
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", current)).toBe(false);
    expect(m.shown("FUDGE.Forecast.AgainstCurrent", other)).toBe(true);
    const lines = await m.click("FUDGE.Forecast.AgainstCurrent", other);
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
    expect(await m.click("FUDGE.Forecast.AgainstTargets", t.hero)).toEqual([expected(t.gm, t.hero, t.foe)]);
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
    expect(await m.click("FUDGE.Forecast.AgainstCurrent", other)).toEqual([expected(t.player, other, current)]);
  });

  it("v14 reads {label, visible, onClick}: the same entries in that shape", async () => {
    const t = await table({ generation: 14 });
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    await t.gm.run(() =>
      (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).createEmbeddedDocuments("Combatant", [
        { actorId: t.hero, tokenId: t.heroToken } as never,
        { actorId: t.foe, tokenId: t.foeToken } as never,
      ]),
    );
    await t.gm.run(() => (t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation).startCombat());
    await t.world.settle();
    const c = t.gm.game.combats.get(combat.id) as unknown as CombatLike;
    const entries = t.gm.run(() => combatTrackerMenu(c)) as unknown as {
      label?: string;
      name?: string;
      visible: (li: HTMLElement) => boolean;
      onClick: (e: Event, li: HTMLElement) => Promise<string[]>;
    }[];
    const ours = entries.filter((e) => e.label?.startsWith("FUDGE.Forecast."));
    expect(ours.map((e) => [e.label, e.name])).toEqual([
      ["FUDGE.Forecast.AgainstCurrent", undefined],
      ["FUDGE.Forecast.AgainstTargets", undefined],
    ]);
    const other = c.turns[1];
    const li = combatantRow(other.id);
    expect(t.gm.run(() => ours[0].visible(li))).toBe(true);
    expect(await t.gm.run(() => ours[0].onClick(new Event("click"), li))).toEqual([
      expected(t.gm, other._source.actorId, c.turns[0]._source.actorId),
    ]);
    // Read by v14's menu, the entries raise no compatibility warning.
    expect(t.world.deprecations.filter((d) => d.message.includes("ContextMenuEntry"))).toEqual([]);
  });

  it("v14's combatant-group menu fires the same hook: the forecast entries are there once, shown on no group row", async () => {
    const t = await table({ generation: 14 });
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    const entries = t.gm.run(() => combatTrackerMenu(t.gm.game.combats.get(combat.id), "group"));
    const ours = entries.filter((e) => menuEntryLabel(e).startsWith("FUDGE.Forecast."));
    expect(ours).toHaveLength(2);
    for (const e of ours) expect(t.gm.run(() => menuEntryShown(e, groupRow("grp0000000000001")))).toBe(false);
  });
});

/**
 * Two Sword of Smiting miniatures (King Kingsley's card; the second with `second` on its system) in
 * a started combat, the tracker's "against the current combatant" entry clicked on the other: the
 * line shown, and the duel forecast the rules core gives for it with `extra` on the request.
 */
async function miniTrackerDuel(secondName: string, second: Record<string, unknown>) {
  const sword = {
    _id: "itmSword00000001",
    name: "Sword of Smiting",
    type: "weapon",
    system: { miniaturesDamage: 5, statBasis: "strength", hands: 2, equipped: true },
  };
  const card = { strength: 2, dexterity: 1, guts: 1 };
  const t = await table({
    seed: (world) => {
      world.server.seed("Actor", {
        _id: "mini000000000001",
        name: "King",
        type: "miniature",
        ownership: { default: 0 },
        system: card,
        items: [sword],
        effects: [],
      });
      world.server.seed("Actor", {
        _id: "mini000000000002",
        name: secondName,
        type: "miniature",
        ownership: { default: 0 },
        system: { ...card, ...second },
        items: [{ ...sword, _id: "itmSword00000002" }],
        effects: [],
      });
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
  const c = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
  await t.gm.run(() =>
    c().createEmbeddedDocuments("Combatant", [
      { actorId: "mini000000000001", initiative: 10 } as never,
      { actorId: "mini000000000002", initiative: 5 } as never,
    ]),
  );
  await t.gm.run(() => c().startCombat());
  await t.world.settle();
  const m = menu(t.gm, combat.id);
  const current = m.combat.turns[0]._source.actorId;
  const other = current === "mini000000000001" ? "mini000000000002" : "mini000000000001";
  // The table's queue on a stand-in worker (the host has none): a first answer may come, the exact one last.
  const restore = useForecastQueue(new ForecastQueue({ createWorker: () => new FakeWorker() }));
  const line = (await m.click("FUDGE.Forecast.AgainstCurrent", other).finally(() => useForecastQueue(restore))).at(-1)!;
  expect(line).toMatch(/ Exact\.$/);
  /** The rules core's forecast of the same duel, as the tracker builds it, with `extra` on the request: [other wins, current wins]. */
  const odds = (extra: Record<string, unknown>, check: (request: Record<string, unknown>) => void = () => {}) =>
    t.gm.run(() => {
      const request = duelRequest(plainActor(actorOn(t.gm, other)), plainActor(actorOn(t.gm, current)), worldRules());
      check(request);
      const f = duelForecast({ ...request, ...extra });
      return [`${Math.round(f.bOut * 100)}%`, `${Math.round(f.aOut * 100)}%`];
    });
  return { t, line, odds };
}

describe("Miniatures duel forecast from the combat tracker (Miniatures: Guts)", () => {
  it("counts Guts checks from each model's failures in force, as the world always plays them", async () => {
    // The Knave is still shaken by a failure by 2 ("may not attack") when the duel starts.
    const shaken = {
      pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 1, lastTurn: 1, bonus: 0, forfeitNext: 0, effect: 2 }],
      effect: 2,
    };
    const { t, line, odds } = await miniTrackerDuel("Knave", { gutsState: shaken });
    // The same duel by the rules core, with and without Guts checks.
    const [on, off] = [odds({ gutsChecks: true }), odds({ gutsChecks: false })];
    expect(on).not.toEqual(off);
    expect(line).toContain(`wins ${on[0]}`);
    expect(line).toContain(`wins ${on[1]}`);
    expect(t.world.errors).toEqual([]);
  }, 60_000);
  it("the Terrifying charge: the combatant asked about charges, and a model facing a Terrifying foe checks Guts before the first blow", async () => {
    const { t, line, odds } = await miniTrackerDuel("Ogre", { terrifying: 1 });
    const asked = (request: Record<string, unknown>) => expect(request).toMatchObject({ terrifyingCharge: true });
    const [on, off] = [odds({ terrifyingCharge: true }, asked), odds({ terrifyingCharge: false })];
    expect(on).not.toEqual(off);
    expect(line).toContain(`wins ${on[0]}`);
    expect(line).toContain(`wins ${on[1]}`);
    expect(t.world.errors).toEqual([]);
  }, 120_000);
});

describe("the table's duel forecast runs in the forecast worker (src/system/forecast-queue.ts)", () => {
  let restore: ForecastQueue | null = null;
  afterEach(() => {
    if (restore) useForecastQueue(restore);
    restore = null;
  });
  /** The table's queue on a stand-in Worker (the host has no Worker of its own). */
  const onFakeWorker = () => {
    const w = new FakeWorker();
    restore = useForecastQueue(new ForecastQueue({ createWorker: () => w }));
    return w;
  };

  it("says it is forecasting at once, then shows the worker's answer; the request is built from live documents here", async () => {
    const w = onFakeWorker();
    const { t, combatId } = await fight();
    const m = menu(t.gm, combatId);
    const current = m.combat.turns[0]._source.actorId;
    const other = current === t.hero ? t.foe : t.hero;
    const before = t.gm.notifications.length;
    const pending = m.click("FUDGE.Forecast.AgainstCurrent", other);
    // Before the worker answers: the notice only, and the request in the worker.
    const names = t.gm.run(() => [actorOn(t.gm, other).name, actorOn(t.gm, current).name]);
    expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual([`Forecasting ${names[0]} vs ${names[1]}…`]);
    expect(w.posted).toHaveLength(1);
    expect(w.posted[0].request).toEqual(
      t.gm.run(() => duelRequest(plainActor(actorOn(t.gm, other)), plainActor(actorOn(t.gm, current)), worldRules())),
    );
    const lines = await pending;
    expect(lines).toEqual([expected(t.gm, other, current)]);
    expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual([
      `Forecasting ${names[0]} vs ${names[1]}…`,
      lines[0],
    ]);
    // A second click: the same live data, the same request, answered from the cache (no notice, no worker).
    const again = await m.click("FUDGE.Forecast.AgainstCurrent", other);
    expect(again).toEqual(lines);
    expect(w.posted).toHaveLength(1);
    expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual([
      `Forecasting ${names[0]} vs ${names[1]}…`,
      lines[0],
      lines[0],
    ]);
    // Changed live data: a new request, asked of the worker again.
    await t.gm.run(() => actorOn(t.gm, other).update({ name: "Renamed" } as never));
    await t.world.settle();
    const renamed = await m.click("FUDGE.Forecast.AgainstCurrent", other);
    expect(w.posted).toHaveLength(2);
    expect(renamed[0]).toMatch(/^Renamed vs /);
    expect(t.world.errors).toEqual([]);
  });

  it("the Token HUD's scales button: the notice at once, the worker's answer when it comes, the UI free meanwhile", async () => {
    const w = onFakeWorker();
    const t = await table();
    t.gm.target(t.gm.game.scenes.get(t.scene)!.tokens.get(t.foeToken)! as never);
    const html = document.createElement("div");
    html.innerHTML = '<div class="col right"></div>';
    t.gm.run(() => onRenderTokenHUD({ object: { actor: actorOn(t.gm, t.hero) } }, html));
    const button = html.querySelector<HTMLButtonElement>("button.fudge-forecast")!;
    const before = t.gm.notifications.length;
    t.gm.run(() => button.click());
    // The click returns at once: only the notice so far, the request waiting in the worker.
    expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual(["Forecasting Leroy vs Theodora…"]);
    expect(w.posted).toHaveLength(1);
    const line = expected(t.gm, t.hero, t.foe);
    await vi.waitFor(() =>
      expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual(["Forecasting Leroy vs Theodora…", line]),
    );
  });

  it("a duel whose request cannot be built (characters in a Miniatures world) is refused in words, without the worker", async () => {
    const w = onFakeWorker();
    const { t, combatId } = await fight();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
    await t.world.settle();
    const m = menu(t.gm, combatId);
    const before = t.gm.notifications.length;
    expect(await m.click("FUDGE.Forecast.AgainstCurrent", m.combat.turns[1]._source.actorId)).toEqual([]);
    const shown = t.gm.notifications.slice(before);
    expect(shown.map((n) => n.type)).toEqual(["warn"]);
    expect(shown[0].message).not.toMatch(/FUDGE\.|actor\.type/);
    expect(w.posted).toEqual([]);
  });

  it("a duel no exact forecast reaches in budget (Volt Leroy vs Leroy) shows the worker's estimate, worded as an estimate", async () => {
    const w = onFakeWorker();
    // Two copies of the pack's Leroy (the CLI's sample) in a Volt world: 3.5 billion pairs of sheets.
    const leroy = findSample("Leroy", "a") as unknown as Record<string, unknown>;
    const ids = { one: "leroyOne00000001", two: "leroyTwo00000001" };
    const t = await table({
      seed: (world) => {
        world.server.seed("Actor", {
          ...structuredClone(leroy),
          _id: ids.one,
          name: "Leroy",
          ownership: { default: 0 },
        });
        world.server.seed("Actor", {
          ...structuredClone(leroy),
          _id: ids.two,
          name: "Leroy <the Second>",
          ownership: { default: 0 },
        });
      },
    });
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "volt" as never));
    await t.world.settle();
    const request = t.gm.run(() =>
      duelRequest(plainActor(actorOn(t.gm, ids.one)), plainActor(actorOn(t.gm, ids.two)), worldRules()),
    );
    expect(request.fallback).toBe("sample");
    const before = t.gm.notifications.length;
    const lines = await t.gm.run(() => showForecast(actorOn(t.gm, ids.one), [actorOn(t.gm, ids.two)]));
    expect(w.posted.map((m) => m.request)).toEqual([request]);
    // First the worker's first estimate (2,000 duels), then its answer: the estimate the request asks
    // for (the exact and bounded methods were refused at their budget). Each says what it is.
    const text = (f: DuelForecast, interim: boolean) =>
      t.gm.run(() =>
        forecastTextOf(
          forecastLineOf(forecastViewOf("Leroy", "Leroy <the Second>", f), (s) => foundry.utils.escapeHTML(s), interim),
          (k, d) => game.i18n!.format(k, d),
        ),
      );
    const first = duelForecast({
      ...request,
      samples: STAGE_BUDGETS.estimate.samples,
      budgetMs: 60_000,
      method: "sample",
    });
    const estimate = duelForecast({ ...request, method: "sample" });
    expect(lines).toEqual([text(first, true), text(estimate, false)]);
    expect(lines[0]).toMatch(
      /^Leroy vs Leroy &lt;the Second&gt;: Leroy wins ≈ \d+% ± \d\.\d%, .* an estimate from 2,000 simulated duels \(99% interval\), not an exact forecast\. A first estimate; the forecast is still being worked out\.$/,
    );
    expect(lines[1]).toMatch(
      /^Leroy vs Leroy &lt;the Second&gt;: Leroy wins ≈ \d+% ± \d\.\d%, Leroy &lt;the Second&gt; wins ≈ \d+% ± \d\.\d%, in about [\d.]+ exchanges — an estimate from 20,000 simulated duels \(99% interval\), not an exact forecast\. Estimate\.$/,
    );
    expect(t.gm.notifications.slice(before).map((n) => n.message)).toEqual([
      "Forecasting Leroy vs Leroy &lt;the Second&gt;…",
      ...lines,
    ]);
    expect(t.world.errors).toEqual([]);
  }, 60_000);

  it("a forecast the worker refuses is reported as the rules core's localized error, rebuilt on this side", async () => {
    const w = onFakeWorker();
    // The worker refuses with the budget's RulesError, as a duel past its budget would.
    w.postMessage = function (message) {
      this.posted.push(structuredClone(message));
      setTimeout(
        () =>
          this.onmessage?.({
            data: {
              id: message.id,
              ok: false,
              error: {
                field: "budgetMs",
                key: "FUDGE.Error.ForecastBudget",
                params: { field: "budgetMs", what: "10000 ms" },
                message: "budgetMs: too long",
              },
            },
          }),
        1,
      );
    };
    const { t, combatId } = await fight();
    const m = menu(t.gm, combatId);
    const other = m.combat.turns[1]._source.actorId;
    expect(await m.click("FUDGE.Forecast.AgainstCurrent", other)).toEqual([]);
    // As a refusal is reported everywhere (reportError): a warning in words, not a field path.
    const warnings = t.gm.notifications.filter((n) => n.type === "warn").map((n) => n.message);
    expect(warnings).toEqual([t.gm.run(() => game.i18n!.format("FUDGE.Error.ForecastBudget", { what: "10000 ms" }))]);
    expect(t.gm.notifications.filter((n) => n.type === "error")).toEqual([]);
  });
});
