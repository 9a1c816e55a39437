// @vitest-environment happy-dom
/**
 * Migration as Foundry v13 runs it: migrateData in place before cleaning, invalid documents
 * read through getInvalid and repaired, only changed fields written, failures reported, the
 * version bumped only when everything migrated. Fixtures: every earlier stored shape.
 */
import { describe, expect, it } from "vitest";
import { MIGRATION_SETTING, MIGRATION_VERSION, SYSTEM_ID } from "../../src/system/registry";
import { STORED_SHAPES, type StoredShape } from "./fixtures";
import { ROLES, startWorld, type World } from "./index";
import type { Client } from "./world";
import { experienceOf } from "../../src/system/experience";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { withGmRecordsOf } from "../../src/foundry/gm-records";

const at = (o: unknown, path: string) =>
  path.split(".").reduce<unknown>((x, k) => (x == null ? undefined : (x as Record<string, unknown>)[k]), o);

async function worldWith(shapes: StoredShape[], opts: { latency?: World["latency"] } = {}) {
  const world = await startWorld(opts);
  const gmId = world.addUser("GM", ROLES.GAMEMASTER);
  const playerId = world.addUser("Player", ROLES.PLAYER);
  const ids = shapes.map((s, i) => {
    const items = (s.items ?? []).map((it, j) => ({
      _id: `item${String(i).padStart(4, "0")}${String(j).padStart(8, "0")}`,
      ...it,
    }));
    return world.server.seed(s.documentName, {
      _id: `doc${String(i).padStart(13, "0")}`,
      ...s.source,
      ownership: { default: 0, [playerId]: 3 },
      ...(s.documentName === "Actor" ? { items } : {}),
    });
  });
  return { world, gmId, playerId, ids };
}
const collection = (c: Client, s: StoredShape) => (s.documentName === "Actor" ? c.game.actors : c.game.items);
const version = (c: Client) => c.run(() => game.settings!.get(SYSTEM_ID as never, MIGRATION_SETTING as never));

describe("migrateData runs in place, before cleaning (v13 keeps `source`, ignores the return)", () => {
  for (const [i, shape] of STORED_SHAPES.entries()) {
    if (shape.invalid) continue;
    it(shape.label, async () => {
      const { world, gmId, ids } = await worldWith([shape]);
      const gm = await world.connect(gmId);
      const doc = collection(gm, shape).get(ids[0]);
      expect(doc, `${shape.label} loads`).toBeDefined();
      const sys = doc!.toObject().system;
      for (const [path, v] of Object.entries(shape.expect)) expect(at(sys, path), path).toEqual(v);
      for (const path of shape.gone ?? []) expect(at(sys, path), path).toBeUndefined();
      // Embedded items of old shapes load too (migrated in place, not dropped).
      expect((doc as unknown as { items?: Map<string, unknown> }).items?.size ?? 0).toBe(shape.items?.length ?? 0);
      void i;
    });
  }
});

describe("the world migration", () => {
  it("repairs invalid documents through getInvalid, reports the unrepairable one, and keeps the version", async () => {
    const { world, gmId, ids } = await worldWith(STORED_SHAPES);
    const gm = await world.connect(gmId);
    await world.settle();
    for (const [i, s] of STORED_SHAPES.entries()) {
      if (!s.invalid || s.unrepairable) continue;
      const stored = world.server.db[s.documentName].get(ids[i])!;
      for (const [path, v] of Object.entries(s.expect))
        expect(at(stored.system, path), `${s.label}: ${path}`).toEqual(v);
    }
    const vehicle = STORED_SHAPES.findIndex((s) => s.unrepairable);
    expect(gm.game.actors.invalidDocumentIds.has(ids[vehicle])).toBe(true);
    expect(version(gm)).not.toBe(MIGRATION_VERSION);
    expect(
      gm.notifications
        .filter((n) => n.type === "warn")
        .map((n) => n.message)
        .join(" "),
    ).toMatch(/1 documents could not be migrated/);
    // A client connecting afterwards loads the repaired documents.
    const { playerId } = {
      playerId: [...world.server.db.User.values()].find((u) => u.name === "Player")!._id as string,
    };
    const later = await world.connect(playerId);
    for (const [i, s] of STORED_SHAPES.entries())
      if (s.invalid && !s.unrepairable) expect(collection(later, s).get(ids[i]), s.label).toBeDefined();
  });

  it("version 3 → 4: notes and embedded items' descriptions load as HTML (text escaped); the world migration has nothing left to write, twice", async () => {
    const shapes = STORED_SHAPES.filter((s) => s.label.startsWith("version 3"));
    expect(shapes.length).toBeGreaterThanOrEqual(3);
    const { world, gmId, ids } = await worldWith(shapes);
    const gm = await world.connect(gmId);
    await world.settle();
    const hero = gm.game.actors.get(ids[0])!.toObject() as unknown as {
      system: { notes: string };
      items: { system: { description: string } }[];
    };
    expect(hero.system.notes).toBe(shapes[0].expect.notes);
    expect(hero.items[0].system.description).toBe("<p>Range 20 &lt; 30</p>");
    expect(version(gm)).toBe(MIGRATION_VERSION);
    // migrateData converted them in memory (in place, every load): no document write was needed, and a second run writes nothing either.
    const writes = () =>
      world.server.journal.filter((j) => j.documentName !== "Setting" && j.documentName !== "User").length;
    expect(writes()).toBe(0);
    await gm.run(() => game.settings!.set(SYSTEM_ID as never, MIGRATION_SETTING as never, 3 as never));
    const { migrateWorld } = await import("../../src/foundry/migration");
    const report = await gm.run(() => migrateWorld());
    await world.settle();
    expect(report?.failed).toEqual([]);
    expect(writes()).toBe(0);
  });

  it("bumps the version when everything migrated; the actors' wound logs hold states their tracks read (version 7)", async () => {
    const shapes = STORED_SHAPES.filter((s) => !s.unrepairable);
    const { world, gmId, ids } = await worldWith(shapes);
    // The GM's kill record of the cinematic character, written (as its log) on the 4/2/2/1/1 track.
    const cinematic = ids[shapes.findIndex((s) => s.migratedFlags)];
    const log = (shapes.find((s) => s.migratedFlags)!.source.flags as Record<string, any>)["fudge-wounds"].woundLog;
    const oldBefore = structuredClone(log.cinematicCard001.after);
    world.server.settings.set(`${SYSTEM_ID}.gmRecords`, {
      [`Actor.${cinematic}`]: {
        killedFrom: { before: oldBefore, after: { dead: true }, by: gmId, at: 1_700_000_000_001 },
      },
    });
    const gm = await world.connect(gmId);
    await world.settle();
    expect(version(gm)).toBe(MIGRATION_VERSION);
    const record = (world.server.settings.get(`${SYSTEM_ID}.gmRecords`) as Record<string, any>)[`Actor.${cinematic}`];
    expect(record.killedFrom.before.marks.veryHurt).toEqual([{ level: "veryHurt" }]);
    expect(record.killedFrom.before.marks.incapacitated).toEqual([{ level: "hurt" }]);
    const logged = shapes.map((s, i) => [s, ids[i]] as const).filter(([s]) => s.migratedFlags);
    expect(logged.length).toBeGreaterThan(0);
    for (const [s, id] of logged) {
      const flags = (world.server.db.Actor.get(id)!.flags as Record<string, unknown>)["fudge-wounds"];
      for (const [path, v] of Object.entries(s.migratedFlags!))
        expect(at(flags, path), `${s.label}: ${path}`).toEqual(v);
    }
  });

  it("moves EP awards from the actors' logs into the GM's record once, keeping the EP each held (version 8)", async () => {
    const shapes = STORED_SHAPES.filter((s) => !s.unrepairable);
    const { world, gmId, playerId, ids } = await worldWith(shapes);
    const gm = await world.connect(gmId);
    await world.settle();
    expect(version(gm)).toBe(MIGRATION_VERSION);
    const moved = shapes.map((s, i) => [s, ids[i]] as const).filter(([s]) => s.migratedExperience);
    expect(moved.length).toBeGreaterThan(0);
    const records = world.server.settings.get(`${SYSTEM_ID}.gmRecords`) as Record<string, any>;
    const player = await world.connect(playerId);
    await world.settle();
    for (const [s, id] of moved) {
      const system = world.server.db.Actor.get(id)!.system as Record<string, any>;
      expect(system.experience, s.label).toEqual(s.migratedExperience!.system);
      expect(records[`Actor.${id}`].experience, s.label).toEqual(s.migratedExperience!.record);
      // The EP the version 7 actor held, now read from the GM's record less the spends, on every client.
      const ep = player.run(
        () => experienceOf(withGmRecordsOf(plainActor(player.game.actors.get(id)! as never)), worldRules()).ep,
      );
      expect(ep, s.label).toBe(at(s.source.system, "experience.ep"));
    }
    // Run again (the version set back): nothing left to move, nothing written.
    const before = JSON.stringify(world.server.settings.get(`${SYSTEM_ID}.gmRecords`));
    await gm.run(() => game.settings!.set(SYSTEM_ID as never, MIGRATION_SETTING as never, 7 as never));
    const { migrateWorld } = await import("../../src/foundry/migration");
    const report = await gm.run(() => migrateWorld());
    await world.settle();
    expect(report?.failed).toEqual([]);
    expect(report?.updated.filter((u) => u.endsWith("(experience)"))).toEqual([]);
    expect(JSON.stringify(world.server.settings.get(`${SYSTEM_ID}.gmRecords`))).toBe(before);
  });

  it("writes only what changes: a player's edit made while it runs is kept", async () => {
    const shapes = STORED_SHAPES.filter(
      (s) => s.documentName === "Actor" && ["character", "npc"].includes(String(s.source.type)),
    );
    // The GM's round trips are slow; the player's are fast.
    const { world, gmId, playerId, ids } = await worldWith(shapes, { latency: (_a, c) => (c?.user?.isGM ? 30 : 1) });
    const gm = world.connect(gmId);
    await new Promise((r) => setTimeout(r, 5));
    const player = await world.connect(playerId);
    const edited: string[] = [];
    await player.run(async () => {
      for (const id of ids) {
        const a = player.game.actors.get(id);
        if (!a) continue;
        await a.update({ "system.fudgePoints": 7 } as never);
        edited.push(id);
      }
    });
    await gm;
    await world.settle();
    // Every actor the player could edit (the invalid one was not loaded on his client).
    expect(edited.length).toBeGreaterThanOrEqual(3);
    for (const id of edited) {
      const stored = world.server.db.Actor.get(id)!;
      expect((stored.system as { fudgePoints: number }).fudgePoints, String(stored.name)).toBe(7);
    }
  });
});
