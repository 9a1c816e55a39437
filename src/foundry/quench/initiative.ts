/** Initiative from the tracker by the preset's formula, and the tracker's duel forecast (in the forecast worker, and its budget fallback). */
import { PREFIX, QuenchLike, Scratch } from "./helpers";
import { duelRequest } from "../../system/attack-dialog";
import { duelForecast } from "../../rules";
import { ForecastQueue } from "../../system/forecast-queue";
import { STAGE_BUDGETS } from "../../system/forecast-answer";

/** The stages on this page (no worker) bounded by count only, their time budgets out of reach. */
const COUNT_ONLY = {
  quick: { ...STAGE_BUDGETS.quick, budgetMs: 60_000 },
  estimate: { ...STAGE_BUDGETS.estimate, budgetMs: 60_000, untilMs: 60_000 },
};
import { plainActor, worldRules } from "../bridge";
import { SYSTEM_ID } from "../../system/registry";

export function registerInitiativeBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.initiative`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const actors: Actor.Implementation[] = [];
      let combat: Combat.Implementation | null = null;
      before(async () => {
        await s.setPreset("fudge");
        actors.push(await s.actorFromPack("characters", "Leroy"), await s.actorFromPack("characters", "Theodora"));
      });
      after(() => s.cleanup());
      it("initiative rolls from the tracker with the preset's formula", async () => {
        const scene = s.track(
          (await Scene.create({
            name: `${PREFIX}Fudge Combat & Wounds`,
            tokens: actors.map((a, i) => ({ name: a.name, actorId: a.id, x: 100 * i, y: 0 })),
          } as never)) as Scene.Implementation,
        );
        combat = s.track((await Combat.create({ scene: scene.id } as never)) as Combat.Implementation);
        await combat.createEmbeddedDocuments(
          "Combatant",
          scene.tokens.contents.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never,
        );
        const before = game.messages!.size;
        await combat.rollAll();
        for (const c of combat.combatants.contents)
          assert.ok(Number.isFinite(c.initiative), `${c.name} has an initiative`);
        assert.equal(game.messages!.size - before, actors.length, "one roll message each");
        for (const m of game.messages!.contents.slice(before)) s.track(m);
      });
      it("a combatant's menu in the combat tracker shows the duel forecast against the current combatant", async () => {
        assert.ok(combat, "the combat of the test above");
        const c = combat!;
        if (!c.started) await c.startCombat();
        // As the tracker builds its combatant menu (get<Class>ContextOptions), with this combat viewed.
        const entries: Record<string, unknown>[] = [];
        (Hooks as unknown as { callAll(hook: string, ...args: unknown[]): boolean }).callAll(
          "getCombatTrackerContextOptions",
          { viewed: c },
          entries,
        );
        const entry = entries.find((e) => (e.name ?? e.label) === "FUDGE.Forecast.AgainstCurrent");
        assert.ok(entry, "the forecast entry is in the menu");
        const other = c.turns.find((x) => x.id !== c.combatant?.id);
        assert.ok(other, "a second combatant");
        const li = document.createElement("li");
        li.dataset.combatantId = other!.id!;
        const v14 = (game.release?.generation ?? 13) >= 14;
        const visible = (v14 ? entry!.visible : entry!.condition) as (li: HTMLElement) => boolean;
        assert.ok(visible(li), "shown to the GM on the other combatant's row");
        const lines =
          (await (v14
            ? (entry!.onClick as (e: Event, li: HTMLElement) => Promise<string[]>)(new Event("click"), li)
            : (entry!.callback as (li: HTMLElement) => Promise<string[]>)(li))) ?? [];
        assert.equal(lines.length, 1, "one forecast");
        assert.ok(lines[0].startsWith(`${foundry.utils.escapeHTML(other!.actor!.name)} vs `), lines[0]);
      });
      it("the duel forecast runs in the forecast worker (fudge-forecast.mjs beside the bundle) and equals the synchronous one", async () => {
        const request = duelRequest(plainActor(actors[0]), plainActor(actors[1]), worldRules());
        // A queue of its own, so that no cached answer stands in for the worker's (where no worker
        // runs, the test host, its stages are bounded by count only: no answer depends on the clock).
        const q = new ForecastQueue({ stageBudgets: COUNT_ONLY });
        try {
          const answer = await q.run(request);
          assert.equal(
            q.mode,
            typeof Worker === "undefined" ? "sync" : "worker",
            "a browser's Foundry runs the forecast in the worker",
          );
          assert.deepEqual(answer, duelForecast(request), "the worker's forecast is the rules core's");
          assert.deepEqual(
            await (
              game.system as unknown as { api: { forecastAsync(a: unknown, b: unknown): Promise<unknown> } }
            ).api.forecastAsync(actors[0], actors[1]),
            answer,
            "game.system.api.forecastAsync",
          );
        } finally {
          q.dispose();
        }
      });
      it('a duel refused for its budget comes back from the worker as the seeded estimate (fallback "sample"), never as exact', async () => {
        // The table's request with a chain too small for it: refused for maxStates, so estimated.
        const request = {
          ...duelRequest(plainActor(actors[0]), plainActor(actors[1]), worldRules()),
          method: "chain",
          maxStates: 2,
          samples: 500,
        };
        const q = new ForecastQueue({ stageBudgets: COUNT_ONLY });
        try {
          const answer = await q.run(request);
          assert.equal(answer.method, "sample", "the fallback answered");
          assert.deepEqual(
            [answer.exact, answer.errorBound, answer.estimate?.duels],
            [false, 1, 500],
            "labelled an estimate of 500 duels",
          );
          assert.deepEqual(
            answer,
            duelForecast({ ...request, method: "sample" }),
            "the worker's estimate is the rules core's, from the same seed",
          );
        } finally {
          q.dispose();
        }
      });
    },
    { displayName: "Fudge Combat & Wounds: initiative and the tracker's duel forecast" },
  );
}
