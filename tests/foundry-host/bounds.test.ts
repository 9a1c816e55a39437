// @vitest-environment happy-dom
/**
 * Issue #25 (2): everything a player can store is bounded. The server refuses a player's write
 * past a bound (the data models: ArrayField `max`, a `validate` on strings, `validateJoint` on a
 * track state); a flooded log in his actor's flags (no data model) costs the GM's next Apply one
 * small write; stored data over a bound (from before the bounds) is clamped by the world
 * migration, which reports what it cut. The figures are the issue's: 2,000 pending Guts failures,
 * a 20,000-record wound log.
 */
import { describe, expect, it } from "vitest";
import { table, actorOn, type Table } from "./table";
import { gmAndPlayer } from "./index";
import { MIGRATION_SETTING, MIGRATION_VERSION, SYSTEM_ID } from "../../src/system/registry";
import { STORE_BOUNDS } from "../../src/system/bounds";
import { CARD_LIMITS } from "../../src/system/card-limits";
import { WOUND_LOG_LIMIT, woundLogOf } from "../../src/system/actor-logs";
import { GUTS_PENDING_MAX } from "../../src/rules/miniatures";
import { plainActor } from "../../src/foundry/bridge";

type Rec = Record<string, unknown>;

const pending = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reason: "newWoundLevel", sinceTurn: i, lastTurn: i, effect: 1 }));

/** `n` well-formed wound records, as an owner may write them into his actor's flags. */
function floodLog(n: number, by: string): Rec {
  const log: Rec = {};
  for (let i = 0; i < n; i++) {
    const messageId = `flood${String(i).padStart(11, "0")}`;
    log[messageId] = {
      messageId,
      by,
      at: i + 1,
      posted: i + 1,
      before: null,
      after: null,
      fudgePointSpent: false,
      undone: true,
      undoneBy: by,
    };
  }
  return log;
}

async function miniatureTable(): Promise<Table> {
  return table({
    seed: (world) => {
      for (const a of world.server.db.Actor.values()) {
        a.type = "miniature";
        a.system = {};
      }
    },
  });
}

const serverActor = (t: Table, id: string) => t.world.server.db.Actor.get(id)! as Rec & { system: Rec; flags?: Rec };

describe("the server refuses a player's write past a bound", () => {
  it(`2,000 pending Guts failures on his own miniature are refused; ${GUTS_PENDING_MAX} are stored`, async () => {
    const t = await miniatureTable();
    const hero = actorOn(t.player, t.hero);
    await expect(
      t.player.run(() => hero.update({ "system.gutsState.pending": pending(2000) } as never)),
    ).rejects.toThrow(/more than 16 elements/);
    expect((serverActor(t, t.hero).system.gutsState as { pending?: unknown[] } | undefined)?.pending ?? []).toEqual([]);
    await t.player.run(() => hero.update({ "system.gutsState.pending": pending(GUTS_PENDING_MAX) } as never));
    expect((serverActor(t, t.hero).system.gutsState as { pending: unknown[] }).pending).toHaveLength(GUTS_PENDING_MAX);
  });

  it("notes past 100,000 characters, a 13th custom level, a long label and a 25,000-character track state are refused", async () => {
    const t = await table();
    const hero = actorOn(t.player, t.hero);
    const refused = async (update: Rec, why: RegExp) =>
      expect(t.player.run(() => hero.update(update as never))).rejects.toThrow(why);
    await refused({ "system.notes": "a".repeat(STORE_BOUNDS.richText + 1) }, /at most 100000 characters/);
    await refused(
      { "system.woundTrack.customLevels": Array.from({ length: 13 }, (_, i) => ({ key: `l${i}`, label: "L" })) },
      /more than 12 elements/,
    );
    await refused({ "system.woundTrack.label": "x".repeat(201) }, /at most 200 characters/);
    await refused({ "system.woundTrack.state": { junk: "x".repeat(25_000) } }, /woundTrack\.state: \d+ characters/);
    // Within the bounds, the same fields are stored.
    const note = `<p>${"a".repeat(STORE_BOUNDS.richText - 7)}</p>`;
    await t.player.run(() => hero.update({ "system.notes": note } as never));
    expect(serverActor(t, t.hero).system.notes).toBe(note);
  });

  it("a weapon's skill past 200 characters is refused", async () => {
    const t = await table();
    const hero = actorOn(t.player, t.hero);
    await expect(
      t.player.run(() =>
        hero.createEmbeddedDocuments("Item", [
          { name: "Sword", type: "weapon", system: { skill: "s".repeat(201) } },
        ] as never),
      ),
    ).rejects.toThrow(/at most 200 characters/);
  });
});

describe("a card a player posts is bounded by its data model", () => {
  it("a roll card with 65 dice or 65 Willpower dice is refused; an attack card with 17 targets too", async () => {
    const t = await table();
    const post = (type: string, system: Rec) =>
      t.player.run(() => ChatMessage.create({ type, content: "", system } as never));
    const before = t.world.server.db.ChatMessage.size;
    await expect(post("rollCard", { dice: Array(65).fill(0) })).rejects.toThrow(/more than 64 elements/);
    await expect(post("rollCard", { willpowerDice: Array(65).fill(0) })).rejects.toThrow(/more than 64 elements/);
    await expect(
      post("attackCard", { targets: Array.from({ length: 17 }, (_, i) => ({ actorId: `Actor.a${i}` })) }),
    ).rejects.toThrow(/more than 16 elements/);
    expect(t.world.server.db.ChatMessage.size).toBe(before);
    await post("rollCard", { dice: [1, 0, 0, -1], willpowerDice: [0, 0, 0, 0] });
    expect(t.world.server.db.ChatMessage.size).toBe(before + 1);
  });
});

describe("a flooded wound log in an owner's flags (no data model) costs the GM's next Apply one small write", () => {
  it("20,000 forged records on Leroy: the GM's Apply rewrites the log whole to 40 records", async () => {
    const t = await table();
    const chat = await import("../../src/foundry/chat");
    // The player writes his own character's flags: the server takes any size there.
    await t.player.run(() =>
      actorOn(t.player, t.hero).update({
        flags: { "fudge-wounds": { woundLog: floodLog(20_000, t.ids.player) } },
      } as never),
    );
    await t.world.settle();
    expect(Object.keys((serverActor(t, t.hero).flags!["fudge-wounds"] as Rec).woundLog as Rec)).toHaveLength(20_000);
    // Theodora (the GM's) attacks Leroy until a card wounds him; the GM applies it.
    const [weapon] = await t.gm.run(() =>
      actorOn(t.gm, t.foe).createEmbeddedDocuments("Item", [
        { name: "Club", type: "weapon", system: { equipped: true, size: "large" } },
      ] as never),
    );
    t.gm.target(t.gm.game.scenes.get(t.scene)!.tokens.get(t.heroToken)!);
    let id = "";
    for (let tries = 0; tries < 40 && !id; tries++) {
      const before = new Set(t.gm.game.messages.contents.map((m) => m.id));
      t.world.dice.queue(1, 1, 1, 1);
      await t.gm.run(() => chat.startAttackFlow(actorOn(t.gm, t.foe), String(weapon.id), { fastForward: true }));
      await t.world.settle();
      const msg = t.gm.game.messages.contents.find((m) => !before.has(m.id) && m.type === "attackCard")!;
      const target = (
        msg.system as unknown as { targets: { defend: string; resolution: { wound?: unknown } | null }[] }
      ).targets[0];
      if (target.defend === "pending") {
        t.world.dice.queue(-1, -1, -1, -1);
        await t.gm.run(() => chat.clickCardAction(msg as never, "defend", `Actor.${t.hero}`, false, false));
        await t.world.settle();
      }
      const res = (msg.system as unknown as { targets: { resolution: { wound?: unknown } | null }[] }).targets[0]
        .resolution;
      if (res?.wound !== null && res?.wound !== undefined) id = String(msg.id);
    }
    expect(id).not.toBe("");
    const requests = t.world.server.requests.length;
    await t.gm.run(() =>
      chat.clickCardAction(t.gm.game.messages.get(id) as never, "apply", `Actor.${t.hero}`, false, false),
    );
    await t.world.settle();
    const writes = t.world.server.requests
      .slice(requests)
      .filter((r) => r.documentName === "Actor" && r.action === "update" && r.data.some((d) => d._id === t.hero));
    expect(writes).toHaveLength(1);
    expect(JSON.stringify(writes[0].data).length).toBeLessThan(30_000);
    const log = woundLogOf(t.gm.run(() => plainActor(actorOn(t.gm, t.hero))));
    expect(log).toHaveLength(WOUND_LOG_LIMIT);
    expect(log.map((r) => r.messageId)).toContain(id);
    expect(Object.keys((serverActor(t, t.hero).flags!["fudge-wounds"] as Rec).woundLog as Rec)).toHaveLength(
      WOUND_LOG_LIMIT,
    );
    expect(t.world.errors).toEqual([]);
    // The forced replacement is the running core's (v14: _replace, no legacy `==` key).
    expect(t.world.deprecations).toEqual([]);
  });
});

describe("the world migration clamps stored data over a bound and reports it", () => {
  it("2,000 pending failures, a 20,000-record log, a 150,000-character note and a 40-target card are cut to their bounds", async () => {
    let mini = "";
    let hero = "";
    let card = "";
    const { world, gm } = await gmAndPlayer({
      seed: (w, ids) => {
        mini = w.server.seed("Actor", {
          name: "Yanni",
          type: "miniature",
          ownership: { default: 0, [ids.player]: 3 },
          system: { gutsState: { pending: pending(2000), effect: 1 } },
          items: [],
          effects: [],
        });
        hero = w.server.seed("Actor", {
          name: "Leroy",
          type: "character",
          ownership: { default: 0, [ids.player]: 3 },
          system: { notes: "n".repeat(150_000) },
          flags: { "fudge-wounds": { woundLog: floodLog(20_000, ids.player) } },
          items: [],
          effects: [],
        });
        card = w.server.seed("ChatMessage", {
          type: "attackCard",
          author: ids.player,
          content: "",
          system: {
            preset: "fudge",
            userId: ids.player,
            targets: Array.from({ length: 40 }, (_, i) => ({ actorId: `Actor.fake${i}`, name: `Fake ${i}` })),
          },
        });
      },
    });
    await world.settle();
    const stored = (name: string, id: string) => world.server.db[name].get(id)! as Rec & { system: Rec; flags?: Rec };
    const kept = (stored("Actor", mini).system.gutsState as { pending: { sinceTurn: number }[] }).pending;
    expect(kept).toHaveLength(GUTS_PENDING_MAX);
    expect(kept[kept.length - 1].sinceTurn).toBe(1999);
    const notes = stored("Actor", hero).system.notes as string;
    expect(notes.length).toBeLessThanOrEqual(STORE_BOUNDS.richText);
    expect(notes.length).toBeGreaterThan(STORE_BOUNDS.richText - 1_100);
    expect(notes).toMatch(/^<p>n+<\/p>$/);
    const scope = stored("Actor", hero).flags!["fudge-wounds"] as Rec;
    expect(Object.keys(scope.woundLog as Rec)).toHaveLength(WOUND_LOG_LIMIT);
    expect((scope.logHorizon as Rec).woundLog).toBe(20_000 - WOUND_LOG_LIMIT);
    expect((stored("ChatMessage", card).system.targets as unknown[]).length).toBe(CARD_LIMITS.targets);
    // Every client loads them now, and the GM read how many documents were cut.
    expect(gm.game.actors.get(mini)).toBeDefined();
    expect(gm.game.messages.get(card)).toBeDefined();
    expect(gm.notifications.map((n) => n.message).join(" ")).toMatch(/3 documents held more than the system keeps/);
    expect(gm.run(() => game.settings!.get(SYSTEM_ID as never, MIGRATION_SETTING as never))).toBe(MIGRATION_VERSION);
    // A second run has nothing left to cut.
    await gm.run(() => game.settings!.set(SYSTEM_ID as never, MIGRATION_SETTING as never, 5 as never));
    const { migrateWorld } = await import("../../src/foundry/migration");
    const report = await gm.run(() => migrateWorld());
    expect(report?.clamped).toEqual({});
    expect(report?.failed).toEqual([]);
    // The migration's writes are in the running core's terms (v14: _replace, no legacy `==` key).
    expect(world.deprecations).toEqual([]);
  }, 120_000);
});
