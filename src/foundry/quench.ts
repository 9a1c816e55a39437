/**
 * In-world self-test: with the Quench module active, the system registers Mocha/Chai batches on
 * `quenchReady` (FOUNDRY-V13.md "Manifest"). Each builds a scratch state from the system's packs,
 * runs its checks against the live world with real Foundry Rolls, and deletes everything it
 * created. docs/foundry.md tells a tester how to run them and what to report.
 *
 * Types: a local subset of @ethaks/fvtt-quench's API (its package pins a different fvtt-types).
 */
import { PRESETS, type PresetId } from "../rules/pipeline";
import * as actions from "../system/actions";
import { rollAttack } from "../system/rolling";
import { duelRequest } from "../system/attack-dialog";
import { duelForecast } from "../rules/forecast";
import { ForecastQueue } from "./forecast-queue";
import { plainActor, updateActor, worldRules, type DerivedActor } from "./bridge";
import { clickCardAction, postAttackCard } from "./chat";
import { foundryRoller } from "./dice";
import { userRef } from "./foundry-util";
import { migrateWorld } from "./migration";
import { SYSTEM_ID } from "./registry";
import { statusesFor } from "./statuses-pure";
import { STORED_SHAPES } from "./stored-shapes";
import type { ActorType, WorldRules } from "../system/data";
import { registerIntegrityBatch } from "./quench-integrity";
import { registerClippedBatch } from "./quench-clipped";
import { registerBattleLapseBatch, registerLightWoundBatch } from "./quench-battle";
import { registerAttackerAsPostedBatch, registerGmJudgementBatch } from "./quench-cards";
import { registerCombatEndBatch, registerRoundsBatch } from "./quench-rounds";
import { registerPrivateCardsBatch } from "./quench-privacy";
import { registerTokenBarBatch, registerTokenHudBatch } from "./quench-canvas";
import { registerMiniTableBatch } from "./quench-table";
import { gutsAfterWound } from "./combat";
import { liveGutsCircumstances } from "./guts-table";
import { applyWound } from "../rules/track";
import { trackFor } from "../system/combatant";

/** The parts of Quench's batch context the batches use (Mocha's BDD interface and Chai). */
export interface QuenchBatchContext {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => Promise<void> | void): void;
  before(fn: () => Promise<void> | void): void;
  after(fn: () => Promise<void> | void): void;
  assert: {
    ok(v: unknown, msg?: string): void;
    equal(a: unknown, b: unknown, msg?: string): void;
    notEqual(a: unknown, b: unknown, msg?: string): void;
    deepEqual(a: unknown, b: unknown, msg?: string): void;
    isAbove(a: number, b: number, msg?: string): void;
  };
}
export interface QuenchLike {
  registerBatch(
    key: string,
    fn: (context: QuenchBatchContext) => void,
    options?: { displayName?: string; preSelected?: boolean },
  ): void;
}

export const QUENCH_BATCHES = [
  "sheets",
  "card-loop",
  "statuses",
  "initiative",
  "migration",
  "integrity",
  "rich-text",
  "mini-traits",
  "guts-table",
  "battle-lapse",
  "light-wound",
  "fate-clipped",
  "gm-judgement",
  "attacker-as-posted",
  "rounds",
  "mini-table",
  "private-cards",
  "token-bar",
  "token-hud",
  "combat-end",
].map((k) => `${SYSTEM_ID}.${k}`);

const PREFIX = "[Quench] ";
type Deletable = { delete(): Promise<unknown>; id: string | null };

/** Everything a batch creates, deleted in reverse order afterwards; the preset restored. */
export class Scratch {
  private made: Deletable[] = [];
  private preset: PresetId | null = null;
  /** World rule settings changed by the batch, with the value each had before (restored in cleanup). */
  private rules = new Map<string, unknown>();
  track<T>(doc: T): T {
    if (doc) this.made.push(doc as unknown as Deletable);
    return doc;
  }
  async actorFromPack(pack: string, name: string): Promise<Actor.Implementation> {
    const p = (
      game.packs as unknown as Map<
        string,
        { getDocuments(): Promise<{ name: string; toObject(): Record<string, unknown> }[]> }
      >
    ).get(`${SYSTEM_ID}.${pack}`);
    if (!p) throw new Error(`pack ${SYSTEM_ID}.${pack} is missing`);
    const doc = (await p.getDocuments()).find((d) => d.name === name);
    if (!doc) throw new Error(`${name} is not in ${pack}`);
    const { _id, ...data } = doc.toObject();
    void _id;
    return this.track(
      (await Actor.create({ ...data, name: PREFIX + String(data.name) } as never)) as Actor.Implementation,
    );
  }
  /** Posts `attacker`'s attack on `defender` with his first weapon, its dice real Foundry Rolls attached to the card. */
  async postAttack(attacker: Actor.Implementation, defender: Actor.Implementation) {
    const weapon = attacker.items.contents.find((i) => i.type === "weapon") ?? null;
    const { card, rolls } = await rollAttack(
      (dice) =>
        actions.startAttack(
          plainActor(attacker),
          weapon?.id ?? null,
          [plainActor(defender)],
          {},
          dice,
          worldRules(),
          userRef(),
        ),
      foundryRoller,
    );
    const message = this.track(await postAttackCard(attacker, card, rolls));
    return { card, rolls, message };
  }
  async setPreset(preset: PresetId): Promise<void> {
    this.preset ??= worldRules().preset;
    await game.settings!.set(SYSTEM_ID as never, "preset" as never, preset as never);
  }
  /** Sets one world rule setting (WorldRules key, e.g. "fudge"), remembering its value for cleanup. */
  async setRule<K extends keyof WorldRules>(key: K, value: WorldRules[K]): Promise<void> {
    if (!this.rules.has(key))
      this.rules.set(key, structuredClone(game.settings!.get(SYSTEM_ID as never, key as never)));
    await game.settings!.set(SYSTEM_ID as never, key as never, value as never);
  }
  async cleanup(): Promise<void> {
    for (const d of this.made.reverse()) {
      const live = d.id ? (d as unknown as { collection?: { get(id: string): unknown } }).collection?.get(d.id) : null;
      if (live !== undefined && live !== null)
        await d.delete().catch((e) => console.warn(`${SYSTEM_ID} | quench cleanup`, e));
    }
    this.made = [];
    for (const [key, value] of [...this.rules].reverse())
      await game.settings!.set(SYSTEM_ID as never, key as never, value as never);
    this.rules.clear();
    if (this.preset) await game.settings!.set(SYSTEM_ID as never, "preset" as never, this.preset as never);
    this.preset = null;
  }
}

/** A batch with one test on the pack's Theodora in a Fudge world (the scratch documents deleted afterwards). */
export function theodoraBatch(
  quench: QuenchLike,
  key: string,
  displayName: string,
  title: string,
  test: (theodora: Actor.Implementation, s: Scratch, assert: QuenchBatchContext["assert"]) => Promise<void>,
): void {
  quench.registerBatch(
    `${SYSTEM_ID}.${key}`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      let theodora: Actor.Implementation;
      before(async () => {
        await s.setPreset("fudge");
        theodora = await s.actorFromPack("characters", "Theodora");
      });
      after(() => s.cleanup());
      it(title, () => test(theodora, s, assert));
    },
    { displayName },
  );
}

/** A scratch world with the Fudge preset and Leroy and Theodora (Fudge §4.55) from the packs, cleaned up after the batch. */
export function fudgeDuel(ctx: Pick<QuenchBatchContext, "before" | "after">): {
  s: Scratch;
  duel: { leroy: Actor.Implementation; theodora: Actor.Implementation };
} {
  const s = new Scratch();
  const duel = {} as { leroy: Actor.Implementation; theodora: Actor.Implementation };
  ctx.before(async () => {
    await s.setPreset("fudge");
    duel.leroy = await s.actorFromPack("characters", "Leroy");
    duel.theodora = await s.actorFromPack("characters", "Theodora");
  });
  ctx.after(() => s.cleanup());
  return { s, duel };
}

const derived = (a: Actor.Implementation) => (a.system as unknown as { derived: DerivedActor }).derived;
/** The track as a player reads it (open boxes, level, condition): an unhurt track may be stored as null or as empty marks. */
const trackState = (a: Actor.Implementation) => {
  const d = derived(a);
  return JSON.stringify([d.openBoxes, d.status?.levelKey ?? null, d.condition, d.status?.effects ?? []]);
};

/** Waits until `check` holds (the active GM's hooks run after the update returns), or the timeout. */
export async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** One target of an attack card as the batches read it from the live message. */
export type QuenchCardTarget = {
  actorId: string;
  defend: string;
  gmLevel?: string;
  dice: Record<string, number[]>;
  situation?: Record<string, unknown>;
  resolution: { outcome: string; wound: unknown; woundKey: string | null; numbers: Record<string, number> } | null;
  applied: { undone: boolean }[];
  differs?: boolean;
};
/** Target `i` of the card in message `id`, as stored now. */
export const cardTarget = (id: string, i = 0): QuenchCardTarget =>
  (game.messages!.get(id)!.system as unknown as { targets: QuenchCardTarget[] }).targets[i];

/**
 * Posts `attacker`'s attacks on `defender` (real Rolls; the defence rolled from the card when it
 * has one) until the target's entry satisfies `want`; returns that card's message id. The dice are
 * random in a live world: the batches wait for the card they need instead of relying on one roll.
 */
export async function defendedCard(
  s: Scratch,
  attacker: Actor.Implementation,
  defender: Actor.Implementation,
  want: (t: QuenchCardTarget) => boolean,
  tries = 30,
): Promise<string> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const { card, message } = await s.postAttack(attacker, defender);
    const id = message.id!;
    if (cardTarget(id).defend === "pending") {
      await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "defend", card.targets[0].actorId);
      await until(() => cardTarget(id).defend === "rolled");
    }
    if (want(cardTarget(id))) return id;
  }
  throw new Error(`no such card in ${tries} attacks`);
}

const SAMPLES: { pack: string; name: string; type: ActorType }[] = [
  { pack: "characters", name: "Leroy", type: "character" },
  { pack: "characters", name: "Theodora", type: "npc" },
  { pack: "miniatures", name: "Sir Knightly", type: "miniature" },
];

/** Notes a hostile player could write: each part would run script if it reached the page as it is. */
const HOSTILE_NOTES =
  '<p>Owes <strong>3 gp</strong></p><img src="x" onerror="window.__fudgeXss = true"><a href="javascript:window.__fudgeXss = true">x</a><script>window.__fudgeXss = true</script>';

/** Issue #9: rich-text notes in a live world (registered last, see QUENCH_BATCHES). */
function registerRichTextBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.rich-text`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      let leroy: Actor.Implementation;
      before(async () => {
        leroy = await s.actorFromPack("characters", "Leroy");
        await leroy.update({ system: { notes: HOSTILE_NOTES } } as never);
      });
      after(() => s.cleanup());
      it("notes are a toggled <prose-mirror> for the owner, and hostile HTML in them runs nothing on the sheet", async () => {
        const sheet = leroy.sheet as unknown as {
          render(o?: object): Promise<unknown>;
          close(): Promise<unknown>;
          element: HTMLElement;
        };
        await sheet.render({ force: true });
        await until(() => !!sheet.element?.querySelector("prose-mirror"));
        const editor = sheet.element.querySelector('prose-mirror[name="system.notes"]');
        assert.ok(editor, "the notes editor is there");
        assert.ok(editor!.hasAttribute("toggled"), "toggled editor");
        assert.equal(editor!.querySelector("strong")?.textContent, "3 gp", "formatting shown");
        const bad = [...sheet.element.querySelectorAll("*")].filter(
          (el) =>
            el.tagName === "SCRIPT" ||
            [...el.attributes].some((a) => a.name.startsWith("on") || /^\s*javascript:/i.test(a.value)),
        );
        assert.deepEqual(
          bad.map((el) => el.outerHTML.slice(0, 80)),
          [],
          "nothing scriptable on the sheet",
        );
        await new Promise((r) => setTimeout(r, 100));
        assert.ok(!(window as unknown as { __fudgeXss?: boolean }).__fudgeXss, "no script ran");
        await sheet.close();
      });
    },
    { displayName: "Fudge Combat & Wounds: rich-text notes are edited with <prose-mirror> and shown safely" },
  );
}

export function registerQuenchBatches(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.sheets`,
    ({ describe, it, before, after, assert }) => {
      const s = new Scratch();
      const actors: Actor.Implementation[] = [];
      before(async () => {
        for (const x of SAMPLES) actors.push(await s.actorFromPack(x.pack, x.name));
      });
      after(() => s.cleanup());
      for (const preset of PRESETS)
        describe(`preset ${preset}`, () => {
          it("every sample actor's sheet opens and re-renders", async () => {
            await s.setPreset(preset);
            for (const a of actors) {
              const sheet = a.sheet as unknown as {
                render(o?: object): Promise<unknown>;
                close(): Promise<unknown>;
                rendered: boolean;
                element: HTMLElement;
              };
              await sheet.render({ force: true });
              assert.ok(sheet.rendered, `${a.name} rendered`);
              assert.ok(sheet.element?.querySelector(".fudge-wounds, .window-content"), `${a.name} has content`);
              await sheet.render();
              await sheet.close();
            }
          });
        });
    },
    { displayName: "Fudge Combat & Wounds: every sheet in every preset" },
  );

  quench.registerBatch(
    `${SYSTEM_ID}.card-loop`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      it("attack → defend → apply → undo with real Rolls (Fudge)", async () => {
        const before = trackState(duel.theodora);
        // Random dice: attack until a wound is dealt (each card is a real card with its Rolls).
        for (let attempt = 0; attempt < 30; attempt++) {
          const { card, rolls, message } = await s.postAttack(duel.leroy, duel.theodora);
          assert.isAbove(rolls.length, 0, "the attack is a Foundry Roll");
          assert.isAbove((message as unknown as { rolls: unknown[] }).rolls.length, 0, "the message carries its rolls");
          const targetId = card.targets[0].actorId;
          const live = () =>
            (
              game.messages!.get(message.id!)!.system as unknown as {
                targets: { defend: string; resolution: { wound: unknown } | null; applied: { undone: boolean }[] }[];
              }
            ).targets[0];
          if (live().defend === "pending") {
            await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "defend", targetId);
            assert.ok(await until(() => live().defend === "rolled"), "the defence was rolled");
            assert.equal(
              (game.messages!.get(message.id!) as unknown as { rolls: unknown[] }).rolls.length,
              rolls.length + 1,
              "the defence Roll joined the card",
            );
          }
          if (live().resolution?.wound === null || live().resolution?.wound === undefined) continue;
          await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "apply", targetId);
          assert.ok(await until(() => live().applied.length === 1), "applied once");
          assert.notEqual(trackState(duel.theodora), before, "the wound is on the track");
          await clickCardAction(game.messages!.get(message.id!) as ChatMessage.Implementation, "undo", targetId);
          assert.ok(await until(() => live().applied[0]?.undone === true), "undone");
          assert.equal(trackState(duel.theodora), before, "the track is as before");
          return;
        }
        assert.ok(false, "no wound in 30 attacks");
      });
    },
    { displayName: "Fudge Combat & Wounds: the card loop with real Rolls" },
  );

  theodoraBatch(
    quench,
    "statuses",
    "Fudge Combat & Wounds: statuses follow the track",
    "token statuses follow the wound track (marked, then healed)",
    async (theodora, _s, assert) => {
      for (const ref of ["hurt:0", "veryHurt:0", "incapacitated:0"])
        await updateActor(theodora, actions.toggleWoundBox(plainActor(theodora), ref, worldRules(), userRef()));
      const wanted = statusesFor(derived(theodora).status!, "fudge", theodora.type as ActorType);
      assert.isAbove(wanted.statuses.length, 0, "Incapacitated has a status");
      assert.ok(
        await until(() => wanted.statuses.every((id) => theodora.statuses.has(id))),
        `statuses ${wanted.statuses.join(", ")}`,
      );
      await updateActor(theodora, actions.resetTrack(plainActor(theodora), userRef()));
      assert.ok(
        await until(() => wanted.statuses.every((id) => !theodora.statuses.has(id))),
        "statuses cleared with the track",
      );
    },
  );

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
        // A queue of its own, so that no cached answer stands in for the worker's.
        const q = new ForecastQueue();
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
        const q = new ForecastQueue();
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

  quench.registerBatch(
    `${SYSTEM_ID}.migration`,
    ({ it, after, assert }) => {
      const s = new Scratch();
      after(() => s.cleanup());
      for (const shape of STORED_SHAPES.filter((x) => !x.invalid))
        it(shape.label, async () => {
          const cls = (shape.documentName === "Actor" ? Actor : Item) as unknown as {
            create(d: object): Promise<{ toObject(): { system: unknown }; items?: { size: number } }>;
          };
          const doc = s.track(
            await cls.create({
              ...structuredClone(shape.source),
              name: PREFIX + String(shape.source.name),
              ...(shape.items ? { items: structuredClone(shape.items) } : {}),
            }),
          );
          const sys = doc.toObject().system;
          const at = (path: string) =>
            path.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), sys);
          for (const [path, v] of Object.entries(shape.expect)) assert.deepEqual(at(path), v, path);
          for (const path of shape.gone ?? []) assert.equal(at(path), undefined, `${path} is gone`);
          if (shape.items) assert.equal(doc.items?.size, shape.items.length, "embedded items kept");
        });
      it("the world migration has nothing left to do, and reports no failure", async () => {
        const report = await migrateWorld();
        assert.ok(report === null || report.failed.length === 0, JSON.stringify(report?.failed ?? []));
      });
    },
    { displayName: "Fudge Combat & Wounds: migration of every stored shape" },
  );

  registerIntegrityBatch(quench);
  registerRichTextBatch(quench);
  registerMiniTraitsBatch(quench);
  registerGutsTableBatch(quench);
  registerBattleLapseBatch(quench);
  registerLightWoundBatch(quench);
  registerClippedBatch(quench);
  registerGmJudgementBatch(quench);
  registerAttackerAsPostedBatch(quench);
  registerRoundsBatch(quench);
  registerMiniTableBatch(quench);
  registerPrivateCardsBatch(quench);
  registerTokenBarBatch(quench);
  registerTokenHudBatch(quench);
  registerCombatEndBatch(quench);
}

/** Miniatures gifts and faults with a rule (seed 004 "Sample characters") in a live world, from the packs. */
function registerMiniTraitsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.mini-traits`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const m = {} as { knightly: Actor.Implementation; brutas: Actor.Implementation };
      before(async () => {
        await s.setPreset("miniatures");
        m.knightly = await s.actorFromPack("miniatures", "Sir Knightly");
        m.brutas = await s.actorFromPack("miniatures", "Brutas the Brute");
      });
      after(() => s.cleanup());
      it("the datacards carry their gifts' and faults' rules to the rules core and the duel forecast", () => {
        const req = duelRequest(plainActor(m.knightly), plainActor(m.brutas), worldRules()) as {
          a: Record<string, { rule?: string }>;
          b: Record<string, { rule?: string }>;
        };
        assert.deepEqual(
          [req.a.gift?.rule, req.a.fault?.rule, req.b.fault?.rule],
          ["faithful", "chivalrous", "mercenary"],
        );
      });
      it("Chivalrous: Sir Knightly's attack on a helpless Brutas is refused before any die is rolled", async () => {
        const weapon = m.knightly.items.contents.find((i) => i.type === "weapon") ?? null;
        let rolled = 0;
        const roller: typeof foundryRoller = (formula) => (rolled++, foundryRoller(formula));
        const key = await rollAttack(
          (dice) =>
            actions.startAttack(
              plainActor(m.knightly),
              weapon?.id ?? null,
              [plainActor(m.brutas)],
              { helpless: true },
              dice,
              worldRules(),
              userRef(),
            ),
          roller,
        ).then(
          () => null,
          (e: { key?: string }) => e.key ?? String(e),
        );
        assert.deepEqual([key, rolled], ["FUDGE.Error.Miniatures.Chivalrous", 0]);
      });
    },
    { displayName: "Fudge Combat & Wounds: Miniatures gifts and faults with a rule" },
  );
}

/**
 * The table's Guts circumstances (seed 004 "Sample characters") in a live world: the standing is
 * stored on the miniature by its data model, and the check after a wound reads a fallen Leader
 * from the current combat (a scratch scene, linked tokens, an active combat; all deleted after).
 */
function registerGutsTableBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.guts-table`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const m = {} as { king: Actor.Implementation; yanni: Actor.Implementation };
      before(async () => {
        await s.setPreset("miniatures");
        m.king = await s.actorFromPack("miniatures", "King Kingsley");
        m.yanni = await s.actorFromPack("miniatures", "Yanni the Yeoman");
      });
      after(() => s.cleanup());
      it("the standing is stored on the miniature (all off from the packs), and a changed box is kept", async () => {
        const standing = () => ({
          ...(m.yanni.system as unknown as { gutsStanding: Record<string, boolean> }).gutsStanding,
        });
        assert.deepEqual(standing(), { defendingKing: false, peasant: false, follower: false });
        await m.yanni.update({ system: { gutsStanding: { follower: true } } } as never);
        assert.deepEqual(standing(), { defendingKing: false, peasant: false, follower: true });
      });
      it("a follower's Guts check after a wound is at −1 once the King of its side in the combat is Near Death, and the note says so", async () => {
        const scene = s.track(
          (await Scene.create({
            name: `${PREFIX}Guts`,
            tokens: [m.king, m.yanni].map((a, i) => ({
              name: a.name,
              actorId: a.id,
              actorLink: true,
              disposition: 1,
              x: 100 * i,
              y: 0,
            })),
          } as never)) as Scene.Implementation,
        );
        const combat = s.track((await Combat.create({ scene: null, active: true } as never)) as Combat.Implementation);
        await combat.createEmbeddedDocuments(
          "Combatant",
          scene.tokens.contents.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never,
        );
        assert.equal(game.combat?.id, combat.id, "the scratch combat is the current one");
        const w = applyWound(trackFor(plainActor(m.king), worldRules()), { level: "nearDeath" });
        await m.king.update({ system: { woundTrack: { state: w.track.state } } } as never);
        assert.equal(liveGutsCircumstances(m.yanni).leader, m.king.name);
        const before = game.messages!.size;
        await gutsAfterWound(m.yanni, [
          { type: "gutsCheck", target: "defender", params: { who: "self", target: 1, reason: "newWoundLevel" } },
        ]);
        const notes = game.messages!.contents.slice(before);
        for (const n of notes) s.track(n);
        assert.equal(notes.length, 1, "one note");
        const line = game.i18n!.format("FUDGE.Miniatures.Step.Trait.leader", { value: "\u22121" });
        assert.ok(String(notes[0].content).includes(line), `the note says "${line}"`);
      });
      it("the table's duel forecast counts them too: Yanni, a peasant and a follower of the fallen King, dueling the King checks at −2 throughout", async () => {
        await m.yanni.update({ system: { gutsStanding: { peasant: true, follower: true } } } as never);
        const api = (
          game.system as unknown as { api: { forecast(a: unknown, b: unknown): { aOut: number; bOut: number } } }
        ).api;
        const got = api.forecast(m.yanni, m.king);
        const request = duelRequest(plainActor(m.yanni), plainActor(m.king), worldRules());
        const want = duelForecast({ ...request, gutsSituation: { a: { nobleInMelee: true, leaderFallen: true } } });
        assert.deepEqual(
          [got.aOut, got.bOut],
          [want.aOut, want.bOut],
          "the forecast with Noble presence and Leader fallen",
        );
        assert.notEqual(got.aOut, duelForecast(request).aOut, "not the forecast without them");
      });
    },
    { displayName: "Fudge Combat & Wounds: the table's Guts circumstances" },
  );
}
