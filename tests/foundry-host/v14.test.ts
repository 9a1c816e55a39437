// @vitest-environment happy-dom
/**
 * v14-ready paths (FOUNDRY-V13.md "v14"): taken when game.release.generation >= 14, v13 otherwise.
 * The whole host suite runs as 13 and as 14 (vitest.config.ts); these read the project's generation.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { diffWithDeletions } from "../../src/system/migrate";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { ForcedReplacement, _del, _replace } from "./utils";
import { forCore, legacyUpdateKeys } from "../../src/system/updates";
import { table, actorOn, armHero } from "./table";
import { defaultGeneration } from "./world";

const generation = defaultGeneration();

describe(`Foundry generation ${generation}`, () => {
  it("status effects are registered in the shape this core has (array in v13, record in v14) and toggle", async () => {
    const t = await table();
    const list = t.gm.run(() => CONFIG.statusEffects) as unknown;
    expect(Array.isArray(list)).toBe(generation < 14);
    const ids = Array.isArray(list) ? (list as { id: string }[]).map((e) => e.id) : Object.keys(list as object);
    expect(ids.some((id) => id.startsWith("fudge-wounds."))).toBe(true);
    const foe = actorOn(t.gm, t.foe);
    for (const ref of ["hurt:0", "veryHurt:0", "incapacitated:0"])
      await t.gm.run(() => updateActor(foe, actions.toggleWoundBox(plainActor(foe), ref, worldRules(), userRef())));
    await t.world.settle();
    expect([...foe.statuses].some((s) => s.startsWith("fudge-wounds."))).toBe(true);
  });

  it("a new track state replaces the stored one: v14's _replace operator, v13's -= deletions", async () => {
    const t = await table();
    const foe = actorOn(t.gm, t.foe);
    await t.gm.run(() => updateActor(foe, actions.toggleWoundBox(plainActor(foe), "hurt:0", worldRules(), userRef())));
    await t.gm.run(() => updateActor(foe, actions.resetTrack(plainActor(foe), userRef())));
    const last = t.world.server.requests.filter((r) => r.documentName === "Actor").at(-1)!;
    const state = (last.data[0] as { system: { woundTrack: { state: unknown } } }).system.woundTrack.state;
    expect(state instanceof ForcedReplacement).toBe(generation >= 14);
    expect(t.world.server.db.Actor.get(t.foe)!.system).toMatchObject({ woundTrack: { state: null } });
  });

  it("the roll mode: core.rollMode with applyRollMode (v13), core.messageMode with applyMode (v14)", async () => {
    const t = await table();
    await t.player.run(() =>
      generation >= 14
        ? game.settings!.set("core", "messageMode" as never, "gm" as never)
        : game.settings!.set("core", "rollMode", "gmroll"),
    );
    const app = (await t.player.run(() =>
      (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<{ element: HTMLElement }> }).render({
        force: true,
      }),
    )) as { element: HTMLElement };
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    expect((t.gm.game.messages.contents.at(-1) as unknown as { whisper: string[] }).whisper).toEqual([t.ids.gm]);
    // The v14 path is taken whole: no deprecated setting or method on the way.
    expect(t.world.deprecations).toEqual([]);
  });

  it("an attack, its defence, Apply and Undo write no deprecated update key and call no deprecated path", async () => {
    const t = await table();
    const weaponId = await armHero(t);
    const { startAttackFlow } = await import("../../src/foundry/chat");
    t.world.dice.queue(1, 1, 1, 1, -1, -1, -1, -1);
    await t.player.run(() => startAttackFlow(actorOn(t.player, t.hero), weaponId, { fastForward: true }));
    await t.world.settle();
    const id = t.gm.game.messages.contents.at(-1)!.id!;
    for (const action of ["defend", "apply", "undo"]) {
      t.gm.click(t.gm.chatLog.get(id)!.querySelector(`[data-action="${action}"]`));
      await t.world.settle();
    }
    expect(t.world.errors).toEqual([]);
    expect(t.world.deprecations).toEqual([]);
  });
});

describe("one translation of update keys (src/system/updates.ts forCore)", () => {
  const ops = { del: _del, replace: _replace };
  it("-=key in v13, the ForcedDeletion operator in v14", () => {
    expect(diffWithDeletions({ a: 1, b: 2 }, { a: 1 })).toEqual({ "-=b": null });
    const d = diffWithDeletions({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 2 } });
    expect(forCore(d, null)).toEqual({ b: { "-=d": null } });
    expect(forCore(d, ops)).toEqual({ b: { d: _del } });
  });
  it("==key becomes _replace(value) at any depth; arrays and operators are left alone", () => {
    const u = { system: { "==gutsState": { pending: [{ a: 1 }] } }, flags: { s: { "==log": { x: 1 }, "-=y": null } } };
    const v14 = forCore(u, ops) as unknown as {
      system: { gutsState: ForcedReplacement };
      flags: { s: Record<string, unknown> };
    };
    expect(v14.system.gutsState).toBeInstanceOf(ForcedReplacement);
    expect(v14.system.gutsState.value).toEqual({ pending: [{ a: 1 }] });
    expect(v14.flags.s.y).toBe(_del);
    expect(legacyUpdateKeys(v14)).toEqual([]);
    expect(legacyUpdateKeys(u)).toEqual(["==gutsState", "==log", "-=y"]);
    expect(forCore(u, null)).toBe(u);
  });
});
